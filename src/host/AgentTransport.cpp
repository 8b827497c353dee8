#include "host/AgentTransport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace strata {

namespace {

constexpr int kStartTimeoutMs = 15000;
constexpr int kStopGraceMs = 3000;
constexpr qsizetype kStderrTailBytes = 4096;

QString exitDescription(int exitCode, QProcess::ExitStatus status)
{
    return status == QProcess::CrashExit ? QStringLiteral("the agent was killed or crashed")
                                         : QStringLiteral("the agent exited with code %1").arg(exitCode);
}

// The agent an installed Strata carries beside its binaries (packaging/CMakeLists.txt), or empty
// when the binary runs from a build tree.
QString installedAgentDir()
{
    const QString installed = QCoreApplication::applicationDirPath() + QStringLiteral("/../share/strata/agent");
    if (QFileInfo::exists(installed + QStringLiteral("/strata_agent/__main__.py")))
        return QDir(installed).canonicalPath();
    return {};
}

} // namespace

ProcessTransport::ProcessTransport(QObject *parent)
    : AgentTransport(parent)
{
}

ProcessTransport::~ProcessTransport()
{
    if (m_process) {
        m_process->disconnect(this);   // no finished() into a half-destroyed object
        if (m_process->state() != QProcess::NotRunning) {
            m_process->kill();
            m_process->waitForFinished(kStopGraceMs);
        }
    }
}

void ProcessTransport::releaseProcess()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    // The old process may be the sender of the signal we are inside; delete it later.
    m_process.release()->deleteLater();
}

bool ProcessTransport::start(QString *error)
{
    if (isRunning())
        return true;
    releaseProcess();
    m_stdoutBuffer.clear();
    m_stderrTail.clear();
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(program());
    m_process->setArguments(arguments());
    m_process->setProcessEnvironment(environment());
    connect(m_process.get(), &QProcess::readyReadStandardOutput, this, &ProcessTransport::onStdout);
    connect(m_process.get(), &QProcess::readyReadStandardError, this, &ProcessTransport::onStderr);
    connect(m_process.get(), &QProcess::finished, this, &ProcessTransport::onFinished);
    m_process->start();
    if (!m_process->waitForStarted(kStartTimeoutMs)) {
        if (error)
            *error = QStringLiteral("cannot start the agent (%1): %2").arg(describe(), m_process->errorString());
        releaseProcess();
        return false;
    }
    return true;
}

void ProcessTransport::stop()
{
    if (!isRunning())
        return;
    m_process->closeWriteChannel();   // the agent ends on EOF
    if (!m_process->waitForFinished(kStopGraceMs)) {
        m_process->kill();
        m_process->waitForFinished(kStopGraceMs);
    }
}

bool ProcessTransport::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

bool ProcessTransport::writeLine(const QByteArray &line)
{
    if (!isRunning())
        return false;
    QByteArray framed = line;
    framed.append('\n');
    return m_process->write(framed) == framed.size();
}

QString ProcessTransport::describe() const
{
    return QStringLiteral("%1: %2 %3").arg(kindLabel(), program(), arguments().join(QLatin1Char(' ')));
}

QString ProcessTransport::stderrTail() const
{
    return QString::fromUtf8(m_stderrTail).trimmed();
}

qint64 ProcessTransport::processId() const
{
    return isRunning() ? m_process->processId() : 0;
}

void ProcessTransport::onStdout()
{
    m_stdoutBuffer.append(m_process->readAllStandardOutput());
    qsizetype newline;
    while ((newline = m_stdoutBuffer.indexOf('\n')) >= 0) {
        QByteArray line = m_stdoutBuffer.left(newline);
        m_stdoutBuffer.remove(0, newline + 1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (!line.trimmed().isEmpty())
            emit lineReceived(line);
    }
}

void ProcessTransport::onStderr()
{
    m_stderrTail.append(m_process->readAllStandardError());
    if (m_stderrTail.size() > kStderrTailBytes)
        m_stderrTail = m_stderrTail.right(kStderrTailBytes);
}

void ProcessTransport::onFinished(int exitCode, QProcess::ExitStatus status)
{
    onStdout();
    onStderr();
    if (!m_stdoutBuffer.trimmed().isEmpty())   // a last line without its newline
        emit lineReceived(std::exchange(m_stdoutBuffer, {}));
    QString reason = exitDescription(exitCode, status);
    const QString tail = stderrTail();
    if (!tail.isEmpty())
        reason += QStringLiteral("; its stderr ended with:\n") + tail.right(1500);
    emit finished(reason);
}

// ---- LocalProcessTransport ----

LocalProcessTransport::LocalProcessTransport(QString python, QString agentDir, QObject *parent)
    : ProcessTransport(parent)
    , m_python(python.isEmpty() ? defaultPython() : std::move(python))
    , m_agentDir(agentDir.isEmpty() ? defaultAgentDir() : std::move(agentDir))
{
}

QString LocalProcessTransport::defaultPython()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_PYTHON");
    if (!fromEnv.isEmpty())
        return fromEnv;
    // An installed Strata never reaches back into the checkout it was built from: its python is
    // $STRATA_PYTHON or the python3 on PATH.
    if (!installedAgentDir().isEmpty())
        return QStringLiteral("python3");
    const QString venv = QStringLiteral(STRATA_SOURCE_DIR "/.venv/bin/python");
    if (QFileInfo(venv).isExecutable())
        return venv;
    return QStringLiteral("python3");
}

QString LocalProcessTransport::defaultAgentDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_AGENT_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString installed = installedAgentDir();
    return installed.isEmpty() ? QStringLiteral(STRATA_SOURCE_DIR "/agent") : installed;
}

QString LocalProcessTransport::describe() const
{
    return ProcessTransport::describe() + QStringLiteral(" (agent: %1)").arg(m_agentDir);
}

QStringList LocalProcessTransport::arguments() const
{
    return {QStringLiteral("-m"), QStringLiteral("strata_agent"), QStringLiteral("--stdio")};
}

QProcessEnvironment LocalProcessTransport::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString existing = env.value(QStringLiteral("PYTHONPATH"));
    env.insert(QStringLiteral("PYTHONPATH"),
               existing.isEmpty() ? m_agentDir : m_agentDir + QDir::listSeparator() + existing);
    env.insert(QStringLiteral("PYTHONUNBUFFERED"), QStringLiteral("1"));
    return env;
}

// ---- SshTransport ----

SshTransport::SshTransport(QString host, QString remotePython, QStringList sshOptions, QObject *parent)
    : ProcessTransport(parent)
    , m_host(std::move(host))
    , m_remotePython(std::move(remotePython))
    , m_sshOptions(std::move(sshOptions))
{
}

QStringList SshTransport::arguments() const
{
    QStringList args{QStringLiteral("-T"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes")};
    args += m_sshOptions;
    args += {m_host, m_remotePython, QStringLiteral("-m"), QStringLiteral("strata_agent"), QStringLiteral("--stdio")};
    return args;
}

} // namespace strata
