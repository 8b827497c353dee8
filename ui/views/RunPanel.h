#pragma once
// Run control: the optimization loop on a suite folder (strata-cli bench in the app), started on
// the current host, watched (the loop's log as it happens, "k of N tasks" as they finish) and
// cancelled. A cancel lets every worker finish the step it is in and store it, so nothing
// finished is lost and a later run resumes. The results file is written next to the candidates
// and handed on (the window shows it in the Suite dock). With "Ask me for rewrites" a person is
// one of the rewrite providers: each prompt is shown with a copy button, and the answer pasted
// back goes to the waiting loop.
#include "optimize/SuiteBench.h"

#include <QFuture>
#include <QWidget>
#include <atomic>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QTimer;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace strata {

class LlmSettings;
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
    // The endpoints the LLM box offers (Settings > LLM Endpoints); null: none.
    void setLlmSettings(LlmSettings *settings);

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
    QCheckBox *manualBox() const { return m_manual; }
    QComboBox *llmBox() const { return m_llm; }
    QPlainTextEdit *promptView() const { return m_prompt; }
    QPlainTextEdit *answerEdit() const { return m_answer; }
    QPushButton *copyPromptButton() const { return m_copyPrompt; }
    QPushButton *submitAnswerButton() const { return m_submitAnswer; }
    QString pendingRequestFolder() const { return m_pendingFolder; }  // empty: no prompt waits
    // Writes the answer for the waiting prompt. Empty on success, else why not.
    QString submitAnswer(const QString &answer);
    QPushButton *startButton() const { return m_start; }
    QPushButton *cancelButton() const { return m_cancelButton; }
    QPlainTextEdit *log() const { return m_log; }
    QString statusText() const;

signals:
    void rewriteRequested(const QString &promptText);  // a prompt waits for a person's answer
    // The run so far: finished tasks with their outcomes, the others "pending" (a live view).
    void partialResults(const strata::optimize::SuiteOutcome &suite);
    void finished(const QString &resultsPath);  // written; empty when the run failed to start or write
    void failed(const QString &message);

private:
    void append(const QString &line);
    void onFinished(const Expected<optimize::SuiteOutcome> &outcome);
    void setRunning(bool running);
    QWidget *buildManualBox();
    void pollManualRequests();
    void refreshLlmEndpoints();

    QLineEdit *m_suite;
    QSpinBox *m_iterations;
    QSpinBox *m_candidates;
    QSpinBox *m_jobs;
    QCheckBox *m_checksOnly;
    QCheckBox *m_manual;
    QComboBox *m_llm;
    LlmSettings *m_llmSettings = nullptr;
    QGroupBox *m_request = nullptr;
    QPlainTextEdit *m_prompt = nullptr;
    QPlainTextEdit *m_answer = nullptr;
    QPushButton *m_copyPrompt = nullptr;
    QPushButton *m_submitAnswer = nullptr;
    QTimer *m_poll;
    QString m_pendingFolder;
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
    optimize::SuiteOutcome m_partial;  // the live view of the running suite
    QFuture<void> m_future;
};

} // namespace strata
