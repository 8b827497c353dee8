#pragma once
// The suite results file `strata-cli bench` writes (schema "strata.bench" v1) and the explorer
// and reports read:
// {"schema":"strata.bench","version":1,"suite":"hopper-core","device":"NVIDIA H200",
//  "backend":"nvidia","target":"sm_90",   (absent in files written before they existed)
//  "driver":"580.x","triton":"3.6.0","torch":"2.11.0","commit":"abc123","date":"2026-12-01T12:00:00Z",
//  "summary":{"tasks":40,"geomean_speedup":..,"median_speedup":..,"over_2x":..,"over_5x":..,
//             "failures":..,"geomean_vs_best_baseline":..},
//  "tasks":[{"task":"softmax","path":"suites/hopper-core/softmax.py","category":"reduction",
//            "status":"improved","failure":"","initial_ms":..,"best_ms":..,"eager_ms":..,
//            "compile_ms":..,"roofline_pct":..,"bound":"memory","speedup":..,
//            "winning_recipes":["recipe:autotune-space"],"winning_findings":["L1.no-autotune"],
//            "tokens":0,"wall_s":..,
//            "agent_s":{"verify":..,"time":..,"checks_held_s":..,"measure_wait_s":..} (when any),
//            "candidates":[{"id":..,"parent":..,"iteration":..,"provider":"recipe","recipe":"..",
//                           "title":"..","state":"accepted","detail":"..","median_ms":..,
//                           "speedup_vs_parent":..,"review":"","path":"..","source":"..."}],
//            "rounds":[...each round's diagnosis: RoundDiagnosisJson.h...]}]}
// Absent times are JSON null. "source" may be left out to keep files small (--no-sources).
// Reading checks the schema: times and speedups must be positive, a status one of the six
// above, "tasks" an array of objects; unknown fields are ignored (later writers may add some).
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QJsonObject>

namespace strata::optimize {

inline constexpr char kResultsSchema[] = "strata.bench";
inline constexpr int kResultsVersion = 1;

QJsonObject toJson(const CandidateRecord &candidate, bool withSource = true);
QJsonObject toJson(const TaskOutcome &task, bool withSources = true);
QJsonObject toJson(const SuiteOutcome &suite, bool withSources = true);

// `origin` names the file in errors ("results.json: tasks[3].initial_ms is not a number").
Expected<SuiteOutcome> suiteOutcomeFromJson(const QJsonObject &json, const QString &origin);
// The whole file in memory (the explorer, tests); reports stream it (optimize/ResultsFile.h).
// Errors name the file, the JSON path and its line.
Expected<SuiteOutcome> readSuiteOutcomeFile(const QString &path);
Expected<TaskOutcome> taskOutcomeFromJson(const QJsonObject &json, const QString &origin);

// The first problem found in a results file's JSON: where ("tasks[3].initial_ms") and what.
struct JsonProblem {
    QString path;
    QString message;
    bool isEmpty() const { return message.isEmpty(); }
    QString text() const { return path + u' ' + message; }
};
// The pieces the streaming reader shares with suiteOutcomeFromJson: one task at `path`, and the
// header (every field but "tasks"; the schema and version are checked here).
TaskOutcome taskFromJson(const QJsonObject &json, const QString &path, JsonProblem *problem);
Expected<SuiteOutcome> suiteHeaderFromJson(const QJsonObject &json, const QString &origin, JsonProblem *problem);

// CSV, one row per task: task,category,status,initial_ms,best_ms,speedup,eager_ms,compile_ms,
// speedup_vs_eager,speedup_vs_compile,roofline_pct,bound,winning_recipes,failure
QString toCsv(const SuiteOutcome &suite);
QString csvHeader();                    // the first line, with its line break
QString csvRow(const TaskOutcome &task);  // one task's line, with its line break

} // namespace strata::optimize
