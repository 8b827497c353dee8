// The main window on real triton-ascend output (tests/fixtures/ascend): the panes follow the
// compile's backend (TTIR, ttadapter, HIVM and NPU binary with their skip reason), line links
// between the source and ttadapter, the adapter's after-pass dumps with diffs, the Ascend findings
// in the Diagnosis dock, the target menu, and back to NVIDIA panes. Writes
// $STRATA_SCREENSHOT_DIR/strata-ascend-matmul.png (default: the build dir) to look at.
#include "UiTestSupport.h"

#include "models/DiagnosisTreeModel.h"
#include "models/PassListModel.h"
#include "views/DiagnosisPanel.h"
#include "views/PassPanel.h"

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QMenu>

using namespace strata;
using namespace strata::test;

namespace {

QString ascendCompile(const QString &name)
{
    return QStringLiteral(STRATA_FIXTURES_DIR "/ascend/%1/compile.json").arg(name);
}

QString screenshotDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_SCREENSHOT_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(STRATA_BUILD_DIR) : fromEnv;
}

QStringList paneIds(const MainWindow &window)
{
    QStringList ids;
    for (const StagePane *pane : window.stagePanes())
        ids.append(pane->stageId());
    return ids;
}

bool waitForDiagnosis(DiagnosisPanel *panel)
{
    QSignalSpy diagnosed(panel, &DiagnosisPanel::diagnosed);
    return !panel->model()->result().ranking.isEmpty() || diagnosed.wait(60000);
}

} // namespace

class TestAscendWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void panesFollowTheBackend();
    void dotLineLinksToLinalgMatmul();
    void adapterPassesDiffAgainstTheIrTheyWereGiven();
    void findingsLeadIntoTheTtadapterPane();
    void screenshot();
    void targetMenuListsEveryBackend();
    void nvidiaCompileBringsItsPanesBack();

private:
    int sourceLineOf(const QString &needle);
    MainWindow *m_window = nullptr;
};

void TestAscendWindow::initTestCase()
{
    m_window = new MainWindow;
    m_window->setShowErrorDialogs(false);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(openAndWait(*m_window, ascendCompile(QStringLiteral("matmul")), true));
}

void TestAscendWindow::cleanupTestCase()
{
    delete m_window;
}

int TestAscendWindow::sourceLineOf(const QString &needle)
{
    const QVector<int> lines = linesContaining(m_window->sourcePane()->view(), needle);
    return lines.isEmpty() ? 0 : lines.first() + 1;
}

void TestAscendWindow::panesFollowTheBackend()
{
    QCOMPARE(paneIds(*m_window), (QStringList{"ttir", "ttadapter", "hivm", "npubin"}));
    StagePane *ttadapter = m_window->pane(QStringLiteral("ttadapter"));
    QVERIFY(ttadapter->view()->lineCount() > 100);
    QVERIFY(!linesContaining(ttadapter->view(), QStringLiteral("linalg.matmul")).isEmpty());
    // Skipped stages say why, in the agent's words.
    for (const QString &skipped : {QStringLiteral("hivm"), QStringLiteral("npubin")}) {
        const QString message = m_window->pane(skipped)->view()->placeholderText();
        QVERIFY2(message.contains(QLatin1String("was not run for this compile")), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("bishengir-compile is not on PATH")), qPrintable(message));
    }
    const QString status = m_window->statusText();
    QVERIFY2(status.contains(QLatin1String("Target: ascend910_95")), qPrintable(status));
    QVERIFY2(status.contains(QLatin1String("Mode: mix, not run: hivm, npubin")), qPrintable(status));
    QVERIFY2(!status.contains(QLatin1String("Registers")), qPrintable(status));
}

void TestAscendWindow::dotLineLinksToLinalgMatmul()
{
    const int dotLine = sourceLineOf(QStringLiteral("tl.dot("));
    QVERIFY(dotLine > 0);
    clickLine(m_window->sourcePane()->view(), dotLine - 1);
    StagePane *ttadapter = m_window->pane(QStringLiteral("ttadapter"));
    StagePane *ttir = m_window->pane(QStringLiteral("ttir"));
    QVERIFY2(anyLineContains(ttadapter->view(), ttadapter->highlightedLines(), QStringLiteral("linalg.matmul")),
             "ttadapter: the tl.dot line did not highlight linalg.matmul");
    QVERIFY2(anyLineContains(ttir->view(), ttir->highlightedLines(), QStringLiteral("tt.dot")),
             "TTIR: the tl.dot line did not highlight tt.dot");
    QVERIFY(ttadapter->view()->isLineVisible(ttadapter->highlightedLines().first()));

    const QVector<int> matmul = linesContaining(ttadapter->view(), QStringLiteral("linalg.matmul"));
    m_window->selectSourceLine(1);
    clickLine(ttadapter->view(), matmul.first());
    QCOMPARE(m_window->sourcePane()->highlightedLines(), QVector<int>{dotLine - 1});
}

// The adapter dumps each pass after it runs (--mlir-print-ir-tree-dir). Passes that
// triton-to-linalg runs inside itself (cse, canonicalize) are dumped before its own dump, so the
// first dump holding linalg.matmul is a nested pass's: found from the files, not assumed.
static int firstDumpHolding(const PassListModel &model, const QString &text)
{
    for (int row = 0; row < model.rowCount(); ++row) {
        QFile dump(model.passAt(row)->file.path);
        if (dump.open(QIODevice::ReadOnly) && dump.readAll().contains(text.toUtf8()))
            return row;
    }
    return -1;
}

void TestAscendWindow::adapterPassesDiffAgainstTheIrTheyWereGiven()
{
    PassPanel *passes = m_window->passPanel();
    QSignalSpy shown(passes, &PassPanel::passShown);
    const int firstAdapter = passes->model()->rowForArgument(QStringLiteral("discrete-mask-access-conversion"));
    const int matmulAppears = firstDumpHolding(*passes->model(), QStringLiteral("linalg.matmul"));
    QVERIFY(firstAdapter > 0 && matmulAppears > firstAdapter);
    QVERIFY(passes->model()->passAt(matmulAppears)->after);

    // The dump where tt.dot became linalg.matmul, compared with the IR after the pass before it.
    QVERIFY(passes->selectPass(matmulAppears));
    QVERIFY(shown.wait(30000));
    const QString diff = passes->currentDiff().toUnifiedText();
    QVERIFY2(diff.contains(QLatin1String("+")) && diff.contains(QLatin1String("linalg.matmul")), qPrintable(diff.left(2000)));
    QVERIFY(passes->currentDiff().added > 0 && passes->currentDiff().removed > 0);
    const QString summary = passes->findChild<QLabel *>(QStringLiteral("passSummary"))->text();
    QVERIFY2(summary.contains(QStringLiteral("compared with the IR after %1").arg(passes->model()->passAt(matmulAppears - 1)->argument)),
             qPrintable(summary));
    QVERIFY(passes->beforeView()->lineCount() > 10);
    QVERIFY(!linesContaining(passes->beforeView(), QStringLiteral("tt.dot")).isEmpty());   // the IR it was given

    // The first adapter pass starts from the ttir artifact (the adapter's input), not the last
    // TTIR before-pass dump.
    shown.clear();
    QVERIFY(passes->selectPass(firstAdapter));
    QVERIFY(shown.wait(30000));
    const QString first = passes->findChild<QLabel *>(QStringLiteral("passSummary"))->text();
    QVERIFY2(first.contains(QLatin1String("the ttadapter stage's input")), qPrintable(first));

    // Marks: the dot line's ops changed where linalg.matmul appeared.
    QVERIFY(passes->hasPassIndex());
    passes->setSelectedSourceLine(sourceLineOf(QStringLiteral("tl.dot(")));
    QStringList marked;
    for (const int row : passes->model()->markedRows())
        marked << passes->model()->passAt(row)->argument + QLatin1Char('#') + QString::number(row);
    QVERIFY2(passes->model()->isMarked(matmulAppears),
             qPrintable(QStringLiteral("row %1 is not marked for the tl.dot line; marked: %2").arg(matmulAppears).arg(marked.join(u' '))));
}

void TestAscendWindow::findingsLeadIntoTheTtadapterPane()
{
    DiagnosisPanel *panel = m_window->diagnosisPanel();
    QVERIFY(waitForDiagnosis(panel));
    const diagnosis::LadderResult &result = panel->model()->result();
    QStringList rules;
    const diagnosis::Finding *discrete = nullptr;
    for (const diagnosis::RankedFinding &ranked : result.ranking) {
        rules << ranked.finding.ruleId;
        if (ranked.finding.ruleId == QLatin1String("L3.ascend-discrete-access") && !discrete)
            discrete = &ranked.finding;
    }
    QVERIFY2(rules.contains(QStringLiteral("L3.ascend-core-mix")), qPrintable(rules.join(u' ')));
    QVERIFY2(discrete, qPrintable(rules.join(u' ')));
    const auto &evidence = std::get<diagnosis::IrOpEvidence>(discrete->evidence.first().data);
    emit panel->stageLineRequested(evidence.stage, evidence.irLine);
    StagePane *ttadapter = m_window->pane(QStringLiteral("ttadapter"));
    QVERIFY(ttadapter->highlightedLines().contains(evidence.irLine));
    QVERIFY(ttadapter->view()->lineText(evidence.irLine).contains(QLatin1String("DiscreteMemAccess")));
}

void TestAscendWindow::screenshot()
{
    // What a user sees after clicking the dot line with the Diagnosis dock up.
    m_window->selectSourceLine(sourceLineOf(QStringLiteral("tl.dot(")));
    m_window->diagnosisDock()->show();
    m_window->diagnosisDock()->raise();
    QTest::qWait(300);
    const QString path = screenshotDir() + QStringLiteral("/strata-ascend-matmul.png");
    QVERIFY2(m_window->grab().save(path, "PNG"), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
}

void TestAscendWindow::targetMenuListsEveryBackend()
{
    const QStringList targets = m_window->compileTargets();
    for (const char *target : {"sm_80", "sm_90", "sm_100", "ascend910_95", "ascend910b3"})
        QVERIFY2(targets.contains(QLatin1String(target)), qPrintable(targets.join(u' ')));
    const QMenu *menu = m_window->findChild<QMenu *>(QStringLiteral("targetMenu"));
    QVERIFY(menu);
    QStringList entries;
    for (const QAction *action : menu->actions())
        entries << action->text();
    QVERIFY2(entries.contains(QStringLiteral("Huawei Ascend (triton-ascend)")) && entries.contains(QStringLiteral("ascend910_95")),
             qPrintable(entries.join(u'|')));
    QVERIFY(m_window->setCompileTarget(QStringLiteral("ascend910b3")));
    QCOMPARE(m_window->compileTarget(), QStringLiteral("ascend910b3"));
    QVERIFY(!m_window->setCompileTarget(QStringLiteral("gfx942")));   // no plugin offers it
    QCOMPARE(m_window->compileTarget(), QStringLiteral("ascend910b3"));
    QVERIFY(m_window->setCompileTarget(QString()));
}

void TestAscendWindow::nvidiaCompileBringsItsPanesBack()
{
    QVERIFY(openAndWait(*m_window, fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("aligned"))));
    QCOMPARE(paneIds(*m_window), (QStringList{"ttir", "ttgir", "llir", "ptx", "sass"}));
    QVERIFY2(m_window->statusText().contains(QLatin1String("Registers: ")), qPrintable(m_window->statusText()));
    QVERIFY(m_window->pane(QStringLiteral("ptx"))->view()->lineCount() > 10);
    // And Ascend again: the same window, no stale panes.
    QVERIFY(openAndWait(*m_window, ascendCompile(QStringLiteral("vector_add"))));
    QCOMPARE(paneIds(*m_window), (QStringList{"ttir", "ttadapter", "hivm", "npubin"}));
    QVERIFY(!m_window->pane(QStringLiteral("ptx")));
}

QTEST_MAIN(TestAscendWindow)
#include "tst_ascend_window.moc"
