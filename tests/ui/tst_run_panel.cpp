// Run control in the app, on the real local agent: a checks-only run of a one-task suite
// (candidates verified under Triton's interpreter, nothing timed), its log and progress, the
// results shown in the Suite dock; and a cancel that stops the run with the store resumable.
#include "UiTestSupport.h"
#include "../support/AgentTestSupport.h"
#include "models/SuiteTableModel.h"
#include "store/Store.h"
#include "views/RunPanel.h"
#include "views/SuiteBrowser.h"

#include <QCheckBox>
#include <QClipboard>
#include <QGuiApplication>
#include <QDockWidget>
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
    QTest::mouseClick(panel->startButton(), Qt::LeftButton);
    QVERIFY2(panel->isRunning(), qPrintable(panel->statusText()));
    QVERIFY(!panel->startButton()->isEnabled() && panel->cancelButton()->isEnabled());
    QVERIFY2(finished.wait(600000), qPrintable(panel->log()->toPlainText()));

    const QString log = panel->log()->toPlainText();
    QVERIFY2(log.contains(QLatin1String("[scale] checking the initial kernel")), qPrintable(log));
    QVERIFY2(log.contains(QLatin1String("[1/1] scale")), qPrintable(log));
    QVERIFY2(panel->statusText().startsWith(QLatin1String("Finished")), qPrintable(panel->statusText()));
    QVERIFY(QFileInfo::exists(finished.first().first().toString()));
    // The results are in the Suite dock: one task, checked but not timed.
    QVERIFY(window.suiteDock()->isVisible());
    const optimize::TaskOutcome *task = window.suiteBrowser()->model()->taskAt(0);
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

    const optimize::TaskOutcome *task = window.suiteBrowser()->model()->taskAt(0);
    QVERIFY(task);
    QCOMPARE(task->candidates.size(), 2);
    QCOMPARE(task->candidates[1].provider, QStringLiteral("manual"));
    QCOMPARE(task->candidates[1].state, QStringLiteral("verified"));  // checks only: verified, not timed
    QCOMPARE(panel->submitAnswer(QStringLiteral("late")), QStringLiteral("no rewrite request is waiting"));
}

QTEST_MAIN(TestRunPanel)
#include "tst_run_panel.moc"
