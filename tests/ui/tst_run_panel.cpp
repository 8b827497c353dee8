// Run control in the app, on the real local agent: a checks-only run of a one-task suite
// (candidates verified under Triton's interpreter, nothing timed), its log and progress, the
// results shown in the Suite dock; and a cancel that stops the run with the store resumable.
#include "UiTestSupport.h"
#include "../support/AgentTestSupport.h"
#include "models/SuiteTableModel.h"
#include "store/Store.h"
#include "views/RunPanel.h"
#include "models/LlmSettings.h"
#include "../rewrite/llm/LocalLlmServer.h"
#include "views/SuiteBrowser.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace strata;

class TestRunPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void checksOnlyRunEndsInTheSuiteDock();
    void cancelStopsWithTheRunResumable();
    void personAnswersARewriteRequest();
    void llmEndpointProposesThroughTheLoop();

private:
    void prepare(RunPanel *panel, const QString &db);
    QTemporaryDir m_dir;
};

void TestRunPanel::initTestCase()
{
    QString why;
    if (!testing::pythonImports(QStringLiteral("torch, triton"), &why))
        QSKIP(qPrintable(why));  // the tasks import torch
    QStandardPaths::setTestModeEnabled(true);  // run folders go to a test location, not the user's
    // A one-task suite: the optimize tests' task (y = 2x), copied so its folder holds nothing else.
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("suite"))));
    QVERIFY(QFile::copy(QStringLiteral(STRATA_SOURCE_DIR "/tests/optimize/fixtures/scale.py"),
                        m_dir.filePath(QStringLiteral("suite/scale.py"))));
}

void TestRunPanel::prepare(RunPanel *panel, const QString &db)
{
    panel->setStorePath(m_dir.filePath(db));
    panel->suiteField()->setText(m_dir.filePath(QStringLiteral("suite")));
    panel->iterationsBox()->setValue(1);
    panel->candidatesBox()->setValue(2);
    panel->checksOnlyBox()->setChecked(true);
}

void TestRunPanel::checksOnlyRunEndsInTheSuiteDock()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    window.runDock()->show();
    RunPanel *panel = window.runPanel();
    prepare(panel, QStringLiteral("run.db"));
    QSignalSpy finished(panel, &RunPanel::finished);
    QSignalSpy partial(panel, &RunPanel::partialResults);
    QTest::mouseClick(panel->startButton(), Qt::LeftButton);
    QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
    QVERIFY(!panel->startButton()->isEnabled() && panel->cancelButton()->isEnabled());
    QVERIFY2(finished.wait(600000), qPrintable(panel->log()->toPlainText()));
    // The live view had the task's outcome before the run's results file.
    QCOMPARE(partial.size(), 1);
    const auto live = partial.first().first().value<optimize::SuiteOutcome>();
    QCOMPARE(live.tasks.size(), 1);
    QCOMPARE(live.tasks.first().status, QStringLiteral("no_gain"));

    const QString log = panel->log()->toPlainText();
    QVERIFY2(log.contains(QLatin1String("[scale] checking the initial kernel")), qPrintable(log));
    QVERIFY2(log.contains(QLatin1String("[1/1] scale")), qPrintable(log));
    QVERIFY2(panel->statusText().startsWith(QLatin1String("Finished")), qPrintable(panel->statusText()));
    QVERIFY(QFileInfo::exists(finished.first().first().toString()));
    // The results are in the Suite dock: one task, checked but not timed.
    QVERIFY(window.suiteDock()->isVisible());
    window.suiteBrowser()->selectTask(0);  // its candidates are read from the results file on selection
    const optimize::TaskOutcome *task = window.suiteBrowser()->selectedWholeTask();
    QVERIFY(task);
    QCOMPARE(task->taskId, QStringLiteral("scale"));
    QCOMPARE(task->status, QStringLiteral("no_gain"));
    QVERIFY(!task->initialMs);  // nothing is timed in a checks-only run
    QVERIFY(!task->candidates.isEmpty());
    QCOMPARE(task->candidates.first().detail, QStringLiteral("checked, not timed (checks only)"));
    QVERIFY(panel->startButton()->isEnabled());
}

void TestRunPanel::cancelStopsWithTheRunResumable()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    window.runDock()->show();
    RunPanel *panel = window.runPanel();
    prepare(panel, QStringLiteral("cancel.db"));
    QSignalSpy finished(panel, &RunPanel::finished);
    QVERIFY(panel->start().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(panel->log()->toPlainText().contains(QLatin1String("checking the initial kernel")), 300000);
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QVERIFY2(panel->statusText().startsWith(QLatin1String("Cancelling")), qPrintable(panel->statusText() + u'\n' + panel->log()->toPlainText()));
    QVERIFY2(finished.wait(600000), qPrintable(panel->log()->toPlainText()));
    QVERIFY2(panel->statusText().startsWith(QLatin1String("Cancelled")), qPrintable(panel->statusText()));

    Expected<std::unique_ptr<Store>> store = Store::open(m_dir.filePath(QStringLiteral("cancel.db")));
    QVERIFY(store.hasValue());
    const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
    QVERIFY(runs.hasValue());
    QCOMPARE(runs->size(), 1);
    QCOMPARE(runs->first().status, QStringLiteral("cancelled"));  // a later run resumes it
}

void TestRunPanel::personAnswersARewriteRequest()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.runDock()->show();
    window.show();
    RunPanel *panel = window.runPanel();
    prepare(panel, QStringLiteral("manual.db"));
    panel->manualBox()->setChecked(true);
    QSignalSpy requested(panel, &RunPanel::rewriteRequested);
    QSignalSpy finished(panel, &RunPanel::finished);
    QVERIFY(panel->start().isEmpty());
    // The recipes have nothing for this task, so the loop asks the person and waits.
    QVERIFY2(requested.wait(300000), qPrintable(panel->log()->toPlainText()));
    QVERIFY(panel->promptView()->isVisible());
    QVERIFY(panel->promptView()->toPlainText().contains(QLatin1String("class ModelNew")));
    QTest::mouseClick(panel->copyPromptButton(), Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), panel->promptView()->toPlainText());
    QVERIFY(panel->isRunning());

    QFile faster(QStringLiteral(STRATA_SOURCE_DIR "/tests/optimize/fixtures/proposals/a_faster.py"));
    QVERIFY(faster.open(QIODevice::ReadOnly));
    panel->answerEdit()->setPlainText(QStringLiteral("Title: bigger blocks\n```python\n") + QString::fromUtf8(faster.readAll())
                                      + QStringLiteral("```\n"));
    QTest::mouseClick(panel->submitAnswerButton(), Qt::LeftButton);
    QVERIFY(panel->pendingRequestFolder().isEmpty());
    QVERIFY2(finished.wait(300000), qPrintable(panel->log()->toPlainText()));

    window.suiteBrowser()->selectTask(0);  // its candidates are read from the results file on selection
    const optimize::TaskOutcome *task = window.suiteBrowser()->selectedWholeTask();
    QVERIFY(task);
    QCOMPARE(task->candidates.size(), 2);
    QCOMPARE(task->candidates[1].provider, QStringLiteral("manual"));
    QCOMPARE(task->candidates[1].state, QStringLiteral("verified"));  // checks only: verified, not timed
    QCOMPARE(panel->submitAnswer(QStringLiteral("late")), QStringLiteral("no rewrite request is waiting"));
}

void TestRunPanel::llmEndpointProposesThroughTheLoop()
{
    // An OpenAI-compatible endpoint (a local server speaking the real wire format) chosen in the
    // Run dock: the loop asks it once the recipes have nothing, and checks its answer.
    testing::LocalLlmServer server;
    QFile faster(QStringLiteral(STRATA_SOURCE_DIR "/tests/optimize/fixtures/proposals/a_faster.py"));
    QVERIFY(faster.open(QIODevice::ReadOnly));
    const QString content = QStringLiteral("Title: bigger blocks\nFindings: L1.small-block\n\n```python\n")
                            + QString::fromUtf8(faster.readAll()) + QStringLiteral("```\n");
    const QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), content}};
    const QJsonObject reply{{QStringLiteral("id"), QStringLiteral("chatcmpl-1")}, {QStringLiteral("object"), QStringLiteral("chat.completion")},
                            {QStringLiteral("model"), QStringLiteral("test-model")},
                            {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0}, {QStringLiteral("message"), message},
                                                                               {QStringLiteral("finish_reason"), QStringLiteral("stop")}}}},
                            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), 900}, {QStringLiteral("completion_tokens"), 700}}}};
    server.enqueue({200, QJsonDocument(reply).toJson(QJsonDocument::Compact), {}, 0, false});

    MainWindow window;
    window.setShowErrorDialogs(false);
    window.runDock()->show();
    window.show();
    QSettings ini(m_dir.filePath(QStringLiteral("llm.ini")), QSettings::IniFormat);
    LlmSettings settings(&ini);
    LlmEndpoint endpoint;
    endpoint.name = QStringLiteral("local-test");
    endpoint.config = rewrite::llm::defaultConfig(rewrite::llm::ApiKind::OpenAi);
    endpoint.config.baseUrl = server.url(QStringLiteral("/v1"));
    endpoint.config.model = QStringLiteral("test-model");
    endpoint.config.apiKeyEnv.clear();  // a local server without auth
    QVERIFY(settings.setEndpoint(endpoint).isEmpty());
    RunPanel *panel = window.runPanel();
    panel->setLlmSettings(&settings);
    prepare(panel, QStringLiteral("llm.db"));
    panel->llmBox()->setCurrentIndex(panel->llmBox()->findData(QStringLiteral("local-test")));
    QSignalSpy finished(panel, &RunPanel::finished);
    QVERIFY(panel->start().isEmpty());
    QVERIFY2(finished.wait(600000), qPrintable(panel->log()->toPlainText()));

    QCOMPARE(server.requests().size(), 1);
    QCOMPARE(server.requests().first().path, QByteArray("/v1/chat/completions"));
    window.suiteBrowser()->selectTask(0);  // its candidates are read from the results file on selection
    const optimize::TaskOutcome *task = window.suiteBrowser()->selectedWholeTask();
    QVERIFY(task);
    QCOMPARE(task->candidates.size(), 2);
    QCOMPARE(task->candidates[1].provider, QStringLiteral("openai"));
    QCOMPARE(task->candidates[1].state, QStringLiteral("verified"));
    panel->setLlmSettings(nullptr);
}

QTEST_MAIN(TestRunPanel)
#include "tst_run_panel.moc"
