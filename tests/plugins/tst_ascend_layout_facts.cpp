// The Ascend plugin's tile and launch facts (plugins/ascend/AscendLayoutFacts) on real triton-ascend
// 3.2.0 output (tests/fixtures/ascend, made by regenerate.sh): a tile whose last axis is 16 bytes
// (narrow_tile), tl.make_block_ptr with a runtime and with a constexpr row stride (block_ptr_*),
// and captured grids against the AI cores of each target, through the plugin and through the
// ladder (which hands the plugin the launch). Each finding carries its estimated share.
#include "AscendFacts.h"
#include "FindingsByRule.h"
#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/PluginRegistry.h"

#include <QJsonArray>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

int sourceLineOf(const LoadedCompile &compile, const QString &needle)
{
    const QStringList lines = compile.sourceText.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

QJsonObject launchWithGrid(qint64 programs)
{
    return {{QStringLiteral("grid"), QJsonArray{programs, 1, 1}}};
}

} // namespace

class TestAscendLayoutFacts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void narrowTileIsPadded();
    void alignedTilesAreNot();
    void runtimeBlockPtrStrides();
    void gridAgainstTheCores_data();
    void gridAgainstTheCores();
    void ladderHandsThePluginTheLaunch();

private:
    LoadedCompile load(const QString &name);
    QVector<Finding> findings(const LoadedCompile &compile, const QJsonObject &launch = {});

    PluginRegistry m_registry;
    BackendPlugin *m_ascend = nullptr;
};

void TestAscendLayoutFacts::initTestCase()
{
    m_registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR));
    m_ascend = m_registry.backend(QStringLiteral("ascend"));
    QVERIFY2(m_ascend, qPrintable(m_registry.errors().value(0).toString()));
}

LoadedCompile TestAscendLayoutFacts::load(const QString &name)
{
    Expected<CompileResult> result = readCompileResultFile(QStringLiteral(STRATA_FIXTURES_DIR "/ascend/") + name
                                                           + QStringLiteral("/compile.json"));
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    Expected<LoadedCompile> loaded = loadCompile(*result, m_ascend->stagesFor(result->target));
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().toString()));
    return std::move(*loaded);
}

QVector<Finding> TestAscendLayoutFacts::findings(const LoadedCompile &compile, const QJsonObject &launch)
{
    BackendIrInput input{&compile.result, {}, launch};
    for (const StageListing &listing : compile.listings)
        input.listings.append(&listing);
    return m_ascend->irFindings(input);
}

void TestAscendLayoutFacts::narrowTileIsPadded()
{
    const LoadedCompile tile = load(QStringLiteral("narrow_tile"));
    const QVector<Finding> padded = withRule(findings(tile), ascend::kUnalignedTailRule);
    QCOMPARE(padded.size(), 1);   // the [64, 8] fp16 tile; the fp32 accumulator rows are 32 bytes
    const Finding &finding = padded.first();
    QVERIFY2(finding.title.contains(QLatin1String("16 bytes, padded to 32 (64x8xf16)")), qPrintable(finding.title));
    QCOMPARE(finding.span.line, sourceLineOf(tile, QStringLiteral("tile = tl.load(")));
    QCOMPARE(finding.severity, Severity::Medium);
    QVERIFY(finding.gapShare && finding.gapShare->estimate);
    QCOMPARE(finding.gapShare->share, 0.5);
    const auto &op = std::get<IrOpEvidence>(finding.evidence.first().data);
    QCOMPARE(op.stage, QStringLiteral("ttadapter"));
    QCOMPARE(op.text, tile.listing(QStringLiteral("ttadapter"))->lines[op.irLine].text.trimmed());
    QVERIFY(op.text.contains(QLatin1String("memref<64x8xf16>")));
}

void TestAscendLayoutFacts::alignedTilesAreNot()
{
    for (const QString name : {QStringLiteral("vector_add"), QStringLiteral("softmax"), QStringLiteral("matmul"),
                               QStringLiteral("block_ptr_runtime")}) {
        const LoadedCompile compile = load(name);
        QVERIFY2(withRule(findings(compile), ascend::kUnalignedTailRule).isEmpty(), qPrintable(name));
    }
}

void TestAscendLayoutFacts::runtimeBlockPtrStrides()
{
    const LoadedCompile runtime = load(QStringLiteral("block_ptr_runtime"));
    const QVector<Finding> found = withRule(findings(runtime), ascend::kRuntimeBlockPtrRule);
    QCOMPARE(found.size(), 2);   // the load's and the store's block pointers, on their own lines
    QCOMPARE(found[0].span.line, sourceLineOf(runtime, QStringLiteral("x_block = tl.make_block_ptr")));
    QCOMPARE(found[1].span.line, sourceLineOf(runtime, QStringLiteral("o_block = tl.make_block_ptr")));
    const auto &op = std::get<IrOpEvidence>(found[0].evidence.first().data);
    QCOMPARE(op.stage, QStringLiteral("ttir"));
    QCOMPARE(op.opcode, QStringLiteral("tt.make_tensor_ptr"));
    QVERIFY2(found[0].title.contains(QLatin1String("%4")) && !found[0].title.contains(QLatin1String("%c1_i64")),
             qPrintable(found[0].title));
    QVERIFY(found[0].gapShare && found[0].gapShare->estimate);
    QVERIFY(qAbs(found[0].gapShare->share - (1.0 - 1.0 / 5.4)) < 1e-9);
    // The same kernel with the stride a constexpr: all strides constants, nothing to report.
    const LoadedCompile constant = load(QStringLiteral("block_ptr_constexpr"));
    QVERIFY(withRule(findings(constant), ascend::kRuntimeBlockPtrRule).isEmpty());
}

void TestAscendLayoutFacts::gridAgainstTheCores_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::addColumn<qint64>("programs");
    QTest::addColumn<QString>("title");   // empty: no finding
    QTest::addColumn<int>("severity");
    QTest::addColumn<double>("idle");
    // The 950 has 56-72 AI vector cores and 28-36 AI cube cores (three parts); the 910B3 40 / 20.
    QTest::newRow("950 aiv, 4000 programs") << QStringLiteral("vector_add") << qint64(4000) << QStringLiteral("4000 programs on 56-72 AI vector cores: 56 rounds")
                                            << int(Severity::Medium) << 1.0 - 4000.0 / (56 * 72);
    QTest::newRow("950 aiv, 64 programs") << QStringLiteral("vector_add") << qint64(64) << QStringLiteral("rounds on the smaller parts") << int(Severity::Low)
                                          << 1.0 - 64.0 / 72;
    QTest::newRow("950 aiv, 56 programs") << QStringLiteral("vector_add") << qint64(56) << QStringLiteral("") << 0 << 0.0;
    QTest::newRow("950 mix, 40 programs") << QStringLiteral("matmul") << qint64(40) << QStringLiteral("40 programs on 28-36 AI cube cores (mix kernel): 2 rounds")
                                          << int(Severity::Low) << 1.0 - 40.0 / 72;
    QTest::newRow("910b3 aiv, 41 programs") << QStringLiteral("vector_add_910b3") << qint64(41) << QStringLiteral("41 programs on 40 AI vector cores: 2 rounds")
                                            << int(Severity::Low) << 1.0 - 41.0 / 80;
    QTest::newRow("910b3 aiv, 40 programs") << QStringLiteral("vector_add_910b3") << qint64(40) << QStringLiteral("") << 0 << 0.0;
    QTest::newRow("no launch") << QStringLiteral("vector_add") << qint64(0) << QStringLiteral("") << 0 << 0.0;
}

void TestAscendLayoutFacts::gridAgainstTheCores()
{
    QFETCH(QString, fixture);
    QFETCH(qint64, programs);
    QFETCH(QString, title);
    QFETCH(int, severity);
    QFETCH(double, idle);
    const LoadedCompile compile = load(fixture);
    const QVector<Finding> found = withRule(findings(compile, programs ? launchWithGrid(programs) : QJsonObject()),
                                            ascend::kGridOverCoresRule);
    if (title.isEmpty()) {
        QVERIFY(found.isEmpty());
        return;
    }
    QCOMPARE(found.size(), 1);
    QVERIFY2(found[0].title.contains(title), qPrintable(found[0].title));
    QCOMPARE(int(found[0].severity), severity);
    QVERIFY(found[0].gapShare && found[0].gapShare->estimate);
    QVERIFY2(qAbs(found[0].gapShare->share - idle) < 1e-9, qPrintable(QString::number(found[0].gapShare->share)));
    QCOMPARE(found[0].span.line, sourceLineOf(compile, QStringLiteral("def ")));
    QVERIFY(found[0].cause.contains(QLatin1String("range(pid, n, tl.num_programs(0))")));
}

void TestAscendLayoutFacts::ladderHandsThePluginTheLaunch()
{
    const LoadedCompile add = load(QStringLiteral("vector_add"));
    LadderInputs inputs;
    inputs.kernel = add.result.kernel;
    inputs.sourcePath = add.result.sourcePath;
    inputs.spec = add.result.spec;
    inputs.spec.insert(QStringLiteral("grid"), QJsonArray{4000, 1, 1});
    inputs.compile = &add;
    inputs.backend = m_ascend;
    const LadderResult result = runLadder(inputs);
    const QVector<Finding> grid = withRule(result.diagnosis.findings(Level::L3), ascend::kGridOverCoresRule);
    QCOMPARE(grid.size(), 1);
    QVERIFY(grid[0].title.startsWith(QLatin1String("Grid of 4000 programs")));
}

QTEST_GUILESS_MAIN(TestAscendLayoutFacts)
#include "tst_ascend_layout_facts.moc"
