// L2 on real replies captured from an H200 (tests/tasks/fixtures/h200: `time`, `profile` and
// `ceilings` of suites/tasks-smoke/vector_add.py): bound class, occupancy, stall mix, per-line
// cost, and the ladder's measured ranking; plus the NVIDIA plugin's static occupancy calculator.
#include "../support/AgentTestSupport.h"
#include "NvidiaOccupancy.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/ladder/Ladder.h"
#include "diagnosis/ladder/Symptoms.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include "../support/NvidiaTargetsForTests.h"
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(STRATA_TASK_FIXTURES "/h200/%1.json").arg(QLatin1String(name));
}

const QString kSmokeSource = QStringLiteral(STRATA_SOURCE_DIR "/suites/tasks-smoke/vector_add.py");

Measurements capturedMeasurements()
{
    Measurements m;
    Expected<Timing> timing = readTimingFile(fixture("time-vector_add"));
    Expected<ProfileResult> profile = readProfileFile(fixture("profile-vector_add"));
    Expected<CeilingsResult> ceilings = readCeilingsFile(fixture("ceilings"));
    if (!timing || !profile || !ceilings)
        qFatal("captured replies do not parse");
    m.timing = *timing;
    m.profile = *profile;
    m.ceilings = ceilings->ceilings;
    m.origins = {QStringLiteral("timing: time-vector_add.json"), QStringLiteral("profile: profile-vector_add.json")};
    return m;
}

const Finding *withRule(const QVector<Finding> &findings, const char *rule)
{
    for (const Finding &finding : findings) {
        if (finding.ruleId == QLatin1String(rule))
            return &finding;
    }
    return nullptr;
}

} // namespace

class MeasurementsTest : public QObject {
    Q_OBJECT

private slots:
    void capturedVectorAddIsMemoryBound()
    {
        const L2Analysis a = analyzeMeasurements(capturedMeasurements(), {QStringLiteral("add_kernel"), kSmokeSource, {}});
        QCOMPARE(a.bound, QStringLiteral("memory"));
        QVERIFY(a.durationUs && qAbs(*a.durationUs - 44.77) < 1e-6);  // ncu Duration
        QVERIFY(a.memoryFraction && *a.memoryFraction > 0.85 && *a.memoryFraction < 0.95);  // 3808 of 4242 GB/s
        QVERIFY(a.gapFraction && qAbs(*a.gapFraction - (1 - 0.8977896)) < 1e-4);          // 1 - sol_pct
        const Finding *bound = withRule(a.findings, "L2.memory-bound");
        QVERIFY(bound);
        QCOMPARE(bound->level, Level::L2);
        QCOMPARE(bound->severity, Severity::Low);  // 10% below the roofline
        QVERIFY(!withRule(a.findings, "L2.launch-bound"));
        QVERIFY(!withRule(a.findings, "L2.low-occupancy"));  // ncu: 100% theoretical
        QVERIFY(a.occupancy);
        QCOMPARE(a.occupancy->source, QStringLiteral("ncu"));
        QCOMPARE(a.occupancy->limiter, QStringLiteral("none"));
        QVERIFY(a.occupancy->achieved && qAbs(*a.occupancy->achieved - 0.821) < 1e-9);
    }

    void stallMixAndLineCosts()
    {
        const L2Analysis a = analyzeMeasurements(capturedMeasurements(), {QStringLiteral("add_kernel"), kSmokeSource, {}});
        QCOMPARE(a.stallMix.first().first, QStringLiteral("long_sb"));
        const Finding *mix = withRule(a.findings, "L2.stall-mix");
        QVERIFY(mix);
        QVERIFY(mix->cause.contains(QStringLiteral("global or local memory")));
        QCOMPARE(a.lines.first().line, 25);  // the store: 4752 of 5341 samples
        QVERIFY(qAbs(a.lines.first().share - 4752.0 / 5341.0) < 1e-9);
        QCOMPARE(a.line(23)->samples, 126.0);
        const Finding *hot = withRule(a.findings, "L2.hot-line");
        QVERIFY(hot);
        QCOMPARE(hot->span.line, 25);
        QCOMPARE(hot->severity, Severity::High);
        QVERIFY(hot->gapShare && !hot->gapShare->estimate);
        // only lines with at least 10% of the samples get a finding
        int hotLines = 0;
        for (const Finding &finding : a.findings)
            hotLines += finding.ruleId == QLatin1String("L2.hot-line");
        QCOMPARE(hotLines, 1);
    }

    void shortKernelIsLaunchBound()
    {
        Measurements m = capturedMeasurements();
        m.profile.reset();  // the timing median alone: 0.053 ms of CUDA-graph replay
        m.timing->candidates.first().medianMs = 0.004;
        const L2Analysis a = analyzeMeasurements(m, {QStringLiteral("add_kernel"), kSmokeSource, {}});
        QCOMPARE(a.bound, QStringLiteral("launch"));
        const Finding *launch = withRule(a.findings, "L2.launch-bound");
        QVERIFY(launch);
        QVERIFY(launch->gapShare && qAbs(launch->gapShare->share - 0.5) < 1e-9);  // 4 us launch vs 4 us kernel
        QVERIFY(a.lines.isEmpty());
    }

    void staticOccupancy()
    {
        // 255 registers x 4 warps: 8160 -> 8192 registers per warp, 8 warps fit: 2 CTAs, 12.5%
        const Occupancy regs = nvidia::computeOccupancy(255, 0, 4);
        QCOMPARE(regs.activeBlocks, 2);
        QCOMPARE(regs.limiter, QStringLiteral("registers"));
        QCOMPARE(regs.theoretical, 0.125);
        // 100 KiB of shared memory per CTA: two fit in 228 KiB
        const Occupancy shared = nvidia::computeOccupancy(32, 100 * 1024, 4);
        QCOMPARE(shared.activeBlocks, 2);
        QCOMPARE(shared.limiter, QStringLiteral("shared_memory"));
        QCOMPARE(nvidia::computeOccupancy(26, 0, 4).limiter, QStringLiteral("none"));  // vector_add: 16 CTAs x 4 warps
        QVERIFY(!nvidia::computeOccupancy(32, 240 * 1024, 4).canLaunch());
    }

    void savedReplyErrorsNameTheFile()
    {
        const Expected<Timing> wrong = readTimingFile(fixture("profile-vector_add"));
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().file, fixture("profile-vector_add"));
        QVERIFY(wrong.error().message.contains(QStringLiteral("not a `time` reply")));
        QVERIFY(!readProfileFile(QStringLiteral("/nonexistent/p.json")));
    }

    void ladderRanksByMeasuredShare()
    {
        const Measurements m = capturedMeasurements();
        LadderInputs inputs;
        inputs.kernel = QStringLiteral("add_kernel");
        inputs.sourcePath = kSmokeSource;
        inputs.measurements = &m;
        const LadderResult result = runLadder(inputs);
        QVERIFY(!result.rankingIsEstimate);
        QVERIFY(result.rankingBasis.startsWith(QStringLiteral("measured")));
        QVERIFY(result.measured);
        QCOMPARE(result.ranking.first().finding.ruleId, QStringLiteral("L2.hot-line"));
        QCOMPARE(result.ranking.first().finding.span.line, 25);
        const QJsonObject json = toJson(result);
        QCOMPARE(json[QStringLiteral("ranking_estimate")].toBool(), false);
        QCOMPARE(json[QStringLiteral("measured")][QStringLiteral("bound")].toString(), QStringLiteral("memory"));
        bool logged = false;
        for (const EscalationStep &step : result.diagnosis.escalation)
            logged = logged || (step.step == QLatin1String("L2 measurement") && step.reason.startsWith(QStringLiteral("measurements given")));
        QVERIFY(logged);
    }

    // L1 findings on the profiled source are joined with their line's measured cost.
    void sourceFindingsCarryTheirLineCost()
    {
        QString why;
        if (!testing::pythonImports(QStringLiteral("triton"), &why))
            QSKIP(qPrintable(why));
        HostConnection agent(std::make_unique<LocalProcessTransport>());
        QString error;
        QVERIFY2(agent.start(&error), qPrintable(error));
        const RpcReply ast = agent.callBlocking(QStringLiteral("ast"), {{QStringLiteral("source_path"), kSmokeSource},
                                                                       {QStringLiteral("kernel"), QStringLiteral("add_kernel")}}, 60000);
        agent.stop();
        QVERIFY(ast.ok);
        const Measurements m = capturedMeasurements();
        LadderInputs inputs;
        inputs.kernel = QStringLiteral("add_kernel");
        inputs.sourcePath = kSmokeSource;
        inputs.astReply = ast.result.toObject();
        // a 64-element block: L1.tiny-block on the offsets line (21), which feeds lines 23-25
        inputs.spec = QJsonObject{{QStringLiteral("signature"), QJsonObject{{QStringLiteral("x_ptr"), QStringLiteral("*fp32")},
                                      {QStringLiteral("y_ptr"), QStringLiteral("*fp32")}, {QStringLiteral("out_ptr"), QStringLiteral("*fp32")},
                                      {QStringLiteral("n_elements"), QStringLiteral("i32")}, {QStringLiteral("BLOCK"), QStringLiteral("constexpr")}}},
                                  {QStringLiteral("constexprs"), QJsonObject{{QStringLiteral("BLOCK"), 64}}},
                                  {QStringLiteral("options"), QJsonObject{{QStringLiteral("num_warps"), 4}}}};
        inputs.measurements = &m;
        const LadderResult result = runLadder(inputs);
        const Finding *tiny = withRule(result.diagnosis.findings(Level::L1), "L1.tiny-block");
        QVERIFY(tiny);
        QCOMPARE(tiny->span.line, 21);
        QVERIFY(tiny->gapShare && !tiny->gapShare->estimate);
        // Its cost is the time of every line it names (the offsets line and the accesses it
        // feeds), never more than the gap to the bound.
        double named = 0;
        for (int line : {21, 23, 24, 25})
            if (const LineCost *cost = result.measured->line(line))
                named += cost->timeShare;
        QVERIFY(named > 356.0 / 5341.0 * (1 - result.measured->launchShare));  // more than line 21 alone
        const double expected = std::min(named, *result.measured->gapFraction);
        QVERIFY2(qAbs(tiny->gapShare->share - expected) < 1e-9, qPrintable(QString::number(tiny->gapShare->share)));
        // The kernel runs at 90% of its bound (a 10% gap): the tiny block is present, not the cause,
        // and its share cannot exceed the gap.
        QCOMPARE(tiny->severity, Severity::Low);
        QVERIFY2(tiny->cause.startsWith(QLatin1String(kPresentNotCause)), qPrintable(tiny->cause));
        QVERIFY(tiny->gapShare->share <= *result.measured->gapFraction);
        // The store line's 89% of the samples is a symptom no mechanism explains: it stays visible
        // and ranks after every mechanism of medium or more (there is none here) but before the
        // facts demoted as cheap: "present, not the cause" never outranks where the time goes.
        int hotRank = -1, tinyRank = -1;
        for (int i = 0; i < result.ranking.size(); ++i) {
            const Finding &finding = result.ranking[i].finding;
            if (finding.ruleId == QLatin1String("L2.hot-line") && finding.span.line == 25)
                hotRank = i;
            if (finding.ruleId == QLatin1String("L1.tiny-block"))
                tinyRank = i;
            if (!isSymptomRule(finding.ruleId))
                QVERIFY2(finding.severity <= Severity::Low, qPrintable(finding.ruleId));
        }
        QVERIFY(hotRank >= 0 && hotRank < tinyRank);
        QVERIFY(result.ranking[hotRank].finding.title.startsWith(QStringLiteral("Hot line no mechanism explains")));
    }

    // At 90% of its bound the kernel's hot line is where its work is, not a loss: it stays
    // visible, at low severity, saying why (a tuned kernel then has no high finding).
    void hotLineOfAKernelNearItsBoundIsLow()
    {
        const Measurements m = capturedMeasurements();
        Diagnosis diagnosis;
        const L2Analysis analysis = analyzeMeasurements(m, {QStringLiteral("add_kernel"), kSmokeSource, {}});
        QVERIFY(analysis.gapFraction && *analysis.gapFraction <= 0.15);
        diagnosis.addFindings(Level::L2, analysis.findings);
        const Finding *before = withRule(diagnosis.findings(Level::L2), "L2.hot-line");
        QVERIFY(before && before->severity == Severity::High);
        attachMeasuredCosts(analysis, diagnosis);
        const Finding *hot = withRule(diagnosis.findings(Level::L2), "L2.hot-line");
        QVERIFY(hot);
        QCOMPARE(hot->severity, Severity::Low);
        QVERIFY2(hot->cause.startsWith(QLatin1String(kPresentNotCause)), qPrintable(hot->cause));
    }

    // A hot line no mechanism explains can save no more than the gap to the bound: with 20% left
    // it is low, whatever its share of the samples; with 80% left it keeps its severity.
    void unexplainedHotLineIsCappedByTheGap()
    {
        const Measurements m = capturedMeasurements();
        const auto hotAfter = [&](double gap) {
            L2Analysis analysis = analyzeMeasurements(m, {QStringLiteral("add_kernel"), kSmokeSource, {}});
            analysis.gapFraction = gap;
            Diagnosis diagnosis;
            diagnosis.addFindings(Level::L2, analysis.findings);
            attachMeasuredCosts(analysis, diagnosis);
            const Finding *hot = withRule(diagnosis.findings(Level::L2), "L2.hot-line");
            return hot ? *hot : Finding{};
        };
        const Finding wide = hotAfter(0.8);
        QCOMPARE(wide.severity, Severity::High);
        const Finding narrow = hotAfter(0.2);
        QCOMPARE(narrow.severity, Severity::Low);
        QVERIFY(narrow.gapShare && qAbs(narrow.gapShare->share - 0.2) < 1e-9);
        QVERIFY2(narrow.cause.contains(QStringLiteral("can save at most 20%")), qPrintable(narrow.cause));
    }

    // A mechanism of the whole launch (here an under-filled grid, reported at the def line) is not
    // judged by its own line's samples; a line mechanism on a cold line is demoted.
    void launchMechanismIsNotDemotedByItsLineShare()
    {
        const Measurements m = capturedMeasurements();
        Diagnosis diagnosis;
        Finding grid = newFinding(QStringLiteral("L1.under-filled-grid"), Level::L1, QStringLiteral("64 programs"),
                                  Severity::High, 0.85, SourceSpan{kSmokeSource, 20, 0, 20, 0}, QStringLiteral("idle SMs"));
        grid.gapShare = GapShare{0.9, true};  // its static estimate: 1 - 64/132 and more
        diagnosis.addFindings(Level::L1, {grid,
                                          newFinding(QStringLiteral("L1.strided-access"), Level::L1, QStringLiteral("strided"),
                                                     Severity::High, 0.8, SourceSpan{kSmokeSource, 20, 0, 20, 0}, QStringLiteral("apart"))});
        L2Analysis analysis = analyzeMeasurements(m, {QStringLiteral("add_kernel"), kSmokeSource, {}});
        analysis.gapFraction = 0.6;  // far from the bound: only line shares can demote
        attachMeasuredCosts(analysis, diagnosis);
        const Finding *launch = withRule(diagnosis.findings(Level::L1), "L1.under-filled-grid");
        QCOMPARE(launch->severity, Severity::High);
        // Its share is its estimate capped at the gap, not the def line's few samples.
        QVERIFY(launch->gapShare && qAbs(launch->gapShare->share - 0.6) < 1e-9 && launch->gapShare->estimate);
        QCOMPARE(withRule(diagnosis.findings(Level::L1), "L1.strided-access")->severity, Severity::Low);
    }

    // Low occupancy measured on a kernel whose dot runs on wgmma is its design (one big CTA per
    // SM); on a kernel without an MMA dot it stays.
    void lowOccupancyOfAnMmaKernelIsLow()
    {
        const auto occupancyAfter = [](DotKind dot) {
            Diagnosis diagnosis;
            diagnosis.addFindings(Level::L2, {newFinding(QStringLiteral("L2.low-occupancy"), Level::L2,
                                                         QStringLiteral("Occupancy limited by registers"), Severity::High,
                                                         0.9, SourceSpan{}, QStringLiteral("1 CTA fits"))});
            KernelIrFacts facts;
            SourceLineFacts line;
            line.line = 30;
            line.dotKind = dot;
            facts.lines.append(line);
            const int demoted = demoteOccupancyOfMmaKernels(facts, diagnosis);
            return std::make_pair(demoted, diagnosis.findings(Level::L2).first());
        };
        const auto [mmaDemoted, mma] = occupancyAfter(DotKind::AsyncMatrix);
        QCOMPARE(mmaDemoted, 1);
        QCOMPARE(mma.severity, Severity::Low);
        QVERIFY(mma.cause.startsWith(QLatin1String(kPresentNotCause)));
        const auto [fmaDemoted, fma] = occupancyAfter(DotKind::Fma);
        QCOMPARE(fmaDemoted, 0);
        QCOMPARE(fma.severity, Severity::High);
    }

    // A hot line on a mechanism's line is that mechanism's evidence, not a finding of its own.
    void hotLineFoldsOntoTheMechanismOnItsLine()
    {
        Measurements m = capturedMeasurements();
        Diagnosis diagnosis;
        Finding store = newFinding(QStringLiteral("L3.scalar-global-access"), Level::L3, QStringLiteral("Scalar global stores"),
                                   Severity::High, 0.9, SourceSpan{kSmokeSource, 25, 0, 25, 0}, QStringLiteral("narrow stores"));
        diagnosis.addFindings(Level::L3, {store});
        L2Analysis analysis = analyzeMeasurements(m, {QStringLiteral("add_kernel"), kSmokeSource, {}});
        // Pretend the kernel is far from its bound, so nothing is demoted for being near it.
        analysis.gapFraction = 0.6;
        diagnosis.addFindings(Level::L2, analysis.findings);
        const QStringList log = attachMeasuredCosts(analysis, diagnosis);
        QVERIFY2(log.join(u' ').contains(QStringLiteral("1 hot lines attached")), qPrintable(log.join(u'\n')));
        for (const Finding &finding : diagnosis.findings(Level::L2))
            QVERIFY(!(finding.ruleId == QLatin1String("L2.hot-line") && finding.span.line == 25));
        const Finding &mechanism = diagnosis.findings(Level::L3).first();
        QCOMPARE(mechanism.severity, Severity::High);
        const bool carriesSymptom = std::any_of(mechanism.evidence.cbegin(), mechanism.evidence.cend(), [](const Evidence &item) {
            return item.note.startsWith(QLatin1String(kSymptomNote));
        });
        QVERIFY(carriesSymptom);
        QVERIFY(mechanism.gapShare && !mechanism.gapShare->estimate);
        QVERIFY(mechanism.gapShare->share > 0.5 && mechanism.gapShare->share <= 0.6);  // 89% of the time, capped at the gap
    }

    // Samples ncu reports on triton/language/standard.py (inlined tl.max / tl.sum) belong to the
    // kernel lines that call them, never to the kernel file's lines with the same numbers.
    void inlinedLibraryLinesFoldOntoTheirCaller()
    {
        Measurements m = capturedMeasurements();
        for (SourceView &view : m.profile->source) {
            if (view.lines.isEmpty())
                continue;
            SourceLineCost library = view.lines.first();
            library.file = QStringLiteral("/usr/lib/python3/site-packages/triton/language/standard.py");
            library.line = 21;  // a number that also exists in the kernel file
            library.source = QString();
            library.stallSamples = 1000;
            view.lines.append(library);
        }
        L2Context context{QStringLiteral("add_kernel"), kSmokeSource, {}, {}};
        const L2Analysis unfolded = analyzeMeasurements(m, context);
        const double line21Before = unfolded.line(21) ? unfolded.line(21)->samples : 0;
        QVERIFY(unfolded.notes.join(u' ').contains(QStringLiteral("no known call site")));
        context.inlinedCallers.insert(QStringLiteral("standard.py:21"), {23, 24});
        const L2Analysis folded = analyzeMeasurements(m, context);
        QCOMPARE(folded.line(21) ? folded.line(21)->samples : 0, line21Before);
        const double line23Before = unfolded.line(23) ? unfolded.line(23)->samples : 0;
        QCOMPARE(folded.line(23)->samples, line23Before + 500);
        QVERIFY(folded.notes.join(u' ').contains(QStringLiteral("folded onto the kernel lines")));
    }
};

QTEST_GUILESS_MAIN(MeasurementsTest)
#include "tst_measurements.moc"
