#include "optimize/OptimizeLoop.h"
#include "optimize/TaskLoop.h"
#include "optimize/RoundDiagnosisJson.h"

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
#include <QSet>
#include <algorithm>
#include <QJsonArray>
#include <vector>

namespace strata::optimize {

using namespace strata::diagnosis;

namespace detail {

const QString kDrained = QStringLiteral("drained: no new step starts (stop-starting deadline)");

QString TaskLoop::stopReason() const
{
    if (cancelled())
        return QStringLiteral("cancelled");
    if (stopping())
        return kDrained;
    if (m_iteration >= m_options.maxIterations)
        return QStringLiteral("iteration budget (%1) spent").arg(m_options.maxIterations);
    if (m_clock.elapsed() / 1000.0 >= m_options.wallSeconds)
        return QStringLiteral("wall-time budget (%1 s) spent").arg(m_options.wallSeconds);
    if (m_best.rooflinePct && *m_best.rooflinePct >= m_options.stopAtRooflinePct)
        return QStringLiteral("at %1% of roofline (target %2%)").arg(*m_best.rooflinePct, 0, 'f', 1).arg(m_options.stopAtRooflinePct);
    return {};
}

// Whether the stop cut the last round: a candidate of it was left interrupted and no other row
// has finished the same source since (a round done again re-proposes exactly those).
bool TaskLoop::lastRoundWasCut() const
{
    const int last = m_rows.last().iteration;
    QSet<QString> done;
    for (const CandidateRow &row : m_rows)
        if (row.state != QLatin1String("interrupted"))
            done.insert(row.sourceSha256);
    return last > 0 && std::any_of(m_rows.cbegin(), m_rows.cend(), [&](const CandidateRow &row) {
               return row.iteration == last && row.state == QLatin1String("interrupted") && !done.contains(row.sourceSha256);
           });
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
    m_best.outputTolerance = run->tightestTolerance();
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
        request.taskName = QFileInfo(m_taskPath).completeBaseName();
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
        request.outputTolerance = m_best.outputTolerance;
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
    // A round done again after a cut already checked some of its candidates: they count.
    const qsizetype checked = std::count_if(m_rows.cbegin(), m_rows.cend(), [iteration](const CandidateRow &row) {
        return row.iteration == iteration && row.provider != QLatin1String("initial") && row.state != QLatin1String("interrupted");
    });
    const qsizetype room = std::max<qsizetype>(0, m_options.maxCandidatesPerIteration - checked);
    *moreWaiting = proposals.size() > room;
    proposals.resize(std::min(proposals.size(), room));
    return proposals;
}

// Resuming: candidates that passed their checks against the current best but were not timed
// before the stop (a deadline or a kill during timing) are timed now, without checking them again;
// verified rows of another parent cannot be compared any more and are marked interrupted.
void TaskLoop::timeCheckedBeforeStop()
{
    if (!m_options.timing)
        return;  // checks only: a verified candidate is finished
    QVector<int> pending;
    for (int i = 1; i < m_rows.size(); ++i) {
        CandidateRow &row = m_rows[i];
        if (row.state != QLatin1String("verified"))
            continue;
        if (row.parentId == m_rows[m_best.row].id) {
            pending.append(i);
        } else {
            row.state = QStringLiteral("interrupted");
            row.detail = QStringLiteral("the run stopped before this candidate was timed, against a parent that is no longer the best");
            save(row);
        }
    }
    if (pending.isEmpty() || stopping())
        return;
    say(QStringLiteral("resuming: timing %1 candidate(s) checked before the run stopped").arg(pending.size()));
    timeSurvivors(pending);
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
    m_best.timing = timingOfOne(*timing, timingLabel(m_rows[winner].path));
    m_best.profile.reset();
    const QJsonObject summary = m_rows[winner].evidence.value(QStringLiteral("timing")).toObject();
    if (summary.contains(QStringLiteral("roofline_pct")))
        m_best.rooflinePct = summary.value(QStringLiteral("roofline_pct")).toDouble();
    m_best.bound = summary.value(QStringLiteral("bound")).toString();
    m_best.kernels.clear();
}

// The current best's measurements for L2: its last timing and, once per best, its profile. A
// profiler that cannot run (no ncu, no counter permission) is said once and not asked again.
Measurements TaskLoop::measurementsOfBest()
{
    Measurements measurements;
    if (!m_options.timing)
        return measurements;
    measurements.timing = m_best.timing;
    if (m_options.profileRounds && !m_profilerUnavailable && !m_best.profile) {
        const CandidateRow &best = m_rows[m_best.row];
        say(QStringLiteral("profiling c%1 for the diagnosis").arg(best.id));
        Expected<ProfileResult> profile =
            m_context.agent.profile(best.path, QStringLiteral("%1/profile/c%2").arg(m_workDir).arg(best.id));
        if (profile && profile->ok()) {
            m_best.profile = *profile;
        } else {
            m_profilerUnavailable = true;
            say(QStringLiteral("no profile (%1): the diagnosis ranks without line costs")
                    .arg(profile ? profile->status + QStringLiteral(": ") + profile->message : profile.error().toString()));
        }
    }
    measurements.profile = m_best.profile;
    return measurements;
}

// Keeps the round's diagnosis on the candidate it diagnosed: compact for the results and the
// Suite dock, whole (evidence, escalation) for the store's readers.
void TaskLoop::recordRound(const DiagnosedKernel &kernel, const QStringList &measured)
{
    const CandidateRow &best = m_rows[m_best.row];
    const RoundDiagnosis round = roundDiagnosis(kernel.ladder, m_iteration, best.id, measured);
    m_rounds.append(round);
    RoundRow row;
    row.runId = m_runId;
    row.iteration = m_iteration;
    row.candidateId = best.id;
    row.round = toJson(round);
    row.ladder = toJson(kernel.ladder);
    if (const Expected<qint64> stored = m_context.store.insertRound(row); !stored)
        say(QStringLiteral("round %1: its diagnosis was not stored: %2").arg(m_iteration).arg(stored.error().toString()));
    const QString top = round.findings.isEmpty() ? QStringLiteral("no finding")
                                                 : round.findings.first().ruleId + QStringLiteral(" at line ") +
                                                       QString::number(round.findings.first().line);
    say(QStringLiteral("round %1: %2 ranked %3 first (%4)")
            .arg(m_iteration).arg(round.kernel, top, measured.isEmpty() ? QStringLiteral("static") : measured.join(u'+')));
}

CandidateRow TaskLoop::proposedRow(const rewrite::RewriteProposal &proposal, qint64 parentId) const
{
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
    return row;
}

RoundResult TaskLoop::round(QString *why)
{
    ++m_iteration;
    if (m_best.kernels.isEmpty() && !refreshBestKernels(why))
        return RoundResult::Failed;
    const CandidateRow &best = m_rows[m_best.row];
    say(QStringLiteral("round %1: diagnosing c%2 (%3)").arg(m_iteration).arg(best.id).arg(best.title));
    const Measurements measurements = measurementsOfBest();
    QStringList measured;
    if (measurements.timing)
        measured.append(QStringLiteral("timing"));
    if (measurements.profile)
        measured.append(QStringLiteral("profile"));
    std::vector<DiagnosedKernel> diagnosed;
    QStringList seen;
    for (const CapturedKernel &launch : m_best.kernels) {
        if (seen.contains(launch.kernel) || int(diagnosed.size()) >= kKernelsPerRound)
            continue;
        seen.append(launch.kernel);
        const QString dir = QStringLiteral("%1/diagnosis/c%2-%3").arg(m_workDir).arg(best.id).arg(launch.kernel);
        Expected<DiagnosedKernel> kernel = diagnoseKernel(m_context.agent, m_context.plugins, launch, dir, m_options.maxLevel,
                                                          &measurements);
        if (!kernel) {
            say(QStringLiteral("cannot diagnose %1: %2").arg(launch.kernel, kernel.error().toString()));
            continue;
        }
        recordRound(*kernel, measured);
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
    bool cut = false;
    for (const rewrite::RewriteProposal &proposal : proposals) {
        CandidateRow row = proposedRow(proposal, parentId);
        if (stopping()) {
            // Stored as interrupted, so the resumed run sees a cut round and proposes it again.
            cut = true;
            row.state = QStringLiteral("interrupted");
            row.detail = QStringLiteral("the run stopped before this candidate was checked");
            save(row);
            m_rows.append(row);
            continue;
        }
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
                                      m_options.target, QStringLiteral("%1/factcheck/c%2").arg(m_workDir).arg(row.id),
                                      initialGlue()};
            checkCandidate(m_context.agent, m_context.plugins, input, row);
        }
        save(row);
        m_rows.append(row);
        if (row.state == QLatin1String("verified"))
            survivors.append(int(m_rows.size()) - 1);
        else
            say(QStringLiteral("c%1 %2: %3: %4").arg(row.id).arg(row.recipe, row.state, row.detail.left(200)));
    }
    if (cut || (!survivors.isEmpty() && stopping()))
        return RoundResult::Cut;  // what was checked stays verified: a resume times it
    if (survivors.isEmpty())
        return moreWaiting ? RoundResult::Won : RoundResult::NoWin;  // more proposals wait: go on
    if (!m_options.timing) {
        *why = QStringLiteral("checks only (no timing): %1 of %2 candidate(s) compiled, kept their promise and verified")
                   .arg(survivors.size()).arg(proposals.size());
        return RoundResult::CheckedOnly;
    }
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
    TaskOutcome outcome = outcomeFromRows(m_taskPath, m_rows, m_rounds);
    outcome.initialMs = m_initialMs;
    outcome.eagerMs = m_eagerMs;
    outcome.compileMs = m_compileMs;
    outcome.wallSeconds = m_clock.isValid() ? std::optional<double>(m_clock.elapsed() / 1000.0) : std::nullopt;
    outcome.agentSeconds = m_context.agent.secondsSpent();
    if (m_best.row >= 0) {
        outcome.bestMs = m_best.medianMs;
        outcome.rooflinePct = m_best.rooflinePct;
        outcome.bound = m_best.bound;
    }
    const std::optional<double> speedup = outcome.speedup();
    if (!failure.isEmpty())
        outcome.status = QStringLiteral("failed");
    else if (runStatus == QLatin1String("cancelled"))
        outcome.status = QStringLiteral("interrupted");  // not a verdict: candidates may be untimed
    else if (m_best.row > 0 && speedup && *speedup >= 1 + m_options.minGain)
        outcome.status = QStringLiteral("improved");
    else
        outcome.status = QStringLiteral("no_gain");
    outcome.failure = failure.isEmpty() ? (outcome.status == QLatin1String("no_gain") ? m_stop : QString()) : failure;
    if (outcome.status == QLatin1String("interrupted"))
        outcome.failure = QStringLiteral("stopped before the task finished (cancel or deadline); the same command on "
                                         "the same store resumes it");
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
        if (std::optional<TaskOutcome> reused = reuseFinishedRun())
            return *reused;
        if (!startFresh(&why))
            return finish(QStringLiteral("failed"), why);
    }
    // A killed run left these half-checked: they are re-proposed. A verified one passed every
    // check: a timed run only missed its timing (timeCheckedBeforeStop times it instead), for a
    // checks-only run it is finished.
    for (CandidateRow &row : m_rows)
        if (!row.isFinished() && row.provider != QLatin1String("initial") && row.state != QLatin1String("verified")) {
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
    if (m_best.row == 0)
        m_best.timing = m_initialTiming;  // else the best's timing comes with its next win
    m_iteration = m_rows.last().iteration;
    if (lastRoundWasCut())
        --m_iteration;  // done again: its finished candidates stand, the cut ones are proposed again
    timeCheckedBeforeStop();
    while (m_stop.isEmpty()) {
        m_stop = stopReason();
        if (!m_stop.isEmpty())
            break;
        const RoundResult result = round(&why);
        if (result == RoundResult::Failed || result == RoundResult::CheckedOnly)
            m_stop = why;
        else if (result == RoundResult::NoProposals)
            m_stop = QStringLiteral("no rewrite provider has anything new to propose");
        else if (result == RoundResult::Cut)
            m_stop = stopReason();
        else if (result == RoundResult::NoWin)
            m_stop = QStringLiteral("round %1 brought no significant win").arg(m_iteration);
    }
    say(QStringLiteral("stopped: ") + m_stop);
    // A loop that ended on its own still gets its final check under a drain (one short timing):
    // stored as cancelled, a resume would run a round the uninterrupted run never ran.
    if (cancelled() || m_stop == kDrained)
        return finish(QStringLiteral("cancelled"), QString());
    finalCheck();
    return finish(QStringLiteral("finished"), QString());
}

} // namespace detail

TaskOutcome optimizeTask(const QString &taskPath, const OptimizeOptions &options, LoopContext &context)
{
    detail::TaskLoop loop(taskPath, options, context);
    return loop.run();
}

} // namespace strata::optimize