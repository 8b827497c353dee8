#pragma once
// Evidence and source spans as one line of text, the same wherever a diagnosis is printed:
// the terminal (strata-cli diagnose), the reports (HTML, Markdown, SARIF) and the app.
#include "diagnosis/model/Finding.h"

#include <QString>

namespace strata::diagnosis {

// "ttgir:42  tt.load ..." / "registers = 128 regs" / "\"n divisible by 16\": a -> b", with the
// evidence's note appended as "  [note]".
QString evidenceText(const Evidence &evidence);
// True for the span evidence an L4 finding uses to name the finding it examines ("examines ...").
bool isExaminesNote(const Evidence &evidence);
// "file.py:12" (file name only; empty when the span is invalid).
QString spanText(const SourceSpan &span);
// Whole numbers without a fraction ("12"), others to 4 significant digits ("0.4213").
QString compactNumber(double value);

} // namespace strata::diagnosis
