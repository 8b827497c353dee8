#pragma once
// The suite results file `strata-cli bench` writes (schema "strata.bench" v1) and the explorer
// and reports read:
// {"schema":"strata.bench","version":1,"suite":"hopper-core","device":"NVIDIA H200",
//  "driver":"580.x","triton":"3.6.0","torch":"2.11.0","commit":"abc123","date":"2026-12-01T12:00:00Z",
//  "summary":{"tasks":40,"geomean_speedup":..,"median_speedup":..,"over_2x":..,"over_5x":..,
//             "failures":..,"geomean_vs_best_baseline":..},
//  "tasks":[{"task":"softmax","path":"suites/hopper-core/softmax.py","category":"reduction",
//            "status":"improved","failure":"","initial_ms":..,"best_ms":..,"eager_ms":..,
//            "compile_ms":..,"roofline_pct":..,"bound":"memory","speedup":..,
//            "winning_recipes":["recipe:autotune-space"],"winning_findings":["L1.no-autotune"],
//            "candidates":[{"id":..,"parent":..,"iteration":..,"provider":"recipe","recipe":"..",
//                           "title":"..","state":"accepted","detail":"..","median_ms":..,
//                           "speedup_vs_parent":..,"review":"","path":"..","source":"..."}],
//            "rounds":[...each round's diagnosis: RoundDiagnosisJson.h...]}]}
// Absent times are JSON null. "source" may be left out to keep files small (--no-sources).
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QJsonObject>

namespace strata::optimize {

QJsonObject toJson(const CandidateRecord &candidate, bool withSource = true);
QJsonObject toJson(const TaskOutcome &task, bool withSources = true);
QJsonObject toJson(const SuiteOutcome &suite, bool withSources = true);

// `origin` names the file in errors ("results.json: tasks[3].initial_ms is not a number").
Expected<SuiteOutcome> suiteOutcomeFromJson(const QJsonObject &json, const QString &origin);
Expected<SuiteOutcome> readSuiteOutcomeFile(const QString &path);
Expected<TaskOutcome> taskOutcomeFromJson(const QJsonObject &json, const QString &origin);

// CSV, one row per task: task,category,status,initial_ms,best_ms,speedup,eager_ms,compile_ms,
// speedup_vs_eager,speedup_vs_compile,roofline_pct,bound,winning_recipes,failure
QString toCsv(const SuiteOutcome &suite);

} // namespace strata::optimize
