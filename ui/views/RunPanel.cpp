#include "views/RunPanel.h"
#include "views/SlurmRunView.h"

#include "core/AtomicFile.h"
#include "models/LlmSettings.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ProviderSet.h"
#include "rewrite/llm/ManualProvider.h"
#include "store/Store.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QGroupBox>
#include <QGuiApplication>
#include <QTimer>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardPaths>
#include <QtConcurrent>
#include <optional>

namespace strata {

namespace {

QSpinBox *spinBox(QWidget *parent, int low, int high, int value)
{
    auto *box = new QSpinBox(parent);
    box->setRange(low, high);
    box->setValue(value);
    return box;
}

} // namespace

RunPanel::RunPanel(QWidget *parent)
    : QWidget(parent),
      m_suite(new QLineEdit(this)),
      m_iterations(spinBox(this, 1, 20, 3)),
      m_candidates(spinBox(this, 1, 20, 5)),
      m_jobs(spinBox(this, 1, 16, 1)),
      m_checksOnly(new QCheckBox(tr("Checks only: verify candidates under Triton's interpreter (no GPU, nothing timed)"), this)),
      m_manual(new QCheckBox(tr("Ask me for rewrites too: copy each prompt to any chat, paste the answer back"), this)),
      m_llm(new QComboBox(this)),
      m_start(new QPushButton(tr("&Start"), this)),
      m_cancelButton(new QPushButton(tr("&Cancel"), this)),
      m_log(new QPlainTextEdit(this)),
      m_status(new QLabel(this)),
      m_poll(new QTimer(this))
{
    m_suite->setPlaceholderText(tr("Suite folder (KernelBench-format tasks), e.g. suites/hopper-core"));
    auto *browse = new QPushButton(tr("Browse..."), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Suite folder"), m_suite->text());
        if (!dir.isEmpty())
            m_suite->setText(dir);
    });
    auto *suiteRow = new QHBoxLayout;
    suiteRow->addWidget(m_suite, 1);
    suiteRow->addWidget(browse);
    auto *form = new QFormLayout;
    form->addRow(tr("Suite"), suiteRow);
    form->addRow(tr("Rounds per task"), m_iterations);
    form->addRow(tr("Candidates per round"), m_candidates);
    form->addRow(tr("Tasks at a time"), m_jobs);
    form->addRow(QString(), m_checksOnly);
    form->addRow(tr("LLM"), m_llm);
    form->addRow(QString(), m_manual);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_status, 1);
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(20000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(buildManualBox());
    layout->addWidget(m_log, 1);
    layout->addWidget(new SlurmRunView(this));  // a suite run on Slurm: its progress, read-only
    m_poll->setInterval(500);
    connect(m_poll, &QTimer::timeout, this, &RunPanel::pollManualRequests);

    connect(m_start, &QPushButton::clicked, this, [this] {
        const QString error = start();
        if (!error.isEmpty()) {
            m_status->setText(error);
            emit failed(error);
        }
    });
    connect(m_cancelButton, &QPushButton::clicked, this, &RunPanel::cancel);
    refreshLlmEndpoints();
    setRunning(false);
    m_status->setText(tr("Idle."));
}

RunPanel::~RunPanel()
{
    // The run stops at its next step; its queued log lines and result die with this panel.
    m_cancel = true;
    m_future.waitForFinished();
}

void RunPanel::setLlmSettings(LlmSettings *settings)
{
    m_llmSettings = settings;
    if (settings)
        connect(settings, &LlmSettings::changed, this, &RunPanel::refreshLlmEndpoints);
    refreshLlmEndpoints();
}

void RunPanel::refreshLlmEndpoints()
{
    const QString current = m_llm->currentData().toString();
    const QSignalBlocker blocker(m_llm);
    m_llm->clear();
    m_llm->addItem(tr("No LLM (recipes only)"), QString());
    if (m_llmSettings)
        for (const LlmEndpoint &endpoint : m_llmSettings->endpoints())
            m_llm->addItem(endpoint.name, endpoint.name);
    m_llm->setCurrentIndex(std::max(0, m_llm->findData(current)));
}

QString RunPanel::statusText() const
{
    return m_status->text();
}

void RunPanel::setRunning(bool running)
{
    m_running = running;
    m_manual->setEnabled(!running);
    m_llm->setEnabled(!running);
    if (running) {
        m_poll->start();
    } else {
        m_poll->stop();
        m_pendingFolder.clear();
        m_request->hide();
    }
    m_start->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    m_suite->setEnabled(!running);
}

QString RunPanel::start()
{
    if (m_running)
        return tr("a run is already going");
    const QString suiteDir = QFileInfo(m_suite->text().trimmed()).absoluteFilePath();
    if (m_suite->text().trimmed().isEmpty() || !QFileInfo(suiteDir).isDir())
        return tr("%1: no such suite folder").arg(m_suite->text().trimmed());
    if (!m_agentFactory || !m_plugins)
        return tr("no host agent or backend plugin to run on");

    optimize::BenchSetup setup;
    setup.suiteDir = suiteDir;
    setup.jobs = m_jobs->value();
    setup.host = m_host;
    setup.storePath = m_storePath.isEmpty() ? defaultStorePath() : m_storePath;
    setup.interpret = m_checksOnly->isChecked();
    setup.options.maxIterations = m_iterations->value();
    setup.options.maxCandidatesPerIteration = m_candidates->value();
    setup.options.timing = !setup.interpret;
    setup.options.baselines = !setup.interpret;
    m_workDir = QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
                    .filePath(QStringLiteral("runs/") + QFileInfo(suiteDir).fileName());
    setup.options.workDir = m_workDir;
    setup.plugins = m_plugins;
    setup.agentFactory = m_agentFactory;
    // The LLM's key is looked up now, on this thread (the keyring may ask), and kept in memory.
    std::optional<rewrite::llm::ProviderConfig> llm;
    if (const QString endpoint = m_llm->currentData().toString(); !endpoint.isEmpty() && m_llmSettings) {
        Expected<rewrite::llm::ProviderConfig> config = m_llmSettings->resolved(endpoint);
        if (!config)
            return config.error().toString();
        llm = *config;
    }
    optimize::ProviderSet providers;
    providers.llm = llm;
    providers.plugins = m_plugins;  // the recipes of the task's backend
    providers.cancel = &m_cancel;
    if (m_manual->isChecked()) {
        // Prompts of an earlier run that nobody answered must not show as this run's.
        for (const QString &old : QDir(m_workDir).entryList({QStringLiteral("manual-*")}, QDir::Dirs))
            QDir(QDir(m_workDir).filePath(old)).removeRecursively();
        providers.manualRoot = m_workDir;
    }
    setup.providerFactory = optimize::providerFactory(providers);
    setup.cancel = &m_cancel;
    // The live view starts with every task pending and fills in as tasks end.
    const Expected<optimize::SuiteOutcome> pending = optimize::pendingSuite(suiteDir);
    m_partial = pending ? *pending : optimize::SuiteOutcome{};
    m_partial.device = m_host;
    setup.taskFinished = [this](int index, const optimize::TaskOutcome &outcome) {
        QMetaObject::invokeMethod(this, [this, index, outcome] {
            if (index < 0 || index >= m_partial.tasks.size())
                return;
            m_partial.tasks[index] = outcome;
            emit partialResults(m_partial);
        }, Qt::QueuedConnection);
    };
    // Worker threads report here; lines reach the log on the UI thread.
    setup.progress = [this](const QString &line) {
        QMetaObject::invokeMethod(this, [this, line] { append(line); }, Qt::QueuedConnection);
    };

    m_cancel = false;
    m_tasksDone = 0;
    m_log->clear();
    setRunning(true);
    m_status->setText(tr("Running %1 on %2 ...").arg(QFileInfo(suiteDir).fileName(), m_host));
    m_future = QtConcurrent::run([this, setup] {
        Expected<optimize::SuiteOutcome> outcome = optimize::runSuite(setup);
        QMetaObject::invokeMethod(this, [this, outcome] { onFinished(outcome); }, Qt::QueuedConnection);
    });
    return {};
}

QWidget *RunPanel::buildManualBox()
{
    m_request = new QGroupBox(tr("Rewrite request waiting for you"), this);
    m_prompt = new QPlainTextEdit(m_request);
    m_prompt->setReadOnly(true);
    m_answer = new QPlainTextEdit(m_request);
    m_answer->setPlaceholderText(tr("Paste the answer here: the whole new task file in a ```python block"));
    m_copyPrompt = new QPushButton(tr("Copy prompt"), m_request);
    m_submitAnswer = new QPushButton(tr("Submit answer"), m_request);
    connect(m_copyPrompt, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_prompt->toPlainText());
        m_status->setText(tr("Prompt copied to the clipboard."));
    });
    connect(m_submitAnswer, &QPushButton::clicked, this, [this] {
        const QString error = submitAnswer(m_answer->toPlainText());
        m_status->setText(error.isEmpty() ? tr("Answer handed to the loop.") : error);
    });
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_copyPrompt);
    buttons->addStretch(1);
    buttons->addWidget(m_submitAnswer);
    auto *layout = new QVBoxLayout(m_request);
    layout->addWidget(m_prompt, 2);
    layout->addWidget(m_answer, 1);
    layout->addLayout(buttons);
    m_request->hide();
    return m_request;
}

void RunPanel::pollManualRequests()
{
    const QStringList pending = rewrite::llm::pendingManualFolders(m_workDir);
    if (pending.isEmpty() || pending.contains(m_pendingFolder))
        return;
    m_pendingFolder = pending.first();
    rewrite::llm::ManualConfig config;
    config.workDir = m_pendingFolder;
    QFile file(config.resolvedPromptPath());
    const QString prompt = file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    m_prompt->setPlainText(prompt);
    m_answer->clear();
    m_request->show();
    m_status->setText(tr("A rewrite request waits for your answer (%1)").arg(config.resolvedPromptPath()));
    emit rewriteRequested(prompt);
}

QString RunPanel::submitAnswer(const QString &answer)
{
    if (m_pendingFolder.isEmpty())
        return tr("no rewrite request is waiting");
    if (answer.trimmed().isEmpty())
        return tr("the answer is empty");
    rewrite::llm::ManualConfig config;
    config.workDir = m_pendingFolder;
    // Atomic: the waiting provider must never read half an answer.
    if (const QString error = writeFileAtomically(config.resolvedAnswerPath(), answer.toUtf8()); !error.isEmpty())
        return tr("%1: cannot write the answer: %2").arg(config.resolvedAnswerPath(), error);
    m_pendingFolder.clear();
    m_request->hide();
    return {};
}

void RunPanel::cancel()
{
    if (!m_running)
        return;
    m_cancel = true;
    m_status->setText(tr("Cancelling: each task finishes and stores the step it is in ..."));
}

void RunPanel::waitForFinished()
{
    m_future.waitForFinished();
    QCoreApplication::sendPostedEvents(this);  // deliver the queued log lines and the result
}

void RunPanel::append(const QString &line)
{
    m_log->appendPlainText(line);
    // "[3/40] softmax: improved 2.1x": a task finished.
    static const QRegularExpression taskDone(QStringLiteral("^\\[(\\d+)/(\\d+)\\] "));
    const QRegularExpressionMatch match = taskDone.match(line);
    if (match.hasMatch()) {
        ++m_tasksDone;
        m_status->setText(tr("%1 of %2 tasks finished").arg(m_tasksDone).arg(match.captured(2)));
    }
}

void RunPanel::onFinished(const Expected<optimize::SuiteOutcome> &outcome)
{
    setRunning(false);
    if (!outcome) {
        const QString message = outcome.error().toString();
        m_status->setText(message);
        emit failed(message);
        return;
    }
    const QString path = QDir(m_workDir).filePath(QStringLiteral("results.json"));
    QDir().mkpath(m_workDir);
    if (const QString error = writeFileAtomically(path, QJsonDocument(optimize::toJson(*outcome)).toJson()); !error.isEmpty()) {
        const QString message = tr("%1: cannot write the results: %2").arg(path, error);
        m_status->setText(message);
        emit failed(message);
        return;
    }
    m_status->setText(m_cancel ? tr("Cancelled; finished steps are stored (%1)").arg(path)
                               : tr("Finished: geomean %1x over %2 tasks (%3)")
                                     .arg(outcome->geomeanSpeedup(), 0, 'f', 2)
                                     .arg(outcome->tasks.size())
                                     .arg(path));
    emit finished(path);
}

} // namespace strata
