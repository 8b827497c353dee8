#pragma once
// Outcomes from what the store holds: the loop's candidate rows become CandidateRecords, and a
// finished run's stored outcome plus its rows become a TaskOutcome (the explorer, reports, bench).
#include "core/Expected.h"
#include "optimize/Outcome.h"
#include "store/OptimizeRecords.h"

#include <QJsonObject>
#include <QVector>

namespace strata {
class Store;
}

namespace strata::optimize {

CandidateRecord candidateRecord(const CandidateRow &row);

// Task id, path, category, candidates, and the path of accepted candidates that led to the best
// (winning recipes and the findings they acted on). Times are left for the caller.
// `rounds` (each round's diagnosis, from storedRounds) are kept, sorted by iteration.
TaskOutcome outcomeFromRows(const QString &taskPath, const QVector<CandidateRow> &rows,
                            const QVector<RoundDiagnosis> &rounds);

// The diagnoses of a run's rounds, from its opt_rounds rows; a row this build cannot read is an
// error naming the store and the round.
Expected<QVector<RoundDiagnosis>> storedRounds(const Store &store, qint64 runId);

// The TaskOutcome JSON a finished run stores (without candidates: they are rows of their own).
QJsonObject taskOutcomeJson(const TaskOutcome &outcome);

Expected<TaskOutcome> loadTaskOutcome(const Store &store, qint64 runId);
// The newest run of each task of `suite`, in task order.
Expected<SuiteOutcome> loadSuiteOutcome(const Store &store, const QString &suite);

} // namespace strata::optimize
