// The Ascend backend plugin on real triton-ascend 3.2.0 output (tests/fixtures/ascend, made by
// regenerate.sh): both plugins load side by side, the Ascend pipeline and summary, its stages read
// and mapped to source lines, its after-pass dumps, its L3 facts, and the ladder taking them in
// place of the core's NVIDIA rules. The NVIDIA plugin's summary is checked against the same text
// the core printed before it moved into the plugin.
#include "AscendFacts.h"
#include "FindingsByRule.h"
#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/PluginRegistry.h"

#include <QFile>
#include <QJsonArray>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

const QString kFixtures = QStringLiteral(STRATA_FIXTURES_DIR);

QString ascendFixture(const QString &name)
{
    return kFixtures + QStringLiteral("/ascend/") + name + QStringLiteral("/compile.json");
}

// 1-based line of the first source line of the fixture holding `needle`.
int sourceLineOf(const LoadedCompile &compile, const QString &needle)
{
    const QStringList lines = compile.sourceText.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

} // namespace

class TestAscendPlugin : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void bothBackendsLoad();
    void ascendDeclaresItsPipeline();
    void summaryAndHeadlineFromTheCompile();
    void nvidiaSummaryIsTheCoresFormerText();
    void stagesReadAndMapToSourceLines_data();
    void stagesReadAndMapToSourceLines();
    void dotAndReductionLinesMapIntoTtadapter();
    void passDumpsAreAfterDumpsAndRead();
    void factsOfGather();
    void factsOfMatmulAndVectorAdd();
    void ladderTakesTheBackendsFacts();
    void stageRunsRoundTrip();

private:
    LoadedCompile load(const QString &name);

    PluginRegistry m_registry;
    BackendPlugin *m_ascend = nullptr;
    BackendPlugin *m_nvidia = nullptr;
};

void TestAscendPlugin::initTestCase()
{
    m_registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR));
    m_ascend = m_registry.backend(QStringLiteral("ascend"));
    m_nvidia = m_registry.backend(QStringLiteral("nvidia"));
    QVERIFY2(m_ascend && m_nvidia, qPrintable(m_registry.errors().value(0).toString()));
}

LoadedCompile TestAscendPlugin::load(const QString &name)
{
    Expected<CompileResult> result = readCompileResultFile(ascendFixture(name));
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    Expected<LoadedCompile> loaded = loadCompile(*result, m_ascend->stagesFor(result->target));
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().toString()));
    return *loaded;
}

void TestAscendPlugin::bothBackendsLoad()
{
    QVERIFY2(m_registry.errors().isEmpty(), qPrintable(m_registry.errors().value(0).toString()));
    QCOMPARE(m_registry.backendForTarget(QStringLiteral("ascend910_95")), m_ascend);
    QCOMPARE(m_registry.backendForTarget(QStringLiteral("ascend910b3")), m_ascend);
    QCOMPARE(m_registry.backendForTarget(QStringLiteral("sm_90")), m_nvidia);
    QVERIFY(!m_registry.backendForTarget(QStringLiteral("ascend910b4")));
    QCOMPARE(m_ascend->targets(), (QStringList{"ascend910_95", "ascend910b3"}));
    QCOMPARE(m_ascend->defaultTarget(), QStringLiteral("ascend910_95"));
    // The core's NVIDIA rules apply to NVIDIA only.
    QVERIFY(m_nvidia->usesCoreIrRules());
    QVERIFY(!m_ascend->usesCoreIrRules());
}

void TestAscendPlugin::ascendDeclaresItsPipeline()
{
    for (const QString &target : m_ascend->targets()) {
        const QVector<StageDescriptor> stages = m_ascend->stagesFor(target);
        QStringList ids;
        for (const StageDescriptor &stage : stages)
            ids.append(stage.id);
        QCOMPARE(ids, (QStringList{"source", "ttir", "ttadapter", "hivm", "npubin"}));
        QCOMPARE(stages[0].format, StageFormat::PythonSource);
        QCOMPARE(stages[2].format, StageFormat::MlirText);
        QCOMPARE(stages[2].signature, QStringLiteral("mix_mode"));
        QCOMPARE(stages[4].format, StageFormat::Binary);
        QVERIFY(stages[1].carriesLocations && stages[2].carriesLocations);
        QVERIFY(!stages[3].carriesLocations);  // HIVM: never seen here, locations unknown
        for (int i = 0; i < stages.size(); ++i)
            QCOMPARE(stages[i].order, i);
    }
    QCOMPARE(m_ascend->passDumpFormat(), StageFormat::MlirText);
    QCOMPARE(m_ascend->summaryArtifacts(QStringLiteral("ascend910_95")),
             (QStringList{"source", "ttir", "ttadapter", "hivm", "npubin"}));
    // A host pool restricts each agent to one NPU through ACL's list (no order variable).
    QCOMPARE(m_ascend->deviceMask().variable, QStringLiteral("ASCEND_RT_VISIBLE_DEVICES"));
    QVERIFY(m_ascend->deviceMask().orderVariables.isEmpty());
    // triton-ascend's GPUTarget("npu", SOC, 0) in a tritonparse trace names the SoC.
    const auto npu = [](const char *soc) {
        return QJsonObject{{QStringLiteral("backend"), QStringLiteral("npu")}, {QStringLiteral("arch"), QLatin1String(soc)}};
    };
    QCOMPARE(m_ascend->targetFromTriton(npu("Ascend910_9599")), QStringLiteral("ascend910_95"));
    QCOMPARE(m_ascend->targetFromTriton(npu("Ascend910B3")), QStringLiteral("ascend910b3"));
    QCOMPARE(m_ascend->targetFromTriton(npu("Ascend310P")), QString());
    QCOMPARE(m_ascend->targetFromTriton(QJsonObject{{QStringLiteral("backend"), QStringLiteral("cuda")}, {QStringLiteral("arch"), 90}}), QString());
}

void TestAscendPlugin::summaryAndHeadlineFromTheCompile()
{
    Expected<CompileResult> matmul = readCompileResultFile(ascendFixture(QStringLiteral("matmul")));
    QVERIFY2(matmul, qPrintable(matmul ? QString() : matmul.error().toString()));
    const QStringList lines = m_ascend->summaryLines(*matmul);
    QCOMPARE(lines.value(0), QStringLiteral("Kernel mode: mix (cube and vector cores: the kernel has a tl.dot)"));
    QCOMPARE(lines.value(1), QStringLiteral("Stages ran: ttir, ttadapter; skipped: hivm, npubin"));
    QCOMPARE(lines.value(2), QStringLiteral("Compiled offline by triton-ascend 3.2.0 (no NPU was involved)"));
    QCOMPARE(m_ascend->headline(*matmul).text, QStringLiteral("Mode: mix, not run: hivm, npubin"));
    QVERIFY(!m_ascend->headline(*matmul).alarming);
    for (const QString &line : lines)
        QVERIFY2(!line.contains(QLatin1String("Registers")), qPrintable(line));

    Expected<CompileResult> add = readCompileResultFile(ascendFixture(QStringLiteral("vector_add")));
    QVERIFY(add);
    QCOMPARE(m_ascend->summaryLines(*add).value(0), QStringLiteral("Kernel mode: aiv (vector cores only)"));
    // A result without mix_mode (a hand-made or older one) says so instead of guessing.
    CompileResult bare = *add;
    bare.metadata.remove(QStringLiteral("mix_mode"));
    QCOMPARE(m_ascend->summaryLines(bare).value(0),
             QStringLiteral("Kernel mode: unknown (no mix_mode in the compile's metadata)"));
}

void TestAscendPlugin::nvidiaSummaryIsTheCoresFormerText()
{
    Expected<CompileResult> spill = readCompileResultFile(kFixtures + QStringLiteral("/matmul/big_spill/compile.json"));
    QVERIFY2(spill, qPrintable(spill ? QString() : spill.error().toString()));
    const PtxasInfo &p = spill->ptxas;
    QVERIFY(p.registers > 0 && p.spillStoreBytes > 0);
    const QStringList lines = m_nvidia->summaryLines(*spill);
    QCOMPARE(lines.value(0), QStringLiteral("Registers: %1, spills: %2 B stored / %3 B loaded, stack %4 B")
                                 .arg(p.registers).arg(p.spillStoreBytes).arg(p.spillLoadBytes).arg(p.stackBytes));
    QCOMPARE(lines.size(), 1 + p.warnings.size());
    const CompileHeadline headline = m_nvidia->headline(*spill);
    QCOMPARE(headline.text, QStringLiteral("Registers: %1, spills: %2 B store / %3 B load")
                                .arg(p.registers).arg(p.spillStoreBytes).arg(p.spillLoadBytes));
    QVERIFY(headline.alarming);
    QCOMPARE(m_nvidia->summaryArtifacts(QStringLiteral("sm_90")),
             (QStringList{"source", "ttir", "ttgir", "llir", "ptx", "cubin", "sass"}));
}

void TestAscendPlugin::stagesReadAndMapToSourceLines_data()
{
    QTest::addColumn<QString>("name");
    for (const char *name : {"vector_add", "vector_add_910b3", "softmax", "matmul", "gather"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestAscendPlugin::stagesReadAndMapToSourceLines()
{
    QFETCH(QString, name);
    const LoadedCompile compile = load(name);
    QStringList read;
    for (const StageDescriptor &stage : compile.stages)
        read.append(stage.id);
    QCOMPARE(read, (QStringList{"source", "ttir", "ttadapter"}));
    for (const StageProblem &problem : compile.problems)
        QVERIFY2(!problem.refused, qPrintable(problem.toString()));
    const LocationStats *ttadapter = compile.locationStats(QStringLiteral("ttadapter"));
    QVERIFY(ttadapter);
    QVERIFY(ttadapter->ops > 10);
    // With line info on, every ttadapter op the reader counts maps to the kernel source.
    QCOMPARE(ttadapter->mapped, ttadapter->ops);
    QVERIFY(!compile.isDegraded(QStringLiteral("ttadapter")));
    // The skipped stages say why, from the agent's `stages`.
    QCOMPARE(compile.result.stageRuns.size(), 4);
    const StageRun *hivm = compile.result.stageRun(QStringLiteral("hivm"));
    QVERIFY(hivm && !hivm->ran);
    QVERIFY(hivm->reason.contains(QLatin1String("bishengir-compile")));
    QCOMPARE(compile.result.stageRun(QStringLiteral("ttadapter"))->tools, QStringList{"triton-adapter-opt"});
}

void TestAscendPlugin::dotAndReductionLinesMapIntoTtadapter()
{
    const LoadedCompile matmul = load(QStringLiteral("matmul"));
    const int dotLine = sourceLineOf(matmul, QStringLiteral("tl.dot("));
    const StageListing *ttadapter = matmul.listing(QStringLiteral("ttadapter"));
    QStringList opcodes;
    for (const int line : matmul.map.linesForSource(QStringLiteral("ttadapter"), dotLine))
        opcodes.append(ttadapter->lines[line].opcode);
    QVERIFY2(opcodes.contains(QStringLiteral("linalg.matmul")), qPrintable(opcodes.join(u' ')));
    // And back: the linalg.matmul line names the tl.dot line.
    for (int i = 0; i < ttadapter->lineCount(); ++i)
        if (ttadapter->lines[i].opcode == QLatin1String("linalg.matmul"))
            QCOMPARE(matmul.map.sourceForLine(QStringLiteral("ttadapter"), i).line, dotLine);

    // tl.max inlined from triton's standard.py: callsite(...) locations land on the calling line.
    const LoadedCompile softmax = load(QStringLiteral("softmax"));
    const int maxLine = sourceLineOf(softmax, QStringLiteral("tl.max("));
    const StageListing *reduced = softmax.listing(QStringLiteral("ttadapter"));
    QStringList maxOps;
    for (const int line : softmax.map.linesForSource(QStringLiteral("ttadapter"), maxLine))
        maxOps.append(reduced->lines[line].opcode);
    QVERIFY2(maxOps.contains(QStringLiteral("linalg.reduce")) && maxOps.contains(QStringLiteral("arith.maxnumf")),
             qPrintable(maxOps.join(u' ')));
    QVERIFY(softmax.inlinedCallers().size() >= 2);   // standard.py lines of tl.max and tl.sum
}

void TestAscendPlugin::passDumpsAreAfterDumpsAndRead()
{
    for (const QString &name : {QStringLiteral("vector_add"), QStringLiteral("matmul"), QStringLiteral("softmax")}) {
        const LoadedCompile compile = load(name);
        int after = 0;
        for (const PassDumpRef &dump : compile.result.passDumps) {
            // TTIR passes are dumped before they run, the adapter's after.
            QCOMPARE(dump.after, dump.stage == QLatin1String("ttadapter"));
            after += dump.after;
            const Expected<StageListing> listing = loadPassDump(dump, m_ascend->passDumpFormat());
            QVERIFY2(listing, qPrintable(listing ? QString() : listing.error().toString()));
            QVERIFY(listing->problems.isEmpty());
        }
        QCOMPARE(after, 14);   // the adapter's pipeline, one dump per pass
        // The last adapter dump is the ttadapter artifact, as PROTOCOL.md says.
        QFile last(compile.result.passDumps.last().file.path), artifact(compile.result.artifacts.value(QStringLiteral("ttadapter")).path);
        QVERIFY(last.open(QIODevice::ReadOnly) && artifact.open(QIODevice::ReadOnly));
        QVERIFY(last.readAll().contains(artifact.readAll().trimmed().left(200)));
    }
}

void TestAscendPlugin::factsOfGather()
{
    const LoadedCompile gather = load(QStringLiteral("gather"));
    BackendIrInput input{&gather.result, {}};
    for (const StageListing &listing : gather.listings)
        input.listings.append(&listing);
    const QVector<Finding> findings = m_ascend->irFindings(input);

    const QVector<Finding> discrete = withRule(findings, ascend::kDiscreteAccessRule);
    QCOMPARE(discrete.size(), 1);
    QCOMPARE(discrete[0].span.line, sourceLineOf(gather, QStringLiteral("tl.load(x_ptr + idx")));
    QCOMPARE(discrete[0].severity, Severity::High);
    QCOMPARE(discrete[0].level, Level::L3);
    // Evidence: the marked ttadapter lines, as they are in the listing.
    const StageListing *ttadapter = gather.listing(QStringLiteral("ttadapter"));
    QVERIFY(discrete[0].evidence.size() >= 2);
    for (const Evidence &item : discrete[0].evidence) {
        const auto *op = std::get_if<IrOpEvidence>(&item.data);
        if (!op) {
            QVERIFY(std::holds_alternative<MetricEvidence>(item.data));   // trip count, block copies
            continue;
        }
        QVERIFY(op->stage == QLatin1String("ttadapter"));
        QCOMPARE(op->text, ttadapter->lines[op->irLine].text.trimmed());
    }
    QVERIFY(std::get<IrOpEvidence>(discrete[0].evidence.first().data).text.contains(QLatin1String("{DiscreteMemAccess}")));
    QCOMPARE(std::get<IrOpEvidence>(discrete[0].evidence[discrete[0].evidence.size() - 3].data).opcode, QStringLiteral("scf.for"));
    // Estimated cost: 256 element moves against the kernel's 3 block copies (two loads, the store).
    QVERIFY(discrete[0].gapShare && discrete[0].gapShare->estimate);
    QVERIFY(qAbs(discrete[0].gapShare->share - 256.0 / 259.0) < 1e-9);

    const QVector<Finding> scalar = withRule(findings, ascend::kScalarFallbackRule);
    QCOMPARE(scalar.size(), 1);
    QCOMPARE(scalar[0].span.line, sourceLineOf(gather, QStringLiteral(">> 4")));
    QCOMPARE(std::get<IrOpEvidence>(scalar[0].evidence.first().data).opcode, QStringLiteral("arith.shrsi"));
    QCOMPARE(std::get<IrOpEvidence>(scalar[0].evidence.last().data).opcode, QStringLiteral("arith.andi"));
    QVERIFY(scalar[0].gapShare && scalar[0].gapShare->estimate && scalar[0].gapShare->share == 0.35);

    // The index load is masked with other=0: its buffer is filled first.
    const QVector<Finding> fills = withRule(findings, ascend::kPaddingFillRule);
    QCOMPARE(fills.size(), 1);
    QCOMPARE(fills[0].span.line, sourceLineOf(gather, QStringLiteral("tl.load(idx_ptr")));
    QCOMPARE(std::get<IrOpEvidence>(fills[0].evidence.first().data).opcode, QStringLiteral("linalg.fill"));
}

void TestAscendPlugin::factsOfMatmulAndVectorAdd()
{
    const LoadedCompile matmul = load(QStringLiteral("matmul"));
    BackendIrInput input{&matmul.result, {}};
    for (const StageListing &listing : matmul.listings)
        input.listings.append(&listing);
    const QVector<Finding> mix = withRule(m_ascend->irFindings(input), ascend::kCoreMixRule);
    QCOMPARE(mix.size(), 1);
    QVERIFY(mix[0].title.contains(QLatin1String("\"mix\"")));
    QCOMPARE(mix[0].span.line, sourceLineOf(matmul, QStringLiteral("tl.dot(")));
    const auto &header = std::get<IrOpEvidence>(mix[0].evidence.first().data);
    QVERIFY(header.text.startsWith(QLatin1String("func.func @matmul_kernel(...) attributes {")));
    QVERIFY(header.text.contains(QLatin1String("mix_mode = \"mix\"")));
    QCOMPARE(std::get<IrOpEvidence>(mix[0].evidence.last().data).opcode, QStringLiteral("linalg.matmul"));

    const LoadedCompile add = load(QStringLiteral("vector_add"));
    BackendIrInput addInput{&add.result, {}};
    for (const StageListing &listing : add.listings)
        addInput.listings.append(&listing);
    const QVector<Finding> addFindings = m_ascend->irFindings(addInput);
    QVERIFY(withRule(addFindings, ascend::kCoreMixRule).value(0).title.contains(QLatin1String("\"aiv\"")));
    QVERIFY(withRule(addFindings, ascend::kDiscreteAccessRule).isEmpty());   // contiguous blocks: one copy each
    QVERIFY(withRule(addFindings, ascend::kScalarFallbackRule).isEmpty());   // float math, index-typed masks
    QCOMPARE(withRule(addFindings, ascend::kPaddingFillRule).size(), 2);      // x and y loads
    // Without ttadapter there is nothing to read: no findings, no crash.
    QVERIFY(m_ascend->irFindings(BackendIrInput{&add.result, {}}).isEmpty());
}

void TestAscendPlugin::ladderTakesTheBackendsFacts()
{
    const LoadedCompile gather = load(QStringLiteral("gather"));
    LadderInputs inputs;
    inputs.kernel = gather.result.kernel;
    inputs.sourcePath = gather.result.sourcePath;
    inputs.spec = gather.result.spec;
    inputs.compile = &gather;
    inputs.backend = m_ascend;
    const LadderResult result = runLadder(inputs);
    const QVector<Finding> l3 = result.diagnosis.findings(Level::L3);
    QVERIFY(!l3.isEmpty());
    for (const Finding &finding : l3)
        QVERIFY2(finding.ruleId.startsWith(QLatin1String("L3.ascend-")), qPrintable(finding.ruleId));
    QVERIFY(result.diagnosis.findings(Level::L4).isEmpty());
    QStringList log;
    for (const EscalationStep &step : result.diagnosis.escalation)
        log << step.step + QStringLiteral(": ") + step.reason;
    const QString text = log.join(u'\n');
    QVERIFY2(text.contains(QLatin1String("L4 compiler analysis: not run")), qPrintable(text));
    // Nothing of the core's NVIDIA rules leaks in: no "GPU IR missing" for a backend that has none.
    QVERIFY2(!text.contains(QLatin1String("GPU IR")), qPrintable(text));
    for (const QString &warning : result.diagnosis.warnings)
        QVERIFY2(!warning.contains(QLatin1String("HIVM")), qPrintable(warning));
    QCOMPARE(result.ranking.first().finding.ruleId, QString::fromLatin1(ascend::kDiscreteAccessRule));
}

void TestAscendPlugin::stageRunsRoundTrip()
{
    Expected<CompileResult> read = readCompileResultFile(ascendFixture(QStringLiteral("softmax")));
    QVERIFY(read);
    const QJsonObject json = toJson(*read);
    QCOMPARE(json.value(QStringLiteral("backend")).toString(), QStringLiteral("ascend"));
    Expected<CompileResult> again = parseCompileResult(json);
    QVERIFY(again);
    QCOMPARE(again->stageRuns.size(), read->stageRuns.size());
    QCOMPARE(again->stageRun(QStringLiteral("npubin"))->reason, read->stageRun(QStringLiteral("npubin"))->reason);
    QCOMPARE(again->passDumps.last().after, true);
    // A malformed entry names itself.
    QJsonObject broken = json;
    broken.insert(QStringLiteral("stages"), QJsonArray{QJsonObject{{QStringLiteral("stage"), QStringLiteral("hivm")},
                                                                   {QStringLiteral("status"), QStringLiteral("maybe")}}});
    Expected<CompileResult> refused = parseCompileResult(broken);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.contains(QLatin1String("stages[0]")), qPrintable(refused.error().toString()));
    // An NVIDIA result's JSON gains no keys.
    Expected<CompileResult> nvidia = readCompileResultFile(kFixtures + QStringLiteral("/vector_add/aligned/compile.json"));
    QVERIFY(nvidia);
    const QJsonObject nvidiaJson = toJson(*nvidia);
    QVERIFY(!nvidiaJson.contains(QStringLiteral("backend")) && !nvidiaJson.contains(QStringLiteral("stages")));
}

QTEST_GUILESS_MAIN(TestAscendPlugin)
#include "tst_ascend_plugin.moc"
