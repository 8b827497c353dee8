// The NVIDIA backend's part of L3 behind the plugin interface (BackendPlugin::irRules): the loaded
// plugin hands out rules that give the same facts and findings as the core's default path on real
// sm_90 compiles (tests/fixtures), and the core reads the GPU IR's own facts with any backend's
// rules, asking the backend for dots, its own ops and its machine-code stages. The plugin's part of
// the dot-loop feed model and of the static costs (NvidiaDotLoopFeed.cpp, NvidiaStaticCost.cpp).
#include "DiagnosisTestSupport.h"
#include "diagnosis/l3_ir/IrAttribution.h"
#include "diagnosis/l3_ir/LaunchFit.h"
#include "diagnosis/model/DiagnosisJson.h"
#include "host/PluginRegistry.h"
#include "ir/mlir/MlirReader.h"

#include <QJsonArray>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

IrAttribution attributed(const Expected<IrAttribution> &attribution)
{
    if (!attribution)
        qFatal("%s", qPrintable(attribution.error().toString()));
    return *attribution;
}

QJsonArray findingsJson(const QVector<Finding> &findings)
{
    QJsonArray array;
    for (const Finding &finding : findings)
        array.append(toJson(finding));
    return array;
}

bool hasRule(const QVector<Finding> &findings, const QString &rule)
{
    return std::any_of(findings.cbegin(), findings.cend(), [&rule](const Finding &f) { return f.ruleId == rule; });
}

// A backend that knows nothing of its own: no dots, no ops, no machine code, no compiler figures,
// no rules. What the facts still hold is what the core reads from the GPU IR alone.
class SilentBackend : public BackendIrRules {
public:
    GpuIrDot gpuIrDot(const ir::MlirModule &, const ir::MlirOp &op) const override
    {
        if (op.name.endsWith(QLatin1String("dot")))
            ++dotsAsked;
        return {};
    }
    void addGpuIrOp(const ir::MlirOp &, SourceLineFacts &) const override { ++opsSeen; }
    QStringList collectMachineFacts(const LoadedCompile &, const LineFactsAt &, QStringList &) const override
    {
        return {QStringLiteral("silent-stage")};
    }
    void readCompilerFigures(const CompileResult &, KernelIrFacts &) const override {}
    QVector<Finding> findings(const KernelIrFacts &, const LoadedCompile &) const override { return {}; }
    QStringList gpuIrRules() const override { return {QStringLiteral("L3.silent")}; }
    QVector<Finding> launchFindings(const KernelIrFacts &, const QJsonObject &) const override { return {}; }

    mutable int dotsAsked = 0;
    mutable int opsSeen = 0;
};

} // namespace

class TestNvidiaIrRules : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void onlyNvidiaHandsOutIrRules();
    void pluginRulesGiveTheCoresL3_data();
    void pluginRulesGiveTheCoresL3();
    void pluginLaunchRulesGiveTheCores();
    void coreReadsTheGpuIrWithAnyBackend();
    void pluginFeedsTheDotLoopModel();
    void pluginPricesItsMmaSyncTile();

private:
    PluginRegistry m_registry;
    const BackendPlugin *m_nvidia = nullptr;
};

void TestNvidiaIrRules::initTestCase()
{
    m_registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR));
    m_nvidia = m_registry.backend(QStringLiteral("nvidia"));
    QVERIFY2(m_nvidia, qPrintable(m_registry.errors().value(0).toString()));
}

void TestNvidiaIrRules::onlyNvidiaHandsOutIrRules()
{
    QVERIFY(m_nvidia->irRules());
    QVERIFY(m_nvidia->usesCoreIrRules());
    if (const BackendPlugin *ascend = m_registry.backend(QStringLiteral("ascend")))
        QVERIFY(!ascend->irRules());  // it reads its own stages (irFindings), not the core's GPU IR
}

void TestNvidiaIrRules::pluginRulesGiveTheCoresL3_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<QString>("rule");   // a rule the compile must raise, so the comparison is not of nothing
    QTest::newRow("spilling matmul") << "matmul/big_spill" << "L3.register-spill";
    QTest::newRow("unaligned vector add") << "vector_add/unaligned" << "L3.scalar-global-access";
    QTest::newRow("mma.sync dot") << "ast/compiles/mma_sync_dot" << "L3.mma-sync-dot";
    QTest::newRow("single-buffered TMA") << "ast/compiles/tma_single_buffer" << "L3.unpipelined-loop-load";
    QTest::newRow("fp32 dot") << "ast/compiles/fp32_dot_ieee" << "L3.fma-dot";
}

void TestNvidiaIrRules::pluginRulesGiveTheCoresL3()
{
    QFETCH(QString, fixture);
    QFETCH(QString, rule);
    const LoadedCompile compile = testing::loadFixtureCompile(fixture);
    const IrAttribution core = attributed(attributeIr(compile));
    const IrAttribution plugin = attributed(attributeIr(compile, *m_nvidia->irRules()));
    QVERIFY2(hasRule(plugin.findings, rule), qPrintable(rule));
    QCOMPARE(toJson(plugin.facts), toJson(core.facts));
    QCOMPARE(findingsJson(plugin.findings), findingsJson(core.findings));
    QCOMPARE(plugin.uncheckedRules, core.uncheckedRules);
    QVERIFY(plugin.facts.stagesRead.contains(QStringLiteral("ptx")) && plugin.facts.stagesRead.contains(QStringLiteral("sass")));
}

// 136 programs of a 128x128 wgmma loop on an sm_90's 132 SMs leave a second round of 4: a wave tail.
void TestNvidiaIrRules::pluginLaunchRulesGiveTheCores()
{
    const LoadedCompile compile = testing::loadFixtureCompile(QStringLiteral("ast/compiles/unpipelined_dot"));
    const IrAttribution ir = attributed(attributeIr(compile, *m_nvidia->irRules()));
    QJsonObject spec = compile.result.spec;
    spec.insert(QStringLiteral("grid"), QJsonArray{136, 1, 1});
    const QVector<Finding> plugin = m_nvidia->irRules()->launchFindings(ir.facts, spec);
    QVERIFY(hasRule(plugin, QStringLiteral("L3.wave-tail")));
    QCOMPARE(findingsJson(plugin), findingsJson(launchFitFindings(ir.facts, spec)));
}

void TestNvidiaIrRules::coreReadsTheGpuIrWithAnyBackend()
{
    const LoadedCompile compile = testing::loadFixtureCompile(QStringLiteral("matmul/default"));
    const SilentBackend silent;
    const Expected<KernelIrFacts> facts = collectIrFacts(compile, silent);
    QVERIFY2(facts, qPrintable(facts ? QString() : facts.error().toString()));
    QVERIFY(facts->gpuIrRead);
    QCOMPARE(facts->stagesRead, (QStringList{QStringLiteral("ttgir"), QStringLiteral("silent-stage")}));
    QVERIFY(silent.opsSeen > 0);
    QCOMPARE(facts->registers, -1);                  // the compiler's figures are the backend's to read
    QCOMPARE(facts->numWarps, compile.result.metadata.value(QStringLiteral("num_warps")).toInt());
    int loads = 0, accesses = 0;
    for (const SourceLineFacts &line : facts->lines) {
        loads += line.ttgirLoads + line.asyncCopies;
        accesses += line.accessCount(QStringLiteral("ptx"), false) + line.mmaInstructions;
        QCOMPARE(line.dotKind, DotKind::None);        // no backend said which unit runs it
    }
    QVERIFY(loads >= 2);                             // A and B tiles, from the GPU IR alone
    QCOMPARE(accesses, 0);                           // no PTX read without the backend

    const Expected<IrAttribution> attribution = attributeIr(compile, silent);
    QVERIFY(attribution && attribution->findings.isEmpty());
}

// wgmma reads its register operand from registers, mma.sync both through shared memory; on sm_90 a
// dot on mma.sync is L3.mma-sync-dot's to name. Hopper's rates per SM: 4096 16-bit FLOP, 128
// shared-memory bytes and 16 special-function results per clock; other targets have none yet.
void TestNvidiaIrRules::pluginFeedsTheDotLoopModel()
{
    const BackendIrRules &rules = *m_nvidia->irRules();
    SourceLineFacts line;
    line.dotKind = DotKind::AsyncMatrix;
    QVERIFY(rules.dotFeed(line, QStringLiteral("sm_90a")).use == DotFeed::Use::Counted);
    QVERIFY(!rules.dotFeed(line, QStringLiteral("sm_90a")).registerOperandsViaShared);
    line.dotKind = DotKind::SyncMatrix;
    QVERIFY(rules.dotFeed(line, QStringLiteral("sm_90")).use == DotFeed::Use::NamedElsewhere);
    QVERIFY(rules.dotFeed(line, QStringLiteral("sm_80")).use == DotFeed::Use::Counted);
    QVERIFY(rules.dotFeed(line, QStringLiteral("sm_80")).registerOperandsViaShared);
    line.dotKind = DotKind::Fma;
    QVERIFY(rules.dotFeed(line, QStringLiteral("sm_90")).use == DotFeed::Use::NotCounted);

    const std::optional<ComputeUnitRates> hopper = rules.computeUnitRates(QStringLiteral("sm_90"), 2);
    QVERIFY(hopper);
    QCOMPARE(hopper->tensorFlopsPerClock, 4096.0);
    QCOMPARE(hopper->sharedBytesPerClock, 128.0);
    QCOMPARE(hopper->specialPerClock, 16.0);
    QCOMPARE(hopper->units, 132);
    QCOMPARE(rules.computeUnitRates(QStringLiteral("sm_90"), 1)->tensorFlopsPerClock, 8192.0);
    QVERIFY(!rules.computeUnitRates(QStringLiteral("sm_80"), 2));
    QCOMPARE(rules.dotTileRecipes(), QStringList{QStringLiteral("hopper-dot-tile")});

    // A matmul has no special-function work (softmax between dots: tst_loop_mechanisms).
    const LoadedCompile matmul = testing::loadFixtureCompile(QStringLiteral("matmul/default"));
    const int dotLine = testing::sourceLineContaining(matmul, QStringLiteral("tl.dot("));
    QCOMPARE(rules.specialFunctionOps(matmul, dotLine), 0);
}

// A 16-row dot on mma.sync would fill a quarter of wgmma's 64-row tile: the plugin prices it low;
// a 32-row one, and rules that are not its own, it leaves to the core.
void TestNvidiaIrRules::pluginPricesItsMmaSyncTile()
{
    const BackendIrRules &rules = *m_nvidia->irRules();
    const LoadedCompile compile = testing::loadFixtureCompile(QStringLiteral("ast/compiles/sub_chunk_dot"));
    const IrAttribution ir = attributed(attributeIr(compile, rules));
    Finding mmaSync = newFinding(QStringLiteral("L3.mma-sync-dot"), Level::L3, QStringLiteral("dot on mma.sync"), Severity::High,
                                 0.9, SourceSpan{}, QString());
    mmaSync.evidence.append(Evidence::metric(QStringLiteral("dot_tile_m"), 16, QStringLiteral("elements")));
    const std::optional<EstimatedCost> cost = rules.estimatedCost(mmaSync, ir.facts, compile);
    QVERIFY(cost);
    QCOMPARE(cost->cap, Severity::Low);
    QCOMPARE(cost->share, 0.0);
    QCOMPARE(cost->reason, QStringLiteral("a 16-row dot would use a quarter of wgmma's 64-row tile at best"));
    mmaSync.evidence.first() = Evidence::metric(QStringLiteral("dot_tile_m"), 32, QStringLiteral("elements"));
    QVERIFY(!rules.estimatedCost(mmaSync, ir.facts, compile));
    mmaSync.ruleId = QStringLiteral("L3.scalar-global-access");
    QVERIFY(!rules.estimatedCost(mmaSync, ir.facts, compile));
}

QTEST_GUILESS_MAIN(TestNvidiaIrRules)
#include "tst_nvidia_ir_rules.moc"
