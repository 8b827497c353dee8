// gui_bench: the explorer's speed and memory on a large suite, figures printed and stored
// (bench/results/gui-<date>.json), not a timed test.
//   1. A synthetic suite results file of N tasks (default 1000; 4 candidates each with their
//      sources, ~21 MB per 1000 tasks), written task by task, opened in a real MainWindow: time
//      from the open to the first frame of the window with the Suite dock filled (target < 1.5 s),
//      and peak RSS (target < 600 MiB).
//   2. Selection sync in the Suite dock: selectTask -> table row, chart highlight and rewrite
//      review updated and repainted, over 200 tasks (target p95 < 30 ms).
//   3. Selection sync across the IR panes on a real compile (tests/fixtures/matmul/default, five
//      stages): a source line -> its lines highlighted in every stage and painted.
//   4. The same compile with its SASS, PTX and LLVM IR repeated to --listing-lines (default
//      100,000) lines: open, selection sync (target p95 < 16 ms, max < 50 ms) and a scroll to a
//      random place of the longest listing, painted, then a page-through of it from top to bottom
//      (time per page and the resident memory it leaves).
// Runs offscreen unless a display is set: build/bin/gui_bench [--tasks N] [--listing-lines N] [--out DIR]
#include "MachineInfo.h"
#include "app/MainWindow.h"
#include "optimize/OutcomeJson.h"
#include "views/CodeView.h"
#include "views/StagePane.h"
#include "views/SuiteBrowser.h"

#include <QApplication>
#include <QFile>
#include <QCommandLineParser>
#include <QCryptographicHash>
#include <QScrollBar>
#include <unistd.h>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <cstdio>

using namespace strata;

namespace {

constexpr double kFirstFrameTargetMs = 1500;
constexpr double kPeakRssTargetMiB = 600;
constexpr double kSelectionTargetMs = 30;
constexpr double kPaneSyncP95TargetMs = 16;
constexpr double kPaneSyncMaxTargetMs = 50;

QString kernelSource(int task, int variant)
{
    QString text = QStringLiteral("import torch\nimport triton\nimport triton.language as tl\n\n\n@triton.jit\n"
                                  "def kernel_%1(x_ptr, y_ptr, n, BLOCK: tl.constexpr):\n").arg(task);
    for (int line = 0; line < 50; ++line)
        text += QStringLiteral("    v%1 = tl.load(x_ptr + tl.arange(0, BLOCK) + %2, mask=tl.arange(0, BLOCK) < n)  # variant %3\n")
                    .arg(line).arg(line * 7 + variant).arg(variant);
    return text;
}

const QStringList &categories()
{
    static const QStringList names{QStringLiteral("elementwise"), QStringLiteral("reduction"), QStringLiteral("matmul"),
                                   QStringLiteral("normalization"), QStringLiteral("attention"), QStringLiteral("scan")};
    return names;
}

optimize::TaskOutcome syntheticTask(int i, QRandomGenerator &random)
{
    optimize::TaskOutcome task;
    task.taskId = QStringLiteral("task_%1").arg(i, 5, 10, QLatin1Char('0'));
    task.taskPath = QStringLiteral("suites/synthetic/%1.py").arg(task.taskId);
    task.category = categories()[i % categories().size()];
    const bool failed = i % 25 == 0;
    task.status = failed ? QStringLiteral("failed") : QStringLiteral("improved");
    if (!failed) {
        task.initialMs = 0.1 + random.generateDouble() * 3;
        task.bestMs = *task.initialMs / (1.0 + random.generateDouble() * 6);
        task.eagerMs = *task.initialMs * 0.8;
        task.compileMs = *task.initialMs * 0.6;
        task.rooflinePct = random.generateDouble() * 100;
    } else {
        task.failure = QStringLiteral("the initial kernel does not pass: verify_failed");
    }
    task.bound = i % 3 ? QStringLiteral("memory") : QStringLiteral("compute");
    for (int c = 0; c < 4; ++c) {
        optimize::CandidateRecord candidate;
        candidate.id = qint64(i) * 4 + c + 1;
        candidate.parentId = c == 0 ? 0 : candidate.id - 1;
        candidate.iteration = c;
        candidate.provider = c == 0 ? QStringLiteral("initial") : QStringLiteral("recipe");
        candidate.recipeId = c == 0 ? QString() : QStringLiteral("grow-block");
        candidate.state = c == 0 ? QStringLiteral("accepted") : QStringLiteral("slower");
        candidate.sourceText = kernelSource(i, c);
        task.candidates.append(candidate);
    }
    return task;
}

// Written task by task, as `strata-cli bench` writes a large run, so that making the file does
// not raise this process's peak RSS above what the explorer itself needs.
bool writeSyntheticResults(const QString &path, int tasks)
{
    optimize::SuiteOutcome header;
    header.suite = QStringLiteral("synthetic-%1").arg(tasks);
    header.device = QStringLiteral("NVIDIA H200");
    header.date = QDateTime::currentDateTimeUtc();
    header.coverage = optimize::Coverage::Whole;
    QJsonObject top = optimize::toJson(header);
    top.remove(QStringLiteral("tasks"));
    top.remove(QStringLiteral("summary"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    QByteArray text = QJsonDocument(top).toJson(QJsonDocument::Indented);
    text.chop(text.size() - text.lastIndexOf('}'));
    file.write(text + ",\n    \"tasks\": [\n");
    QRandomGenerator random(42);
    for (int i = 0; i < tasks; ++i) {
        QByteArray task = QJsonDocument(optimize::toJson(syntheticTask(i, random))).toJson(QJsonDocument::Indented);
        task.chop(1);  // its last line break
        if (file.write(task) < 0 || file.write(i + 1 < tasks ? ",\n" : "\n") < 0)
            return false;
    }
    return file.write("    ]\n}\n") > 0 && file.flush();
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

struct Spread {
    double median = 0, p95 = 0, max = 0;
};

Spread spread(QVector<double> values)
{
    if (values.isEmpty())
        return {};
    std::sort(values.begin(), values.end());
    return {values[values.size() / 2], values[int(values.size() * 0.95)], values.last()};
}

QJsonObject spreadJson(const Spread &s)
{
    return {{QStringLiteral("median_ms"), s.median}, {QStringLiteral("p95_ms"), s.p95}, {QStringLiteral("max_ms"), s.max}};
}

struct PaneFigures {
    int stages = 0;
    int sourceLines = 0;
    int longestListing = 0;
    double openMs = 0;
    Spread sync;    // a source line selected: every pane's linked lines highlighted and painted
    Spread scroll;  // the longest listing scrolled to a random place and painted
    Spread pageDown;  // the longest listing paged through from top to bottom, each page painted
    double rssGrowthMiB = 0;  // resident memory the page-through added
};

// Resident memory now (peak RSS only grows, so it cannot show what scrolling keeps).
double residentMiB()
{
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (!statm.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = statm.readAll().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}

// Every page of `view` from top to bottom, painted: what a reader scrolling the whole listing
// costs per page and how much memory stays behind (the text layouts of lines once in view).
void pageThrough(CodeView *view, PaneFigures &figures)
{
    const double before = residentMiB();
    QScrollBar *bar = view->verticalScrollBar();
    QVector<double> pages;
    for (int value = 0; value <= bar->maximum(); value += std::max(1, bar->pageStep())) {
        QElapsedTimer one;
        one.start();
        bar->setValue(value);
        view->viewport()->repaint();
        pages.append(one.nsecsElapsed() / 1e6);
    }
    figures.pageDown = spread(pages);
    figures.rssGrowthMiB = residentMiB() - before;
}

// The fixture compile with its three largest listings repeated to `lines` lines each (real
// nvdisasm, ptxas and LLVM output, so the line tables are real too); compile.json names the new
// sizes and digests. Empty when it cannot be written.
QString writeLargeListingCompile(const QString &fixture, const QString &target, int lines)
{
    QDir().mkpath(target);
    QJsonObject compile = QJsonDocument::fromJson(readAll(fixture + QStringLiteral("/compile.json"))).object();
    QJsonObject artifacts = compile.value(QStringLiteral("artifacts")).toObject();
    for (const QString &key : artifacts.keys()) {
        QJsonObject ref = artifacts.value(key).toObject();
        const QString name = ref.value(QStringLiteral("path")).toString();
        QByteArray bytes = readAll(fixture + u'/' + name);
        if (key == QLatin1String("sass") || key == QLatin1String("ptx") || key == QLatin1String("llir")) {
            const qsizetype linesInOne = std::max<qsizetype>(1, bytes.count('\n'));
            bytes = bytes.repeated((lines + linesInOne - 1) / linesInOne);
        }
        QFile out(target + u'/' + name);
        if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size())
            return {};
        ref.insert(QStringLiteral("size"), bytes.size());
        ref.insert(QStringLiteral("sha256"), QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex()));
        artifacts.insert(key, ref);
    }
    compile.insert(QStringLiteral("artifacts"), artifacts);
    // The pass dumps come along as they are: the Passes dock follows the selected line too.
    QDir().mkpath(target + QStringLiteral("/passes"));
    for (const QFileInfo &dump : QDir(fixture + QStringLiteral("/passes")).entryInfoList(QDir::Files))
        QFile::copy(dump.filePath(), target + QStringLiteral("/passes/") + dump.fileName());
    const QString path = target + QStringLiteral("/compile.json");
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(compile).toJson()) < 0)
        return {};
    return path;
}

PaneFigures measurePanes(MainWindow &window, const QString &compilePath)
{
    PaneFigures figures;
    bool loaded = false;
    const QMetaObject::Connection connection =
        QObject::connect(&window, &MainWindow::compileLoaded, [&loaded] { loaded = true; });
    QElapsedTimer open;
    open.start();
    window.openCompile(compilePath);
    while (!loaded && open.elapsed() < 120000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 10);
    QCoreApplication::processEvents();
    figures.openMs = open.nsecsElapsed() / 1e6;
    QObject::disconnect(connection);
    if (!loaded)
        return figures;
    figures.stages = int(window.stagePanes().size());
    CodeView *longest = nullptr;
    for (StagePane *pane : window.stagePanes()) {
        if (!longest || pane->view()->lineCount() > longest->lineCount())
            longest = pane->view();
    }
    figures.longestListing = longest ? longest->lineCount() : 0;
    figures.sourceLines = int(window.currentCompile()->sourceText.count(u'\n'));
    QVector<double> sync;
    for (int line = 1; line <= figures.sourceLines; ++line) {
        QElapsedTimer one;
        one.start();
        window.selectSourceLine(line);
        QCoreApplication::processEvents();
        sync.append(one.nsecsElapsed() / 1e6);
    }
    figures.sync = spread(sync);
    QVector<double> scroll;
    QRandomGenerator random(11);
    for (int step = 0; longest && step < 200; ++step) {
        QElapsedTimer one;
        one.start();
        longest->verticalScrollBar()->setValue(int(random.bounded(longest->verticalScrollBar()->maximum() + 1)));
        longest->viewport()->repaint();
        scroll.append(one.nsecsElapsed() / 1e6);
    }
    figures.scroll = spread(scroll);
    if (longest)
        pageThrough(longest, figures);
    return figures;
}

} // namespace

int main(int argc, char **argv)
{
    QElapsedTimer sinceStart;
    sinceStart.start();
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const double appStartMs = sinceStart.nsecsElapsed() / 1e6;  // process start to a QApplication
    const QString sourceDir = QStringLiteral(STRATA_SOURCE_DIR);
    QCommandLineParser cli;
    cli.addHelpOption();
    const QCommandLineOption tasksOpt(QStringLiteral("tasks"), QStringLiteral("Tasks in the synthetic suite."), QStringLiteral("n"), QStringLiteral("1000"));
    const QCommandLineOption linesOpt(QStringLiteral("listing-lines"), QStringLiteral("Lines of the large IR listings."),
                                      QStringLiteral("n"), QStringLiteral("100000"));
    const QCommandLineOption outOpt(QStringLiteral("out"), QStringLiteral("Result folder."), QStringLiteral("dir"), sourceDir + QStringLiteral("/bench/results"));
    cli.addOptions({tasksOpt, linesOpt, outOpt});
    cli.process(app);
    const int tasks = std::max(1, cli.value(tasksOpt).toInt());
    const int listingLines = std::max(1000, cli.value(linesOpt).toInt());

    // The results file is written before the clock that counts starts again: writing it is not
    // the app's work.
    QTemporaryDir dir;
    const QString results = dir.filePath(QStringLiteral("results.json"));
    if (!writeSyntheticResults(results, tasks)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(results));
        return 1;
    }
    const double fileMiB = QFileInfo(results).size() / 1048576.0;

    QElapsedTimer clock;
    clock.start();
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1600, 1000);
    if (!window.openSuiteResults(results)) {
        std::fprintf(stderr, "cannot open %s\n", qPrintable(results));
        return 1;
    }
    window.show();
    window.grab();  // lays out and paints every widget once: the first full frame
    QCoreApplication::processEvents();
    const double firstFrameMs = clock.nsecsElapsed() / 1e6;
    const double firstFrameFromStartMs = appStartMs + firstFrameMs;  // without writing the synthetic file

    // Selection sync in the Suite dock.
    SuiteBrowser *browser = window.suiteBrowser();
    QRandomGenerator random(7);
    QVector<double> selection;
    for (int i = 0; i < 200; ++i) {
        const int task = int(random.bounded(tasks));
        QElapsedTimer one;
        one.start();
        browser->selectTask(task);
        QCoreApplication::processEvents();  // the repaints it asked for, not only the call
        selection.append(one.nsecsElapsed() / 1e6);
    }
    const Spread suiteSync = spread(selection);
    const long rssAfterSuite = bench::peakRssKiB();

    // Selection sync across the IR panes of a real compile, then of the same compile with its
    // SASS, PTX and LLVM IR listings made 100,000 lines long.
    const PaneFigures matmul = measurePanes(window, sourceDir + QStringLiteral("/tests/fixtures/matmul/default/compile.json"));
    const QString largeCompile = writeLargeListingCompile(sourceDir + QStringLiteral("/tests/fixtures/matmul/default"),
                                                          dir.filePath(QStringLiteral("large")), listingLines);
    const PaneFigures large = largeCompile.isEmpty() ? PaneFigures{} : measurePanes(window, largeCompile);
    const double peakMiB = bench::peakRssKiB() / 1024.0;

    std::printf("synthetic suite: %d tasks, %.1f MB results file\n", tasks, fileMiB);
    std::printf("first frame with the suite loaded: %.0f ms (app start to frame: %.0f ms)  target < %.0f ms\n",
                firstFrameMs, firstFrameFromStartMs, kFirstFrameTargetMs);
    std::printf("suite selection sync: median %.2f ms, p95 %.2f ms, max %.2f ms  target < %.0f ms\n", suiteSync.median,
                suiteSync.p95, suiteSync.max, kSelectionTargetMs);
    std::printf("IR panes (matmul, source + %d stages): open %.0f ms; selection sync over %d lines: median %.2f ms, p95 %.2f ms, "
                "max %.2f ms\n", matmul.stages, matmul.openMs, matmul.sourceLines, matmul.sync.median, matmul.sync.p95, matmul.sync.max);
    std::printf("%d-line listings (SASS, PTX, LLVM IR): open %.0f ms; selection sync median %.2f ms, p95 %.2f ms, max %.2f ms"
                "  target p95 < %.0f ms, max < %.0f ms\n", large.longestListing, large.openMs, large.sync.median,
                large.sync.p95, large.sync.max, kPaneSyncP95TargetMs, kPaneSyncMaxTargetMs);
    std::printf("  scroll to a random place in the longest listing, painted: median %.2f ms, p95 %.2f ms, max %.2f ms\n",
                large.scroll.median, large.scroll.p95, large.scroll.max);
    std::printf("  paged through top to bottom, each page painted: median %.2f ms, p95 %.2f ms, max %.2f ms; "
                "resident memory after it: +%.0f MiB\n", large.pageDown.median, large.pageDown.p95, large.pageDown.max,
                large.rssGrowthMiB);
    std::printf("peak RSS: %.0f MiB after the suite, %.0f MiB in all  target < %.0f MiB\n", rssAfterSuite / 1024.0, peakMiB,
                kPeakRssTargetMiB);

    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonObject report = bench::environmentJson(sourceDir, QString());
    report.insert(QStringLiteral("date"), now.toString(Qt::ISODate));
    report.insert(QStringLiteral("platform"), QGuiApplication::platformName());
    report.insert(QStringLiteral("tasks"), tasks);
    report.insert(QStringLiteral("results_file_mib"), fileMiB);
    report.insert(QStringLiteral("first_frame_ms"), firstFrameMs);
    report.insert(QStringLiteral("first_frame_from_app_start_ms"), firstFrameFromStartMs);
    report.insert(QStringLiteral("suite_selection_sync"), spreadJson(suiteSync));
    report.insert(QStringLiteral("ir_panes_selection_sync"), spreadJson(matmul.sync));
    report.insert(QStringLiteral("ir_stages"), matmul.stages);
    report.insert(QStringLiteral("ir_open_ms"), matmul.openMs);
    report.insert(QStringLiteral("large_listing"), QJsonObject{
        {QStringLiteral("lines"), large.longestListing},
        {QStringLiteral("open_ms"), large.openMs},
        {QStringLiteral("selection_sync"), spreadJson(large.sync)},
        {QStringLiteral("scroll_paint"), spreadJson(large.scroll)},
        {QStringLiteral("page_through_paint"), spreadJson(large.pageDown)},
        {QStringLiteral("page_through_rss_growth_mib"), large.rssGrowthMiB},
        {QStringLiteral("what"), QStringLiteral("tests/fixtures/matmul/default with its SASS, PTX and LLVM IR repeated "
                                                "to the line count: every source line links to that many more lines")}});
    report.insert(QStringLiteral("peak_rss_mib"), peakMiB);
    report.insert(QStringLiteral("targets"), QJsonObject{{QStringLiteral("first_frame_ms"), kFirstFrameTargetMs},
                                                        {QStringLiteral("peak_rss_mib"), kPeakRssTargetMiB},
                                                        {QStringLiteral("selection_sync_ms"), kSelectionTargetMs},
                                                        {QStringLiteral("large_listing_sync_p95_ms"), kPaneSyncP95TargetMs},
                                                        {QStringLiteral("large_listing_sync_max_ms"), kPaneSyncMaxTargetMs}});
    report.insert(QStringLiteral("what"), QStringLiteral(
        "MainWindow opening a strata.bench results file of N synthetic tasks (4 candidates with sources each) "
        "in the Suite dock; IR stages load per compile, on demand, so the pane figures come from one real "
        "compile (matmul/default) rather than 1000 preloaded ones"));
    return bench::writeResult(cli.value(outOpt), QStringLiteral("gui"), now, report);
}
