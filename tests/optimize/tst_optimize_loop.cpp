// The optimization loop end to end on a machine without a GPU: the real agent runs and verifies
// every candidate under Triton's interpreter, the real compiler recompiles it for the fact check,
// and only `time` is answered by timing_shim_agent.py (from markers in the task files). Covers:
// a win accepted, a wrong candidate refused by verify, a slower and a barely faster one refused by
// timing, a rewrite whose promised IR fact does not change stopped before timing, everything in
// the store; and strata-cli optimize killed with -9 mid-timing, then resumed without losing or
// redoing a finished candidate, and a finished run reused instead of redone.
#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "optimize/OutcomeJson.h"
#include "optimize/SuiteBench.h"
#include "rewrite/RewriteProvider.h"
#include "store/Store.h"
#include "../support/AgentTestSupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace strata;
using namespace strata::optimize;

namespace {

const QString kFixtures = QStringLiteral(STRATA_OPTIMIZE_FIXTURES);

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Starts strata-cli with `args` on the real agent (no shim: checks-only runs need no timing).
void startCliOnRealAgent(QProcess &cli, const QStringList &args)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_AGENT_DIR"), QStringLiteral(STRATA_AGENT_DIR));
    env.insert(QStringLiteral("STRATA_PLUGIN_DIR"), QStringLiteral(STRATA_PLUGIN_DIR));
    env.insert(QStringLiteral("STRATA_PYTHON"), testing::agentPython());
    cli.setProcessEnvironment(env);
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QStringLiteral(STRATA_CLI), args);
}

// Proposes a fixed list of fixture files per call (one call per round), each optionally
// promising an IR fact; records what it was asked.
class ScriptedProvider : public rewrite::RewriteProvider {
public:
    struct Item {
        QString file;                 // relative to the fixtures folder
        QString promisedFact;         // empty: none
    };
    explicit ScriptedProvider(QVector<QVector<Item>> rounds) : m_rounds(std::move(rounds)) {}

    QString id() const override { return QStringLiteral("scripted"); }
    Expected<QVector<rewrite::RewriteProposal>> propose(const rewrite::RewriteRequest &request) override
    {
        requests.append(request);
        if (m_call >= m_rounds.size())
            return QVector<rewrite::RewriteProposal>{};
        QVector<rewrite::RewriteProposal> proposals;
        for (const Item &item : m_rounds[m_call]) {
            rewrite::RewriteProposal proposal;
            proposal.provider = QStringLiteral("recipe");
            proposal.recipeId = QFileInfo(item.file).completeBaseName();
            proposal.title = item.file;
            proposal.newText = readText(kFixtures + u'/' + item.file);
            proposal.findingRuleIds = {QStringLiteral("L1.test")};
            if (!item.promisedFact.isEmpty())
                proposal.expected.append({item.promisedFact, 0, QString()});
            proposals.append(proposal);
        }
        ++m_call;
        return proposals;
    }
    QVector<rewrite::RewriteRequest> requests;

private:
    QVector<QVector<Item>> m_rounds;
    int m_call = 0;
};

} // namespace

class TestOptimizeLoop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void suiteTasksLeaveSetAsideFilesOut();
    void acceptsOnlyVerifiedSignificantWins();
    void cancelKeepsAgentDeathsUnfinished();
    void drainLetsTheStepFinishAndTheResumeRedoesNothing();
    void interpretChecksWithoutTimingAndDoesNotStandIn();
    void manualProviderWaitsForThePersonsAnswer();
    void initialKeepsItsGlueCandidatesAddNone();
    void killedRunResumesWithoutLosingFinishedCandidates();

private:
    BenchSetup setupFor(std::shared_ptr<ScriptedProvider> provider, const QString &dbName);
    QString shimDir() const { return m_dir.filePath(QStringLiteral("shim")); }
    QTemporaryDir m_dir;
    PluginRegistry m_plugins;
};

void TestOptimizeLoop::initTestCase()
{
    QString why;
    if (!testing::pythonImports(QStringLiteral("torch, triton"), &why))
        QSKIP(qPrintable(why));
    QVERIFY(m_dir.isValid());
    // The shim is started as `python -m strata_agent` from its own folder.
    QVERIFY(QDir().mkpath(shimDir() + QStringLiteral("/strata_agent")));
    QVERIFY(QFile::copy(QStringLiteral(STRATA_SHIM_AGENT), shimDir() + QStringLiteral("/strata_agent/__main__.py")));
    qputenv("STRATA_REAL_AGENT_DIR", STRATA_AGENT_DIR);
    QVERIFY(m_plugins.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR)) >= 1);
}

void TestOptimizeLoop::suiteTasksLeaveSetAsideFilesOut()
{
    const QString suite = m_dir.filePath(QStringLiteral("suite"));
    QVERIFY(QDir().mkpath(suite));
    for (const auto &[name, text] : {std::pair{"b_task.py", "class ModelNew:\n    pass\n"},
                                     std::pair{"_aside.py", "class ModelNew:\n    pass\n"},
                                     std::pair{"helpers.py", "def helper():\n    pass\n"},
                                     std::pair{"a_task.py", "class ModelNew:\n    pass\n"}}) {
        QFile file(suite + u'/' + QLatin1String(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
    Expected<QStringList> tasks = suiteTasks(suite, {});
    QVERIFY2(tasks, qPrintable(tasks ? QString() : tasks.error().toString()));
    QCOMPARE(*tasks, (QStringList{suite + QStringLiteral("/a_task.py"), suite + QStringLiteral("/b_task.py")}));
    tasks = suiteTasks(suite, {QStringLiteral("_aside")});
    QVERIFY(tasks);
    QCOMPARE(*tasks, QStringList{suite + QStringLiteral("/_aside.py")});
    tasks = suiteTasks(suite, {QStringLiteral("nope")});
    QVERIFY(!tasks);
    QVERIFY(tasks.error().toString().contains(QLatin1String("no task named nope")));
}

// One in-process suite run of the `scale` fixture through the shim agent, proposals from `provider`.
BenchSetup TestOptimizeLoop::setupFor(std::shared_ptr<ScriptedProvider> provider, const QString &dbName)
{
    BenchSetup setup;
    setup.suiteDir = kFixtures;
    setup.only = {QStringLiteral("scale")};
    setup.storePath = m_dir.filePath(dbName);
    setup.plugins = &m_plugins;
    setup.options.workDir = m_dir.filePath(QStringLiteral("work-") + dbName);
    setup.options.maxIterations = 4;
    const QString python = testing::agentPython();
    const QString shim = shimDir();
    setup.agentFactory = [python, shim] {
        return std::make_unique<HostConnection>(std::make_unique<LocalProcessTransport>(python, shim));
    };
    setup.providerFactory = [provider] {
        // The worker owns what the factory returns; the test keeps `provider` to inspect it.
        struct Forward : rewrite::RewriteProvider {
            std::shared_ptr<ScriptedProvider> target;
            QString id() const override { return target->id(); }
            Expected<QVector<rewrite::RewriteProposal>> propose(const rewrite::RewriteRequest &r) override { return target->propose(r); }
        };
        std::vector<std::unique_ptr<rewrite::RewriteProvider>> list;
        auto forward = std::make_unique<Forward>();
        forward->target = provider;
        list.push_back(std::move(forward));
        return list;
    };
    return setup;
}

void TestOptimizeLoop::cancelKeepsAgentDeathsUnfinished()
{
    // A deadline's SIGTERM sets the cancel flag and, through the process group, kills the agent
    // in the middle of timing: the candidate must stay unfinished and the run resumable.
    auto provider = std::make_shared<ScriptedProvider>(QVector<QVector<ScriptedProvider::Item>>{
        {{QStringLiteral("variants/dies_in_timing.py"), {}}}});
    BenchSetup setup = setupFor(provider, QStringLiteral("cancel.db"));
    std::atomic_bool cancel = false;
    setup.cancel = &cancel;
    QStringList log;
    setup.progress = [&log, &cancel](const QString &line) {
        log.append(line);
        if (line.contains(QLatin1String("timing 1 candidate(s) against")))
            cancel = true;
    };
    const Expected<SuiteOutcome> suite = runSuite(setup);
    QVERIFY2(suite.hasValue(), suite ? "" : qPrintable(suite.error().toString()));
    QVERIFY2(cancel.load(), qPrintable(log.join(u'\n')));
    // Not "no_gain": the candidate was never timed, so the task has no verdict yet.
    QCOMPARE(suite->tasks.size(), 1);
    QCOMPARE(suite->tasks.first().status, QStringLiteral("interrupted"));
    QCOMPARE(suite->interrupted(), 1);

    Expected<std::unique_ptr<Store>> store = Store::open(setup.storePath);
    QVERIFY(store.hasValue());
    const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
    QVERIFY(runs.hasValue());
    QCOMPARE(runs->size(), 1);
    QCOMPARE(runs->first().status, QStringLiteral("cancelled"));
    const Expected<QVector<CandidateRow>> rows = (*store)->candidatesForRun(runs->first().id);
    QVERIFY(rows.hasValue());
    QCOMPARE(rows->size(), 2);
    QCOMPARE(rows->at(1).state, QStringLiteral("interrupted"));
    QVERIFY2(rows->at(1).detail.startsWith(QLatin1String("stopped by the cancel (error: timing failed")),
             qPrintable(rows->at(1).detail));
}

void TestOptimizeLoop::drainLetsTheStepFinishAndTheResumeRedoesNothing()
{
    // A drain (the soft stop before a deadline) set as round 1's first check ends: that check is
    // stored, the second candidate is stored unchecked (interrupted), no round 2 starts. The resumed run does round 1 again with only the unchecked candidate,
    // then round 2, and never re-checks the finished one.
    const QVector<QVector<ScriptedProvider::Item>> rounds{
        {{QStringLiteral("variants/wrong.py"), {}}, {QStringLiteral("proposals/a_faster.py"), {}}},
        {{QStringLiteral("variants/barely.py"), {}}}};
    auto first = std::make_shared<ScriptedProvider>(rounds);
    BenchSetup setup = setupFor(first, QStringLiteral("drain.db"));
    std::atomic_bool drain = false;
    setup.drain = &drain;
    QStringList log;
    setup.progress = [&log, &drain](const QString &line) {
        log.append(line);
        if (line.contains(QLatin1String("wrong: verify_failed")))
            drain = true;  // the first check is stored; the second has not started
    };
    const Expected<SuiteOutcome> drained = runSuite(setup);
    QVERIFY2(drained.hasValue(), drained ? "" : qPrintable(drained.error().toString()));
    QCOMPARE(drained->tasks.first().status, QStringLiteral("interrupted"));
    QCOMPARE(first->requests.size(), 1);  // no round 2

    Expected<std::unique_ptr<Store>> store = Store::open(setup.storePath);
    QVERIFY(store.hasValue());
    const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
    QVERIFY(runs.hasValue() && runs->size() == 1);
    QCOMPARE(runs->first().status, QStringLiteral("cancelled"));
    const QVector<CandidateRow> before = *(*store)->candidatesForRun(runs->first().id);
    QCOMPARE(before.size(), 3);
    QCOMPARE(before[1].recipe, QStringLiteral("wrong"));
    QCOMPARE(before[2].recipe, QStringLiteral("a_faster"));
    QCOMPARE(before[2].state, QStringLiteral("interrupted"));
    QCOMPARE(before[2].detail, QStringLiteral("the run stopped before this candidate was checked"));

    auto second = std::make_shared<ScriptedProvider>(rounds);
    BenchSetup again = setupFor(second, QStringLiteral("drain.db"));
    log.clear();
    again.progress = [&log](const QString &line) { log.append(line); };
    const Expected<SuiteOutcome> resumed = runSuite(again);
    QVERIFY2(resumed.hasValue(), resumed ? "" : qPrintable(resumed.error().toString()));
    const TaskOutcome &task = resumed->tasks.first();
    QVERIFY2(task.status == QLatin1String("improved"), qPrintable(task.failure + u'\n' + log.join(u'\n')));
    QCOMPARE(*task.bestMs, 0.5);
    QCOMPARE(second->requests.size(), 2);  // round 1 again, then round 2
    const QVector<CandidateRow> after = *(*store)->candidatesForRun(runs->first().id);
    QCOMPARE(after[1].id, before[1].id);
    QCOMPARE(after[1].updated, before[1].updated);  // the finished check is not redone
    int checksOfWrong = 0;
    for (const CandidateRow &row : after)
        checksOfWrong += row.recipe == QLatin1String("wrong");
    QCOMPARE(checksOfWrong, 1);
    QVERIFY(std::any_of(after.cbegin(), after.cend(), [](const CandidateRow &row) {
        return row.recipe == QLatin1String("a_faster") && row.state == QLatin1String("accepted");
    }));
}

void TestOptimizeLoop::interpretChecksWithoutTimingAndDoesNotStandIn()
{
    // --interpret on the real agent: candidates are compiled, fact-checked and verified on the
    // CPU; nothing can be timed, so nothing is accepted and the outcome says so.
    const QString db = m_dir.filePath(QStringLiteral("checks.db"));
    const QString json = m_dir.filePath(QStringLiteral("checks.json"));
    QProcess cli;
    startCliOnRealAgent(cli,
              {QStringLiteral("optimize"), kFixtures + QStringLiteral("/scale.py"), QStringLiteral("--interpret"),
               QStringLiteral("--db"), db, QStringLiteral("--work-dir"), m_dir.filePath(QStringLiteral("checks-work")),
               QStringLiteral("--proposals"), kFixtures + QStringLiteral("/proposals"), QStringLiteral("--no-recipes"),
               QStringLiteral("--json"), json});
    QVERIFY(cli.waitForFinished(400 * 1000));
    const QByteArray output = cli.readAll();
    QVERIFY2(cli.exitCode() == 0, output.constData());
    Expected<SuiteOutcome> checked = readSuiteOutcomeFile(json);
    QVERIFY2(checked, qPrintable(checked ? QString() : checked.error().toString()));
    const TaskOutcome &task = checked->tasks.first();
    QCOMPARE(task.status, QStringLiteral("no_gain"));
    QVERIFY2(task.failure.contains(QLatin1String("checks only (no timing): 2 of 2")), qPrintable(task.failure));
    QVERIFY(!task.initialMs);
    QCOMPARE(task.candidates.size(), 3);
    QCOMPARE(task.candidates[1].state, QStringLiteral("verified"));
    QCOMPARE(task.candidates[2].state, QStringLiteral("verified"));

    // A timed run on the same store and content does not take the checks-only run's outcome.
    auto provider = std::make_shared<ScriptedProvider>(QVector<QVector<ScriptedProvider::Item>>{});
    BenchSetup setup = setupFor(provider, QStringLiteral("checks.db"));
    QStringList log;
    setup.progress = [&log](const QString &line) { log.append(line); };
    const Expected<SuiteOutcome> timed = runSuite(setup);
    QVERIFY2(timed, qPrintable(timed ? QString() : timed.error().toString()));
    QVERIFY2(log.join(u'\n').contains(QLatin1String("only checked the task, without timing: running it again")),
             qPrintable(log.join(u'\n')));
    QCOMPARE(*timed->tasks.first().initialMs, 1.0);
    // bench names the GPU gate: the real agent's worker holds it for the checks and says how long.
    const QMap<QString, double> &spent = timed->tasks.first().agentSeconds;
    QVERIFY2(spent.value(QStringLiteral("verify")) > 0 && spent.contains(QStringLiteral("time")),
             qPrintable(QStringList(spent.keys()).join(u' ')));
    QVERIFY2(spent.value(QStringLiteral("checks_held_s")) > 0, qPrintable(QStringList(spent.keys()).join(u' ')));
    QVERIFY(!spent.contains(QStringLiteral("host_gate_wait_s")));
}

void TestOptimizeLoop::initialKeepsItsGlueCandidatesAddNone()
{
    // A starting point whose forward computes its scale with torch ops is the baseline as written,
    // not refused at the door; a candidate may keep those ops but not add one.
    const QString json = m_dir.filePath(QStringLiteral("glue.json"));
    QProcess cli;
    startCliOnRealAgent(cli,
              {QStringLiteral("optimize"), QStringLiteral(STRATA_SMOKE_TASKS "/glue_absmax_scale.py"), QStringLiteral("--interpret"),
               QStringLiteral("--db"), m_dir.filePath(QStringLiteral("glue.db")), QStringLiteral("--work-dir"),
               m_dir.filePath(QStringLiteral("glue-work")), QStringLiteral("--proposals"),
               kFixtures + QStringLiteral("/glue-proposals"), QStringLiteral("--no-recipes"), QStringLiteral("--json"), json});
    QVERIFY(cli.waitForFinished(400 * 1000));
    const QByteArray output = cli.readAll();
    QVERIFY2(cli.exitCode() == 0, output.constData());
    Expected<SuiteOutcome> checked = readSuiteOutcomeFile(json);
    QVERIFY2(checked, qPrintable(checked ? QString() : checked.error().toString()));
    const TaskOutcome &task = checked->tasks.first();
    QCOMPARE(task.candidates.size(), 3);
    QCOMPARE(task.candidates[0].provider, QStringLiteral("initial"));
    QCOMPARE(task.candidates[0].state, QStringLiteral("accepted"));
    QCOMPARE(task.candidates[1].state, QStringLiteral("verified"));
    QCOMPARE(task.candidates[2].state, QStringLiteral("verify_failed"));
    QVERIFY2(task.candidates[2].detail.contains(QLatin1String("torch_compute_in_candidate"))
                 && task.candidates[2].detail.contains(QLatin1String("aten.mul")),
             qPrintable(task.candidates[2].detail));
}

void TestOptimizeLoop::manualProviderWaitsForThePersonsAnswer()
{
    // --manual: the prompt appears as a file, the loop waits; the answer file a person writes
    // (a fenced task file) is checked like any candidate.
    const QString work = m_dir.filePath(QStringLiteral("manual-work"));
    const QString json = m_dir.filePath(QStringLiteral("manual.json"));
    QProcess cli;
    startCliOnRealAgent(cli,
              {QStringLiteral("optimize"), kFixtures + QStringLiteral("/scale.py"), QStringLiteral("--interpret"),
               QStringLiteral("--manual"), QStringLiteral("--no-recipes"), QStringLiteral("--db"), m_dir.filePath(QStringLiteral("manual.db")),
               QStringLiteral("--work-dir"), work, QStringLiteral("--json"), json});
    QVERIFY(cli.waitForStarted());
    const QString prompt = work + QStringLiteral("/manual-1/llm-prompt.md");
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(prompt) || cli.state() != QProcess::Running, 300000);
    QVERIFY2(QFileInfo::exists(prompt), cli.readAll().constData());
    QVERIFY(readText(prompt).contains(QLatin1String("class ModelNew")));
    QVERIFY(cli.state() == QProcess::Running);  // waiting for the answer

    QFile answer(work + QStringLiteral("/manual-1/llm-answer.md"));
    QVERIFY(answer.open(QIODevice::WriteOnly));
    answer.write("Title: bigger blocks\n\n```python\n" + readText(kFixtures + QStringLiteral("/proposals/a_faster.py")).toUtf8() + "```\n");
    answer.close();
    QVERIFY(cli.waitForFinished(300000));
    const QByteArray output = cli.readAll();
    QVERIFY2(cli.exitCode() == 0, output.constData());
    Expected<SuiteOutcome> outcome = readSuiteOutcomeFile(json);
    QVERIFY2(outcome, qPrintable(outcome ? QString() : outcome.error().toString()));
    const QVector<CandidateRecord> &candidates = outcome->tasks.first().candidates;
    QCOMPARE(candidates.size(), 2);
    QCOMPARE(candidates[1].provider, QStringLiteral("manual"));
    QCOMPARE(candidates[1].title, QStringLiteral("bigger blocks"));
    QCOMPARE(candidates[1].state, QStringLiteral("verified"));
}

void TestOptimizeLoop::acceptsOnlyVerifiedSignificantWins()
{
    auto provider = std::make_shared<ScriptedProvider>(QVector<QVector<ScriptedProvider::Item>>{
        {{QStringLiteral("variants/wrong.py"), {}},
         {QStringLiteral("variants/slower.py"), {}},
         {QStringLiteral("variants/same_code.py"), QStringLiteral("max_load_bits")},
         {QStringLiteral("proposals/a_faster.py"), {}}},
        {{QStringLiteral("variants/barely.py"), {}}}});
    BenchSetup setup = setupFor(provider, QStringLiteral("loop.db"));
    QStringList log;
    setup.progress = [&log](const QString &line) { log.append(line); };

    const Expected<SuiteOutcome> suite = runSuite(setup);
    QVERIFY2(suite.hasValue(), suite ? "" : qPrintable(suite.error().toString()));
    QCOMPARE(suite->tasks.size(), 1);
    const TaskOutcome &task = suite->tasks.first();
    QVERIFY2(task.status == QLatin1String("improved"), qPrintable(task.failure + u'\n' + log.join(u'\n')));
    QCOMPARE(*task.initialMs, 1.0);
    QCOMPARE(*task.bestMs, 0.5);
    QCOMPARE(*task.eagerMs, 0.8);
    QCOMPARE(task.winningRecipes, QStringList{QStringLiteral("recipe:a_faster")});

    // The provider saw the diagnosis of the real kernel, then the new best in round 2.
    QCOMPARE(provider->requests.size(), 2);
    QCOMPARE(provider->requests[0].kernelName, QStringLiteral("scale_kernel"));
    QVERIFY(provider->requests[1].taskText.contains(QLatin1String("BLOCK=1024")));

    QHash<QString, QString> stateOf;
    for (const CandidateRecord &candidate : task.candidates)
        stateOf.insert(candidate.recipeId.isEmpty() ? candidate.provider : candidate.recipeId, candidate.state);
    QCOMPARE(stateOf.value(QStringLiteral("wrong")), QStringLiteral("verify_failed"));
    QCOMPARE(stateOf.value(QStringLiteral("slower")), QStringLiteral("slower"));
    QCOMPARE(stateOf.value(QStringLiteral("same_code")), QStringLiteral("fact_unchanged"));
    QCOMPARE(stateOf.value(QStringLiteral("a_faster")), QStringLiteral("accepted"));
    QCOMPARE(stateOf.value(QStringLiteral("barely")), QStringLiteral("not_significant"));

    // Each round's diagnosis is kept, on the candidate it diagnosed, with what L2 was given: the
    // best's timing (this host has no ncu: the profile is asked for once, and its absence said).
    QCOMPARE(task.rounds.size(), 2);
    qint64 initialId = 0, fasterId = 0;
    for (const CandidateRecord &candidate : task.candidates) {
        if (candidate.provider == QLatin1String("initial"))
            initialId = candidate.id;
        if (candidate.recipeId == QLatin1String("a_faster"))
            fasterId = candidate.id;
    }
    QCOMPARE(task.rounds[0].iteration, 1);
    QCOMPARE(task.rounds[0].candidateId, initialId);
    QCOMPARE(task.rounds[1].iteration, 2);
    QCOMPARE(task.rounds[1].candidateId, fasterId);
    QCOMPARE(task.rounds[0].kernel, QStringLiteral("scale_kernel"));
    QCOMPARE(task.rounds[0].measured, QStringList{QStringLiteral("timing")});
    QVERIFY(!task.rounds[0].findings.isEmpty());
    QCOMPARE(task.rounds[0].findings.first().ruleId, provider->requests[0].rankedRuleIds.first());
    QVERIFY2(log.filter(QStringLiteral("no profile")).size() == 1, qPrintable(log.join(u'\n')));

    // The same outcome comes back from the store, and through the JSON export.
    Expected<std::unique_ptr<Store>> store = Store::open(setup.storePath);
    QVERIFY(store.hasValue());
    const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
    QVERIFY(runs.hasValue());
    QCOMPARE(runs->size(), 1);
    QCOMPARE(runs->first().status, QStringLiteral("finished"));
    const Expected<QVector<CandidateRow>> rows = (*store)->candidatesForRun(runs->first().id);
    QVERIFY(rows.hasValue());
    QCOMPARE(rows->size(), 6);  // the initial kernel and five proposals
    const QJsonObject json = toJson(*suite, true);
    const Expected<SuiteOutcome> back = suiteOutcomeFromJson(json, QStringLiteral("test"));
    QVERIFY(back.hasValue());
    QCOMPARE(*back->tasks.first().speedup(), 2.0);
    QCOMPARE(back->tasks.first().rounds.size(), 2);
    QCOMPARE(back->tasks.first().rounds[1].findings.size(), task.rounds[1].findings.size());
    // The whole diagnosis of each round stays in the store, a row per round naming what it diagnosed.
    const Expected<QVector<RoundRow>> rounds = (*store)->roundsForRun(runs->first().id);
    QVERIFY(rounds.hasValue());
    QCOMPARE(rounds->size(), 2);
    QCOMPARE(rounds->first().candidateId, initialId);
    QVERIFY(!rounds->first().ladder.isEmpty());
    QCOMPARE(rounds->first().round.value(QStringLiteral("candidate")).toInteger(), initialId);
}

void TestOptimizeLoop::killedRunResumesWithoutLosingFinishedCandidates()
{
    // One candidate per round: round 1 times a_faster (a win, finished), round 2's b_sleepy makes
    // the shim's `time` sleep, and the run is killed there.
    const QString db = m_dir.filePath(QStringLiteral("resume.db"));
    const QStringList args = {QStringLiteral("optimize"), kFixtures + QStringLiteral("/scale.py"),
                              QStringLiteral("--db"), db, QStringLiteral("--work-dir"), m_dir.filePath(QStringLiteral("resume-work")),
                              QStringLiteral("--proposals"), kFixtures + QStringLiteral("/proposals"), QStringLiteral("--no-recipes"),
                              QStringLiteral("--candidates"), QStringLiteral("1"), QStringLiteral("--verbose")};
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_AGENT_DIR"), shimDir());
    env.insert(QStringLiteral("STRATA_PLUGIN_DIR"), QStringLiteral(STRATA_PLUGIN_DIR));
    env.insert(QStringLiteral("STRATA_PYTHON"), testing::agentPython());

    QProcess first;
    first.setProcessEnvironment(env);
    first.setProcessChannelMode(QProcess::MergedChannels);
    first.start(QStringLiteral(STRATA_CLI), args);
    QVERIFY(first.waitForStarted());
    QByteArray output;
    QDeadlineTimer deadline(240 * 1000);
    while (!output.contains("timing 1 candidate(s) against c2") && !deadline.hasExpired()
           && first.state() == QProcess::Running) {
        first.waitForReadyRead(500);
        output += first.readAll();
    }
    QVERIFY2(output.contains("timing 1 candidate(s) against c2"), output.constData());
    QTest::qWait(1000);  // well inside the shim's 120 s sleep
    ::kill(pid_t(first.processId()), SIGKILL);
    QVERIFY(first.waitForFinished(10000));

    // The store holds the finished candidates as they were: initial timed, a_faster accepted.
    QVector<CandidateRow> before;
    {
        Expected<std::unique_ptr<Store>> store = Store::open(db);
        QVERIFY(store.hasValue());
        const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
        QVERIFY(runs.hasValue() && runs->size() == 1);
        QCOMPARE(runs->first().status, QStringLiteral("running"));
        before = *(*store)->candidatesForRun(runs->first().id);
    }
    QCOMPARE(before.size(), 3);
    QCOMPARE(before[0].state, QStringLiteral("accepted"));
    QCOMPARE(before[1].state, QStringLiteral("accepted"));
    QCOMPARE(before[2].recipe, QStringLiteral("b_sleepy.py"));
    QCOMPARE(before[2].state, QStringLiteral("verified"));  // killed while being timed
    QVERIFY(!before[2].isFinished());

    env.insert(QStringLiteral("STRATA_SHIM_NO_SLEEP"), QStringLiteral("1"));
    QProcess second;
    second.setProcessEnvironment(env);
    second.setProcessChannelMode(QProcess::MergedChannels);
    second.start(QStringLiteral(STRATA_CLI), args + QStringList{QStringLiteral("--json"), m_dir.filePath(QStringLiteral("resume.json"))});
    QVERIFY(second.waitForFinished(240 * 1000));
    const QByteArray secondOutput = second.readAll();
    QVERIFY2(second.exitCode() == 0, secondOutput.constData());
    QVERIFY2(secondOutput.contains("resum"), secondOutput.constData());

    Expected<std::unique_ptr<Store>> store = Store::open(db);
    QVERIFY(store.hasValue());
    const Expected<QVector<OptimizeRunRecord>> runs = (*store)->listOptimizeRuns();
    QCOMPARE(runs->size(), 1);  // resumed, not restarted
    QCOMPARE(runs->first().status, QStringLiteral("finished"));
    const QVector<CandidateRow> after = *(*store)->candidatesForRun(runs->first().id);
    // The finished rows are the same rows, untouched (same ids, states, times, update stamps).
    for (int index = 0; index < 2; ++index) {
        QCOMPARE(after[index].id, before[index].id);
        QCOMPARE(after[index].medianMs, before[index].medianMs);
        QCOMPARE(after[index].updated, before[index].updated);
    }
    QCOMPARE(after[1].state, QStringLiteral("accepted"));
    // b_sleepy had passed its checks: the resumed run times that same row (no re-check, no new
    // row) and, with the sleep gone, accepts it: 1.0 -> 0.4 ms.
    QVERIFY2(secondOutput.contains("timing 1 candidate(s) checked before the run stopped"), secondOutput.constData());
    QCOMPARE(after[2].id, before[2].id);
    QCOMPARE(after[2].state, QStringLiteral("accepted"));
    const QJsonObject json = QJsonDocument::fromJson(readText(m_dir.filePath(QStringLiteral("resume.json"))).toUtf8()).object();
    const Expected<SuiteOutcome> suite = suiteOutcomeFromJson(json, QStringLiteral("resume.json"));
    QVERIFY2(suite.hasValue(), suite ? "" : qPrintable(suite.error().toString()));
    QCOMPARE(*suite->tasks.first().bestMs, 0.4);
    QCOMPARE(*suite->tasks.first().speedup(), 2.5);

    // A third run finds the finished run on the same content and reports it without redoing it.
    QProcess third;
    third.setProcessEnvironment(env);
    third.setProcessChannelMode(QProcess::MergedChannels);
    third.start(QStringLiteral(STRATA_CLI), args);
    QVERIFY(third.waitForFinished(120 * 1000));
    const QByteArray thirdOutput = third.readAll();
    QVERIFY2(third.exitCode() == 0 && thirdOutput.contains("finished before"), thirdOutput.constData());
    QVERIFY2(thirdOutput.contains("2.50x"), thirdOutput.constData());
    QCOMPARE((*store)->listOptimizeRuns()->size(), 1);
}

QTEST_GUILESS_MAIN(TestOptimizeLoop)
#include "tst_optimize_loop.moc"
