// L4 and the escalation ladder on real triton 3.6.0 output: pass attribution from the fixtures'
// pass dumps (no compile), counterfactual compiles through the real agent, the escalation log.
#include "DiagnosisTestSupport.h"
#include "diagnosis/l3_ir/IrAttribution.h"
#include "diagnosis/l4_compiler/CompilerAnalysis.h"
#include "diagnosis/l4_compiler/PassAttribution.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include "../support/NvidiaTargetsForTests.h"
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QProcess>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

LoadedCompile load(const QString &sampleVariant)
{
    return testing::loadFixtureCompile(sampleVariant);
}

KernelIrFacts factsOf(const LoadedCompile &compile)
{
    Expected<KernelIrFacts> facts = collectIrFacts(compile);
    if (!facts)
        qFatal("%s", qPrintable(facts.error().toString()));
    return std::move(*facts);
}

int sourceLine(const LoadedCompile &compile, const QString &needle)
{
    return testing::sourceLineContaining(compile, needle);
}

QVector<Finding> withRule(const QVector<Finding> &findings, const QString &rule)
{
    QVector<Finding> found;
    for (const Finding &finding : findings) {
        if (finding.ruleId == rule)
            found.append(finding);
    }
    return found;
}

template <typename T>
QVector<T> evidenceOf(const Finding &finding)
{
    QVector<T> found;
    for (const Evidence &evidence : finding.evidence) {
        if (const T *item = std::get_if<T>(&evidence.data))
            found.append(*item);
    }
    return found;
}

// The L4 finding that examines the finding of `rule` on `line`.
std::optional<Finding> examinedAt(const Diagnosis &diagnosis, const QString &rule, int line)
{
    for (const Finding &finding : diagnosis.findings(Level::L4)) {
        const QVector<SpanEvidence> spans = evidenceOf<SpanEvidence>(finding);
        if (finding.span.line == line && !spans.isEmpty()
            && finding.evidence.first().note == QStringLiteral("examines ") + rule)
            return finding;
    }
    return std::nullopt;
}

QString logText(const Diagnosis &diagnosis)
{
    QStringList lines;
    for (const EscalationStep &step : diagnosis.escalation)
        lines.append(step.step + QStringLiteral(": ") + step.reason);
    return lines.join(u'\n');
}

bool tritonImportable(QString *why)
{
    QProcess probe;
    probe.start(LocalProcessTransport::defaultPython(), {QStringLiteral("-c"), QStringLiteral("import triton")});
    if (probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
        return true;
    *why = QStringLiteral("triton is not importable by %1 (set STRATA_PYTHON)").arg(LocalProcessTransport::defaultPython());
    return false;
}

CounterfactualKernel kernelOf(const LoadedCompile &compile)
{
    // The fixture's source artifact is the file it was compiled from.
    return {compile.result.artifacts.value(QStringLiteral("source")).path, compile.result.kernel,
            compile.result.target, nvidiaStages()};
}

} // namespace

class LadderTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void passOfWgmmaDotAndAsyncCopies();
    void passOfScalarLoadsAndUnpipelinedLoad();
    void counterfactualChangesFromSpec();
    void escalationLogWithoutAgent();
    void maxLevelStopsTheLadder();
    void unalignedAddConfirmedByDivisibility();
    void runtimeStridesConfirmedByUnitStride();
    void precisionEditFromTheSource();
    void fmaDotConfirmedByPrecisionEdit();
    void twoHighMechanismsRankByTheirEstimatedShare();

private:
    bool m_triton = false;
    QString m_whyNoTriton;
};

void LadderTest::initTestCase()
{
    m_triton = tritonImportable(&m_whyNoTriton);
    if (!m_triton)
        qWarning("%s: the counterfactual tests will be skipped", qPrintable(m_whyNoTriton));
}

void LadderTest::passOfWgmmaDotAndAsyncCopies()
{
    const LoadedCompile compile = load(QStringLiteral("matmul/default"));
    const KernelIrFacts facts = factsOf(compile);
    PassHistory history(compile.result);
    const int dotLine = sourceLine(compile, QStringLiteral("tl.dot("));
    QCOMPARE(facts.line(dotLine)->dotKind, DotKind::AsyncMatrix);
    const std::optional<PassOrigin> dot = history.firstPassProducing(dotLine, TracedFact::MmaDot);
    QVERIFY(dot);
    QCOMPARE(dot->argument, QStringLiteral("tritongpu-accelerate-matmul"));
    QCOMPARE(dot->passName, QStringLiteral("TritonGPUAccelerateMatmul"));

    for (const QString &load : {QStringLiteral("a = tl.load"), QStringLiteral("b = tl.load")}) {
        const int line = sourceLine(compile, load);
        QVERIFY2(facts.line(line)->asyncCopies > 0, qPrintable(load));
        const std::optional<PassOrigin> copy = history.firstPassProducing(line, TracedFact::AsyncCopy);
        QVERIFY2(copy, qPrintable(load));
        // The pipeliner's internal LowerLoops dump has no locations; the copies are its output.
        QCOMPARE(copy->argument, QStringLiteral("tritongpu-pipeline"));
    }
    // No async copy is ever made for the store line.
    QVERIFY(!history.firstPassProducing(sourceLine(compile, QStringLiteral("tl.store(")), TracedFact::AsyncCopy));
    QVERIFY(history.problems().isEmpty());
}

void LadderTest::passOfScalarLoadsAndUnpipelinedLoad()
{
    const LoadedCompile add = load(QStringLiteral("vector_add/unaligned"));
    Expected<IrAttribution> attribution = attributeIr(add);
    QVERIFY(attribution);
    PassHistory addHistory(add.result);
    const int xLine = sourceLine(add, QStringLiteral("x = tl.load"));
    const QVector<Finding> scalar = withRule(attribution->findings, QStringLiteral("L3.scalar-global-access"));
    QVERIFY(!scalar.isEmpty());
    QCOMPARE(scalar.first().span.line, xLine);
    const std::optional<Evidence> lowering = passEvidenceFor(scalar.first(), addHistory);
    QVERIFY(lowering);
    const PassEvidence loweringPass = std::get<PassEvidence>(lowering->data);
    QCOMPARE(loweringPass.argument, QStringLiteral("convert-triton-gpu-to-llvm"));

    const LoadedCompile strided = load(QStringLiteral("matmul/runtime_strides"));
    Expected<IrAttribution> stridedAttribution = attributeIr(strided);
    QVERIFY(stridedAttribution);
    const QVector<Finding> unpipelined = withRule(stridedAttribution->findings, QStringLiteral("L3.unpipelined-loop-load"));
    QVERIFY(!unpipelined.isEmpty());
    PassHistory stridedHistory(strided.result);
    const std::optional<Evidence> pipeline = passEvidenceFor(unpipelined.first(), stridedHistory);
    QVERIFY(pipeline);
    QCOMPARE(std::get<PassEvidence>(pipeline->data).argument, QStringLiteral("tritongpu-pipeline"));
    QVERIFY2(pipeline->note.startsWith(QStringLiteral("ran and made no async copy")), qPrintable(pipeline->note));

    // The store's layout conversion: the one that survives is made by the coalescing pass.
    const QVector<Finding> conversion = withRule(stridedAttribution->findings, QStringLiteral("L3.smem-layout-conversion"));
    QCOMPARE(conversion.size(), 1);
    QCOMPARE(conversion.first().span.line, sourceLine(strided, QStringLiteral("tl.store(")));
    const std::optional<Evidence> coalesce = passEvidenceFor(conversion.first(), stridedHistory);
    QVERIFY(coalesce);
    QCOMPARE(std::get<PassEvidence>(coalesce->data).argument, QStringLiteral("tritongpu-coalesce"));
}

void LadderTest::counterfactualChangesFromSpec()
{
    const LoadedCompile add = load(QStringLiteral("vector_add/unaligned"));
    Expected<IrAttribution> attribution = attributeIr(add);
    QVERIFY(attribution);
    const Finding scalar = withRule(attribution->findings, QStringLiteral("L3.scalar-global-access")).first();
    QStringList ids;
    for (const SpecChange &change : counterfactualChanges(scalar, add.result.spec))
        ids.append(change.id);
    // The only run-time integer is n_elements; the pointers are already divisible by 16.
    QCOMPARE(ids, QStringList{QStringLiteral("divisibility_16:n_elements")});
    const SpecChange divisible = counterfactualChanges(scalar, add.result.spec).first();
    QVERIFY(divisible.spec.value(QStringLiteral("divisibility_16")).toArray().contains(QStringLiteral("n_elements")));
    QCOMPARE(divisible.spec.value(QStringLiteral("options")), add.result.spec.value(QStringLiteral("options")));

    const LoadedCompile strided = load(QStringLiteral("matmul/runtime_strides"));
    Expected<IrAttribution> stridedAttribution = attributeIr(strided);
    const Finding unpipelined = withRule(stridedAttribution->findings, QStringLiteral("L3.unpipelined-loop-load")).first();
    QStringList stridedIds;
    for (const SpecChange &change : counterfactualChanges(unpipelined, strided.result.spec))
        stridedIds.append(change.id);
    stridedIds.sort();
    QCOMPARE(stridedIds, (QStringList{QStringLiteral("equal_to_1:stride_ak"), QStringLiteral("equal_to_1:stride_bn"),
                                      QStringLiteral("equal_to_1:stride_cn")}));
    // The fact as L4 checks it on the compile itself.
    const std::optional<FactState> before = factOnLine(unpipelined, factsOf(strided));
    QVERIFY(before && before->holds);
}

void LadderTest::escalationLogWithoutAgent()
{
    const LoadedCompile add = load(QStringLiteral("vector_add/unaligned"));
    LadderInputs inputs;
    inputs.kernel = add.result.kernel;
    inputs.sourcePath = add.result.sourcePath;
    inputs.astMissingReason = QStringLiteral("no agent");
    inputs.spec = add.result.spec;
    inputs.compile = &add;
    const LadderResult result = runLadder(inputs);
    const QVector<EscalationStep> &log = result.diagnosis.escalation;
    QStringList steps;
    for (const EscalationStep &step : log)
        steps.append(step.step);
    QCOMPARE(steps, (QStringList{QStringLiteral("L1 triage"), QStringLiteral("L2 measurement"),
                                 QStringLiteral("L3 IR attribution"), QStringLiteral("L4 compiler analysis"),
                                 QStringLiteral("L4 pass attribution"), QStringLiteral("L4 compiler trace"),
                                 QStringLiteral("L4 counterfactuals"), QStringLiteral("stop"), QStringLiteral("ranking")}));
    QCOMPARE(log[0].reason, QStringLiteral("skipped: no AST of the kernel (no agent)"));
    QVERIFY(log[1].reason.contains(QStringLiteral("no GPU host is connected")));
    QVERIFY(log[2].reason.startsWith(QStringLiteral("a compile is available")));
    QCOMPARE(log[4].reason, QStringLiteral("71 pass dumps kept by the compile"));
    QCOMPARE(log[5].reason, QStringLiteral("3 accesses, 0 pipeliner loads traced"));  // the compile's debug trace
    QCOMPARE(log[6].reason, QStringLiteral("skipped: no agent to compile with"));
    QVERIFY2(log[7].reason.startsWith(QStringLiteral("0 of 3 top findings confirmed")), qPrintable(log[7].reason));
    QVERIFY(log[8].reason.startsWith(QStringLiteral("estimate:")));
    QVERIFY(result.rankingIsEstimate);
    // Two scalar loads and a scalar store, untested without an agent, with the lowering pass cited.
    QCOMPARE(result.ranking.size(), 3);
    for (const RankedFinding &ranked : result.ranking) {
        QCOMPARE(ranked.status, QStringLiteral("untested"));
        QCOMPARE(ranked.finding.ruleId, QString::fromLatin1(kUntestedCauseRule));
        QCOMPARE(evidenceOf<PassEvidence>(ranked.finding).size(), 1);
        QVERIFY(!evidenceOf<RemarkEvidence>(ranked.finding).isEmpty());
    }
    const QJsonObject json = toJson(result);
    QCOMPARE(json.value(QStringLiteral("ranking")).toArray().size(), 3);
    QCOMPARE(json.value(QStringLiteral("ranking_estimate")).toBool(), true);
    QCOMPARE(json.value(QStringLiteral("escalation")).toArray().size(), log.size());
}

void LadderTest::maxLevelStopsTheLadder()
{
    const LoadedCompile add = load(QStringLiteral("vector_add/unaligned"));
    LadderInputs inputs;
    inputs.kernel = add.result.kernel;
    inputs.spec = add.result.spec;
    inputs.compile = &add;
    LadderOptions options;
    options.maxLevel = Level::L3;
    const LadderResult l3 = runLadder(inputs, options);
    QVERIFY(l3.diagnosis.findings(Level::L4).isEmpty());
    QCOMPARE(l3.diagnosis.findings(Level::L3).size(), 3);
    QVERIFY2(logText(l3.diagnosis).contains(QStringLiteral("L4 compiler analysis: not run: 3 top findings are "
                                                            "unconfirmed, but --max-level is L3")),
             qPrintable(logText(l3.diagnosis)));
    for (const RankedFinding &ranked : l3.ranking)
        QCOMPARE(ranked.status, QStringLiteral("not_examined"));

    options.maxLevel = Level::L1;
    const LadderResult l1 = runLadder(inputs, options);
    QVERIFY(l1.diagnosis.levels.isEmpty());
    QVERIFY(logText(l1.diagnosis).contains(QStringLiteral("L3 IR attribution: not run: --max-level is L1")));
    QVERIFY(logText(l1.diagnosis).contains(QStringLiteral("stop: --max-level L1 reached")));
}

void LadderTest::unalignedAddConfirmedByDivisibility()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    const LoadedCompile add = load(QStringLiteral("vector_add/unaligned"));
    HostConnection agent(std::make_unique<LocalProcessTransport>());
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    AgentCounterfactualRunner runner(agent, kernelOf(add));
    LadderInputs inputs;
    inputs.kernel = add.result.kernel;
    inputs.spec = add.result.spec;
    inputs.compile = &add;
    inputs.runner = &runner;
    const LadderResult result = runLadder(inputs);
    agent.stop();
    for (const QString &needle : {QStringLiteral("x = tl.load"), QStringLiteral("y = tl.load")}) {
        const std::optional<Finding> finding = examinedAt(result.diagnosis, QStringLiteral("L3.scalar-global-access"),
                                                          sourceLine(add, needle));
        QVERIFY2(finding, qPrintable(logText(result.diagnosis)));
        QCOMPARE(finding->ruleId, QString::fromLatin1(kConfirmedCauseRule));
        bool flippedByDivisibility = false;
        for (const CounterfactualEvidence &counterfactual : evidenceOf<CounterfactualEvidence>(*finding)) {
            if (counterfactual.change == QStringLiteral("n_elements divisible by 16")) {
                QCOMPARE(counterfactual.factBefore, QStringLiteral("ld.global.b32 x8"));
                QVERIFY2(counterfactual.factAfter.startsWith(QStringLiteral("ld.global.v4.b32")), qPrintable(counterfactual.factAfter));
                flippedByDivisibility = true;
            }
        }
        QVERIFY(flippedByDivisibility);
    }
    QVERIFY(logText(result.diagnosis).contains(QStringLiteral("L4 compile: n_elements divisible by 16: compiled in")));
    QVERIFY(logText(result.diagnosis).contains(QStringLiteral("stop: all 3 top findings are confirmed")));
    QCOMPARE(result.ranking.first().status, QStringLiteral("confirmed"));
}

void LadderTest::runtimeStridesConfirmedByUnitStride()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    const LoadedCompile strided = load(QStringLiteral("matmul/runtime_strides"));
    HostConnection agent(std::make_unique<LocalProcessTransport>());
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    AgentCounterfactualRunner runner(agent, kernelOf(strided));
    Expected<IrAttribution> attribution = attributeIr(strided);
    QVERIFY(attribution);
    const QVector<Finding> unpipelined = withRule(attribution->findings, QStringLiteral("L3.unpipelined-loop-load"));
    const CompilerAnalysis analysis = analyzeWithCompiler(unpipelined, strided, attribution->facts, strided.result.spec, &runner);
    agent.stop();
    QCOMPARE(analysis.compiles, 3);
    QCOMPARE(analysis.findings.size(), unpipelined.size());
    for (const Finding &finding : analysis.findings) {
        QCOMPARE(finding.ruleId, QString::fromLatin1(kConfirmedCauseRule));
        QStringList flippedBy;
        for (const CounterfactualEvidence &counterfactual : evidenceOf<CounterfactualEvidence>(finding)) {
            if (counterfactual.factAfter.contains(QStringLiteral("async copies")) && !counterfactual.factAfter.contains(QStringLiteral("cp.async x0")))
                flippedBy.append(counterfactual.change);
        }
        // Exactly the unit stride of this operand's inner axis makes cp.async appear.
        const bool aLine = finding.span.line == sourceLine(strided, QStringLiteral("a = tl.load"));
        QCOMPARE(flippedBy, QStringList{aLine ? QStringLiteral("stride_ak equal to 1")
                                              : QStringLiteral("stride_bn equal to 1")});
    }
}

void LadderTest::precisionEditFromTheSource()
{
    Finding fma;
    fma.ruleId = QStringLiteral("L3.fma-dot");
    fma.span.line = 3;
    const QString oneLine = QStringLiteral("x\ny\n    acc = tl.dot(a, b, acc, input_precision=\"ieee\")\nz\n");
    const QVector<SpecChange> changes = counterfactualChanges(fma, {}, oneLine);
    QCOMPARE(changes.size(), 1);
    QCOMPARE(changes[0].id, QStringLiteral("source:tf32@3"));
    QCOMPARE(changes[0].sourceText.split(u'\n')[2], QStringLiteral("    acc = tl.dot(a, b, acc, input_precision=\"tf32\")"));
    QCOMPARE(changes[0].sourceText.split(u'\n').size(), oneLine.split(u'\n').size());  // line numbers kept
    // A call spread over lines, single quotes; and the legacy keyword.
    const QString spread = QStringLiteral("x\ny\n    acc = tl.dot(a, b,\n                 input_precision='ieee')\n");
    QCOMPARE(counterfactualChanges(fma, {}, spread).value(0).sourceText.split(u'\n')[3],
             QStringLiteral("                 input_precision='tf32')"));
    const QString legacy = QStringLiteral("x\ny\n    acc += tl.dot(a, b, allow_tf32=False)\n");
    QVERIFY(counterfactualChanges(fma, {}, legacy).value(0).sourceText.contains(QLatin1String("allow_tf32=True")));
    // No precision keyword (the fallback comes from the types), or no source: nothing to try.
    QVERIFY(counterfactualChanges(fma, {}, QStringLiteral("x\ny\n    acc = tl.dot(a, b, acc)\n")).isEmpty());
    QVERIFY(counterfactualChanges(fma, {}).isEmpty());
}

void LadderTest::fmaDotConfirmedByPrecisionEdit()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    // The planted FMA kernel of the diagnosis benchmark, compiled by the agent, then confirmed by
    // recompiling an edited copy of its dot line.
    const QString kernels = QStringLiteral(STRATA_SOURCE_DIR "/bench/diagnosis/kernels/");
    QFile specFile(kernels + QStringLiteral("fma_ieee_matmul.spec.json"));
    QVERIFY(specFile.open(QIODevice::ReadOnly));
    QTemporaryDir work;
    HostConnection agent(std::make_unique<LocalProcessTransport>());
    QString error;
    QVERIFY2(agent.start(&error), qPrintable(error));
    const RpcReply reply = agent.callBlocking(
        QStringLiteral("compile"),
        {{QStringLiteral("source_path"), kernels + QStringLiteral("fma_ieee_matmul.py")},
         {QStringLiteral("spec"), QJsonDocument::fromJson(specFile.readAll()).object()},
         {QStringLiteral("work_dir"), work.path()}},
        300000);
    QVERIFY2(reply.ok, qPrintable(reply.error.message));
    Expected<CompileResult> result = parseCompileResult(reply.result.toObject());
    QVERIFY(result);
    Expected<LoadedCompile> compile = loadCompile(*result, nvidiaStages());
    QVERIFY(compile);
    Expected<IrAttribution> attribution = attributeIr(*compile);
    QVERIFY(attribution);
    const QVector<Finding> fma = withRule(attribution->findings, QStringLiteral("L3.fma-dot"));
    QCOMPARE(fma.size(), 1);
    AgentCounterfactualRunner runner(agent, {result->sourcePath, result->kernel, result->target, nvidiaStages()});
    const CompilerAnalysis analysis = analyzeWithCompiler(fma, *compile, attribution->facts, result->spec, &runner);
    agent.stop();
    QCOMPARE(analysis.compiles, 1);
    QCOMPARE(analysis.findings.first().ruleId, QString::fromLatin1(kConfirmedCauseRule));
    const QVector<CounterfactualEvidence> tried = evidenceOf<CounterfactualEvidence>(analysis.findings.first());
    QCOMPARE(tried.size(), 1);
    QVERIFY2(tried.first().change.startsWith(QLatin1String("dot input precision tf32")), qPrintable(tried.first().change));
    QCOMPARE(tried.first().factBefore, QStringLiteral("dot kind fma"));
    QCOMPARE(tried.first().factAfter, QStringLiteral("dot kind wgmma"));
}


// Without measurements two high mechanisms are ordered by the share of the gap each explains: a
// row read in several passes (share (N-1)/N) against an under-filled grid of a looping kernel
// (the idle SMs' share): 8 programs on 132 SMs (0.94) come first, 120 programs (0.09) last.
void LadderTest::twoHighMechanismsRankByTheirEstimatedShare()
{
    const auto readJson = [](const QString &name) {
        QFile file(QStringLiteral(STRATA_FIXTURES_DIR "/ast/kernels/") + name);
        [&] { QVERIFY(file.open(QIODevice::ReadOnly)); }();
        return QJsonDocument::fromJson(file.readAll()).object();
    };
    const auto firstRuleWithGrid = [&](int programs) {
        LadderInputs inputs;
        inputs.astReply = readJson(QStringLiteral("multi_pass_rows.ast.json"));
        inputs.spec = readJson(QStringLiteral("multi_pass_rows.spec.json"));
        inputs.kernel = inputs.spec.value(QStringLiteral("kernel")).toString();
        inputs.spec.insert(QStringLiteral("grid"), QJsonArray{programs, 1, 1});
        const LadderResult result = runLadder(inputs);
        QStringList high;
        for (const RankedFinding &ranked : result.ranking)
            if (ranked.finding.severity == Severity::High)
                high << ranked.finding.ruleId;
        return high;
    };
    QCOMPARE(firstRuleWithGrid(8), (QStringList{QStringLiteral("L1.under-filled-grid"), QStringLiteral("L1.multi-pass-reread")}));
    QCOMPARE(firstRuleWithGrid(120), (QStringList{QStringLiteral("L1.multi-pass-reread"), QStringLiteral("L1.under-filled-grid")}));
}

QTEST_GUILESS_MAIN(LadderTest)
#include "tst_ladder.moc"
