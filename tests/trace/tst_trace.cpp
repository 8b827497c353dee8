// The committed tritonparse traces read as Strata reads them: every compiled kernel listed with
// its stages, rebuilt spec, launches and autotune role; a kernel imported as a compile folder
// loads into the panes' LoadedCompile, maps source lines into every stage and is diagnosed.
#include "TraceTestSupport.h"

#include "NvidiaStages.h"
#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/PluginRegistry.h"
#include "trace/TraceImport.h"
#include "trace/TritonParseTrace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::trace;
using namespace strata::testing;

namespace {

const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");

QJsonObject sampleSpec(const QString &name)
{
    return QJsonDocument::fromJson(readAll(kSamples + u'/' + name + QStringLiteral(".spec.json"))).object();
}

QStringList sortedNames(const QJsonValue &list)
{
    QStringList names;
    for (const QJsonValue &name : list.toArray())
        names << name.toString();
    names.sort();
    return names;
}

int lineContaining(const QString &text, const QString &needle)
{
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

// The built plugins: each backend names its own targets.
const PluginRegistry &plugins()
{
    static PluginRegistry registry;
    static const bool loaded = registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR)) > 0;
    if (!loaded)
        qFatal("no backend plugin loaded from %s", STRATA_PLUGIN_DIR);
    return registry;
}

TraceIndex mustRead(const QString &path)
{
    Expected<TraceIndex> index = readTrace(path, [](const QJsonObject &target) { return plugins().targetFromTriton(target); });
    if (!index)
        qFatal("cannot read %s: %s", qPrintable(path), qPrintable(whyNot(index)));
    return *index;
}

} // namespace

class TraceTest : public QObject {
    Q_OBJECT
private slots:
    void cpuTraceListsEveryCompile();
    void specsMatchTheSampleSpecs();
    void launchesAndAutotuneRoles_data();
    void launchesAndAutotuneRoles();
    void findKernelSelectors();
    void importedKernelLoadsEveryStage();
    void functionOnlySourceKeepsLineNumbers();
    void diagnosisRunsOnATracedKernel();
};

void TraceTest::cpuTraceListsEveryCompile()
{
    const TraceIndex index = mustRead(cpuTrace());
    QCOMPARE(index.compilationEvents, 5);
    QCOMPARE(index.launchEvents, 0);
    QStringList labels;
    for (const TraceKernel &kernel : index.kernels) {
        labels << kernel.label;
        QCOMPARE(kernel.target, QStringLiteral("sm_90"));
        QCOMPARE(kernel.stages, (QStringList{QStringLiteral("ttir"), QStringLiteral("ttgir"), QStringLiteral("llir"),
                                             QStringLiteral("ptx"), QStringLiteral("sass")}));
        QVERIFY2(kernel.specProblem.isEmpty(), qPrintable(kernel.specProblem));
        QVERIFY(kernel.launches.grid.isEmpty());
        QVERIFY(!kernel.autotuneBenchmarked && !kernel.autotuneWinner);  // cross-compiled: no autotuner ran
    }
    QCOMPARE(labels, (QStringList{QStringLiteral("add_kernel"), QStringLiteral("matmul_kernel"),
                                  QStringLiteral("autotuned_add_kernel#1"), QStringLiteral("autotuned_add_kernel#2"),
                                  QStringLiteral("autotuned_add_kernel#3")}));
    // The autotuner's configs, as the kernel file declares them.
    QCOMPARE(index.kernels[2].configText(), QStringLiteral("BLOCK=256 num_warps=2 num_stages=3"));
    QCOMPARE(index.kernels[4].configText(), QStringLiteral("BLOCK=4096 num_warps=8 num_stages=3"));
    QVERIFY(!index.kernels[0].wholeFileSource);  // tritonparse's default: only the function
    QVERIFY(index.kernels[1].wholeFileSource);
}

// The traces were compiled from the samples' own specs, so rebuilding them must give those back.
void TraceTest::specsMatchTheSampleSpecs()
{
    const TraceIndex index = mustRead(cpuTrace());
    const QVector<QPair<int, QString>> cases{{0, QStringLiteral("vector_add.unaligned")}, {1, QStringLiteral("matmul.default")}};
    for (const auto &[kernelIndex, sample] : cases) {
        const QJsonObject rebuilt = index.kernels[kernelIndex].spec;
        const QJsonObject expected = sampleSpec(sample);
        QCOMPARE(rebuilt.value(QStringLiteral("kernel")), expected.value(QStringLiteral("kernel")));
        QCOMPARE(rebuilt.value(QStringLiteral("signature")), expected.value(QStringLiteral("signature")));
        QCOMPARE(rebuilt.value(QStringLiteral("constexprs")), expected.value(QStringLiteral("constexprs")));
        QCOMPARE(sortedNames(rebuilt.value(QStringLiteral("divisibility_16"))), sortedNames(expected.value(QStringLiteral("divisibility_16"))));
        QCOMPARE(sortedNames(rebuilt.value(QStringLiteral("equal_to_1"))), sortedNames(expected.value(QStringLiteral("equal_to_1"))));
        QCOMPARE(rebuilt.value(QStringLiteral("options")), expected.value(QStringLiteral("options")));
        QCOMPARE(rebuilt.value(QStringLiteral("target")), expected.value(QStringLiteral("target")));
    }
}

void TraceTest::launchesAndAutotuneRoles_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("raw gzip members") << h200Trace();
    QTest::newRow("tritonparse parse output") << h200Parsed();
}

void TraceTest::launchesAndAutotuneRoles()
{
    QFETCH(QString, path);
    const TraceIndex index = mustRead(path);
    QCOMPARE(index.kernels.size(), 5);
    QCOMPARE(index.launchEvents, 16);
    const TraceKernel &add = index.kernels[0];
    QCOMPARE(add.launches.count, 2);
    QCOMPARE(add.launches.grid, (QVector<qint64>{98}));  // cdiv(100000, 1024)
    QCOMPARE(add.spec.value(QStringLiteral("grid")).toArray(), (QJsonArray{98}));
    QCOMPARE(add.launches.args.value(QStringLiteral("n_elements")).toObject().value(QStringLiteral("value")).toInt(), 100000);
    const TraceKernel &matmul = index.kernels[1];
    QCOMPARE(matmul.launches.count, 1);
    QCOMPARE(matmul.launches.grid, (QVector<qint64>{16}));
    QCOMPARE(matmul.launches.args.value(QStringLiteral("a_ptr")).toObject().value(QStringLiteral("shape")).toArray(), (QJsonArray{512, 512}));
    // Each config was benchmarked (4 launches from autotuner.py:_bench); the winner ran once more.
    int winners = 0;
    for (int i = 2; i < 5; ++i) {
        const TraceKernel &config = index.kernels[i];
        QVERIFY(config.autotuneBenchmarked);
        QCOMPARE(config.launches.benchmarkCount, 4);
        QCOMPARE(config.launches.count, config.autotuneWinner ? 1 : 0);
        winners += config.autotuneWinner;
    }
    QCOMPARE(winners, 1);
    QVERIFY(index.kernels[4].autotuneWinner);  // BLOCK=4096 won on the H200 run committed
    QCOMPARE(index.kernels[4].launches.grid, (QVector<qint64>{25}));
}

void TraceTest::findKernelSelectors()
{
    const TraceIndex h200 = mustRead(h200Trace());
    QCOMPARE(*findKernel(h200, QStringLiteral("autotuned_add_kernel")), 4);  // the winner
    QCOMPARE(*findKernel(h200, QStringLiteral("autotuned_add_kernel#2")), 3);
    QCOMPARE(*findKernel(h200, h200.kernels[1].hash.left(10)), 1);
    QCOMPARE(*findKernel(h200, QStringLiteral("add_kernel")), 0);
    const Expected<int> unknown = findKernel(h200, QStringLiteral("softmax_kernel"));
    QVERIFY(!unknown);
    QVERIFY(unknown.error().message.contains(QStringLiteral("matmul_kernel")));
    QVERIFY(!findKernel(h200, QString()));  // five kernels: an empty selector picks none
    // Cross-compiled configs: no winner, none launched, so the name alone is ambiguous.
    const Expected<int> ambiguous = findKernel(mustRead(cpuTrace()), QStringLiteral("autotuned_add_kernel"));
    QVERIFY(!ambiguous);
    QVERIFY2(ambiguous.error().message.contains(QStringLiteral("autotuned_add_kernel#3")), qPrintable(ambiguous.error().message));
}

void TraceTest::importedKernelLoadsEveryStage()
{
    const TraceIndex index = mustRead(h200Trace());
    QTemporaryDir dir;
    Expected<CompileResult> result = importKernel(index, 1, dir.path());
    QVERIFY2(result, qPrintable(whyNot(result)));
    QCOMPARE(result->kernel, QStringLiteral("matmul_kernel"));
    QCOMPARE(result->sourcePath, QStringLiteral("/tmp/strata-trace-src/matmul.py"));
    QCOMPARE(result->spec.value(QStringLiteral("grid")).toArray(), (QJsonArray{16}));
    QCOMPARE(result->metadata.value(QStringLiteral("tritonparse")).toObject().value(QStringLiteral("line")).toInt(), index.kernels[1].line);
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    QVERIFY2(loaded, qPrintable(whyNot(loaded)));
    QVERIFY(loaded->problems.isEmpty());
    for (const char *stage : {"ttir", "ttgir", "llir", "ptx", "sass"})
        QVERIFY2(loaded->hasStage(QLatin1String(stage)), stage);

    const int dotLine = lineContaining(loaded->sourceText, QStringLiteral("tl.dot(a, b, accumulator)"));
    QVERIFY(dotLine > 0);
    const QVector<int> ttgir = loaded->map.linesForSource(QStringLiteral("ttgir"), dotLine);
    bool wgmma = false;
    for (const int line : ttgir)
        wgmma = wgmma || loaded->listing(QStringLiteral("ttgir"))->lines[line - 1].text.contains(QStringLiteral("warp_group_dot"));
    QVERIFY2(wgmma, "the tl.dot line maps to the TTGIR warp_group_dot");
    QVERIFY(!loaded->map.linesForSource(QStringLiteral("sass"), dotLine).isEmpty());
    // tritonparse's SASS (nvdisasm -gp) also names lines of the PTX text; those are no source frames.
    for (const ListingLine &line : loaded->listing(QStringLiteral("sass"))->lines)
        for (const SourceLocation &frame : line.frames)
            QVERIFY(frame.file != QLatin1String(".nv_debug_ptx_txt"));
}

void TraceTest::functionOnlySourceKeepsLineNumbers()
{
    const TraceIndex index = mustRead(cpuTrace());
    QTemporaryDir dir;
    Expected<CompileResult> result = importKernel(index, 0, dir.path());
    QVERIFY2(result, qPrintable(whyNot(result)));
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    QVERIFY2(loaded, qPrintable(whyNot(loaded)));
    const QString original = QString::fromUtf8(readAll(kSamples + QStringLiteral("/vector_add.py")));
    const int defLine = lineContaining(original, QStringLiteral("def add_kernel"));
    const int loadLine = lineContaining(original, QStringLiteral("x = tl.load(x_ptr + offsets"));
    const StageListing *source = loaded->listing(QStringLiteral("source"));
    QVERIFY(source);
    QVERIFY(source->lines[defLine - 1].text.startsWith(QStringLiteral("def add_kernel")));
    QVERIFY(source->lines[0].text.startsWith(QStringLiteral("import triton")));  // lets counterfactuals recompile it
    QVERIFY(!loaded->map.linesForSource(QStringLiteral("ptx"), loadLine).isEmpty());
    QVERIFY(!loaded->map.linesForSource(QStringLiteral("sass"), loadLine).isEmpty());
}

void TraceTest::diagnosisRunsOnATracedKernel()
{
    const TraceIndex index = mustRead(cpuTrace());
    QTemporaryDir dir;
    Expected<CompileResult> result = importKernel(index, 0, dir.path());
    QVERIFY(result);
    const LoadedCompile loaded = *loadCompile(*result, nvidiaStages());
    diagnosis::LadderInputs inputs;
    inputs.kernel = loaded.result.kernel;
    inputs.sourcePath = loaded.result.sourcePath;
    inputs.astMissingReason = QStringLiteral("no agent in this test");
    inputs.spec = loaded.result.spec;
    inputs.compile = &loaded;
    diagnosis::LadderOptions options;
    options.maxLevel = diagnosis::Level::L3;
    const diagnosis::LadderResult diagnosed = diagnosis::runLadder(inputs, options);
    const int loadLine = lineContaining(loaded.sourceText, QStringLiteral("x = tl.load(x_ptr + offsets"));
    bool scalarLoad = false;
    for (const diagnosis::RankedFinding &ranked : diagnosed.ranking)
        scalarLoad = scalarLoad || (ranked.finding.ruleId == QLatin1String("L3.scalar-global-access") && ranked.finding.span.line == loadLine);
    QVERIFY2(scalarLoad, "n_elements is not divisible by 16 in this trace: the masked loads are scalar");
}

QTEST_GUILESS_MAIN(TraceTest)
#include "tst_trace.moc"
