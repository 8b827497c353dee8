#pragma once
// Markdown reports (GitHub-flavoured: pipe tables, fenced code). Charts are left out; the
// per-task table carries the same numbers.
#include "report/KernelReport.h"
#include "report/SuiteReport.h"

#include <QString>

namespace strata::report {

QString suiteMarkdown(const SuiteReport &report);
QString kernelMarkdown(const KernelReport &report);

} // namespace strata::report
