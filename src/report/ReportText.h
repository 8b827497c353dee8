#pragma once
// The wording every report format shares: numbers, times, speedups, evidence lines. One place so
// the HTML, Markdown and SARIF forms of a report say the same thing.
#include "diagnosis/model/EvidenceText.h"
#include "optimize/Outcome.h"

#include <QString>
#include <optional>

namespace strata::report {

QString formatMs(std::optional<double> ms);            // "0.0421 ms", "-" when absent
QString formatSpeedup(std::optional<double> factor);   // "3.21x", "-" when absent
QString formatPercent(std::optional<double> percent);  // "71.3%", "-" when absent
QString formatNumber(double value);                    // "12", "0.4213"

// Evidence lines and spans are the diagnosis model's own text forms (diagnosis/model/EvidenceText.h).
using diagnosis::evidenceText;
using diagnosis::isExaminesNote;
using diagnosis::spanText;

// A task's status with " (partial)" when a deadline cut the run that measured its win.
QString statusText(const optimize::TaskOutcome &task);
// "ae22111 2026-12-01 (48 tasks); a6dc46c 2026-12-02 (10 tasks)" for a file merged from several
// runs (bench/gpu/merge_results.py); empty for one run's file.
QString mergedFromText(const optimize::SuiteOutcome &suite);

// The CSV field for `text`: quoted when it holds a comma, quote or line break (RFC 4180).
QString csvField(const QString &text);

} // namespace strata::report
