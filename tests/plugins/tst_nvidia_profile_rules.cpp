// The NVIDIA backend's part of L2 behind the plugin interface (BackendPlugin::profileRules): the
// loaded plugin hands out the rules the core's L2 applies by default, and they give the same
// analysis with the plugin named as without on replies captured from an H200
// (tests/tasks/fixtures/h200: vector_add's `time`, `profile` and `ceilings`); the static occupancy
// comes from the compile's ptxas figures; a backend without profile rules gets the core's model
// over its timing alone.
#include "NvidiaOccupancy.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/model/DiagnosisJson.h"
#include "host/PluginRegistry.h"

#include <QJsonArray>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(STRATA_TASK_FIXTURES "/h200/%1.json").arg(QLatin1String(name));
}

const QString kSource = QStringLiteral(STRATA_SOURCE_DIR "/suites/tasks-smoke/vector_add.py");

// The captured replies; `profile` false leaves the profile out (timing and ceilings alone), and
// `shortKernel` makes the timing median 4 us (launch-bound, as tst_measurements does).
Measurements captured(bool profile = true, bool shortKernel = false)
{
    Measurements m;
    Expected<Timing> timing = readTimingFile(fixture("time-vector_add"));
    Expected<ProfileResult> profiled = readProfileFile(fixture("profile-vector_add"));
    Expected<CeilingsResult> ceilings = readCeilingsFile(fixture("ceilings"));
    if (!timing || !profiled || !ceilings)
        qFatal("captured replies do not parse");
    m.timing = *timing;
    if (profile)
        m.profile = *profiled;
    m.ceilings = ceilings->ceilings;
    if (shortKernel)
        m.timing->candidates.first().medianMs = 0.004;
    return m;
}

// What an analysis concluded, findings and figures, as JSON to compare whole.
QJsonObject summary(const L2Analysis &a)
{
    QJsonArray findings, lines;
    for (const Finding &finding : a.findings)
        findings.append(toJson(finding));
    for (const LineCost &line : a.lines)
        lines.append(QJsonArray{line.line, line.samples, line.share, line.timeShare});
    QJsonObject json{{QStringLiteral("bound"), a.bound}, {QStringLiteral("findings"), findings},
                     {QStringLiteral("lines"), lines}, {QStringLiteral("launch_share"), a.launchShare},
                     {QStringLiteral("samples"), a.totalSamples}};
    if (a.durationUs)
        json.insert(QStringLiteral("duration_us"), *a.durationUs);
    if (a.gapFraction)
        json.insert(QStringLiteral("gap"), *a.gapFraction);
    if (a.occupancy)
        json.insert(QStringLiteral("occupancy"), QJsonArray{a.occupancy->theoretical, a.occupancy->limiter, a.occupancy->source});
    return json;
}

const Finding *withRule(const QVector<Finding> &findings, const char *rule)
{
    for (const Finding &finding : findings)
        if (finding.ruleId == QLatin1String(rule))
            return &finding;
    return nullptr;
}

} // namespace

class TestNvidiaProfileRules : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void onlyNvidiaHandsOutProfileRules();
    void pluginRulesGiveTheCoresL2_data();
    void pluginRulesGiveTheCoresL2();
    void staticOccupancyFromPtxas();
    void backendWithoutProfileRulesKeepsTheModel();
    void memoryFractionIsDramNotTheBusiestUnit();

private:
    PluginRegistry m_registry;
    const BackendPlugin *m_nvidia = nullptr;
};

void TestNvidiaProfileRules::initTestCase()
{
    m_registry.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR));
    m_nvidia = m_registry.backend(QStringLiteral("nvidia"));
    QVERIFY2(m_nvidia, qPrintable(m_registry.errors().value(0).toString()));
}

void TestNvidiaProfileRules::onlyNvidiaHandsOutProfileRules()
{
    QVERIFY(m_nvidia->profileRules());
    QCOMPARE(m_nvidia->profileRules()->profiler(), QStringLiteral("ncu"));
    QCOMPARE(defaultProfileRules().profiler(), QStringLiteral("ncu"));
    if (const BackendPlugin *ascend = m_registry.backend(QStringLiteral("ascend")))
        QVERIFY(!ascend->profileRules());   // msprof's figures are its profileFindings()'
}

void TestNvidiaProfileRules::pluginRulesGiveTheCoresL2_data()
{
    QTest::addColumn<bool>("profile");
    QTest::addColumn<bool>("shortKernel");
    QTest::addColumn<QString>("rule");   // a rule it must raise, so the comparison is not of nothing
    QTest::newRow("time, profile and ceilings") << true << false << QStringLiteral("L2.stall-mix");
    QTest::newRow("time and ceilings") << false << false << QStringLiteral("L2.memory-bound");
    QTest::newRow("a 4 us kernel's timing") << false << true << QStringLiteral("L2.launch-bound");
}

void TestNvidiaProfileRules::pluginRulesGiveTheCoresL2()
{
    QFETCH(bool, profile);
    QFETCH(bool, shortKernel);
    QFETCH(QString, rule);
    const Measurements m = captured(profile, shortKernel);
    L2Context context{QStringLiteral("add_kernel"), kSource, QStringLiteral("sm_90")};
    const L2Analysis byDefault = analyzeMeasurements(m, context);
    context.backend = m_nvidia;
    const L2Analysis byPlugin = analyzeMeasurements(m, context);
    QCOMPARE(summary(byPlugin), summary(byDefault));
    QVERIFY(withRule(byPlugin.findings, qPrintable(rule)));
    if (shortKernel)
        QCOMPARE(withRule(byPlugin.findings, "L2.launch-bound")->recipes,
                 (QStringList{QStringLiteral("fuse-kernels"), QStringLiteral("cuda-graphs"), QStringLiteral("batch-work")}));
    if (profile) {
        QVERIFY(withRule(byPlugin.findings, "L2.stall-mix"));
        QVERIFY(byPlugin.occupancy);
        QCOMPARE(byPlugin.occupancy->source, QStringLiteral("ncu"));
    }
}

// 255 registers x 4 warps: two CTAs per SM, 12.5%, registers bind (tst_measurements checks the
// arithmetic); L2 computes it from the compile when no profile measured it.
void TestNvidiaProfileRules::staticOccupancyFromPtxas()
{
    CompileResult compile;
    compile.target = QStringLiteral("sm_90");
    compile.ptxas.registers = 255;
    compile.metadata.insert(QStringLiteral("num_warps"), 4);
    L2Context context{QStringLiteral("add_kernel"), kSource, compile.target, &compile};
    context.backend = m_nvidia;
    const L2Analysis a = analyzeMeasurements(captured(false), context);
    QVERIFY(a.occupancy);
    QCOMPARE(a.occupancy->source, QStringLiteral("static"));
    QCOMPARE(a.occupancy->limiter, QStringLiteral("registers"));
    QCOMPARE(a.occupancy->theoretical, nvidia::computeOccupancy(255, 0, 4).theoretical);
    const Finding *low = withRule(a.findings, "L2.low-occupancy");
    QVERIFY(low);
    QCOMPARE(low->confidence, 0.75);   // computed, not measured
    QVERIFY(a.notes.contains(QStringLiteral("occupancy computed from ptxas registers, shared memory and num_warps")));
    compile.metadata.remove(QStringLiteral("num_warps"));   // not enough to say
    QVERIFY(!analyzeMeasurements(captured(false), context).occupancy);
}

// The Ascend plugin has no profile rules: an Nsight Compute profile is not its to read, so L2 keeps
// the timing's figures (duration from the median, the roofline's fractions) and nothing else, and
// a launch-bound kernel is offered no CUDA graph.
void TestNvidiaProfileRules::backendWithoutProfileRulesKeepsTheModel()
{
    const BackendPlugin *ascend = m_registry.backend(QStringLiteral("ascend"));
    if (!ascend)
        QSKIP("the Ascend plugin is not built");
    L2Context context{QStringLiteral("add_kernel"), kSource};
    context.backend = ascend;
    const L2Analysis a = analyzeMeasurements(captured(true), context);
    QVERIFY(!a.occupancy);
    QVERIFY(a.lines.isEmpty());
    QVERIFY(!withRule(a.findings, "L2.stall-mix"));
    QVERIFY(a.durationUs && qAbs(*a.durationUs - 44.77) > 1);   // the timing median, not ncu's Duration
    QCOMPARE(a.bound, QStringLiteral("memory"));                // the roofline against the ceilings
    const L2Analysis launchBound = analyzeMeasurements(captured(true, true), context);
    const Finding *launch = withRule(launchBound.findings, "L2.launch-bound");
    QVERIFY(launch);
    QCOMPARE(launch->recipes, (QStringList{QStringLiteral("fuse-kernels"), QStringLiteral("batch-work")}));
}

// ncu's "Memory Throughput" is its busiest memory unit: a kernel of narrow loads keeps L1 near
// its peak while DRAM, the unit the lower bound is priced in, runs far below (maxpool2d on the
// H100 of 2026-12-06: 93% against 60%). The captured H200 launch with those two figures set
// apart reads as DRAM's; a profile without DRAM's figure falls back to the busiest unit's.
void TestNvidiaProfileRules::memoryFractionIsDramNotTheBusiestUnit()
{
    ProfiledKernel launch = captured().profile->profiled.first();
    NcuSection *sol = nullptr;
    for (NcuSection &section : launch.sections)
        if (section.name.contains(QLatin1String("Speed Of Light")) && !sol)
            sol = &section;
    QVERIFY(sol);
    for (NcuMetric &metric : sol->metrics) {
        if (metric.name == QLatin1String("Memory Throughput"))
            metric.value = 93.0;
        if (metric.name == QLatin1String("DRAM Throughput"))
            metric.value = 60.0;
    }
    const BackendProfileRules *rules = m_nvidia->profileRules();
    QCOMPARE(rules->readLaunch(launch).memoryFraction.value_or(-1), 0.60);
    sol->metrics.removeIf([](const NcuMetric &metric) { return metric.name == QLatin1String("DRAM Throughput"); });
    QCOMPARE(rules->readLaunch(launch).memoryFraction.value_or(-1), 0.93);
}

QTEST_GUILESS_MAIN(TestNvidiaProfileRules)
#include "tst_nvidia_profile_rules.moc"
