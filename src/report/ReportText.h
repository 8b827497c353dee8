#pragma once
// The wording every report format shares: numbers, times, speedups, evidence lines. One place so
// the HTML, Markdown and SARIF forms of a report say the same thing.
#include "diagnosis/model/Finding.h"

#include <QString>
#include <optional>

namespace strata::report {

QString formatMs(std::optional<double> ms);            // "0.0421 ms", "-" when absent
QString formatSpeedup(std::optional<double> factor);   // "3.21x", "-" when absent
QString formatPercent(std::optional<double> percent);  // "71.3%", "-" when absent
QString formatNumber(double value);                    // "12", "0.4213"

// One evidence item as a line: "ttgir:42  tt.load ..." / "registers = 128 regs" / ...
QString evidenceText(const diagnosis::Evidence &evidence);
// True for the span evidence an L4 finding uses to name the finding it examines ("examines ...").
bool isExaminesNote(const diagnosis::Evidence &evidence);

// "file.py:12" (file name only; empty when the span is invalid).
QString spanText(const diagnosis::SourceSpan &span);

// The CSV field for `text`: quoted when it holds a comma, quote or line break (RFC 4180).
QString csvField(const QString &text);

} // namespace strata::report
