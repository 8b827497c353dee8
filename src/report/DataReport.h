#pragma once
// The machine-readable report forms. Suite JSON is the suite results file itself (schema
// strata.bench, see optimize/OutcomeJson.h) so tools read reports and results alike; the kernel
// JSON wraps the task outcome and the diagnosis JSON (strata.diagnosis) unchanged:
// {"schema":"strata.report.kernel","version":1,"title":..,"source_path":..,
//  "task":{..task outcome..}|null,"winning_diff":"--- ..."|"","diagnosis":{..}|null}
// CSV: one row per task for a suite (optimize::toCsv); one row per candidate for a kernel.
#include "core/Expected.h"
#include "report/KernelReport.h"
#include "report/SuiteReport.h"
#include "report/TextSink.h"

#include <QJsonObject>
#include <QString>

namespace strata::report {

inline constexpr char kKernelReportSchema[] = "strata.report.kernel";
inline constexpr int kKernelReportVersion = 1;

QJsonObject suiteJson(const SuiteReport &report);  // an in-memory report
QJsonObject kernelJson(const KernelReport &report);

QString suiteCsv(const SuiteReport &report);
// The same texts written a task at a time (the JSON exactly as QJsonDocument indents it); the
// error is the results file's when reading it again failed.
std::optional<ReadError> writeSuiteJson(const SuiteReport &report, TextSink &out);
std::optional<ReadError> writeSuiteCsv(const SuiteReport &report, TextSink &out);
// id,iteration,parent,provider,recipe,title,state,detail,median_ms,speedup_vs_parent,review,findings
QString kernelCsv(const KernelReport &report);

} // namespace strata::report
