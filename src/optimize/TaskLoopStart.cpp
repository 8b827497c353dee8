#include "optimize/TaskLoop.h"

#include "optimize/AgentSession.h"
#include "optimize/CandidateCheck.h"
#include "optimize/OutcomeStore.h"
#include "store/Store.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <utility>

namespace strata::optimize::detail {

QString sha256(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QJsonObject expectedJson(const QVector<rewrite::ExpectedFact> &facts)
{
    QJsonArray list;
    for (const rewrite::ExpectedFact &fact : facts) {
        QJsonObject json{{QStringLiteral("fact"), fact.fact}, {QStringLiteral("line"), fact.line},
                         {QStringLiteral("want"), fact.want}};
        if (!fact.promisedBy.isEmpty())
            json.insert(QStringLiteral("promised_by"), fact.promisedBy);
        list.append(json);
    }
    return {{QStringLiteral("facts"), list}};
}

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
            Expected<QVector<RoundDiagnosis>> rounds = storedRounds(m_context.store, m_runId);
            if (!rounds) {
                *why = rounds.error().toString();
                return false;
            }
            m_rounds = *rounds;
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

QJsonObject TaskLoop::initialGlue() const
{
    return m_rows.isEmpty() ? QJsonObject() : m_rows.first().evidence.value(QStringLiteral("glue_calls")).toObject();
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
    // A cut check ("interrupted": a cancel, or a pool host that dropped out) said nothing about
    // the kernel: it is checked again, like any interrupted candidate.
    if (initial.isFinished() && initial.state != QLatin1String("interrupted")) {
        *why = QStringLiteral("the initial kernel failed before: ") + initial.detail;
        return false;
    }
    say(QStringLiteral("checking the initial kernel"));
    CandidateCheckInput input;
    input.target = m_options.target;
    input.glue = QStringLiteral("initial");  // the user's forward as written is the baseline, glue and all
    checkCandidate(m_context.agent, m_context.plugins, input, initial);
    if (initial.state != QLatin1String("verified")) {
        save(initial);
        *why = QStringLiteral("the initial kernel does not pass: %1 (%2)").arg(initial.state, initial.detail);
        return false;
    }
    if (!m_options.timing) {  // checks only: the initial kernel is the reference, untimed
        initial.state = QStringLiteral("accepted");
        initial.detail = QStringLiteral("checked, not timed (checks only)");
        save(initial);
        return true;
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
    m_initialTiming = timingOfOne(*timing, QStringLiteral("triton"));
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

// The outcome of a finished run on the same content, when it can stand: it can be read, and it
// was timed if this run times (a checks-only run does not stand in for a timed one).
std::optional<TaskOutcome> TaskLoop::reuseFinishedRun()
{
    const qint64 runId = std::exchange(m_finishedRunId, 0);
    Expected<TaskOutcome> stored = loadTaskOutcome(m_context.store, runId);
    if (!stored) {
        say(QStringLiteral("cannot read run %1, running again: %2").arg(runId).arg(stored.error().toString()));
        return std::nullopt;
    }
    if (m_options.timing && !stored->initialMs) {
        say(QStringLiteral("run %1 only checked the task, without timing: running it again").arg(runId));
        return std::nullopt;
    }
    say(QStringLiteral("finished before in run %1: its outcome stands (--fresh runs it again)").arg(runId));
    return *stored;
}

} // namespace strata::optimize::detail
