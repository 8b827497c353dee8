// The Ascend plugin's L2: a profile reply of msprof figures (tests/fixtures/ascend/l2, written by
// the agent from hand-written CSVs: nothing measured) read by the core's profile reader, turned
// into findings by the plugin (scalar fallback, MTE2 share, block dim against the AI cores,
// vector idle, the simulator's hot lines), the 950's published ceilings with unknown figures left
// unknown, the lower bound from them, and the ladder passing the figures to the plugin.
#include "AscendParts.h"
#include "AscendProfile.h"
#include "FindingsByRule.h"
#include "compile/LoadedCompile.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/PluginRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

const QString kFixtures = QStringLiteral(STRATA_FIXTURES_DIR);
const QString kKernelFile = QStringLiteral("/work/kernels/vector_add.py");   // the fixture's code_exe lines

// The value of the finding's metric evidence `name`; nullopt when it has none.
std::optional<double> metricOf(const Finding &finding, const QString &name)
{
    for (const Evidence &evidence : finding.evidence)
        if (const auto *metric = std::get_if<MetricEvidence>(&evidence.data); metric && metric->name == name)
            return metric->value;
    return std::nullopt;
}

// A profile reply of one msprof launch in the agent's shape (agent/PROTOCOL.md, `profile`).
QJsonObject msprofReply(const QString &opType, double blockDim, const QJsonObject &pipes, const QJsonObject &device = {})
{
    QJsonObject pipeSection;
    for (auto it = pipes.begin(); it != pipes.end(); ++it)
        pipeSection.insert(it.key(), QJsonObject{{QStringLiteral("value"), it.value()}, {QStringLiteral("unit"), QStringLiteral("ratio")}});
    const QJsonObject basic{
        {QStringLiteral("Op Name"), QJsonObject{{QStringLiteral("value"), QStringLiteral("add_kernel")}, {QStringLiteral("unit"), QString()}}},
        {QStringLiteral("Op Type"), QJsonObject{{QStringLiteral("value"), opType}, {QStringLiteral("unit"), QString()}}},
        {QStringLiteral("Block Dim"), QJsonObject{{QStringLiteral("value"), blockDim}, {QStringLiteral("unit"), QString()}}}};
    const QJsonObject kernel{{QStringLiteral("id"), 0}, {QStringLiteral("kernel"), QStringLiteral("add_kernel")},
                             {QStringLiteral("sections"), QJsonObject{{QStringLiteral("OpBasicInfo"), basic}, {QStringLiteral("PipeUtilization"), pipeSection}}}};
    QJsonObject reply{{QStringLiteral("protocol"), 1}, {QStringLiteral("task"), QStringLiteral("/t/task.py")},
                      {QStringLiteral("backend"), QStringLiteral("ascend")}, {QStringLiteral("target"), QStringLiteral("ascend910_95")},
                      {QStringLiteral("kernels"), QJsonArray()},
                      {QStringLiteral("ncu"), QJsonObject{{QStringLiteral("profiler"), QStringLiteral("msprof")}, {QStringLiteral("status"), QStringLiteral("ok")},
                                                          {QStringLiteral("kernels"), QJsonArray{kernel}}}}};
    if (!device.isEmpty())
        reply.insert(QStringLiteral("device"), device);
    return reply;
}

ProfileResult parsed(const QJsonObject &reply)
{
    Expected<ProfileResult> profile = parseProfileResult(reply);
    if (!profile)
        qFatal("%s", qPrintable(profile.error().toString()));
    return *profile;
}

// A `time` reply of the Ascend worker: the triton median and the roofline's counts, no ceilings.
Timing ascendTiming(double medianMs, const QJsonValue &bytes, const QJsonValue &flops, const QString &precision)
{
    const QJsonObject reply{
        {QStringLiteral("protocol"), 1}, {QStringLiteral("backend"), QStringLiteral("ascend")}, {QStringLiteral("target"), QStringLiteral("ascend910_95")},
        {QStringLiteral("candidates"), QJsonObject{{QStringLiteral("triton"), QJsonObject{{QStringLiteral("method"), QStringLiteral("npu_events")},
                                                                                          {QStringLiteral("n"), 100}, {QStringLiteral("median_ms"), medianMs}}}}},
        {QStringLiteral("roofline"), QJsonObject{{QStringLiteral("ceilings"), QJsonObject{{QStringLiteral("error"), QStringLiteral("no ceilings measured")}}},
                                                 {QStringLiteral("counts"), QJsonObject{{QStringLiteral("bytes"), bytes}, {QStringLiteral("flops"), flops}}},
                                                 {QStringLiteral("precision"), precision}, {QStringLiteral("per_candidate"), QJsonObject()}}}};
    Expected<Timing> timing = parseTiming(reply);
    if (!timing)
        qFatal("%s", qPrintable(timing.error().toString()));
    return *timing;
}

BackendProfileInput inputOf(const ProfileResult *profile, const Timing *timing = nullptr, const QString &target = QStringLiteral("ascend910_95"))
{
    return BackendProfileInput{profile, timing, QStringLiteral("add_kernel"), kKernelFile, target};
}

} // namespace

class TestAscendProfile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void agentReplyIsReadAsAnMsprofProfile();
    void fixtureFindings();
    void highMte2IsMemoryBound();
    void blockDimOverTheCores();
    void hostCountsAndMixKernels();
    void idleVectorUnit();
    void publishedCeilingsLeaveUnknownsUnknown();
    void lowerBoundFromTheCeilings();
    void coreLeavesMsprofToTheBackend();
    void ladderPassesMeasurementsToThePlugin();

private:
    PluginRegistry m_registry;
    BackendPlugin *m_ascend = nullptr;
    ProfileResult m_fixture;
};

void TestAscendProfile::initTestCase()
{
    m_registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR));
    m_ascend = m_registry.backend(QStringLiteral("ascend"));
    QVERIFY2(m_ascend, qPrintable(m_registry.errors().value(0).toString()));
    Expected<ProfileResult> profile = readProfileFile(kFixtures + QStringLiteral("/ascend/l2/profile-reply.json"));
    QVERIFY2(profile, qPrintable(profile ? QString() : profile.error().toString()));
    m_fixture = *profile;
}

void TestAscendProfile::agentReplyIsReadAsAnMsprofProfile()
{
    QVERIFY(m_fixture.ok());
    QCOMPARE(m_fixture.profiler, QStringLiteral("msprof"));
    QCOMPARE(m_fixture.backend, QStringLiteral("ascend"));
    QCOMPARE(m_fixture.target, QStringLiteral("ascend910_95"));
    QCOMPARE(m_fixture.profiled.size(), 1);
    const ProfiledKernel &kernel = m_fixture.profiled.first();
    QCOMPARE(kernel.kernel, QStringLiteral("add_kernel"));
    QCOMPARE(kernel.section(QStringLiteral("OpBasicInfo"))->metric(QStringLiteral("Block Dim"))->number().value_or(0), 40.0);
    QCOMPARE(m_fixture.source.size(), 1);
    const SourceView &view = m_fixture.source.first();
    QCOMPARE(view.costColumn, QStringLiteral("cycles"));
    QCOMPARE(view.lines.first().line, 11);
    QCOMPARE(view.lines.first().cycles, 1200.0);
    QCOMPARE(view.lines.first().callCount, 2);

    const QJsonObject unavailable{{QStringLiteral("protocol"), 1}, {QStringLiteral("task"), QStringLiteral("/t.py")}, {QStringLiteral("kernels"), QJsonArray()},
                                  {QStringLiteral("ncu"), QJsonObject{{QStringLiteral("profiler"), QStringLiteral("msprof")}, {QStringLiteral("status"), QStringLiteral("unavailable")},
                                                                      {QStringLiteral("reason"), QStringLiteral("no_cann")}, {QStringLiteral("message"), QStringLiteral("CANN is not installed here")}}}};
    const ProfileResult missing = parsed(unavailable);
    QVERIFY(!missing.ok());
    QCOMPARE(missing.reason, QStringLiteral("no_cann"));
    // A CUDA reply that names no profiler is Nsight Compute's, as before.
    QJsonObject cuda = unavailable;
    cuda.insert(QStringLiteral("ncu"), QJsonObject{{QStringLiteral("status"), QStringLiteral("unavailable")}});
    QCOMPARE(parsed(cuda).profiler, QStringLiteral("ncu"));
}

// The fixture: scalar ratio 0.125 and 0.3 on two cores (mean 0.2125), MTE2 0.45, vector 0.225,
// 40 blocks of a vector kernel; the simulator's lines 11/10/13 with 1200/400/400 cycles.
void TestAscendProfile::fixtureFindings()
{
    const QVector<Finding> findings = m_ascend->profileFindings(inputOf(&m_fixture));
    const QVector<Finding> scalar = withRule(findings, ascend::kScalarFallbackMeasuredRule);
    QCOMPARE(scalar.size(), 1);
    QCOMPARE(scalar.first().severity, Severity::Medium);
    QCOMPARE(scalar.first().level, Level::L2);
    QVERIFY(qAbs(metricOf(scalar.first(), QStringLiteral("aiv_scalar_ratio")).value_or(-1) - 21.25) < 1e-6);
    QVERIFY(withRule(findings, ascend::kMte2BoundRule).isEmpty());          // 0.45 < 0.5
    QVERIFY(withRule(findings, ascend::kVectorIdleRule).isEmpty());         // the scalar finding explains it
    QVERIFY(withRule(findings, ascend::kBlockDimOverCoresRule).isEmpty());
    const QVector<Finding> under = withRule(findings, ascend::kBlockDimUnderCoresRule);
    QCOMPARE(under.size(), 1);   // 40 blocks, at least 56 AIV on a 950
    QVERIFY2(under.first().title.contains(QLatin1String("56-72")), qPrintable(under.first().title));
    QCOMPARE(under.first().severity, Severity::Low);
    const QVector<Finding> hot = withRule(findings, ascend::kHotLineRule);
    QCOMPARE(hot.size(), 3);
    QCOMPARE(hot[0].span.line, 11);
    QCOMPARE(hot[0].severity, Severity::High);   // 60% of the cycles
    QCOMPARE(hot[0].gapShare->share, 0.6);
    QCOMPARE(hot[1].severity, Severity::Low);
    QVERIFY(withRule(findings, ascend::kLowerBoundRule).isEmpty());        // no timing given
    // Another kernel's file: no hot line of it.
    BackendProfileInput other = inputOf(&m_fixture);
    other.sourcePath = QStringLiteral("/work/kernels/softmax.py");
    QVERIFY(withRule(m_ascend->profileFindings(other), ascend::kHotLineRule).isEmpty());
}

void TestAscendProfile::highMte2IsMemoryBound()
{
    const ProfileResult profile = parsed(msprofReply(QStringLiteral("vector"), 64,
                                                     {{QStringLiteral("aiv_mte2_ratio"), 0.7}, {QStringLiteral("aiv_vec_ratio"), 0.2},
                                                      {QStringLiteral("aiv_scalar_ratio"), 0.05}}));
    const QVector<Finding> findings = m_ascend->profileFindings(inputOf(&profile));
    QCOMPARE(withRule(findings, ascend::kMte2BoundRule).size(), 1);
    QVERIFY(withRule(findings, ascend::kScalarFallbackMeasuredRule).isEmpty());
    QVERIFY(withRule(findings, ascend::kVectorIdleRule).isEmpty());
    // 64 blocks on a 950: over the 56-core part, under the 72-core one: only a note.
    const QVector<Finding> over = withRule(findings, ascend::kBlockDimOverCoresRule);
    QCOMPARE(over.size(), 1);
    QCOMPARE(over.first().severity, Severity::Info);
}

void TestAscendProfile::blockDimOverTheCores()
{
    const ProfileResult profile = parsed(msprofReply(QStringLiteral("vector"), 1000, {{QStringLiteral("aiv_vec_ratio"), 0.8}}));
    const QVector<Finding> over = withRule(m_ascend->profileFindings(inputOf(&profile)), ascend::kBlockDimOverCoresRule);
    QCOMPARE(over.size(), 1);
    QCOMPARE(over.first().severity, Severity::Medium);
    QVERIFY2(over.first().cause.contains(QLatin1String("at least 14 rounds")), qPrintable(over.first().cause));   // ceil(1000 / 72)
    // The A2 910B3 has 40 AIV exactly.
    const QVector<Finding> a2 = withRule(m_ascend->profileFindings(inputOf(&profile, nullptr, QStringLiteral("ascend910b3"))),
                                         ascend::kBlockDimOverCoresRule);
    QVERIFY2(a2.first().cause.contains(QLatin1String("at least 25 rounds")), qPrintable(a2.first().cause));
    // An unknown target: no core count, no finding on it.
    QVERIFY(withRule(m_ascend->profileFindings(inputOf(&profile, nullptr, QStringLiteral("ascend310"))), ascend::kBlockDimOverCoresRule).isEmpty());
}

void TestAscendProfile::hostCountsAndMixKernels()
{
    // The worker read 32 AIC / 64 AIV: exact counts, and a mix kernel is counted by its cube cores.
    const QJsonObject device{{QStringLiteral("num_aicore"), 32}, {QStringLiteral("num_vectorcore"), 64}};
    const ProfileResult mix = parsed(msprofReply(QStringLiteral("mix"), 48, {{QStringLiteral("aiv_vec_ratio"), 0.8}}, device));
    const QVector<Finding> over = withRule(m_ascend->profileFindings(inputOf(&mix)), ascend::kBlockDimOverCoresRule);
    QCOMPARE(over.size(), 1);
    QCOMPARE(over.first().severity, Severity::Medium);
    QVERIFY2(over.first().title.contains(QLatin1String("32 AI cube cores")), qPrintable(over.first().title));
    const ProfileResult vector = parsed(msprofReply(QStringLiteral("vector"), 48, {{QStringLiteral("aiv_vec_ratio"), 0.8}}, device));
    const QVector<Finding> findings = m_ascend->profileFindings(inputOf(&vector));
    QVERIFY(withRule(findings, ascend::kBlockDimOverCoresRule).isEmpty());
    QCOMPARE(withRule(findings, ascend::kBlockDimUnderCoresRule).size(), 1);   // 48 of 64
}

void TestAscendProfile::idleVectorUnit()
{
    const ProfileResult profile = parsed(msprofReply(QStringLiteral("vector"), 56,
                                                     {{QStringLiteral("aiv_vec_ratio"), 0.1}, {QStringLiteral("aiv_mte2_ratio"), 0.3},
                                                      {QStringLiteral("aiv_scalar_ratio"), 0.1}}));
    const QVector<Finding> idle = withRule(m_ascend->profileFindings(inputOf(&profile)), ascend::kVectorIdleRule);
    QCOMPARE(idle.size(), 1);
    QCOMPARE(idle.first().severity, Severity::Low);
}

void TestAscendProfile::publishedCeilingsLeaveUnknownsUnknown()
{
    const BackendCeilings c950 = m_ascend->ceilings(QStringLiteral("ascend910_95"));
    QCOMPARE(c950.copyBandwidthGbs.value_or(0), 1600.0);
    QCOMPARE(c950.peakTflops.value(QStringLiteral("fp8")), 1000.0);
    QVERIFY(!c950.peakTflops.contains(QStringLiteral("fp16")));
    QVERIFY(!c950.peakTflops.contains(QStringLiteral("bf16")));
    QVERIFY(!c950.peakTflops.contains(QStringLiteral("fp32")));
    QVERIFY(c950.unknown.join(u' ').contains(QLatin1String("fp16")));
    QVERIFY(!c950.source.isEmpty());
    const BackendCeilings a2 = m_ascend->ceilings(QStringLiteral("ascend910b3"));
    QVERIFY(a2.isEmpty());   // the notes give only guesses for the 910B
    QVERIFY(!a2.unknown.isEmpty());
    BackendPlugin *nvidia = m_registry.backend(QStringLiteral("nvidia"));
    QVERIFY(nvidia && nvidia->ceilings(QStringLiteral("sm_90")).isEmpty());   // the host measures its own
    QCOMPARE(ascend::coreCounts(QStringLiteral("ascend910_95")).maxVector, 72);
    QVERIFY(!ascend::coreCounts(QStringLiteral("ascend910_95")).isExact());
}

void TestAscendProfile::lowerBoundFromTheCeilings()
{
    // 1.6e9 bytes at 1600 GB/s: at least 1000 us; measured 4 ms -> 25% of the bound.
    const Timing memory = ascendTiming(4.0, 1.6e9, QJsonValue(), QStringLiteral("fp16"));
    QVector<Finding> bound = withRule(m_ascend->profileFindings(inputOf(nullptr, &memory)), ascend::kLowerBoundRule);
    QCOMPARE(bound.size(), 1);
    QCOMPARE(bound.first().severity, Severity::Medium);
    QVERIFY(qAbs(metricOf(bound.first(), QStringLiteral("memory_floor_us")).value_or(-1) - 1000.0) < 1e-6);
    QVERIFY(qAbs(bound.first().gapShare->share - 0.75) < 1e-9);
    // fp16 FLOPs: the peak is unpublished, so the bound is partial and says so.
    const Timing fp16 = ascendTiming(4.0, 1.6e9, 1e12, QStringLiteral("fp16"));
    bound = withRule(m_ascend->profileFindings(inputOf(nullptr, &fp16)), ascend::kLowerBoundRule);
    QCOMPARE(bound.first().severity, Severity::Info);
    QVERIFY(bound.first().cause.contains(QLatin1String("unpublished")));
    QVERIFY(!metricOf(bound.first(), QStringLiteral("compute_floor_us")));
    // fp8 FLOPs have a published peak: 2e12 FLOPs at 1000 TFLOPS = 2000 us, over the memory floor.
    const Timing fp8 = ascendTiming(4.0, 1.6e9, 2e12, QStringLiteral("fp8"));
    bound = withRule(m_ascend->profileFindings(inputOf(nullptr, &fp8)), ascend::kLowerBoundRule);
    QVERIFY(qAbs(metricOf(bound.first(), QStringLiteral("compute_floor_us")).value_or(-1) - 2000.0) < 1e-6);
    QVERIFY(qAbs(metricOf(bound.first(), QStringLiteral("bound_fraction_pct")).value_or(-1) - 50.0) < 1e-6);
    // The A2 has no published ceilings: no bound at all.
    QVERIFY(withRule(m_ascend->profileFindings(inputOf(nullptr, &memory, QStringLiteral("ascend910b3"))), ascend::kLowerBoundRule).isEmpty());
}

void TestAscendProfile::coreLeavesMsprofToTheBackend()
{
    Measurements measurements;
    measurements.profile = m_fixture;
    L2Context context{QStringLiteral("add_kernel"), kKernelFile, {}, {}};
    context.target = QStringLiteral("ascend910_95");
    const L2Analysis alone = analyzeMeasurements(measurements, context);
    QVERIFY(alone.findings.isEmpty());   // the core reads Nsight Compute only
    QVERIFY(alone.lines.isEmpty());
    QVERIFY2(alone.notes.join(u'\n').contains(QLatin1String("msprof profile is left unread")), qPrintable(alone.notes.join(u'\n')));
    context.backend = m_ascend;
    const L2Analysis read = analyzeMeasurements(measurements, context);
    QCOMPARE(withRule(read.findings, ascend::kScalarFallbackMeasuredRule).size(), 1);
    QCOMPARE(withRule(read.findings, ascend::kHotLineRule).size(), 3);
}

void TestAscendProfile::ladderPassesMeasurementsToThePlugin()
{
    Expected<CompileResult> result = readCompileResultFile(kFixtures + QStringLiteral("/ascend/vector_add/compile.json"));
    QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
    Expected<LoadedCompile> compile = loadCompile(*result, m_ascend->stagesFor(result->target));
    QVERIFY(compile);
    Measurements measurements;
    measurements.profile = m_fixture;
    measurements.origins << QStringLiteral("profile: profile-reply.json");
    LadderInputs inputs;
    inputs.kernel = compile->result.kernel;
    inputs.sourcePath = compile->result.sourcePath;
    inputs.spec = compile->result.spec;
    inputs.compile = &*compile;
    inputs.backend = m_ascend;
    inputs.measurements = &measurements;
    const LadderResult ladder = runLadder(inputs);
    const QVector<Finding> l2 = ladder.diagnosis.findings(Level::L2);
    QCOMPARE(withRule(l2, ascend::kScalarFallbackMeasuredRule).size(), 1);
    QCOMPARE(withRule(l2, ascend::kBlockDimUnderCoresRule).size(), 1);
}

QTEST_GUILESS_MAIN(TestAscendProfile)
#include "tst_ascend_profile.moc"
