// What an optimization run reports, without an agent: the suite figures (failures count as 1.0x,
// never dropped), the strata.bench JSON round trip and its errors, the CSV, and the timing rule
// that decides a win.
#include "optimize/LevelAblation.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsCatalog.h"
#include "optimize/SuiteEnvironment.h"
#include "optimize/TimingDecision.h"

#include <QDir>
#include <cmath>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::optimize;

namespace {

TaskOutcome task(const QString &id, std::optional<double> initialMs, std::optional<double> bestMs,
                 const QString &status = QStringLiteral("improved"))
{
    TaskOutcome outcome;
    outcome.taskId = id;
    outcome.taskPath = QStringLiteral("suites/x/%1.py").arg(id);
    outcome.category = QStringLiteral("elementwise");
    outcome.status = status;
    outcome.initialMs = initialMs;
    outcome.bestMs = bestMs;
    return outcome;
}

CandidateTiming timed(double ms, double ciRel)
{
    CandidateTiming timing;
    timing.medianMs = ms;
    timing.medianCiRel = ciRel;
    return timing;
}

} // namespace

class TestOptimizeOutcome : public QObject {
    Q_OBJECT
private slots:
    void suiteFiguresCountFailuresAsNoGain();
    void bestBaselineIsTheFasterOfEagerAndCompile();
    void jsonRoundTripKeepsEverything();
    void jsonErrorsNameTheField();
    void csvHasOneRowPerTask();
    void coverageRoundTripsAndRejectsUnknownNames();
    void roundDiagnosesRoundTripAndBadSharesAreNamed();
    void folderOpensItsNewestCompleteResults();
    void folderWithOnlyPartsSaysSo();
    void committedResultsFolderPicksTheMergedRun();
    void winNeedsGainBeyondBothConfidenceIntervals();
    void ablationReportsWhatEachLevelAdds();
    void environmentNamesTheDeviceOfTheTargetsBackend();
};

void TestOptimizeOutcome::suiteFiguresCountFailuresAsNoGain()
{
    SuiteOutcome suite;
    suite.tasks = {task(QStringLiteral("a"), 8.0, 1.0), task(QStringLiteral("b"), 2.0, 1.0),
                   task(QStringLiteral("c"), 1.0, 1.0, QStringLiteral("no_gain")),
                   task(QStringLiteral("d"), std::nullopt, std::nullopt, QStringLiteral("failed"))};
    // 8, 2, 1, 1 (the failure): geomean = (16)^(1/4) = 2, median = (1 + 2) / 2
    QCOMPARE(suite.geomeanSpeedup(), 2.0);
    QCOMPARE(suite.medianSpeedup(), 1.5);
    QCOMPARE(suite.countOver(2), 2);
    QCOMPARE(suite.countOver(5), 1);
    QCOMPARE(suite.failures(), 1);
    QCOMPARE(SuiteOutcome().geomeanSpeedup(), 0.0);
}

void TestOptimizeOutcome::bestBaselineIsTheFasterOfEagerAndCompile()
{
    TaskOutcome outcome = task(QStringLiteral("a"), 4.0, 1.0);
    outcome.eagerMs = 3.0;
    outcome.compileMs = 1.5;
    QCOMPARE(*outcome.speedupVsEager(), 3.0);
    QCOMPARE(*outcome.speedupVsBestBaseline(), 1.5);
    outcome.compileMs.reset();
    QCOMPARE(*outcome.speedupVsBestBaseline(), 3.0);
    outcome.bestMs.reset();
    QVERIFY(!outcome.speedupVsBestBaseline());
}

void TestOptimizeOutcome::jsonRoundTripKeepsEverything()
{
    SuiteOutcome suite;
    suite.suite = QStringLiteral("hopper-core");
    suite.device = QStringLiteral("NVIDIA H200");
    suite.triton = QStringLiteral("3.6.0");
    suite.commit = QStringLiteral("abc123");
    suite.date = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
    TaskOutcome first = task(QStringLiteral("softmax"), 2.0, 0.5);
    first.eagerMs = 0.7;
    first.rooflinePct = 81.5;
    first.bound = QStringLiteral("memory");
    first.winningRecipes = {QStringLiteral("recipe/grow-block")};
    first.tokens = 1234;
    first.wallSeconds = 41.5;
    first.agentSeconds = {{QStringLiteral("time"), 12.25}, {QStringLiteral("measure_wait_s"), 3.5}};
    CandidateRecord candidate;
    candidate.id = 7;
    candidate.parentId = 3;
    candidate.iteration = 1;
    candidate.provider = QStringLiteral("recipe");
    candidate.recipeId = QStringLiteral("grow-block");
    candidate.state = QStringLiteral("accepted");
    candidate.sourceText = QStringLiteral("print('x')\n");
    candidate.medianMs = 0.5;
    first.candidates = {candidate};
    suite.tasks = {first, task(QStringLiteral("broken"), std::nullopt, std::nullopt, QStringLiteral("failed"))};
    suite.tasks[1].failure = QStringLiteral("the initial kernel does not pass");

    const QJsonObject json = toJson(suite);
    QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.bench"));
    QCOMPARE(json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("failures")).toInt(), 1);
    const Expected<SuiteOutcome> back = suiteOutcomeFromJson(json, QStringLiteral("mem"));
    QVERIFY2(back.hasValue(), back ? "" : qPrintable(back.error().toString()));
    QCOMPARE(back->device, suite.device);
    QCOMPARE(back->date, suite.date);
    QCOMPARE(back->tasks.size(), 2);
    QCOMPARE(*back->tasks[0].speedup(), 4.0);
    QCOMPARE(*back->tasks[0].rooflinePct, 81.5);
    QVERIFY(!back->tasks[0].compileMs);
    QCOMPARE(back->tasks[0].candidates.size(), 1);
    QCOMPARE(back->tasks[0].candidates[0].sourceText, candidate.sourceText);
    QCOMPARE(back->tasks[0].candidates[0].parentId, 3);
    QCOMPARE(back->tasks[1].failure, suite.tasks[1].failure);
    QCOMPARE(back->tasks[0].tokens, 1234);
    QCOMPARE(*back->tasks[0].wallSeconds, 41.5);
    QVERIFY(!back->tasks[1].wallSeconds);
    QCOMPARE(back->tasks[0].agentSeconds, first.agentSeconds);
    QVERIFY(back->tasks[1].agentSeconds.isEmpty());
    QVERIFY(!toJson(suite).value(QStringLiteral("tasks")).toArray().at(1).toObject().contains(QStringLiteral("agent_s")));
    // Without sources the candidate stays, its text does not.
    const Expected<SuiteOutcome> slim = suiteOutcomeFromJson(toJson(suite, false), QStringLiteral("mem"));
    QVERIFY(slim.hasValue());
    QVERIFY(slim->tasks[0].candidates[0].sourceText.isEmpty());
}

void TestOptimizeOutcome::jsonErrorsNameTheField()
{
    QJsonObject json = toJson(SuiteOutcome{});
    json.insert(QStringLiteral("schema"), QStringLiteral("other"));
    Expected<SuiteOutcome> wrongSchema = suiteOutcomeFromJson(json, QStringLiteral("r.json"));
    QVERIFY(!wrongSchema.hasValue());
    QVERIFY(wrongSchema.error().toString().contains(QLatin1String("r.json")));

    SuiteOutcome suite;
    suite.tasks = {task(QStringLiteral("a"), 1.0, 1.0)};
    json = toJson(suite);
    QJsonArray tasks = json.value(QStringLiteral("tasks")).toArray();
    QJsonObject first = tasks[0].toObject();
    first.insert(QStringLiteral("initial_ms"), QStringLiteral("fast"));
    tasks[0] = first;
    json.insert(QStringLiteral("tasks"), tasks);
    const Expected<SuiteOutcome> badTime = suiteOutcomeFromJson(json, QStringLiteral("r.json"));
    QVERIFY(!badTime.hasValue());
    QVERIFY2(badTime.error().toString().contains(QLatin1String("initial_ms")), qPrintable(badTime.error().toString()));
}

void TestOptimizeOutcome::csvHasOneRowPerTask()
{
    SuiteOutcome suite;
    suite.tasks = {task(QStringLiteral("a"), 2.0, 1.0), task(QStringLiteral("b, quoted"), 1.0, 1.0, QStringLiteral("no_gain"))};
    const QStringList lines = toCsv(suite).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith(QLatin1String("task,category,status,initial_ms,best_ms,speedup")));
    QVERIFY(lines[1].startsWith(QLatin1String("a,elementwise,improved,2,1,2")));
    QVERIFY2(lines[2].startsWith(QLatin1String("\"b, quoted\"")), qPrintable(lines[2]));
}

void TestOptimizeOutcome::winNeedsGainBeyondBothConfidenceIntervals()
{
    const CandidateTiming best = timed(1.0, 0.005);
    const CandidateTiming clear = timed(0.8, 0.005);
    Comparison comparison = compareTimings(&best, &clear, 0.02);
    QVERIFY(comparison.win);
    QCOMPARE(comparison.verdict, QStringLiteral("accepted"));
    QCOMPARE(*comparison.speedup, 1.25);

    const CandidateTiming noisy = timed(0.9, 0.12);  // 11% faster, but its CI reaches past the best's
    comparison = compareTimings(&best, &noisy, 0.02);
    QVERIFY(!comparison.win);
    QCOMPARE(comparison.verdict, QStringLiteral("not_significant"));

    const CandidateTiming small = timed(0.99, 0.0001);  // separated, but under the 2% gain
    QCOMPARE(compareTimings(&best, &small, 0.02).verdict, QStringLiteral("not_significant"));
    const CandidateTiming slower = timed(1.2, 0.001);
    QCOMPARE(compareTimings(&best, &slower, 0.02).verdict, QStringLiteral("slower"));

    CandidateTiming failed;
    failed.error = QStringLiteral("launch failed");
    comparison = compareTimings(&best, &failed, 0.02);
    QCOMPARE(comparison.verdict, QStringLiteral("no_time"));
    QVERIFY(comparison.detail.contains(QLatin1String("launch failed")));
}

namespace {

void writeResults(const QString &path, Coverage coverage, const QDateTime &date, int tasks)
{
    SuiteOutcome suite;
    suite.suite = QStringLiteral("s");
    suite.date = date;
    suite.coverage = coverage;
    for (int i = 0; i < tasks; ++i)
        suite.tasks.append(task(QStringLiteral("t%1").arg(i), 1.0, 1.0));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(toJson(suite)).toJson());
}

QDateTime day(int d) { return QDateTime(QDate(2026, 12, d), QTime(12, 0), Qt::UTC); }

} // namespace

void TestOptimizeOutcome::coverageRoundTripsAndRejectsUnknownNames()
{
    SuiteOutcome suite;
    suite.coverage = Coverage::Part;
    QJsonObject json = toJson(suite);
    QCOMPARE(json.value(QStringLiteral("coverage")).toString(), QStringLiteral("part"));
    QCOMPARE(suiteOutcomeFromJson(json, QStringLiteral("r.json"))->coverage, Coverage::Part);

    json.remove(QStringLiteral("coverage"));  // an older file: unknown, or merged if it says so
    QCOMPARE(suiteOutcomeFromJson(json, QStringLiteral("r.json"))->coverage, Coverage::Unknown);
    json.insert(QStringLiteral("merged_from"), QJsonArray{QJsonObject{{QStringLiteral("file"), QStringLiteral("a.json")}}});
    QCOMPARE(suiteOutcomeFromJson(json, QStringLiteral("r.json"))->coverage, Coverage::Merged);

    json.insert(QStringLiteral("coverage"), QStringLiteral("most"));
    const Expected<SuiteOutcome> bad = suiteOutcomeFromJson(json, QStringLiteral("r.json"));
    QVERIFY(!bad.hasValue());
    QVERIFY2(bad.error().toString().contains(QLatin1String("r.json")) && bad.error().toString().contains(QLatin1String("coverage")),
             qPrintable(bad.error().toString()));
}

void TestOptimizeOutcome::roundDiagnosesRoundTripAndBadSharesAreNamed()
{
    SuiteOutcome suite;
    TaskOutcome one = task(QStringLiteral("softmax"), 2.0, 1.0);
    RoundDiagnosis round;
    round.iteration = 1;
    round.candidateId = 4;
    round.kernel = QStringLiteral("softmax_kernel");
    round.measured = {QStringLiteral("timing")};
    round.rankingIsEstimate = false;
    round.findings = {{QStringLiteral("L1.multi-pass-reread"), QStringLiteral("x read 3 times"), QStringLiteral("high"), 31, 0.41,
                       true, QStringLiteral("not_examined")}};
    round.escalation = {QStringLiteral("L1 triage: always")};
    one.rounds = {round};
    suite.tasks = {one};
    QJsonObject json = toJson(suite);
    const Expected<SuiteOutcome> back = suiteOutcomeFromJson(json, QStringLiteral("r.json"));
    QVERIFY2(back.hasValue(), back ? "" : qPrintable(back.error().toString()));
    const RoundDiagnosis &read = back->tasks[0].rounds.value(0);
    QCOMPARE(read.candidateId, 4);
    QCOMPARE(read.measured, round.measured);
    QVERIFY(!read.rankingIsEstimate);
    QCOMPARE(read.findings.size(), 1);
    QCOMPARE(read.findings[0].line, 31);
    QCOMPARE(*read.findings[0].share, 0.41);
    QVERIFY(read.findings[0].shareMeasured);
    QCOMPARE(read.escalation, round.escalation);

    QJsonArray tasks = json.value(QStringLiteral("tasks")).toArray();
    QJsonObject first = tasks[0].toObject();
    QJsonArray rounds = first.value(QStringLiteral("rounds")).toArray();
    QJsonObject bad = rounds[0].toObject();
    QJsonArray findings = bad.value(QStringLiteral("findings")).toArray();
    QJsonObject finding = findings[0].toObject();
    finding.insert(QStringLiteral("share"), 1.7);
    findings[0] = finding;
    bad.insert(QStringLiteral("findings"), findings);
    rounds[0] = bad;
    first.insert(QStringLiteral("rounds"), rounds);
    tasks[0] = first;
    json.insert(QStringLiteral("tasks"), tasks);
    const Expected<SuiteOutcome> rejected = suiteOutcomeFromJson(json, QStringLiteral("r.json"));
    QVERIFY(!rejected.hasValue());
    QVERIFY2(rejected.error().toString().contains(QLatin1String("tasks[0].rounds[0].findings[0].share")),
             qPrintable(rejected.error().toString()));
}

void TestOptimizeOutcome::folderOpensItsNewestCompleteResults()
{
    QTemporaryDir dir;
    // The part is the newest file and sorts last by name: neither may decide.
    writeResults(dir.filePath(QStringLiteral("a-whole.json")), Coverage::Whole, day(1), 5);
    writeResults(dir.filePath(QStringLiteral("b-merged.json")), Coverage::Merged, day(2), 5);
    writeResults(dir.filePath(QStringLiteral("z-part.json")), Coverage::Part, day(3), 2);
    QFile other(dir.filePath(QStringLiteral("notes.json")));
    QVERIFY(other.open(QIODevice::WriteOnly));
    other.write("{\"schema\": \"something.else\"}");
    other.close();

    const Expected<ResultsChoice> choice = newestResults(dir.path());
    QVERIFY2(choice.hasValue(), choice ? "" : qPrintable(choice.error().toString()));
    QCOMPARE(QFileInfo(choice->path).fileName(), QStringLiteral("b-merged.json"));
    QCOMPARE(choice->coverage, Coverage::Merged);
    QCOMPARE(choice->skipped.size(), 1);
    QVERIFY(choice->skipped.first().startsWith(QLatin1String("notes.json")));

    QString note;
    const Expected<QString> resolved = resolveResultsPath(dir.path(), &note);
    QCOMPARE(QFileInfo(*resolved).fileName(), QStringLiteral("b-merged.json"));
    QVERIFY2(note.contains(QLatin1String("newest complete")), qPrintable(note));
    // A file is taken as it is, whatever its coverage.
    QCOMPARE(*resolveResultsPath(dir.filePath(QStringLiteral("z-part.json"))), dir.filePath(QStringLiteral("z-part.json")));
}

void TestOptimizeOutcome::folderWithOnlyPartsSaysSo()
{
    QTemporaryDir dir;
    writeResults(dir.filePath(QStringLiteral("p1.json")), Coverage::Part, day(1), 3);
    writeResults(dir.filePath(QStringLiteral("p2.json")), Coverage::Part, day(2), 3);
    QString note;
    const Expected<QString> resolved = resolveResultsPath(dir.path(), &note);
    QCOMPARE(QFileInfo(*resolved).fileName(), QStringLiteral("p2.json"));
    QVERIFY2(note.contains(QLatin1String("no complete results")), qPrintable(note));

    QTemporaryDir empty;
    const Expected<QString> none = resolveResultsPath(empty.path());
    QVERIFY(!none.hasValue());
    QVERIFY(none.error().toString().contains(empty.path()));
}

void TestOptimizeOutcome::committedResultsFolderPicksTheMergedRun()
{
    // The committed H200 results hold parts as new as their merge: what opens must be complete.
    const Expected<ResultsChoice> choice = newestResults(QStringLiteral(STRATA_SOURCE_DIR "/bench/results"));
    QVERIFY2(choice.hasValue(), choice ? "" : qPrintable(choice.error().toString()));
    QVERIFY2(isComplete(choice->coverage), qPrintable(choice->describe()));
}

void TestOptimizeOutcome::ablationReportsWhatEachLevelAdds()
{
    QCOMPARE(levelOfFinding(QStringLiteral("L3.fma-dot")), diagnosis::Level::L3);
    QCOMPARE(levelOfFinding(QStringLiteral("L1.multi-pass-reread")), diagnosis::Level::L1);
    QCOMPARE(levelOfFinding(QStringLiteral("source: serial running-sum loop")), diagnosis::Level::L1);
    QCOMPARE(levelOfFinding(QStringLiteral("timing: memory-bound")), diagnosis::Level::L2);
    QVERIFY(!levelOfFinding(QStringLiteral("task: tolerance >= 1e-2")));
    QVERIFY(!levelOfFinding(QStringLiteral("L9")));
    QCOMPARE(pathForLevel(QStringLiteral("out/bench.db"), diagnosis::Level::L2), QStringLiteral("out/bench-L2.db"));
    QCOMPARE(pathForLevel(QStringLiteral("/tmp/results.json"), diagnosis::Level::L4), QStringLiteral("/tmp/results-L4.json"));

    // L1 wins 2x on one of two tasks; L3 adds a 4x win found by an L3 finding on the other.
    Ablation ablation;
    SuiteOutcome l1;
    l1.tasks = {task(QStringLiteral("a"), 2.0, 1.0), task(QStringLiteral("b"), 1.0, 1.0, QStringLiteral("no_gain"))};
    l1.tasks[0].winningFindings = {QStringLiteral("L1.tiny-block")};
    SuiteOutcome l3 = l1;
    l3.tasks[1] = task(QStringLiteral("b"), 4.0, 1.0);
    l3.tasks[1].winningFindings = {QStringLiteral("L1.no-autotune"), QStringLiteral("L3.fma-dot")};
    l3.tasks[1].tokens = 500;
    ablation.runs = {{diagnosis::Level::L1, l1, 10, {}}, {diagnosis::Level::L3, l3, 30, {}}};
    const QJsonObject json = ablation.toJson();
    QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.bench-ablation"));
    const QJsonArray levels = json.value(QStringLiteral("levels")).toArray();
    QCOMPARE(levels.size(), 2);
    QVERIFY(levels[0].toObject().value(QStringLiteral("marginal_geomean")).isNull());
    QCOMPARE(levels[0].toObject().value(QStringLiteral("geomean_speedup")).toDouble(), std::sqrt(2.0));
    QCOMPARE(levels[1].toObject().value(QStringLiteral("marginal_geomean")).toDouble(), std::sqrt(8.0) / std::sqrt(2.0));
    QCOMPARE(levels[1].toObject().value(QStringLiteral("tokens")).toInteger(), 500);
    QCOMPARE(levels[1].toObject().value(QStringLiteral("improved")).toInt(), 2);
    const QJsonArray tasks = levels[1].toObject().value(QStringLiteral("tasks")).toArray();
    QCOMPARE(tasks[0].toObject().value(QStringLiteral("best_from_level")).toInt(), 1);
    QCOMPARE(tasks[1].toObject().value(QStringLiteral("best_from_level")).toInt(), 3);
    QVERIFY(levels[0].toObject().value(QStringLiteral("tasks")).toArray()[1].toObject().value(QStringLiteral("best_from_level")).isNull());
    QVERIFY(ablation.table().contains(QStringLiteral("4.00x L3")));
}

void TestOptimizeOutcome::environmentNamesTheDeviceOfTheTargetsBackend()
{
    const QJsonObject nvidia{{QStringLiteral("name"), QStringLiteral("nvidia")},
                             {QStringLiteral("targets"), QJsonArray{QStringLiteral("sm_90")}}};
    QJsonObject ascend{{QStringLiteral("name"), QStringLiteral("ascend")},
                       {QStringLiteral("targets"), QJsonArray{QStringLiteral("ascend910_95")}},
                       {QStringLiteral("triton"), QStringLiteral("triton-ascend 3.2.0")}};
    QJsonObject info{{QStringLiteral("triton"), QStringLiteral("3.6.0")}, {QStringLiteral("torch"), QStringLiteral("2.11.0")},
                     {QStringLiteral("default_target"), QStringLiteral("sm_90")},
                     {QStringLiteral("gpus"), QJsonArray{}}, {QStringLiteral("backends"), QJsonArray{nvidia, ascend}}};
    // No GPU and no device named by the backend: said so.
    optimize::SuiteOutcome cpu;
    optimize::describeEnvironment(info, QStringLiteral("ascend910_95"), cpu);
    QCOMPARE(cpu.backend, QStringLiteral("ascend"));
    QCOMPARE(cpu.triton, QStringLiteral("triton-ascend 3.2.0"));
    QCOMPARE(cpu.device, QStringLiteral("cpu (no GPU)"));
    // An NPU host: the Ascend entry names its devices.
    ascend.insert(QStringLiteral("device"), QStringLiteral("Ascend NPU x8"));
    info.insert(QStringLiteral("backends"), QJsonArray{nvidia, ascend});
    optimize::SuiteOutcome npu;
    optimize::describeEnvironment(info, QStringLiteral("ascend910_95"), npu);
    QCOMPARE(npu.device, QStringLiteral("Ascend NPU x8"));
    // The NVIDIA target on the same info: the host's GPU list decides, not another backend's device.
    optimize::SuiteOutcome nvidiaRun;
    optimize::describeEnvironment(info, QString(), nvidiaRun);
    QCOMPARE(nvidiaRun.target, QStringLiteral("sm_90"));
    QCOMPARE(nvidiaRun.triton, QStringLiteral("3.6.0"));
    QCOMPARE(nvidiaRun.device, QStringLiteral("cpu (no GPU)"));
    info.insert(QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("NVIDIA H100 80GB HBM3")},
                                                               {QStringLiteral("target"), QStringLiteral("sm_90")},
                                                               {QStringLiteral("driver"), QStringLiteral("580")}}});
    optimize::SuiteOutcome gpu;
    optimize::describeEnvironment(info, QString(), gpu);
    QCOMPARE(gpu.device, QStringLiteral("NVIDIA H100 80GB HBM3"));
    QCOMPARE(gpu.driver, QStringLiteral("580"));
}

QTEST_GUILESS_MAIN(TestOptimizeOutcome)
#include "tst_optimize_outcome.moc"
