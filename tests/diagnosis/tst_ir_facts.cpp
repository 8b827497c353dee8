// L3 IR attribution on real triton 3.6.0 compiles (tests/fixtures/<sample>/<variant>).
#include "DiagnosisTestSupport.h"
#include "diagnosis/l3_ir/IrAttribution.h"
#include "diagnosis/l3_ir/LaunchFit.h"
#include "PtxConstantTables.h"
#include "diagnosis/model/DiagnosisJson.h"

#include "../support/NvidiaTargetsForTests.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

LoadedCompile load(const QString &sampleVariant)
{
    return testing::loadFixtureCompile(sampleVariant);
}

IrAttribution attribute(const LoadedCompile &compile)
{
    Expected<IrAttribution> attribution = attributeIr(compile);
    if (!attribution)
        qFatal("%s", qPrintable(attribution.error().toString()));
    return std::move(*attribution);
}

int sourceLine(const LoadedCompile &compile, const QString &needle)
{
    return testing::sourceLineContaining(compile, needle);
}

QVector<int> linesOf(const QVector<Finding> &findings, const QString &rule)
{
    QVector<int> lines;
    for (const Finding &finding : findings) {
        if (finding.ruleId == rule)
            lines.append(finding.span.line);
    }
    return lines;
}

int totalOf(const KernelIrFacts &facts, int SourceLineFacts::*field)
{
    int total = 0;
    for (const SourceLineFacts &line : facts.lines)
        total += line.*field;
    return total;
}

// A fixture compile whose `stage` artifact is replaced (by `path`) or removed (empty path) before
// loading, as a damaged or hand-edited compile folder would be.
LoadedCompile loadWithStage(const QString &sampleVariant, const QString &stage, const QString &path)
{
    Expected<CompileResult> result = readCompileResultFile(QStringLiteral(STRATA_FIXTURES_DIR "/") + sampleVariant
                                                           + QStringLiteral("/compile.json"));
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    if (path.isEmpty())
        result->artifacts.remove(stage);
    else
        result->artifacts[stage].path = path;
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().toString()));
    return std::move(*loaded);
}

QString artifactPath(const QString &sampleVariant, const QString &stage)
{
    return load(sampleVariant).result.artifacts.value(stage).path;
}

// Without a real TTGIR the layout rules must not run at all (they would read TTIR in its place).
void verifyNoGpuIrRules(const IrAttribution &ir)
{
    QVERIFY(!ir.facts.gpuIrRead);
    QVERIFY(!ir.facts.problems.isEmpty());
    for (const QString &rule : gpuIrRules()) {
        QVERIFY2(linesOf(ir.findings, rule).isEmpty(), qPrintable(rule));
        QVERIFY(ir.uncheckedRules.contains(rule));
    }
    QVERIFY(!ir.facts.stagesRead.contains(QStringLiteral("ttir")));
}

} // namespace

class IrFactsTest : public QObject {
    Q_OBJECT

private slots:
    void unalignedVectorAddLoadsAreScalar()
    {
        const LoadedCompile compile = load(QStringLiteral("vector_add/unaligned"));
        const IrAttribution ir = attribute(compile);
        const int xLoad = sourceLine(compile, QStringLiteral("x = tl.load"));
        const int yLoad = sourceLine(compile, QStringLiteral("y = tl.load"));
        const SourceLineFacts *x = ir.facts.line(xLoad);
        QVERIFY(x);
        QCOMPARE(x->accessCount(QStringLiteral("ptx"), false), 8);         // 8 elements per thread
        QCOMPARE(x->maxAccessBits(QStringLiteral("ptx"), false), 32);      // ld.global.b32
        QCOMPARE(x->maxAccessBits(QStringLiteral("sass"), false), 32);     // LDG.E
        QCOMPARE(x->layouts.first().sizePerThread, QVector<int>{4});       // the layout had 4
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).mid(0, 2), (QVector<int>{xLoad, yLoad}));
        const Finding &finding = ir.findings.first();
        QCOMPARE(finding.title, QStringLiteral("Scalar global loads (32-bit)"));
        QVERIFY(finding.cause.contains(QStringLiteral("4 contiguous elements")));
        QStringList kinds;
        for (const Evidence &evidence : finding.evidence)
            kinds.append(evidence.kindName());
        QVERIFY(kinds.contains(QStringLiteral("ir_op")));
        QVERIFY(kinds.contains(QStringLiteral("remark")));  // "vectorization fails vec = 1 origin vec = 4"
        const auto &op = std::get<IrOpEvidence>(finding.evidence.first().data);
        QCOMPARE(op.stage, QStringLiteral("ptx"));
        QCOMPARE(op.opcode, QStringLiteral("ld.global.b32"));
        QCOMPARE(compile.map.sourceForLine(QStringLiteral("ptx"), op.irLine).line, xLoad);
    }

    void alignedVectorAddLoadsAreVectorised()
    {
        const LoadedCompile compile = load(QStringLiteral("vector_add/aligned"));
        const IrAttribution ir = attribute(compile);
        const SourceLineFacts *x = ir.facts.line(sourceLine(compile, QStringLiteral("x = tl.load")));
        QVERIFY(x);
        QCOMPARE(x->maxAccessBits(QStringLiteral("ptx"), false), 128);
        QCOMPARE(x->accesses.first().vectorWidth, 4);                      // ld.global.v4.b32
        QCOMPARE(x->maxAccessBits(QStringLiteral("sass"), false), 128);    // LDG.E.128
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).isEmpty());
    }

    void runtimeStridesMatmulIsNotPipelined()
    {
        const LoadedCompile compile = load(QStringLiteral("matmul/runtime_strides"));
        const IrAttribution ir = attribute(compile);
        QCOMPARE(totalOf(ir.facts, &SourceLineFacts::asyncCopyInstructions), 0);
        QCOMPARE(totalOf(ir.facts, &SourceLineFacts::asyncCopies), 0);
        const int aLoad = sourceLine(compile, QStringLiteral("a = tl.load"));
        const int bLoad = sourceLine(compile, QStringLiteral("b = tl.load"));
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.unpipelined-loop-load")), (QVector<int>{aLoad, bLoad}));
        for (const Finding &finding : ir.findings) {
            if (finding.ruleId != QLatin1String("L3.unpipelined-loop-load"))
                continue;
            QVERIFY(finding.cause.contains(QStringLiteral("16-bit accesses are below the 4-byte minimum")));
            const auto pass = std::find_if(finding.evidence.cbegin(), finding.evidence.cend(),
                                           [](const Evidence &e) { return std::holds_alternative<PassEvidence>(e.data); });
            QVERIFY(pass != finding.evidence.cend());
            QCOMPARE(std::get<PassEvidence>(pass->data).argument, QStringLiteral("tritongpu-pipeline"));
        }
        QCOMPARE(ir.facts.line(aLoad)->minAccessBits(QStringLiteral("ptx"), false), 16);  // ld.global.b16
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).contains(aLoad));
        QCOMPARE(ir.facts.line(sourceLine(compile, QStringLiteral("tl.dot(")))->dotKind, DotKind::AsyncMatrix);
    }

    void defaultMatmulUsesWgmmaAndCpAsync()
    {
        const LoadedCompile compile = load(QStringLiteral("matmul/default"));
        const IrAttribution ir = attribute(compile);
        const SourceLineFacts *dot = ir.facts.line(sourceLine(compile, QStringLiteral("tl.dot(")));
        QVERIFY(dot);
        QCOMPARE(dot->dotKind, DotKind::AsyncMatrix);
        QCOMPARE(dot->dotOp, QStringLiteral("ttng.warp_group_dot"));
        QCOMPARE(dot->mmaInstructions, 4);  // wgmma.mma_async m64n128k16, 4 K-steps of a 64-wide K tile
        QCOMPARE(dot->layouts.size(), 1);
        QCOMPARE(dot->layouts.first().kind, QStringLiteral("nvidia_mma"));
        QCOMPARE(dot->layouts.first().mmaVersion, 3);
        QCOMPARE(dot->layouts.first().warpsPerCTA, (QVector<int>{8, 1}));
        QCOMPARE(dot->layouts.first().instrShape, (QVector<int>{16, 128, 16}));
        const SourceLineFacts *a = ir.facts.line(sourceLine(compile, QStringLiteral("a = tl.load")));
        QVERIFY(a->asyncCopies > 0);
        QVERIFY(a->asyncCopyInstructions > 0);
        QCOMPARE(a->buffers, 3);            // !ttg.memdesc<3x128x64xf16>: num_stages buffers
        QCOMPARE(a->ttgirLoads, 0);
        QCOMPARE(a->layouts.first().contiguousPerThread(), 8);  // 8 x f16 = 16-byte copies
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.unpipelined-loop-load")).isEmpty());
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.register-spill")).isEmpty());
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.fma-dot")).isEmpty());
        // The epilogue converts the wgmma accumulator layout for the store through shared memory.
        const int store = sourceLine(compile, QStringLiteral("tl.store(c_ptrs"));
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.smem-layout-conversion")), QVector<int>{store});
        // `offs_am = (...) % M`: one rem.s32 per row a thread holds (4); `% N` on the next line one.
        // The program id's divisions (group_id, pid_n) sit on lines of their own.
        QCOMPARE(ir.facts.line(sourceLine(compile, QStringLiteral("offs_am =")))->integerDivisions, 4);
        QCOMPARE(ir.facts.line(sourceLine(compile, QStringLiteral("offs_bn =")))->integerDivisions, 1);
        QVERIFY(totalOf(ir.facts, &SourceLineFacts::integerDivisions) >= 7);  // + the div.s32 of the program id
    }

    void bigSpillMatmulSpillsOnTheRightLines()
    {
        const LoadedCompile compile = load(QStringLiteral("matmul/big_spill"));
        const IrAttribution ir = attribute(compile);
        QCOMPARE(ir.facts.registers, 255);
        QCOMPARE(ir.facts.spillStoreBytes, 7164);
        const QVector<int> spillLines = linesOf(ir.findings, QStringLiteral("L3.register-spill"));
        const int dotLine = sourceLine(compile, QStringLiteral("tl.dot("));
        const int convertLine = sourceLine(compile, QStringLiteral("c = accumulator.to"));
        QVERIFY(spillLines.contains(dotLine));
        QVERIFY(spillLines.contains(convertLine));
        // The SASS has 2387 STL/LDL; 5 of them sit in tl.cdiv code (standard.py:43) that ptxas
        // left without a call site and that is called from three kernel lines, so no line owns them.
        QCOMPARE(totalOf(ir.facts, &SourceLineFacts::spillStores) + totalOf(ir.facts, &SourceLineFacts::spillLoads), 2382);
        QCOMPARE(ir.facts.line(convertLine)->spillLoads + ir.facts.line(convertLine)->spillStores, 512);
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.wgmma-serialized")), QVector<int>{dotLine});
        // matmul/default does not spill at all: the rule keys on STL/LDL, not on the kernel.
        QCOMPARE(totalOf(attribute(load(QStringLiteral("matmul/default"))).facts, &SourceLineFacts::spillStores), 0);
    }

    // Kernels written to be bad, compiled by the agent (tests/fixtures/ast/compiles): the rules
    // key on compiler facts, so they hold on kernels the samples never showed.
    void ieeeFp32DotFallsBackToFma()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/fp32_dot_ieee"));
        const IrAttribution ir = attribute(compile);
        const int dotLine = sourceLine(compile, QStringLiteral("acc = tl.dot("));
        const SourceLineFacts *dot = ir.facts.line(dotLine);
        QCOMPARE(dot->dotKind, DotKind::Fma);
        QCOMPARE(dot->dotOp, QStringLiteral("tt.dot"));
        QCOMPARE(dot->fmaInstructions, 1024);  // 64x64x32 MACs over 128 threads
        QCOMPARE(dot->mmaInstructions, 0);
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.fma-dot")), QVector<int>{dotLine});
    }

    // The FMA dot's severity weighs its tile: a 16x16 mask times a [16, 64] chunk (a cumulative sum
    // as a matmul, allow_tf32=False) does 2*16*64 / ((16 + 64) * 4) = 6.4 FLOP per operand byte,
    // under half of sm_90's ~18 FLOP/B FP32 FMA balance: medium, with the estimate (review pattern
    // N1). The 64x64x32 GEMM tile (16 FLOP/B) stays high.
    void fmaDotSeverityWeighsTheTileIntensity()
    {
        const auto intensityOf = [](const Finding &finding) {
            for (const Evidence &evidence : finding.evidence)
                if (const auto *metric = std::get_if<MetricEvidence>(&evidence.data); metric && metric->name == QLatin1String("dot_flops_per_operand_byte"))
                    return metric->value;
            return -1.0;
        };
        const LoadedCompile small = load(QStringLiteral("ast/compiles/cumsum_dot_ieee"));
        const IrAttribution cumsum = attribute(small);
        const int dotLine = sourceLine(small, QStringLiteral("tl.dot(m_s"));
        QCOMPARE(cumsum.facts.line(dotLine)->dotKind, DotKind::Fma);
        QCOMPARE(cumsum.facts.line(dotLine)->inLoop, true);
        const QVector<Finding> fma = [&] {
            QVector<Finding> found;
            for (const Finding &finding : cumsum.findings)
                if (finding.ruleId == QLatin1String("L3.fma-dot"))
                    found.append(finding);
            return found;
        }();
        QCOMPARE(fma.size(), 1);
        QCOMPARE(fma.first().span.line, dotLine);
        QCOMPARE(fma.first().severity, Severity::Medium);
        QVERIFY2(fma.first().cause.contains(QLatin1String("16x64x16 tile")), qPrintable(fma.first().cause));
        QVERIFY(qAbs(intensityOf(fma.first()) - 6.4) < 0.01);

        const IrAttribution gemm = attribute(load(QStringLiteral("ast/compiles/fp32_dot_ieee")));
        for (const Finding &finding : gemm.findings) {
            if (finding.ruleId != QLatin1String("L3.fma-dot"))
                continue;
            QCOMPARE(finding.severity, Severity::High);
            QVERIFY(qAbs(intensityOf(finding) - 16.0) < 0.01);
        }
    }

    void numStagesOneLeavesDotLoadsSynchronous()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/unpipelined_dot"));
        const IrAttribution ir = attribute(compile);
        QCOMPARE(totalOf(ir.facts, &SourceLineFacts::asyncCopyInstructions), 0);
        const int loopBody = sourceLine(compile, QStringLiteral("acc = tl.dot(tl.load"));
        const SourceLineFacts *body = ir.facts.line(loopBody);
        QCOMPARE(body->ttgirLoads, 2);
        QCOMPARE(body->dotKind, DotKind::AsyncMatrix);
        QCOMPARE(body->maxAccessBits(QStringLiteral("ptx"), false), 128);  // vectorised, just not pipelined
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.unpipelined-loop-load")), QVector<int>{loopBody});
        QVERIFY(!ir.findings.first().cause.contains(QStringLiteral("4-byte")));
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).isEmpty());
    }

    // Descriptor loads in a num_stages=1 loop: each TMA copy goes into a buffer allocated in the
    // loop and is waited for right away. The same loop at num_stages=3 multi-buffers its copies.
    void singleBufferedTmaLoadsAreNotPipelined()
    {
        const LoadedCompile single = load(QStringLiteral("ast/compiles/tma_single_buffer"));
        const IrAttribution ir = attribute(single);
        const int loopBody = sourceLine(single, QStringLiteral("acc = tl.dot(a_desc.load"));
        const SourceLineFacts *body = ir.facts.line(loopBody);
        QVERIFY(body);
        QCOMPARE(body->ttgirLoads, 0);
        QCOMPARE(body->bulkTensorCopies, 2);
        QVERIFY(body->buffers <= 1);
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.unpipelined-loop-load")), QVector<int>{loopBody});

        const LoadedCompile multi = load(QStringLiteral("ast/compiles/tma_multi_buffer"));
        const IrAttribution pipelined = attribute(multi);
        const SourceLineFacts *pipelinedBody = pipelined.facts.line(sourceLine(multi, QStringLiteral("acc = tl.dot(a_desc.load")));
        QVERIFY(pipelinedBody);
        QVERIFY(pipelinedBody->bulkTensorCopies > 0);
        QVERIFY(pipelinedBody->buffers >= 2);
        QVERIFY(linesOf(pipelined.findings, QStringLiteral("L3.unpipelined-loop-load")).isEmpty());
    }

    // One CTA of this 128x128 wgmma loop per SM at a time: 136 programs on 132 SMs take two
    // rounds, the second with 4 programs (about 48% of SM time idle); 255 programs fill both.
    void gridAgainstSmsGivesTheWaveTail()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/unpipelined_dot"));
        const IrAttribution ir = attribute(compile);
        const auto withGrid = [&](qint64 programs) {
            QJsonObject spec = compile.result.spec;
            spec.insert(QStringLiteral("grid"), QJsonArray{programs, 1, 1});
            return launchFitFindings(ir.facts, spec);
        };
        const QVector<Finding> tail = withGrid(136);
        QCOMPARE(tail.size(), 1);
        QCOMPARE(tail.first().ruleId, QStringLiteral("L3.wave-tail"));
        QCOMPARE(tail.first().severity, Severity::High);
        QCOMPARE(tail.first().span.line, sourceLine(compile, QStringLiteral("acc = tl.dot(tl.load")));
        QVERIFY(qAbs(tail.first().gapShare->share - (1.0 - (136.0 / 132.0) / 2.0)) < 1e-9);
        QVERIFY(withGrid(255).isEmpty());   // 97% busy
        QVERIFY(withGrid(100).isEmpty());   // fewer programs than SMs: L1.under-filled-grid's case
        QVERIFY(launchFitFindings(ir.facts, compile.result.spec).isEmpty());  // no captured grid
        QCOMPARE(waveEfficiency(264, 132), 1.0);
    }

    void runtimeColumnStrideGivesScalarLoads()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/runtime_stride"));
        const IrAttribution ir = attribute(compile);
        const int loadLine = sourceLine(compile, QStringLiteral("tile = tl.load"));
        QCOMPARE(ir.facts.line(loadLine)->maxAccessBits(QStringLiteral("sass"), false), 16);  // LDG.E.U16
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")), QVector<int>{loadLine});
    }

    // tl.cos / tl.sin read libdevice's 2/pi table with scalar loads on their slow path: not the
    // kernel's tensors, which move as 128-bit vectors, so no scalar-access finding.
    void libdeviceTableLoadsAreNotTensorAccesses()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/phase_rotate"));
        const QString ptx = QStringLiteral("ptx");
        QVERIFY(compile.listing(ptx));
        QVERIFY(nvidia::constantTableLoads(*compile.listing(ptx)).size() >= 2);  // the table loads are there
        const IrAttribution ir = attribute(compile);
        const int trigLine = sourceLine(compile, QStringLiteral("tl.cos(angle)"));
        QVERIFY(trigLine > 0);
        QCOMPARE(ir.facts.line(trigLine) ? ir.facts.line(trigLine)->accessCount(ptx, false) : 0, 0);
        const int angleLine = sourceLine(compile, QStringLiteral("angle = tl.load"));
        QCOMPARE(ir.facts.line(angleLine)->maxAccessBits(ptx, false), 128);
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).isEmpty());
    }

    // Two scalar loads on one line of a row loop: each is a tt.load of one value (no layout), so
    // there is no vector form to miss; the row tiles beside them load as 128-bit vectors.
    void scalarValueLoadsAreNotScalarAccesses()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/row_loop_side_scalar"));
        const IrAttribution ir = attribute(compile);
        const int scalarLine = sourceLine(compile, QStringLiteral("inv = tl.load"));
        QVERIFY(ir.facts.line(scalarLine));
        QCOMPARE(ir.facts.line(scalarLine)->accessCount(QStringLiteral("ptx"), false), 2);  // the fact is there
        QVERIFY(ir.facts.line(scalarLine)->inLoop);
        QVERIFY(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")).isEmpty());
    }

    // A 1-D tensor loaded straight into a slice of the MMA layout has no blocked layout on its
    // line, yet it is a tensor load: its unaligned 16-bit accesses are still reported.
    void tensorLoadInMmaSliceLayoutIsStillChecked()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/mma_slice_bias"));
        const IrAttribution ir = attribute(compile);
        const int scaleLine = sourceLine(compile, QStringLiteral("scale = tl.load"));
        QVERIFY(ir.facts.line(scaleLine));
        QCOMPARE(ir.facts.line(scaleLine)->scalarTtgirLoads, 0);
        QVERIFY(ir.facts.line(scaleLine)->accessCount(QStringLiteral("ptx"), false) >= 2);
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.scalar-global-access")), QVector<int>{scaleLine});
    }

    // Realistic kernels whose code is already good: no L3 finding at all.
    void cleanSamplesHaveNoFindings_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("vector_add.aligned") << "vector_add/aligned";
        QTest::newRow("softmax") << "softmax/default";
        QTest::newRow("layernorm") << "layernorm/default";
        QTest::newRow("row_sum") << "row_sum/default";
    }

    void cleanSamplesHaveNoFindings()
    {
        QFETCH(QString, fixture);
        const IrAttribution ir = attribute(load(fixture));
        QVERIFY(ir.facts.lines.size() > 5);
        QStringList found;
        for (const Finding &finding : ir.findings)
            found.append(QStringLiteral("%1@%2").arg(finding.ruleId).arg(finding.span.line));
        QVERIFY2(found.isEmpty(), qPrintable(found.join(u' ')));
    }

    void factsJson()
    {
        const LoadedCompile compile = load(QStringLiteral("vector_add/aligned"));
        const QJsonObject json = toJson(attribute(compile).facts);
        QCOMPARE(json[QStringLiteral("kernel")].toString(), QStringLiteral("add_kernel"));
        QCOMPARE(json[QStringLiteral("stages")].toArray().size(), 3);
        const int xLoad = sourceLine(compile, QStringLiteral("x = tl.load"));
        for (const QJsonValue &line : json[QStringLiteral("lines")].toArray()) {
            if (line[QStringLiteral("line")].toInt() != xLoad)
                continue;
            const QJsonObject access = line[QStringLiteral("global_accesses")][0].toObject();
            QCOMPARE(access[QStringLiteral("opcode")].toString(), QStringLiteral("ld.global.v4.b32"));
            QCOMPARE(access[QStringLiteral("vector_width")].toInt(), 4);
            QCOMPARE(line[QStringLiteral("layouts")][0][QStringLiteral("size_per_thread")].toArray(), QJsonArray{4});
            return;
        }
        QFAIL("no facts for the x load line");
    }

    void findingsRoundTripThroughDiagnosisJson()
    {
        Diagnosis diagnosis;
        diagnosis.kernel = QStringLiteral("matmul_kernel");
        diagnosis.addFindings(Level::L3, attribute(load(QStringLiteral("matmul/big_spill"))).findings);
        diagnosis.logStep(QStringLiteral("L3 IR attribution"), QStringLiteral("compile available"));
        const QByteArray text = QJsonDocument(toJson(diagnosis)).toJson();
        const Expected<Diagnosis> back = diagnosisFromJson(QJsonDocument::fromJson(text).object());
        QVERIFY(back);
        QCOMPARE(*back, diagnosis);
    }

    void thinTileDotRunsOnMmaSync()
    {
        const LoadedCompile compile = load(QStringLiteral("ast/compiles/mma_sync_dot"));
        const IrAttribution ir = attribute(compile);
        const int dotLine = sourceLine(compile, QStringLiteral("acc += tl.dot("));
        const SourceLineFacts *dot = ir.facts.line(dotLine);
        QCOMPARE(dot->dotKind, DotKind::SyncMatrix);
        QCOMPARE(dot->dotShape, (QVector<int>{32, 128}));
        QVERIFY(dot->mmaInstructions > 0);  // mma.sync in the PTX
        QCOMPARE(linesOf(ir.findings, QStringLiteral("L3.mma-sync-dot")), QVector<int>{dotLine});
        const auto finding = std::find_if(ir.findings.cbegin(), ir.findings.cend(), [](const Finding &f) {
            return f.ruleId == QLatin1String("L3.mma-sync-dot");
        });
        QVERIFY2(finding->cause.contains(QStringLiteral("M=32")), qPrintable(finding->cause));
        QCOMPARE(finding->severity, Severity::High);  // the dot is the loop's work
        // The wgmma sample has no such finding.
        QVERIFY(linesOf(attribute(load(QStringLiteral("matmul/default"))).findings, QStringLiteral("L3.mma-sync-dot")).isEmpty());
    }

    void missingTtgirChecksNoLayoutRule()
    {
        const LoadedCompile compile = loadWithStage(QStringLiteral("matmul/default"), QStringLiteral("ttgir"), {});
        const IrAttribution ir = attribute(compile);
        verifyNoGpuIrRules(ir);
        QVERIFY2(ir.facts.problems.first().contains(QStringLiteral("missing")), qPrintable(ir.facts.problems.join(u'\n')));
    }

    void ttirInPlaceOfTtgirIsDetected()
    {
        const QString ttir = artifactPath(QStringLiteral("matmul/default"), QStringLiteral("ttir"));
        const LoadedCompile compile = loadWithStage(QStringLiteral("matmul/default"), QStringLiteral("ttgir"), ttir);
        const IrAttribution ir = attribute(compile);
        verifyNoGpuIrRules(ir);
        // The stage is refused on loading (its text lacks the TTGIR signature), so L3 finds no TTGIR.
        QVERIFY(compile.refusal(QStringLiteral("ttgir")));
        QCOMPARE(compile.refusal(QStringLiteral("ttgir"))->error.kind, ProblemKind::WrongStage);
        QVERIFY2(ir.facts.problems.join(u' ').contains(QStringLiteral("missing or unreadable")), qPrintable(ir.facts.problems.join(u'\n')));
    }

    void proseInPlaceOfTtgirIsDetected()
    {
        QTemporaryDir dir;
        QFile prose(dir.filePath(QStringLiteral("matmul_kernel.ttgir")));
        QVERIFY(prose.open(QIODevice::WriteOnly));
        prose.write("root:x:0:0:root:/root:/bin/bash\nThis is not an IR file at all.\n");
        prose.close();
        const IrAttribution ir = attribute(loadWithStage(QStringLiteral("matmul/default"), QStringLiteral("ttgir"), prose.fileName()));
        verifyNoGpuIrRules(ir);
    }

    void unreadableTtgirIsAClearError()
    {
        LoadedCompile compile = load(QStringLiteral("vector_add/aligned"));
        compile.result.artifacts[QStringLiteral("ttgir")].path = QStringLiteral("/nonexistent/add_kernel.ttgir");
        const Expected<KernelIrFacts> facts = collectIrFacts(compile);
        QVERIFY(!facts);
        QCOMPARE(facts.error().file, QStringLiteral("/nonexistent/add_kernel.ttgir"));
        QVERIFY(facts.error().message.contains(QStringLiteral("add_kernel")));
    }
};

QTEST_GUILESS_MAIN(IrFactsTest)
#include "tst_ir_facts.moc"
