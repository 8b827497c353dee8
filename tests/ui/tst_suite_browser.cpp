// The Suite dock driven like a user would: open a bench results file, read the figures, click a
// bar in the chart and find its row selected, select a row and find its bar highlighted, filter
// and search, switch to the roofline scatter, export the chart, and survive a broken file.
#include "app/MainWindow.h"
#include "models/SuiteTableModel.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsCatalog.h"
#include "views/CandidateReview.h"
#include "views/CodeView.h"
#include "views/SpeedupPlot.h"
#include "views/RoundsView.h"
#include "views/RunPanel.h"
#include "views/SuiteBrowser.h"

#include <QComboBox>
#include <QTreeWidget>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

using namespace strata;
using optimize::SuiteOutcome;
using optimize::TaskOutcome;

namespace {

TaskOutcome task(const QString &id, const QString &category, const QString &status, std::optional<double> initial,
                 std::optional<double> best, std::optional<double> roofline)
{
    TaskOutcome outcome;
    outcome.taskId = id;
    outcome.taskPath = QStringLiteral("suites/hopper-core/%1.py").arg(id);
    outcome.category = category;
    outcome.status = status;
    outcome.initialMs = initial;
    outcome.bestMs = best;
    outcome.eagerMs = initial ? std::optional<double>(*initial * 0.9) : std::nullopt;
    outcome.compileMs = initial ? std::optional<double>(*initial * 0.7) : std::nullopt;
    outcome.rooflinePct = roofline;
    outcome.bound = category == QLatin1String("matmul") ? QStringLiteral("compute") : QStringLiteral("memory");
    if (status == QLatin1String("improved"))
        outcome.winningRecipes = {QStringLiteral("recipe:autotune-space")};
    if (status == QLatin1String("failed"))
        outcome.failure = QStringLiteral("initial kernel failed verification: max abs error 3.2");
    return outcome;
}

const QString kInitialSource = QStringLiteral("import triton\n\n@triton.jit\ndef k(x_ptr):\n    BLOCK = 64\n    pass\n");
const QString kRewrittenSource = QStringLiteral("import triton\n\n@triton.jit\ndef k(x_ptr):\n    BLOCK = 128\n    pass\n");

optimize::CandidateRecord candidate(qint64 id, qint64 parent, const QString &recipe, const QString &state,
                                    std::optional<double> ms, const QString &source)
{
    optimize::CandidateRecord record;
    record.id = id;
    record.parentId = parent;
    record.iteration = parent ? 1 : 0;
    record.provider = parent ? QStringLiteral("recipe") : QStringLiteral("initial");
    record.recipeId = recipe;
    record.state = state;
    record.detail = state == QLatin1String("accepted") ? QStringLiteral("0.5 ms vs 2 ms (4.000x)") : QStringLiteral("max abs error 3.2");
    record.medianMs = ms;
    record.sourceText = source;
    if (parent)
        record.findingRuleIds = {QStringLiteral("L1.no-autotune")};
    return record;
}

// Speedups 8, 4, 2, 1, 1 and one failure: geomean over six (the failure counts as 1x) is 2.
// Round `iteration` of the matmul task, diagnosing candidate `candidate`.
optimize::RoundDiagnosis matmulRound(int iteration, qint64 candidate, const QStringList &measured)
{
    optimize::RoundDiagnosis round;
    round.iteration = iteration;
    round.candidateId = candidate;
    round.kernel = QStringLiteral("matmul_kernel");
    round.measured = measured;
    round.rankingIsEstimate = measured.isEmpty();
    optimize::RoundFinding first{QStringLiteral("L3.mma-sync-dot"), QStringLiteral("Dot on mma.sync, not wgmma"), QStringLiteral("high"),
                       37, 0.6, !measured.isEmpty(), QStringLiteral("confirmed")};
    optimize::RoundFinding second{QStringLiteral("L2.memory-bound"), QStringLiteral("Memory-bound"), QStringLiteral("low"), 0,
                        std::nullopt, false, QStringLiteral("not_examined")};
    round.findings = {first, second};
    if (iteration == 2)
        round.warnings = {QStringLiteral("the SASS stage is missing")};
    return round;
}

SuiteOutcome sixTasks()
{
    SuiteOutcome suite;
    suite.suite = QStringLiteral("hopper-core");
    suite.device = QStringLiteral("NVIDIA H200");
    suite.date = QDateTime::fromString(QStringLiteral("2026-12-01T12:00:00Z"), Qt::ISODate);
    suite.tasks = {
        task(QStringLiteral("softmax_online"), QStringLiteral("reduction"), QStringLiteral("improved"), 0.8, 0.1, 91.0),
        task(QStringLiteral("matmul_fp16"), QStringLiteral("matmul"), QStringLiteral("improved"), 2.0, 0.5, 70.0),
        task(QStringLiteral("layernorm"), QStringLiteral("norm"), QStringLiteral("improved"), 0.4, 0.2, 60.0),
        task(QStringLiteral("gelu"), QStringLiteral("elementwise"), QStringLiteral("no_gain"), 0.3, 0.3, 88.0),
        task(QStringLiteral("cumsum"), QStringLiteral("scan"), QStringLiteral("no_gain"), 0.2, 0.2, std::nullopt),
        task(QStringLiteral("conv2d_igemm"), QStringLiteral("conv"), QStringLiteral("failed"), std::nullopt,
             std::nullopt, std::nullopt),
    };
    suite.tasks[1].candidates = {candidate(1, 0, {}, QStringLiteral("accepted"), 2.0, kInitialSource),
                                 candidate(2, 1, QStringLiteral("hopper-dot-tile"), QStringLiteral("accepted"), 0.5, kRewrittenSource),
                                 candidate(3, 1, QStringLiteral("group-m-swizzle"), QStringLiteral("verify_failed"), std::nullopt,
                                           kRewrittenSource + QStringLiteral("# wrong\n"))};
    suite.tasks[1].rounds = {matmulRound(1, 1, {}), matmulRound(2, 2, {QStringLiteral("timing"), QStringLiteral("profile")})};
    return suite;
}

// Tasks drawn, not counting the highlight of the selected one.
int pointsDrawn(QCustomPlot *plot)
{
    int count = 0;
    for (int i = 0; i < plot->plottableCount(); ++i) {
        if (plot->plottable(i)->name() == QLatin1String("selection"))
            continue;
        if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)))
            count += bars->data()->size();
        else if (auto *graph = qobject_cast<QCPGraph *>(plot->plottable(i)))
            count += graph->data()->size();
    }
    return count;
}

} // namespace

class TestSuiteBrowser : public QObject {
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void opensResultsWithEveryTaskAndItsFigures();
    void brokenResultsKeepWhatWasShown();
    void clickingABarSelectsItsRow();
    void selectingARowHighlightsItsBar();
    void filtersAndSearchNarrowTheTable();
    void sortsBySpeedupWithAbsentTimesLast();
    void rooflineScatterPicksPoints();
    void cdfShowsEveryTaskInOrder();
    void exportsTheChart();
    void exportsTheReport();
    void exportsTheSelectedTasksReport();
    void reviewShowsTheDiffAndIsSaved();
    void reviewThatCannotBeSavedSaysWhere();
    void committedH200ResultsOpen();
    void recentResultsReopen();
    void suiteFolderListsItsTasks();
    void roundsShowEachDiagnosisAndLinkToTheirCandidate();
    void screenshot();

private:
    QString writeResults(const SuiteOutcome &suite);
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
    SuiteBrowser *m_browser = nullptr;
};

QString TestSuiteBrowser::writeResults(const SuiteOutcome &suite)
{
    const QString path = m_dir->filePath(QStringLiteral("results.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QJsonDocument(optimize::toJson(suite)).toJson());
    return path;
}

void TestSuiteBrowser::init()
{
    QStandardPaths::setTestModeEnabled(true);  // the recent list goes to a test location
    m_dir = std::make_unique<QTemporaryDir>();
    m_window = std::make_unique<MainWindow>();
    m_window->setShowErrorDialogs(false);
    m_window->resize(1600, 1000);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    QVERIFY(m_window->openSuiteResults(writeResults(sixTasks())));
    m_browser = m_window->suiteBrowser();
    m_window->suiteDock()->setFloating(true);  // room for the chart, whatever the docks around
    m_window->suiteDock()->resize(1200, 900);
    QCoreApplication::processEvents();
    m_browser->plot()->plot()->replot();
}

void TestSuiteBrowser::cleanup()
{
    m_window.reset();
    m_dir.reset();
}

void TestSuiteBrowser::opensResultsWithEveryTaskAndItsFigures()
{
    QVERIFY(m_window->suiteDock()->isVisible());
    QCOMPARE(m_browser->model()->rowCount(), 6);
    QCOMPARE(m_browser->proxy()->rowCount(), 6);
    const QString summary = m_browser->summaryText();
    QVERIFY2(summary.contains(QLatin1String("geomean 2.00x, median 1.50x")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("over 2x: 3")), qPrintable(summary));  // 8, 4 and 2 count
    QVERIFY2(summary.contains(QStringLiteral("failures: 1")), qPrintable(summary));
    // Every task is drawn, the failure included (as a cross at 1x).
    QCOMPARE(pointsDrawn(m_browser->plot()->plot()), 6);
    // Bars grow from 1x, so each bar's top is its speedup.
    QCPBars *wins = qobject_cast<QCPBars *>(m_browser->plot()->plot()->plottable(0));
    QVERIFY(wins);
    QCOMPARE(wins->baseValue() + (wins->data()->constEnd() - 1)->value, 8.0);
    QCOMPARE(m_browser->plot()->drawnOrder().first(), 5);   // the failure leads
    QCOMPARE(m_browser->plot()->drawnOrder().last(), 0);    // the 8x win ends
    QCOMPARE(m_browser->categoryFilter()->count(), 7);      // "all" + six categories
}

void TestSuiteBrowser::brokenResultsKeepWhatWasShown()
{
    QJsonObject broken = optimize::toJson(sixTasks());
    QJsonArray tasks = broken.value(QLatin1String("tasks")).toArray();
    QJsonObject second = tasks[1].toObject();
    second.insert(QStringLiteral("initial_ms"), QStringLiteral("fast"));
    tasks[1] = second;
    broken.insert(QStringLiteral("tasks"), tasks);
    const QString path = m_dir->filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(broken).toJson());
    file.close();

    QVERIFY(!m_window->openSuiteResults(path));
    const QString message = m_window->statusBar()->currentMessage();
    QVERIFY2(message.contains(QLatin1String("broken.json")) && message.contains(QLatin1String("initial_ms")),
             qPrintable(message));
    QCOMPARE(m_browser->model()->rowCount(), 6);
    QVERIFY(m_browser->origin().endsWith(QLatin1String("results.json")));

    QVERIFY(!m_window->openSuiteResults(m_dir->filePath(QStringLiteral("missing.json"))));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("missing.json")));
}

void TestSuiteBrowser::clickingABarSelectsItsRow()
{
    SpeedupPlot *plot = m_browser->plot();
    QSignalSpy selected(m_browser, &SuiteBrowser::taskSelected);
    for (int taskIndex : {1, 5, 3}) {  // a win, the failure (drawn at 1x), a 1.0x bar
        const QPoint at = plot->taskPosition(taskIndex);
        QCOMPARE(plot->taskAt(at), taskIndex);
        QTest::mouseClick(plot->plot(), Qt::LeftButton, {}, at);
        QCOMPARE(m_browser->selectedTask(), taskIndex);
        QCOMPARE(plot->selectedTask(), taskIndex);
        const QModelIndex current = m_browser->table()->selectionModel()->currentIndex();
        QCOMPARE(m_browser->proxy()->taskIndexAt(current.row()), taskIndex);
    }
    QCOMPARE(selected.size(), 3);
    QCOMPARE(selected.last().first().toInt(), 3);
}

void TestSuiteBrowser::selectingARowHighlightsItsBar()
{
    const int row = m_browser->proxy()->proxyRowOf(2);
    m_browser->table()->selectRow(row);
    QCOMPARE(m_browser->selectedTask(), 2);
    QCOMPARE(m_browser->plot()->selectedTask(), 2);
    // The highlight is one more bar, at the task's place in the sorted order, on a layer of its own
    // (a new selection repaints that layer, not every bar).
    QCustomPlot *plot = m_browser->plot()->plot();
    QCPBars *highlight = nullptr;
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (plot->plottable(i)->name() == QLatin1String("selection") && qobject_cast<QCPBars *>(plot->plottable(i)))
            highlight = qobject_cast<QCPBars *>(plot->plottable(i));
    QVERIFY(highlight);
    QCOMPARE(highlight->layer()->name(), QStringLiteral("selection"));
    QCOMPARE(highlight->layer()->mode(), QCPLayer::lmBuffered);
    QCOMPARE(highlight->data()->size(), 1);
    QCOMPARE(int(highlight->data()->begin()->key), int(m_browser->plot()->drawnOrder().indexOf(2)));
    QCOMPARE(highlight->baseValue() + highlight->data()->begin()->value, 2.0);
}

void TestSuiteBrowser::filtersAndSearchNarrowTheTable()
{
    m_browser->searchField()->setText(QStringLiteral("SOFTMAX"));
    QCOMPARE(m_browser->proxy()->rowCount(), 1);
    m_browser->searchField()->setText(QStringLiteral("autotune-space"));  // winning recipes are searched
    QCOMPARE(m_browser->proxy()->rowCount(), 3);
    m_browser->searchField()->clear();

    m_browser->statusFilter()->setCurrentIndex(m_browser->statusFilter()->findData(QStringLiteral("failed")));
    QCOMPARE(m_browser->proxy()->rowCount(), 1);
    QCOMPARE(m_browser->proxy()->taskIndexAt(0), 5);

    // A click on a bar the filters hide clears them, so the row can be shown.
    QTest::mouseClick(m_browser->plot()->plot(), Qt::LeftButton, {}, m_browser->plot()->taskPosition(0));
    QCOMPARE(m_browser->proxy()->rowCount(), 6);
    QCOMPARE(m_browser->statusFilter()->currentIndex(), 0);
    QCOMPARE(m_browser->selectedTask(), 0);

    m_browser->categoryFilter()->setCurrentIndex(m_browser->categoryFilter()->findData(QStringLiteral("matmul")));
    QCOMPARE(m_browser->proxy()->rowCount(), 1);
    QCOMPARE(m_browser->proxy()->taskIndexAt(0), 1);
}

void TestSuiteBrowser::sortsBySpeedupWithAbsentTimesLast()
{
    QTableView *table = m_browser->table();
    table->sortByColumn(SuiteTableModel::SpeedupColumn, Qt::DescendingOrder);
    QCOMPARE(m_browser->proxy()->taskIndexAt(0), 0);  // 8x
    QCOMPARE(QSet<int>({m_browser->proxy()->taskIndexAt(3), m_browser->proxy()->taskIndexAt(4)}), QSet<int>({3, 4}));
    QCOMPARE(m_browser->proxy()->taskIndexAt(5), 5);  // the failure has no speedup
    table->sortByColumn(SuiteTableModel::InitialColumn, Qt::AscendingOrder);
    QCOMPARE(m_browser->proxy()->taskIndexAt(0), 5);
    QCOMPARE(m_browser->proxy()->taskIndexAt(1), 4);  // 0.2 ms
}

void TestSuiteBrowser::rooflineScatterPicksPoints()
{
    SpeedupPlot *plot = m_browser->plot();
    m_browser->findChildren<QComboBox *>().last()->setCurrentIndex(1);  // the chart mode
    QCOMPARE(plot->mode(), SpeedupPlot::Mode::RooflineScatter);
    plot->plot()->replot();
    // Four tasks have both figures; cumsum (no roofline) and the failure are counted, not drawn.
    QCOMPARE(pointsDrawn(plot->plot()), 4);
    QCOMPARE(plot->taskPosition(4), QPoint());
    QTest::mouseClick(plot->plot(), Qt::LeftButton, {}, plot->taskPosition(3));
    QCOMPARE(m_browser->selectedTask(), 3);
    QCOMPARE(plot->taskAt(QPoint(2, 2)), -1);
}

void TestSuiteBrowser::cdfShowsEveryTaskInOrder()
{
    SpeedupPlot *plot = m_browser->plot();
    m_browser->findChildren<QComboBox *>().last()->setCurrentIndex(2);
    QCOMPARE(plot->mode(), SpeedupPlot::Mode::SpeedupCdf);
    plot->plot()->replot();
    // One point per task on the curve, the failure also marked (at 1x, as the geomean counts it).
    QCPGraph *curve = qobject_cast<QCPGraph *>(plot->plot()->plottable(0));
    QVERIFY(curve);
    QCOMPARE(curve->data()->size(), 6);
    QCOMPARE((curve->data()->constEnd() - 1)->key, 8.0);   // the best speedup closes the curve
    QCOMPARE((curve->data()->constEnd() - 1)->value, 1.0);
    QCOMPARE(qobject_cast<QCPGraph *>(plot->plot()->plottable(1))->data()->size(), 1);
    QTest::mouseClick(plot->plot(), Qt::LeftButton, {}, plot->taskPosition(1));
    QCOMPARE(m_browser->selectedTask(), 1);
}

void TestSuiteBrowser::exportsTheChart()
{
    for (const QString &name : {QStringLiteral("chart.png"), QStringLiteral("chart.svg"), QStringLiteral("chart.pdf")}) {
        const QString path = m_dir->filePath(name);
        QVERIFY2(m_window->exportSuiteChart(path), qPrintable(m_window->statusBar()->currentMessage()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray head = file.read(4096);
        if (name.endsWith(QLatin1String("png")))
            QVERIFY(head.startsWith("\x89PNG"));
        else if (name.endsWith(QLatin1String("pdf")))
            QVERIFY(head.startsWith("%PDF"));
        else
            QVERIFY(head.contains("<svg"));
    }
    QVERIFY(!m_window->exportSuiteChart(m_dir->filePath(QStringLiteral("chart.bmp"))));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("chart.bmp")));
}

void TestSuiteBrowser::exportsTheReport()
{
    const QString html = m_dir->filePath(QStringLiteral("report.html"));
    QVERIFY2(m_window->exportSuiteReport(html), qPrintable(m_window->statusBar()->currentMessage()));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QLatin1String("<svg")));
    for (const optimize::TaskOutcome &task : m_browser->model()->suite().tasks)
        QVERIFY2(text.contains(task.taskId), qPrintable(task.taskId));  // failures too
    QVERIFY(m_window->exportSuiteReport(m_dir->filePath(QStringLiteral("report.md"))));
    const QString pdf = m_dir->filePath(QStringLiteral("report.pdf"));
    QVERIFY(m_window->exportSuiteReport(pdf));
    QFile pdfFile(pdf);
    QVERIFY(pdfFile.open(QIODevice::ReadOnly) && pdfFile.read(4) == "%PDF");
    QVERIFY(!m_window->exportSuiteReport(m_dir->filePath(QStringLiteral("report.docx"))));
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QLatin1String("report.docx")),
             qPrintable(m_window->statusBar()->currentMessage()));
}

void TestSuiteBrowser::exportsTheSelectedTasksReport()
{
    const QString html = m_dir->filePath(QStringLiteral("task.html"));
    m_browser->selectTask(-1);
    QVERIFY(!m_window->exportTaskReport(html));
    QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("select a task")));
    m_browser->selectTask(1);  // matmul_fp16: an accepted rewrite and a wrong one
    QVERIFY2(m_window->exportTaskReport(html), qPrintable(m_window->statusBar()->currentMessage()));
    QFile file(html);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.contains(QLatin1String("matmul_fp16")));
    QVERIFY(text.contains(QLatin1String("BLOCK = 128")));      // the winning change
    QVERIFY(text.contains(QLatin1String("verify_failed")));    // and the failed candidate
    QVERIFY(m_window->exportTaskReport(m_dir->filePath(QStringLiteral("task.md"))));
    QVERIFY(m_window->exportTaskReport(m_dir->filePath(QStringLiteral("task.pdf"))));
}

void TestSuiteBrowser::reviewShowsTheDiffAndIsSaved()
{
    // Double-clicking the task's row opens its rewrites, the first rewrite selected.
    const int row = m_browser->proxy()->proxyRowOf(1);
    m_browser->table()->selectRow(row);
    const QRect cell = m_browser->table()->visualRect(m_browser->proxy()->index(row, 0));
    // A view emits doubleClicked only for the index a press went to, as in a real double click.
    QTest::mousePress(m_browser->table()->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseRelease(m_browser->table()->viewport(), Qt::LeftButton, {}, cell.center());
    QTest::mouseDClick(m_browser->table()->viewport(), Qt::LeftButton, {}, cell.center());
    CandidateReview *review = m_browser->review();
    QCOMPARE(m_browser->tabs()->currentWidget(), review);
    QCOMPARE(review->candidateTable()->rowCount(), 3);
    QCOMPARE(review->selectedCandidate(), qint64(2));
    // Line 5 (0-based 4) is the one the rewrite changed: marked on both sides.
    QCOMPARE(review->parentView()->highlightedLines(), QVector<int>{4});
    QCOMPARE(review->candidateView()->highlightedLines(), QVector<int>{4});
    QVERIFY(review->candidateView()->lineText(4).contains(QLatin1String("BLOCK = 128")));
    QVERIFY(review->detailLabel()->text().contains(QLatin1String("L1.no-autotune")));

    QTest::mouseClick(review->acceptButton(), Qt::LeftButton);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QLatin1String("saved")),
             qPrintable(m_window->statusBar()->currentMessage()));
    review->selectCandidate(3);
    QVERIFY(review->detailLabel()->text().contains(QLatin1String("max abs error")));
    QTest::mouseClick(review->rejectButton(), Qt::LeftButton);
    QCOMPARE(review->candidateTable()->item(2, 6)->text(), QStringLiteral("rejected"));

    // Both reviews are in the results file, and come back when it is opened again.
    Expected<SuiteOutcome> saved = optimize::readSuiteOutcomeFile(m_browser->origin());
    QVERIFY2(saved, qPrintable(saved ? QString() : saved.error().toString()));
    QCOMPARE(saved->tasks[1].candidates[1].reviewState, QStringLiteral("accepted"));
    QCOMPARE(saved->tasks[1].candidates[2].reviewState, QStringLiteral("rejected"));
    QVERIFY(m_window->openSuiteResults(m_browser->origin()));
    m_browser->selectTask(1);
    QCOMPARE(m_browser->selectedWholeTask()->candidates[1].reviewState, QStringLiteral("accepted"));
    // The table holds summaries only: the candidates (and their sources) stay in the file.
    QVERIFY(m_browser->model()->taskAt(1)->candidates.isEmpty());

    // The initial kernel has nothing to review.
    review->selectCandidate(1);
    QVERIFY(!review->acceptButton()->isEnabled());
}

void TestSuiteBrowser::reviewThatCannotBeSavedSaysWhere()
{
    const QString nowhere = m_dir->filePath(QStringLiteral("no-such-dir/results.json"));
    m_browser->setSuite(sixTasks(), nowhere);
    const QString error = m_browser->setReview(1, 2, QStringLiteral("accepted"));
    QVERIFY2(error.contains(nowhere), qPrintable(error));
    QCOMPARE(m_browser->model()->taskAt(1)->candidates[1].reviewState, QStringLiteral("accepted"));
    QVERIFY(m_browser->setReview(1, 99, QStringLiteral("accepted")).contains(QLatin1String("c99")));
}

void TestSuiteBrowser::committedH200ResultsOpen()
{
    // The committed H200 results folder opens its newest complete file (by the files' coverage
    // field: the parts of a merged run are as new as the merge and must not be picked).
    const QString folder = QStringLiteral(STRATA_SOURCE_DIR "/bench/results");
    const Expected<optimize::ResultsChoice> choice = optimize::newestResults(folder);
    if (!choice)
        QSKIP("no committed H200 results");
    QVERIFY2(optimize::isComplete(choice->coverage), qPrintable(choice->describe()));
    const QString path = choice->path;
    QVERIFY(m_window->openSuiteResults(folder));
    QCOMPARE(m_browser->origin(), path);
    QVERIFY2(m_window->statusBar()->currentMessage().contains(QLatin1String("newest complete")),
             qPrintable(m_window->statusBar()->currentMessage()));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject summary = QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("summary")).toObject();
    // A copy: reviews in this test must not touch the committed file.
    const QString copy = m_dir->filePath(QStringLiteral("h200.json"));
    QVERIFY(QFile::copy(path, copy));
    QVERIFY(m_window->openSuiteResults(copy));
    QCOMPARE(m_browser->model()->rowCount(), summary.value(QLatin1String("tasks")).toInt());
    const QString text = m_browser->summaryText();
    QVERIFY2(text.contains(QStringLiteral("geomean %1x").arg(summary.value(QLatin1String("geomean_speedup")).toDouble(), 0, 'f', 2)),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("failures: %1").arg(summary.value(QLatin1String("failures")).toInt())), qPrintable(text));
    QCOMPARE(m_browser->plot()->drawnOrder().size(), m_browser->model()->rowCount());
    // A merged file: a win measured before a deadline cut its run says so, and every task names
    // the run that measured it.
    for (int row = 0; row < m_browser->model()->rowCount(); ++row) {
        const TaskOutcome *task = m_browser->model()->taskAt(row);
        const QModelIndex status = m_browser->model()->index(row, SuiteTableModel::StatusColumn);
        QCOMPARE(status.data().toString().contains(QLatin1String("partial")), task->partial);
        if (!task->measuredIn.isEmpty())
            QVERIFY(m_browser->model()->index(row, SuiteTableModel::TaskColumn).data(Qt::ToolTipRole).toString()
                        .contains(QStringLiteral("measured in ") + task->measuredInText()));
    }
    m_browser->selectTask(m_browser->model()->taskIndexOf(QStringLiteral("matmul_fp16")));
    QCoreApplication::processEvents();
    const QString dir = qEnvironmentVariable("STRATA_SCREENSHOT_DIR", QStringLiteral(STRATA_BUILD_DIR));
    QVERIFY(m_window->suiteDock()->grab().save(dir + QStringLiteral("/strata-suite-h200.png")));
}

void TestSuiteBrowser::recentResultsReopen()
{
    // init() opened results.json; open a second file, then go back through the recent list.
    SuiteOutcome other = sixTasks();
    other.suite = QStringLiteral("other-suite");
    const QString second = m_dir->filePath(QStringLiteral("second.json"));
    QFile file(second);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(optimize::toJson(other)).toJson());
    file.close();
    QVERIFY(m_window->openSuiteResults(second));
    const QStringList recent = m_window->recentSuiteResults();
    QVERIFY(recent.size() >= 2);
    QCOMPARE(recent[0], QFileInfo(second).absoluteFilePath());
    QCOMPARE(recent[1], QFileInfo(m_dir->filePath(QStringLiteral("results.json"))).absoluteFilePath());
    QList<QAction *> entries;
    for (QMenu *candidate : m_window->findChildren<QMenu *>())
        if (candidate->title() == QLatin1String("Recent Suite Results"))
            entries = candidate->actions();
    QVERIFY(entries.size() >= 2);
    QCOMPARE(entries[1]->toolTip(), recent[1]);
    entries[1]->trigger();
    QCOMPARE(m_browser->model()->suite().suite, QStringLiteral("hopper-core"));
    QCOMPARE(m_window->recentSuiteResults().first(), recent[1]);  // reopened: newest again
}

void TestSuiteBrowser::suiteFolderListsItsTasks()
{
    const QString folder = QStringLiteral(STRATA_SOURCE_DIR "/suites/hopper-core");
    QVERIFY(m_window->openSuiteFolder(folder));
    const int tasks = QDir(folder).entryList({QStringLiteral("[!_]*.py")}, QDir::Files).size();
    QCOMPARE(m_browser->model()->rowCount(), tasks);  // "_" files are set aside
    const optimize::TaskOutcome *softmax = m_browser->model()->taskAt(m_browser->model()->taskIndexOf(QStringLiteral("softmax_fp32")));
    QVERIFY(softmax);
    QCOMPARE(softmax->status, QStringLiteral("pending"));
    QVERIFY(!softmax->category.isEmpty());
    QCOMPARE(m_window->runPanel()->suiteField()->text(), folder);
    QVERIFY(!m_window->openSuiteFolder(m_dir->path()));  // no task there
    QVERIFY(m_window->statusBar()->currentMessage().contains(QLatin1String("no task file")));
}

void TestSuiteBrowser::roundsShowEachDiagnosisAndLinkToTheirCandidate()
{
    RoundsView *rounds = m_browser->rounds();
    m_browser->selectTask(1);  // matmul_fp16: two rounds
    QTreeWidget *tree = rounds->tree();
    QCOMPARE(tree->topLevelItemCount(), 2);
    QTreeWidgetItem *first = tree->topLevelItem(0);
    QVERIFY2(first->text(0).contains(QLatin1String("Round 1: c1")) && first->text(0).contains(QLatin1String("static")),
             qPrintable(first->text(0)));
    QCOMPARE(first->childCount(), 2);
    QVERIFY(first->child(0)->text(0).startsWith(QLatin1String("1. L3.mma-sync-dot")));
    QCOMPARE(first->child(0)->text(RoundsView::LineColumn), QStringLiteral("37"));
    QCOMPARE(first->child(0)->text(RoundsView::ShareColumn), QStringLiteral("60% estimated"));
    QCOMPARE(first->child(1)->text(RoundsView::LineColumn), QStringLiteral("kernel"));
    QTreeWidgetItem *second = tree->topLevelItem(1);
    QVERIFY(second->text(0).contains(QLatin1String("measured: timing, profile")));
    QVERIFY(second->child(0)->text(0).startsWith(QLatin1String("Warning: ")));
    QCOMPARE(second->child(1)->text(RoundsView::ShareColumn), QStringLiteral("60% measured"));

    // Activating a finding of round 2 shows the candidate it diagnosed in Rewrites.
    emit tree->itemActivated(second->child(1), 0);
    QCOMPARE(m_browser->tabs()->currentWidget(), m_browser->review());
    QCOMPARE(m_browser->review()->selectedCandidate(), 2);

    m_browser->selectTask(3);  // gelu: no rounds recorded
    QCOMPARE(tree->topLevelItemCount(), 0);
}

void TestSuiteBrowser::screenshot()
{
    m_browser->selectTask(1);
    QCoreApplication::processEvents();
    const QImage shot = m_window->suiteDock()->grab().toImage();
    QSet<QRgb> colors;
    for (int y = 0; y < shot.height(); y += 4)
        for (int x = 0; x < shot.width(); x += 4)
            colors.insert(shot.pixel(x, y));
    QVERIFY2(colors.size() > 20, "the suite dock looks blank");
    const QString dir = qEnvironmentVariable("STRATA_SCREENSHOT_DIR", QStringLiteral(STRATA_BUILD_DIR));
    QVERIFY(shot.save(dir + QStringLiteral("/strata-suite.png")));

    QComboBox *chartMode = m_browser->findChildren<QComboBox *>().last();
    chartMode->setCurrentIndex(2);  // as a user picks the CDF
    QVERIFY(m_browser->plot()->grab().save(dir + QStringLiteral("/strata-suite-cdf.png")));
    chartMode->setCurrentIndex(0);
    m_browser->showRewrites();
    QCoreApplication::processEvents();
    QVERIFY(m_window->suiteDock()->grab().save(dir + QStringLiteral("/strata-suite-rewrites.png")));
    m_browser->tabs()->setCurrentWidget(m_browser->rounds());
    QCoreApplication::processEvents();
    QVERIFY(m_window->suiteDock()->grab().save(dir + QStringLiteral("/strata-suite-rounds.png")));
}

QTEST_MAIN(TestSuiteBrowser)
#include "tst_suite_browser.moc"
