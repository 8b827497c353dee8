#pragma once
// How HostConnection reaches an agent: a byte pipe carrying one JSON message per line. The local
// transport runs `python -m strata_agent --stdio`; the SSH transport runs the same over ssh.
#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <memory>

namespace strata {

class AgentTransport : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    ~AgentTransport() override = default;

    // Starts the agent and waits until it runs (not until it answers). Restartable after finished().
    virtual bool start(QString *error) = 0;
    // Ends the agent: closes its stdin, waits briefly, then kills it. Emits finished() if it ran.
    virtual void stop() = 0;
    virtual bool isRunning() const = 0;
    // Sends one message; a newline is appended. False when the agent is not running.
    virtual bool writeLine(const QByteArray &line) = 0;
    virtual QString describe() const = 0;
    // The last lines the agent wrote to stderr (tracebacks), for error messages.
    virtual QString stderrTail() const { return {}; }

signals:
    void lineReceived(const QByteArray &line);   // one stdout line, newline stripped
    void finished(const QString &reason);        // the agent is gone: exit status + stderr tail
};

// An agent that is a child process talking over stdin/stdout; subclasses say which command.
class ProcessTransport : public AgentTransport {
    Q_OBJECT
public:
    explicit ProcessTransport(QObject *parent = nullptr);
    ~ProcessTransport() override;

    bool start(QString *error) override;
    void stop() override;
    bool isRunning() const override;
    bool writeLine(const QByteArray &line) override;
    QString describe() const override;
    QString stderrTail() const override;

    qint64 processId() const;   // 0 when not running (tests kill the agent through this)

protected:
    virtual QString program() const = 0;
    virtual QStringList arguments() const = 0;
    virtual QProcessEnvironment environment() const { return QProcessEnvironment::systemEnvironment(); }
    virtual QString kindLabel() const = 0;   // "local", "ssh"

private:
    void onStdout();
    void onStderr();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void releaseProcess();

    std::unique_ptr<QProcess> m_process;
    QByteArray m_stdoutBuffer;
    QByteArray m_stderrTail;
};

// `python -m strata_agent --stdio` on this machine.
class LocalProcessTransport : public ProcessTransport {
    Q_OBJECT
public:
    // Empty arguments pick the defaults below.
    explicit LocalProcessTransport(QString python = {}, QString agentDir = {}, QObject *parent = nullptr);

    QString python() const { return m_python; }
    QString agentDir() const { return m_agentDir; }
    // "local: PYTHON -m strata_agent --stdio (agent: DIR)": which agent runs is not in the command.
    QString describe() const override;

    // $STRATA_PYTHON, else (build tree only) <source>/.venv/bin/python when it exists, else python3.
    static QString defaultPython();
    // $STRATA_AGENT_DIR, else <exe>/../share/strata/agent when installed, else <source>/agent
    // (the folder holding the strata_agent package).
    static QString defaultAgentDir();

protected:
    QString program() const override { return m_python; }
    QStringList arguments() const override;
    QProcessEnvironment environment() const override;
    QString kindLabel() const override { return QStringLiteral("local"); }

private:
    QString m_python;
    QString m_agentDir;
};

// `ssh HOST python3 -m strata_agent --stdio`: the agent package must be importable on HOST.
// Non-interactive (BatchMode): keys or an agent must already be set up.
class SshTransport : public ProcessTransport {
    Q_OBJECT
public:
    explicit SshTransport(QString host, QString remotePython = QStringLiteral("python3"),
                          QStringList sshOptions = {}, QObject *parent = nullptr);

protected:
    QString program() const override { return QStringLiteral("ssh"); }
    QStringList arguments() const override;
    QString kindLabel() const override { return QStringLiteral("ssh ") + m_host; }

private:
    QString m_host;
    QString m_remotePython;
    QStringList m_sshOptions;
};

} // namespace strata
