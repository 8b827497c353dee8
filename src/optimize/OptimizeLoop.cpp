#include "optimize/OptimizeLoop.h"

#include "optimize/AgentSession.h"
#include "optimize/CandidateCheck.h"
#include "optimize/KernelDiagnosis.h"
#include "optimize/OutcomeStore.h"
#include "optimize/TimingDecision.h"
#include "rewrite/RewriteProvider.h"
#include "store/Store.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <vector>

namespace strata::optimize {

using namespace strata::diagnosis;

namespace {

// Kernels of one task the loop diagnoses per round (most tasks launch one).
constexpr int kKernelsPerRound = 2;

QString sha256(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QJsonObject expectedJson(const QVector<rewrite::ExpectedFact> &facts)
{
    QJsonArray list;
    for (const rewrite::ExpectedFact &fact : facts)
        list.append(QJsonObject{{QStringLiteral("fact"), fact.fact}, {QStringLiteral("line"), fact.line},
                                {QStringLiteral("want"), fact.want}});
    return {{QStringLiteral("facts"), list}};
}

// What the loop knows of the current best between rounds.
struct BestState {
    int row = -1;                    // index into rows
    std::optional<double> medianMs;
    std::optional<double> rooflinePct;
    QString bound;
    QVector<CapturedKernel> kernels; // its launches (from its last run_task)
};

enum class RoundResult { Won, NoWin, NoProposals, Failed };

class TaskLoop {
public:
    TaskLoop(QString taskPath, const OptimizeOptions &options, LoopContext &context)
        : m_taskPath(QFileInfo(taskPath).absoluteFilePath()), m_options(options), m_context(context)
    {
        m_stem = QFileInfo(m_taskPath).completeBaseName();
        m_workDir = QDir(options.workDir.isEmpty() ? QDir::tempPath() + QStringLiteral("/strata-optimize") : options.workDir)
                        .filePath(m_stem);
    }

    TaskOutcome run();

private:
    void say(const QString &line) const
    {
        if (m_context.progress)
            m_context.progress(QStringLiteral("[%1] %2").arg(m_stem, line));
    }
    bool cancelled() const { return m_context.cancel && m_context.cancel->load(); }
    bool startOrResume(QString *why);
    bool startFresh(QString *why);
    bool restoreCandidateFiles(QString *why);
    bool ensureInitial(QString *why);
    QString stopReason() const;
    RoundResult round(QString *why);
    QVector<rewrite::RewriteProposal> propose(const std::vector<DiagnosedKernel> &diagnosed, int iteration, bool *moreWaiting);
    void timeSurvivors(const QVector<int> &survivors);
    void finalCheck();
    TaskOutcome finish(const QString &runStatus, const QString &failure);
    bool save(CandidateRow &row);
    bool refreshBestKernels(QString *why);

    QString m_taskPath, m_stem, m_workDir;
    OptimizeOptions m_options;
    LoopContext &m_context;
    qint64 m_runId = 0;
    QVector<CandidateRow> m_rows;
    BestState m_best;
    std::optional<double> m_initialMs, m_eagerMs, m_compileMs;
    qint64 m_tokens = 0;
    QString m_initialText;        // the task file as read when the run started or resumed
    qint64 m_finishedRunId = 0;   // a finished run on the same content: reused, not redone
    int m_iteration = 0;
    QElapsedTimer m_clock;
    QString m_stop;
};

bool TaskLoop::save(CandidateRow &row)
{
    // A cancel (Ctrl-C, SIGTERM from a deadline) can cut an agent call short, and a timeout
    // that signals the whole process group kills the agents too: such a failure says nothing
    // about the candidate, so it stays unfinished and is proposed again on resume.
    static const QStringList kFailures{QStringLiteral("compile_failed"), QStringLiteral("verify_failed"),
                                       QStringLiteral("error")};
    if (cancelled() && kFailures.contains(row.state)) {
        row.detail = QStringLiteral("stopped by the cancel (%1: %2)").arg(row.state, row.detail);
        row.state = QStringLiteral("interrupted");
    }
    if (row.id == 0) {
        Expected<qint64> id = m_context.store.insertCandidate(row);
        if (!id) {
            say(QStringLiteral("store error: ") + id.error().toString());
            return false;
        }
        row.id = *id;
        return true;
    }
    const Expected<bool> updated = m_context.store.updateCandidate(row);
    if (!updated)
        say(QStringLiteral("store error: ") + updated.error().toString());
    return bool(updated);
}

bool TaskLoop::startOrResume(QString *why)
{
    QFile file(m_taskPath);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("%1: cannot read the task file: %2").arg(m_taskPath, file.errorString());
        return false;
    }
    m_initialText = QString::fromUtf8(file.readAll());
    const QString hash = sha256(m_initialText);
    if (m_options.resume) {
        Expected<std::optional<OptimizeRunRecord>> finished =
            m_context.store.latestOptimizeRun(m_stem, hash, {QStringLiteral("finished")});
        if (finished && finished->has_value()) {
            m_finishedRunId = (*finished)->id;  // done before: its stored outcome stands
            return true;
        }
        Expected<std::optional<OptimizeRunRecord>> previous =
            m_context.store.latestOptimizeRun(m_stem, hash, {QStringLiteral("running"), QStringLiteral("cancelled")});
        if (previous && previous->has_value()) {
            m_runId = (*previous)->id;
            Expected<QVector<CandidateRow>> rows = m_context.store.candidatesForRun(m_runId);
            if (!rows) {
                *why = rows.error().toString();
                return false;
            }
            m_rows = *rows;
            say(QStringLiteral("resuming run %1: %2 candidate(s) already stored").arg(m_runId).arg(m_rows.size()));
            return restoreCandidateFiles(why);
        }
    }
    return startFresh(why);
}

bool TaskLoop::startFresh(QString *why)
{
    const QString hash = sha256(m_initialText);
    m_rows.clear();
    OptimizeRunRecord record;
    record.suite = m_context.suite;
    record.taskPath = m_taskPath;
    record.taskName = m_stem;
    record.taskSha256 = hash;
    record.host = m_context.host;
    record.config = m_options.toJson();
    Expected<qint64> id = m_context.store.beginOptimizeRun(record);
    if (!id) {
        *why = id.error().toString();
        return false;
    }
    m_runId = *id;
    CandidateRow initial;
    initial.runId = m_runId;
    initial.provider = QStringLiteral("initial");
    initial.title = QStringLiteral("initial kernel");
    initial.path = m_taskPath;
    initial.sourceText = m_initialText;
    initial.sourceSha256 = hash;
    initial.state = QStringLiteral("proposed");
    m_rows.append(initial);
    return save(m_rows.last());
}

// A resumed run may come from another checkout or machine (a store carried to a GPU host and
// back): the initial kernel is this task file, and candidate files that are gone are written
// again from the text the store kept. Rows are not re-saved: their record stays as it was.
bool TaskLoop::restoreCandidateFiles(QString *why)
{
    for (CandidateRow &row : m_rows) {
        if (row.provider == QLatin1String("initial")) {
            row.path = m_taskPath;
            continue;
        }
        if (QFileInfo::exists(row.path) || row.sourceText.isEmpty())
            continue;
        row.path = QStringLiteral("%1/c%2.py").arg(m_workDir).arg(row.id);
        QDir().mkpath(m_workDir);
        QFile file(row.path);
        if (!file.open(QIODevice::WriteOnly) || file.write(row.sourceText.toUtf8()) < 0) {
            *why = QStringLiteral("%1: cannot restore candidate c%2: %3").arg(row.path).arg(row.id).arg(file.errorString());
            return false;
        }
    }
    return true;
}

// The initial kernel must run and verify; it is timed with the eager and torch.compile baselines.
bool TaskLoop::ensureInitial(QString *why)
{
    CandidateRow &initial = m_rows.first();
    if (initial.state == QLatin1String("accepted")) {  // resumed: its figures are in the evidence
        const QJsonObject timing = initial.evidence.value(QStringLiteral("timing")).toObject();
        auto number = [&timing](const char *key) -> std::optional<double> {
            const QJsonValue value = timing.value(QLatin1String(key));
            return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
        };
        m_initialMs = initial.medianMs;
        m_eagerMs = number("eager_ms");
        m_compileMs = number("compile_ms");
        return true;
    }
    if (initial.isFinished()) {
        *why = QStringLiteral("the initial kernel failed before: ") + initial.detail;
        return false;
    }
    say(QStringLiteral("checking the initial kernel"));
    CandidateCheckInput input;
    input.target = m_options.target;
    checkCandidate(m_context.agent, m_context.plugins, input, initial);
    if (initial.state != QLatin1String("verified")) {
        save(initial);
        *why = QStringLiteral("the initial kernel does not pass: %1 (%2)").arg(initial.state, initial.detail);
        return false;
    }
    say(QStringLiteral("timing the initial kernel%1").arg(m_options.baselines ? QStringLiteral(" with eager and torch.compile") : QString()));
    TimingRequest request{m_taskPath, {}, {}, m_options.timeCapSeconds, m_options.targetCi};
    if (m_options.baselines)
        request.baselines = {QStringLiteral("eager"), QStringLiteral("compile")};
    Expected<Timing> timing = m_context.agent.time(request);
    const CandidateTiming *triton = timing ? timing->candidate(QStringLiteral("triton")) : nullptr;
    if (!triton || !triton->ok()) {
        initial.state = QStringLiteral("error");
        initial.detail = timing ? QStringLiteral("no time: ") + (triton ? triton->error : QStringLiteral("missing")) : timing.error().toString();
        save(initial);
        *why = QStringLiteral("the initial kernel could not be timed: ") + initial.detail;
        return false;
    }
    auto median = [&timing](const char *name) -> std::optional<double> {
        const CandidateTiming *candidate = timing->candidate(QLatin1String(name));
        return candidate && candidate->ok() ? candidate->medianMs : std::nullopt;
    };
    m_initialMs = triton->medianMs;
    m_eagerMs = median("eager");
    m_compileMs = median("compile");
    QJsonObject summary{{QStringLiteral("median_ms"), *m_initialMs}};
    if (m_eagerMs)
        summary.insert(QStringLiteral("eager_ms"), *m_eagerMs);
    if (m_compileMs)
        summary.insert(QStringLiteral("compile_ms"), *m_compileMs);
    if (timing->roofline)
        if (const RooflineEstimate *estimate = timing->roofline->estimate(QStringLiteral("triton"))) {
            if (estimate->solPct)
                summary.insert(QStringLiteral("roofline_pct"), *estimate->solPct);
            summary.insert(QStringLiteral("bound"), estimate->bound);
        }
    initial.evidence.insert(QStringLiteral("timing"), summary);
    initial.state = QStringLiteral("accepted");
    initial.medianMs = m_initialMs;
    initial.detail = QStringLiteral("baseline: %1 ms").arg(*m_initialMs, 0, 'g', 4);
    return save(initial);
}

QString TaskLoop::stopReason() const
{
    if (cancelled())
        return QStringLiteral("cancelled");
    if (m_iteration >= m_options.maxIterations)
        return QStringLiteral("iteration budget (%1) spent").arg(m_options.maxIterations);
    if (m_clock.elapsed() / 1000.0 >= m_options.wallSeconds)
        return QStringLiteral("wall-time budget (%1 s) spent").arg(m_options.wallSeconds);
    if (m_best.rooflinePct && *m_best.rooflinePct >= m_options.stopAtRooflinePct)
        return QStringLiteral("at %1% of roofline (target %2%)").arg(*m_best.rooflinePct, 0, 'f', 1).arg(m_options.stopAtRooflinePct);
    return {};
}

// The best candidate's launches, captured again (a resumed run, or a new best).
bool TaskLoop::refreshBestKernels(QString *why)
{
    Expected<TaskRun> run = m_context.agent.runTask(m_rows[m_best.row].path, m_options.target);
    if (!run) {
        *why = run.error().toString();
        return false;
    }
    m_best.kernels = run->kernels;
    return true;
}

QVector<rewrite::RewriteProposal> TaskLoop::propose(const std::vector<DiagnosedKernel> &diagnosed, int iteration,
                                                    bool *moreWaiting)
{
    QStringList tried;
    for (const CandidateRow &row : m_rows)
        if (row.state != QLatin1String("interrupted"))
            tried.append(row.sourceSha256);
    const CandidateRow &best = m_rows[m_best.row];
    QVector<rewrite::RewriteProposal> proposals;
    for (const DiagnosedKernel &kernel : diagnosed) {
        rewrite::RewriteRequest request;
        request.taskPath = best.path;
        request.taskText = best.sourceText;
        request.kernelName = kernel.compiled.launch.kernel;
        request.ast = kernel.ast;
        request.launch = launchJson(kernel.compiled.launch);
        request.diagnosis = kernel.ladder.diagnosis;
        for (const RankedFinding &ranked : kernel.ladder.ranking)
            request.rankedRuleIds.append(ranked.finding.ruleId);
        if (m_best.medianMs)
            request.timing.insert(QStringLiteral("ms"), *m_best.medianMs);
        if (m_best.rooflinePct)
            request.timing.insert(QStringLiteral("roofline_pct"), *m_best.rooflinePct);
        request.timing.insert(QStringLiteral("bound"), m_best.bound);
        request.deviceName = m_context.deviceName;
        request.alreadyTried = tried;
        request.maxProposals = m_options.maxCandidatesPerIteration;
        for (rewrite::RewriteProvider *provider : m_context.providers) {
            if (m_tokens >= m_options.tokenBudget && provider->id() != QLatin1String("recipes"))
                continue;
            Expected<QVector<rewrite::RewriteProposal>> offered = provider->propose(request);
            if (!offered) {
                say(QStringLiteral("round %1: %2 proposed nothing: %3").arg(iteration).arg(provider->id(), offered.error().toString()));
                continue;
            }
            for (const rewrite::RewriteProposal &proposal : *offered) {
                m_tokens += proposal.tokens.inputTokens + proposal.tokens.outputTokens;
                const QString hash = sha256(proposal.newText);
                if (tried.contains(hash))
                    continue;
                tried.append(hash);
                proposals.append(proposal);
            }
        }
    }
    *moreWaiting = proposals.size() > m_options.maxCandidatesPerIteration;
    proposals.resize(std::min<qsizetype>(proposals.size(), m_options.maxCandidatesPerIteration));
    return proposals;
}

// One interleaved `time` call: the current best and every verified candidate of the round.
void TaskLoop::timeSurvivors(const QVector<int> &survivors)
{
    CandidateRow &best = m_rows[m_best.row];
    TimingRequest request{best.path, {}, {}, m_options.timeCapSeconds, m_options.targetCi};
    for (int index : survivors)
        request.compareWith.append(m_rows[index].path);
    say(QStringLiteral("timing %1 candidate(s) against c%2").arg(survivors.size()).arg(best.id));
    Expected<Timing> timing = m_context.agent.time(request);
    if (!timing) {
        for (int index : survivors) {
            m_rows[index].state = QStringLiteral("error");
            m_rows[index].detail = QStringLiteral("timing failed: ") + timing.error().toString();
            save(m_rows[index]);
        }
        return;
    }
    const CandidateTiming *bestTiming = timing->candidate(timingLabel(best.path));
    int winner = -1;
    double winnerSpeedup = 0;
    for (int index : survivors) {
        CandidateRow &row = m_rows[index];
        const CandidateTiming *own = timing->candidate(timingLabel(row.path));
        const Comparison comparison = compareTimings(bestTiming, own, m_options.minGain);
        row.medianMs = own && own->ok() ? own->medianMs : std::nullopt;
        row.speedupVsParent = comparison.speedup;
        row.state = comparison.win ? QStringLiteral("faster") : comparison.verdict;
        row.detail = comparison.detail;
        if (timing->roofline)
            if (const RooflineEstimate *estimate = timing->roofline->estimate(timingLabel(row.path)); estimate && estimate->solPct)
                row.evidence.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("roofline_pct"), *estimate->solPct},
                                                                          {QStringLiteral("bound"), estimate->bound}});
        if (comparison.win && *comparison.speedup > winnerSpeedup) {
            winner = index;
            winnerSpeedup = *comparison.speedup;
        }
    }
    for (int index : survivors) {
        CandidateRow &row = m_rows[index];
        if (index == winner)
            row.state = QStringLiteral("accepted");
        else if (row.state == QLatin1String("faster"))
            row.state = QStringLiteral("not_best");  // a win, but another was faster this round
        save(row);
        say(QStringLiteral("c%1 %2: %3 (%4)").arg(row.id).arg(row.recipe, row.state, row.detail));
    }
    if (winner < 0)
        return;
    m_best.row = winner;
    m_best.medianMs = m_rows[winner].medianMs;
    const QJsonObject summary = m_rows[winner].evidence.value(QStringLiteral("timing")).toObject();
    if (summary.contains(QStringLiteral("roofline_pct")))
        m_best.rooflinePct = summary.value(QStringLiteral("roofline_pct")).toDouble();
    m_best.bound = summary.value(QStringLiteral("bound")).toString();
    m_best.kernels.clear();
}

RoundResult TaskLoop::round(QString *why)
{
    ++m_iteration;
    if (m_best.kernels.isEmpty() && !refreshBestKernels(why))
        return RoundResult::Failed;
    const CandidateRow &best = m_rows[m_best.row];
    say(QStringLiteral("round %1: diagnosing c%2 (%3)").arg(m_iteration).arg(best.id).arg(best.title));
    std::vector<DiagnosedKernel> diagnosed;
    QStringList seen;
    for (const CapturedKernel &launch : m_best.kernels) {
        if (seen.contains(launch.kernel) || int(diagnosed.size()) >= kKernelsPerRound)
            continue;
        seen.append(launch.kernel);
        const QString dir = QStringLiteral("%1/diagnosis/c%2-%3").arg(m_workDir).arg(best.id).arg(launch.kernel);
        Expected<DiagnosedKernel> kernel = diagnoseKernel(m_context.agent, m_context.plugins, launch, dir, m_options.maxLevel);
        if (!kernel) {
            say(QStringLiteral("cannot diagnose %1: %2").arg(launch.kernel, kernel.error().toString()));
            continue;
        }
        diagnosed.push_back(std::move(*kernel));
    }
    if (diagnosed.empty()) {
        *why = QStringLiteral("no kernel of the best candidate could be diagnosed");
        return RoundResult::Failed;
    }
    bool moreWaiting = false;
    const QVector<rewrite::RewriteProposal> proposals = propose(diagnosed, m_iteration, &moreWaiting);
    if (proposals.isEmpty())
        return RoundResult::NoProposals;
    say(QStringLiteral("round %1: %2 proposal(s)").arg(m_iteration).arg(proposals.size()));
    const qint64 parentId = best.id;
    QVector<int> survivors;
    for (const rewrite::RewriteProposal &proposal : proposals) {
        if (cancelled())
            break;
        CandidateRow row;
        row.runId = m_runId;
        row.parentId = parentId;
        row.iteration = m_iteration;
        row.provider = proposal.provider;
        row.recipe = proposal.recipeId;
        row.title = proposal.title;
        row.sourceText = proposal.newText;
        row.sourceSha256 = sha256(proposal.newText);
        row.findings = proposal.findingRuleIds;
        row.expected = expectedJson(proposal.expected);
        row.tokensIn = proposal.tokens.inputTokens;
        row.tokensOut = proposal.tokens.outputTokens;
        row.state = QStringLiteral("proposed");
        if (!save(row))
            continue;
        row.path = QStringLiteral("%1/c%2.py").arg(m_workDir).arg(row.id);
        QFile file(row.path);
        if (!QDir().mkpath(m_workDir) || !file.open(QIODevice::WriteOnly) || file.write(row.sourceText.toUtf8()) < 0) {
            row.state = QStringLiteral("error");
            row.detail = QStringLiteral("%1: cannot write the candidate: %2").arg(row.path, file.errorString());
        } else {
            file.close();
            const DiagnosedKernel &kernel = diagnosed.front();
            CandidateCheckInput input{kernel.compiled.launch.kernel, &kernel.compiled.facts, proposal.expected,
                                      m_options.target, QStringLiteral("%1/factcheck/c%2").arg(m_workDir).arg(row.id)};
            checkCandidate(m_context.agent, m_context.plugins, input, row);
        }
        save(row);
        m_rows.append(row);
        if (row.state == QLatin1String("verified"))
            survivors.append(int(m_rows.size()) - 1);
        else
            say(QStringLiteral("c%1 %2: %3: %4").arg(row.id).arg(row.recipe, row.state, row.detail.left(200)));
    }
    if (survivors.isEmpty() || cancelled())
        return moreWaiting ? RoundResult::Won : RoundResult::NoWin;  // more proposals wait: go on
    const int before = m_best.row;
    timeSurvivors(survivors);
    if (m_best.row != before)
        return RoundResult::Won;
    return moreWaiting ? RoundResult::Won : RoundResult::NoWin;
}

// Initial and best timed together once more, so the reported speedup comes from one call.
void TaskLoop::finalCheck()
{
    if (!m_options.finalCheck || m_best.row <= 0 || cancelled())
        return;
    const CandidateRow &best = m_rows[m_best.row];
    TimingRequest request{m_taskPath, {best.path}, {}, m_options.timeCapSeconds, m_options.targetCi};
    say(QStringLiteral("final check: initial vs c%1").arg(best.id));
    Expected<Timing> timing = m_context.agent.time(request);
    if (!timing)
        return;
    const CandidateTiming *initial = timing->candidate(timingLabel(m_taskPath));
    const CandidateTiming *last = timing->candidate(timingLabel(best.path));
    if (initial && initial->ok() && last && last->ok()) {
        m_initialMs = initial->medianMs;
        m_best.medianMs = last->medianMs;
    }
}

TaskOutcome TaskLoop::finish(const QString &runStatus, const QString &failure)
{
    TaskOutcome outcome = outcomeFromRows(m_taskPath, m_rows);
    outcome.initialMs = m_initialMs;
    outcome.eagerMs = m_eagerMs;
    outcome.compileMs = m_compileMs;
    if (m_best.row >= 0) {
        outcome.bestMs = m_best.medianMs;
        outcome.rooflinePct = m_best.rooflinePct;
        outcome.bound = m_best.bound;
    }
    const std::optional<double> speedup = outcome.speedup();
    if (!failure.isEmpty())
        outcome.status = QStringLiteral("failed");
    else if (m_best.row > 0 && speedup && *speedup >= 1 + m_options.minGain)
        outcome.status = QStringLiteral("improved");
    else
        outcome.status = QStringLiteral("no_gain");
    outcome.failure = failure.isEmpty() ? (outcome.status == QLatin1String("no_gain") ? m_stop : QString()) : failure;
    const Expected<bool> stored = m_context.store.finishOptimizeRun(m_runId, runStatus, taskOutcomeJson(outcome));
    if (!stored)
        say(QStringLiteral("store error: ") + stored.error().toString());
    say(QStringLiteral("%1: %2").arg(outcome.status, speedup ? QStringLiteral("%1x").arg(*speedup, 0, 'f', 2) : outcome.failure));
    return outcome;
}

TaskOutcome TaskLoop::run()
{
    m_clock.start();
    QString why;
    if (!startOrResume(&why)) {
        say(why);
        TaskOutcome outcome;
        outcome.taskId = m_stem;
        outcome.taskPath = m_taskPath;
        outcome.status = QStringLiteral("failed");
        outcome.failure = why;
        return outcome;
    }
    if (m_finishedRunId) {
        Expected<TaskOutcome> stored = loadTaskOutcome(m_context.store, m_finishedRunId);
        if (stored) {
            say(QStringLiteral("finished before in run %1: its outcome stands (--fresh runs it again)").arg(m_finishedRunId));
            return *stored;
        }
        say(QStringLiteral("cannot read run %1, running again: %2").arg(m_finishedRunId).arg(stored.error().toString()));
        m_finishedRunId = 0;
        if (!startFresh(&why))
            return finish(QStringLiteral("failed"), why);
    }
    for (CandidateRow &row : m_rows)  // a killed run left these half-checked: they are re-proposed
        if (!row.isFinished() && row.provider != QLatin1String("initial")) {
            row.state = QStringLiteral("interrupted");
            row.detail = QStringLiteral("the run stopped before this candidate was finished");
            save(row);
        }
    if (!ensureInitial(&why))  // under a cancel the run stays resumable
        return finish(cancelled() ? QStringLiteral("cancelled") : QStringLiteral("failed"), why);
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].state == QLatin1String("accepted"))
            m_best.row = i;
    m_best.medianMs = m_rows[m_best.row].medianMs;
    const QJsonObject summary = m_rows[m_best.row].evidence.value(QStringLiteral("timing")).toObject();
    if (summary.contains(QStringLiteral("roofline_pct")))
        m_best.rooflinePct = summary.value(QStringLiteral("roofline_pct")).toDouble();
    m_best.bound = summary.value(QStringLiteral("bound")).toString();
    m_iteration = m_rows.last().iteration;
    while (m_stop.isEmpty()) {
        m_stop = stopReason();
        if (!m_stop.isEmpty())
            break;
        const RoundResult result = round(&why);
        if (result == RoundResult::Failed)
            m_stop = why;
        else if (result == RoundResult::NoProposals)
            m_stop = QStringLiteral("no rewrite provider has anything new to propose");
        else if (result == RoundResult::NoWin)
            m_stop = QStringLiteral("round %1 brought no significant win").arg(m_iteration);
    }
    say(QStringLiteral("stopped: ") + m_stop);
    if (cancelled())
        return finish(QStringLiteral("cancelled"), QString());
    finalCheck();
    return finish(QStringLiteral("finished"), QString());
}

} // namespace

TaskOutcome optimizeTask(const QString &taskPath, const OptimizeOptions &options, LoopContext &context)
{
    TaskLoop loop(taskPath, options, context);
    return loop.run();
}

} // namespace strata::optimize
