#pragma once
// JSON of the loop's per-round diagnoses, in a task's "rounds" of a strata.bench file and on the
// store's opt_rounds rows (one round each):
// {"iteration":2,"candidate":7,"kernel":"softmax_kernel","measured":["timing","profile"],
//  "ranking_is_estimate":false,"warnings":[],"escalation":["L1 triage: ..."],
//  "findings":[{"rule":"L1.multi-pass-reread","title":"..","severity":"high","line":31,
//               "share":0.41,"share_measured":true,"status":"not_examined"}]}
#include "optimize/Outcome.h"

#include <QJsonArray>
#include <QJsonObject>

namespace strata::optimize {

QJsonObject toJson(const RoundDiagnosis &round);
QJsonArray toJson(const QVector<RoundDiagnosis> &rounds);

// Reads "rounds"; `path` ("tasks[3].rounds") prefixes errors, which go to *error (first one wins).
QVector<RoundDiagnosis> roundsFromJson(const QJsonValue &value, const QString &path, QString *error);

} // namespace strata::optimize
