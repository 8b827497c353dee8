#include "optimize/OutcomeStore.h"

#include "optimize/OutcomeJson.h"
#include "optimize/RoundDiagnosisJson.h"
#include "store/Store.h"

#include <QFileInfo>
#include <QHash>
#include <algorithm>
#include <QJsonArray>
#include <QJsonObject>

namespace strata::optimize {

CandidateRecord candidateRecord(const CandidateRow &row)
{
    CandidateRecord record;
    record.id = row.id;
    record.parentId = row.parentId;
    record.iteration = row.iteration;
    record.provider = row.provider;
    record.recipeId = row.recipe;
    record.title = row.title;
    record.taskPath = row.path;
    record.sourceText = row.sourceText;
    record.findingRuleIds = row.findings;
    record.state = row.state;
    record.detail = row.detail;
    record.medianMs = row.medianMs;
    record.speedupVsParent = row.speedupVsParent;
    record.reviewState = row.review;
    return record;
}

TaskOutcome outcomeFromRows(const QString &taskPath, const QVector<CandidateRow> &rows,
                            const QVector<RoundDiagnosis> &rounds)
{
    TaskOutcome outcome;
    outcome.taskId = QFileInfo(taskPath).completeBaseName();
    outcome.taskPath = taskPath;
    QHash<qint64, const CandidateRow *> byId;
    const CandidateRow *best = nullptr;
    for (const CandidateRow &row : rows) {
        outcome.candidates.append(candidateRecord(row));
        outcome.tokens += row.tokensIn + row.tokensOut;
        byId.insert(row.id, &row);
        if (row.state == QLatin1String("accepted"))
            best = &row;
        if (outcome.category.isEmpty())
            outcome.category = row.evidence.value(QStringLiteral("category")).toString();
    }
    outcome.rounds = rounds;
    std::stable_sort(outcome.rounds.begin(), outcome.rounds.end(),
                     [](const RoundDiagnosis &a, const RoundDiagnosis &b) { return a.iteration < b.iteration; });
    // Walk back from the best to the initial kernel: each step is one accepted rewrite.
    for (const CandidateRow *step = best; step && step->provider != QLatin1String("initial");
         step = byId.value(step->parentId, nullptr)) {
        outcome.winningRecipes.prepend(QStringLiteral("%1:%2").arg(step->provider, step->recipe));
        for (const QString &finding : step->findings)
            if (!outcome.winningFindings.contains(finding))
                outcome.winningFindings.append(finding);
    }
    return outcome;
}

Expected<QVector<RoundDiagnosis>> storedRounds(const Store &store, qint64 runId)
{
    Expected<QVector<RoundRow>> rows = store.roundsForRun(runId);
    if (!rows)
        return rows.error();
    QJsonArray array;
    for (const RoundRow &row : *rows)
        array.append(row.round);
    QString error;
    QVector<RoundDiagnosis> rounds = roundsFromJson(array, QStringLiteral("opt_rounds of run %1").arg(runId), &error);
    if (!error.isEmpty())
        return ReadError{store.path(), 0, 0, error};
    return rounds;
}

QJsonObject taskOutcomeJson(const TaskOutcome &outcome)
{
    QJsonObject json = toJson(outcome, false);
    json.remove(QStringLiteral("candidates"));
    return json;
}

Expected<TaskOutcome> loadTaskOutcome(const Store &store, qint64 runId)
{
    Expected<QVector<OptimizeRunRecord>> runs = store.listOptimizeRuns();
    if (!runs)
        return runs.error();
    for (const OptimizeRunRecord &run : *runs) {
        if (run.id != runId)
            continue;
        Expected<QVector<CandidateRow>> rows = store.candidatesForRun(runId);
        if (!rows)
            return rows.error();
        TaskOutcome outcome;
        if (!run.outcome.isEmpty()) {
            Expected<TaskOutcome> stored = taskOutcomeFromJson(run.outcome, store.path());
            if (!stored)
                return stored.error();
            outcome = *stored;
        } else {
            outcome.status = QStringLiteral("running");
        }
        Expected<QVector<RoundDiagnosis>> rounds = storedRounds(store, runId);
        if (!rounds)
            return rounds.error();
        const TaskOutcome fromRows = outcomeFromRows(run.taskPath, *rows, *rounds);
        outcome.taskId = fromRows.taskId;
        outcome.taskPath = run.taskPath;
        if (outcome.category.isEmpty())
            outcome.category = fromRows.category;
        outcome.candidates = fromRows.candidates;
        if (outcome.rounds.isEmpty())  // still running: nothing stored with an outcome yet
            outcome.rounds = fromRows.rounds;
        return outcome;
    }
    return ReadError{store.path(), 0, 0, QStringLiteral("no optimization run %1").arg(runId)};
}

Expected<SuiteOutcome> loadSuiteOutcome(const Store &store, const QString &suite)
{
    Expected<QVector<OptimizeRunRecord>> runs = store.listOptimizeRuns();
    if (!runs)
        return runs.error();
    QHash<QString, qint64> newest;  // task path -> run id
    QStringList order;
    for (const OptimizeRunRecord &run : *runs) {
        if (run.suite != suite)
            continue;
        if (!newest.contains(run.taskPath))
            order.append(run.taskPath);
        newest.insert(run.taskPath, run.id);
    }
    SuiteOutcome outcome;
    outcome.suite = suite;
    for (const QString &path : order) {
        Expected<TaskOutcome> task = loadTaskOutcome(store, newest.value(path));
        if (!task)
            return task.error();
        outcome.tasks.append(*task);
    }
    return outcome;
}

} // namespace strata::optimize
