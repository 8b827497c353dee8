// The app on tritonparse traces: File > Open's trace path lists every compiled kernel in the
// Trace dock, shows the autotuner's winner in the panes with its lines linked, opens another
// kernel from its row, and reports a damaged trace while staying usable.
#include "UiTestSupport.h"

#include "trace/TritonParseTrace.h"
#include "views/TracePanel.h"

#include <QDockWidget>
#include <QFile>
#include <QTemporaryDir>
#include <QTreeWidget>

using namespace strata;
using namespace strata::test;

namespace {

const QString kH200Trace = QStringLiteral(STRATA_FIXTURES_DIR "/traces/h200/trace.bin.ndjson");
const QString kParsedTrace = QStringLiteral(STRATA_FIXTURES_DIR "/traces/h200/trace_mapped.ndjson.gz");

bool waitForCompile(MainWindow &window, const std::function<void()> &action)
{
    QSignalSpy loaded(&window, &MainWindow::compileLoaded);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    action();
    if (loaded.wait(120000))
        return true;
    if (!failed.isEmpty())
        qWarning("load failed: %s", qPrintable(failed.first().first().value<ReadError>().toString()));
    return false;
}

int sourceLineOf(MainWindow &window, const QString &needle)
{
    const QVector<int> lines = linesContaining(window.sourcePane()->view(), needle);
    return lines.isEmpty() ? 0 : lines.first() + 1;
}

} // namespace

class TestTraceWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { delete m_window; }
    void traceListsKernelsAndShowsTheWinner();
    void rowOpensThatKernelWithLinkedLines();
    void kernelNamedOnOpenIsShown();
    void damagedTraceIsReported();

private:
    MainWindow *m_window = nullptr;
};

void TestTraceWindow::initTestCase()
{
    m_window = new MainWindow;
    m_window->setShowErrorDialogs(false);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void TestTraceWindow::traceListsKernelsAndShowsTheWinner()
{
    QSignalSpy listed(m_window, &MainWindow::traceOpened);
    QVERIFY(waitForCompile(*m_window, [this] { m_window->openTrace(kH200Trace); }));
    QCOMPARE(listed.size(), 1);
    QVERIFY(m_window->traceDock()->isVisible());
    QCOMPARE(m_window->tracePanel()->kernelCount(), 5);
    QCOMPARE(m_window->tracePanel()->tree()->topLevelItem(4)->text(6), QStringLiteral("winner"));
    const std::shared_ptr<const LoadedCompile> shown = m_window->currentCompile();
    QVERIFY(shown);
    QCOMPARE(shown->result.kernel, QStringLiteral("autotuned_add_kernel"));
    QCOMPARE(shown->result.metadata.value(QStringLiteral("tritonparse")).toObject().value(QStringLiteral("label")).toString(),
             QStringLiteral("autotuned_add_kernel#3"));
    QCOMPARE(m_window->tracePanel()->tree()->currentItem(), m_window->tracePanel()->tree()->topLevelItem(4));
    for (const char *stage : {"ttir", "ttgir", "llir", "ptx", "sass"})
        QVERIFY2(m_window->pane(QLatin1String(stage))->view()->lineCount() > 10, stage);
}

void TestTraceWindow::rowOpensThatKernelWithLinkedLines()
{
    QTreeWidget *tree = m_window->tracePanel()->tree();
    QVERIFY(waitForCompile(*m_window, [tree] { emit tree->itemActivated(tree->topLevelItem(1), 0); }));
    QCOMPARE(m_window->currentCompile()->result.kernel, QStringLiteral("matmul_kernel"));
    const int dotLine = sourceLineOf(*m_window, QStringLiteral("tl.dot("));
    QVERIFY(dotLine > 0);
    clickLine(m_window->sourcePane()->view(), dotLine - 1);
    StagePane *ttgir = m_window->pane(QStringLiteral("ttgir"));
    StagePane *sass = m_window->pane(QStringLiteral("sass"));
    QVERIFY2(anyLineContains(ttgir->view(), ttgir->highlightedLines(), QStringLiteral("warp_group_dot")),
             "TTGIR: the traced tl.dot line did not highlight warp_group_dot");
    QVERIFY2(anyLineContains(sass->view(), sass->highlightedLines(), QStringLiteral("HGMMA")),
             "SASS: the traced tl.dot line did not highlight an HGMMA line");
}

void TestTraceWindow::kernelNamedOnOpenIsShown()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    QVERIFY(waitForCompile(window, [&window] { window.openTrace(kParsedTrace, QStringLiteral("add_kernel")); }));
    QCOMPARE(window.currentCompile()->result.kernel, QStringLiteral("add_kernel"));
    QCOMPARE(window.currentCompile()->result.spec.value(QStringLiteral("grid")).toArray(), (QJsonArray{98}));
}

void TestTraceWindow::damagedTraceIsReported()
{
    QTemporaryDir dir;
    QFile whole(kParsedTrace);
    QVERIFY(whole.open(QIODevice::ReadOnly));
    const QString cut = dir.filePath(QStringLiteral("cut.ndjson.gz"));
    QFile out(cut);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(whole.read(whole.size() / 2));
    out.close();
    MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openTrace(cut);
    QVERIFY(failed.wait(30000));
    const ReadError error = failed.first().first().value<ReadError>();
    QCOMPARE(error.file, cut);
    QVERIFY2(error.message.contains(QStringLiteral("cut short")), qPrintable(error.toString()));
    QVERIFY(!window.currentCompile());
    QVERIFY(waitForCompile(window, [&window] { window.openTrace(kH200Trace, QStringLiteral("matmul_kernel")); }));
}

QTEST_MAIN(TestTraceWindow)
#include "tst_trace_window.moc"
