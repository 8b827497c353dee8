#pragma once
// Markdown reports (GitHub-flavoured: pipe tables, fenced code). Charts are left out; the
// per-task table carries the same numbers.
#include "core/Expected.h"
#include "report/KernelReport.h"
#include "report/SuiteReport.h"
#include "report/TextSink.h"

#include <QString>

namespace strata::report {

QString suiteMarkdown(const SuiteReport &report);
// Written a task row at a time; the error is the results file's when reading it again failed.
std::optional<ReadError> writeSuiteMarkdown(const SuiteReport &report, TextSink &out);
QString kernelMarkdown(const KernelReport &report);

} // namespace strata::report
