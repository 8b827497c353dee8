#pragma once
// Reads a suite results file (schema "strata.bench", optimize/OutcomeJson.h) one task at a time,
// so that a report of 10^6 tasks holds one task in memory instead of the whole document. Each
// task is checked by the same rules as suiteOutcomeFromJson, and every error names the file, the
// JSON path and its line (and column, for syntax errors).
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <functional>

namespace strata::optimize {

// Called once per task, in file order.
using TaskVisitor = std::function<void(TaskOutcome &&task)>;

// Reads `path` from start to end, calling `onTask` for each valid task. Returns the suite's
// header (every field but tasks; `tasks` stays empty), known only once the whole file is read:
// writers may put the header after "tasks". An invalid task stops the read with its error, after
// `onTask` saw the tasks before it.
Expected<SuiteOutcome> readResultsFile(const QString &path, const TaskVisitor &onTask);

// The top-level "schema" string of a JSON file, read only as far as it (empty when there is
// none), so that a command can tell a results file from a diagnosis without reading either whole.
Expected<QString> readSchemaName(const QString &path);

} // namespace strata::optimize
