#pragma once
// Run control: the optimization loop on a suite folder (strata-cli bench in the app), started on
// the current host, watched (the loop's log as it happens, "k of N tasks" as they finish) and
// cancelled. A cancel lets every worker finish the step it is in and store it, so nothing
// finished is lost and a later run resumes. The results file is written next to the candidates
// and handed on (the window shows it in the Suite dock).
#include "optimize/SuiteBench.h"

#include <QFuture>
#include <QWidget>
#include <atomic>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace strata {

class PluginRegistry;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget *parent = nullptr);
    ~RunPanel() override;  // cancels and waits for a running suite

    void setPlugins(const PluginRegistry *plugins) { m_plugins = plugins; }
    void setAgentFactory(optimize::AgentFactory factory) { m_agentFactory = std::move(factory); }
    void setHostName(const QString &host) { m_host = host; }
    void setStorePath(const QString &path) { m_storePath = path; }

    // Starts a run of the suite folder with the panel's settings. Empty on success, else why not.
    QString start();
    void cancel();
    bool isRunning() const { return m_running; }
    void waitForFinished();  // tests and shutdown

    QLineEdit *suiteField() const { return m_suite; }
    QSpinBox *iterationsBox() const { return m_iterations; }
    QSpinBox *candidatesBox() const { return m_candidates; }
    QSpinBox *jobsBox() const { return m_jobs; }
    QCheckBox *checksOnlyBox() const { return m_checksOnly; }
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPlainTextEdit *log() const { return m_log; }
    QString statusText() const;

signals:
    void finished(const QString &resultsPath);  // written; empty when the run failed to start or write
    void failed(const QString &message);

private:
    void append(const QString &line);
    void onFinished(const Expected<optimize::SuiteOutcome> &outcome);
    void setRunning(bool running);

    QLineEdit *m_suite;
    QSpinBox *m_iterations;
    QSpinBox *m_candidates;
    QSpinBox *m_jobs;
    QCheckBox *m_checksOnly;
    QPushButton *m_start;
    QPushButton *m_cancelButton;
    QPlainTextEdit *m_log;
    QLabel *m_status;
    const PluginRegistry *m_plugins = nullptr;
    optimize::AgentFactory m_agentFactory;
    QString m_host = QStringLiteral("local");
    QString m_storePath;
    QString m_workDir;
    std::atomic_bool m_cancel = false;
    bool m_running = false;
    int m_tasksDone = 0;
    QFuture<void> m_future;
};

} // namespace strata
