#pragma once
// A suite report in one of its formats, as text or written to a file: the one place that maps
// a format name to its writer, for `strata-cli report` and the app's File > Export Suite Report.
#include "core/Expected.h"
#include "report/KernelReport.h"
#include "report/SuiteReport.h"
#include "report/TextSink.h"

#include <QString>

namespace strata::report {

// "html", "md", "json", "csv" or "pdf" from a file name's suffix ("markdown" counts as md);
// empty when the suffix names none of them.
QString reportFormatForPath(const QString &path);

// The suite report in a text format (html with inline SVG charts, md, json, csv).
Expected<QString> suiteReportText(const SuiteReport &report, const QString &format, const QString &generator);
// The same written to `out` as it is rendered, a task at a time (`strata-cli report --out -`).
std::optional<ReadError> writeSuiteReportText(const SuiteReport &report, const QString &format, const QString &generator,
                                              TextSink &out);

// Writes the suite report to `path` (text formats and pdf), atomically, as it is rendered: a
// report read from a results file never exists whole in memory. Errors name the file.
// PDF needs a QGuiApplication. Returns the path.
Expected<QString> writeSuiteReport(const SuiteReport &report, const QString &format, const QString &path,
                                   const QString &generator);

// The kernel report in a text format (html, md, json, csv, and sarif when it has a diagnosis).
Expected<QString> kernelReportText(const KernelReport &report, const QString &format, const QString &generator,
                                   const QString &version);
// Writes the kernel report to `path` (text formats and pdf), atomically; errors name the file.
Expected<QString> writeKernelReport(const KernelReport &report, const QString &format, const QString &path,
                                    const QString &generator, const QString &version);

} // namespace strata::report
