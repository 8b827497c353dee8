#pragma once
// Self-contained HTML reports: one file, inline CSS and inline SVG charts, no scripts and no
// external assets. The markup is well-formed XML (XHTML syntax) so it can be checked and parsed
// by any XML reader; every piece of text (kernel source, IR, task names) is escaped.
#include "core/Expected.h"
#include "report/KernelReport.h"
#include "report/SuiteReport.h"
#include "report/TextSink.h"

#include <QString>

namespace strata::report {

struct HtmlOptions {
    // InlineSvg for browsers. ImageReferences writes <img src="chart:ID"/> instead, for
    // QTextDocument (which has no SVG): DocumentReport supplies the charts as image resources.
    enum class Charts { InlineSvg, ImageReferences };
    Charts charts = Charts::InlineSvg;
    QString generator;  // "strata-cli 0.1.0": shown in the footer
    int barsPerChart = 0;      // > 0: the per-kernel chart split into charts of that many bars
    double imageScale = 1.0;   // ImageReferences: shown at this share of the chart's size
    QString extraStyle;        // CSS added after the shared style (the PDF's compact tables)
};

// The whole page as text (in-memory reports; a file-backed one is read as it is written).
QString suiteHtml(const SuiteReport &report, const HtmlOptions &options = {});
// The page written as it is rendered, a task row at a time; the error is the results file's
// when reading it again failed.
std::optional<ReadError> writeSuiteHtml(const SuiteReport &report, const HtmlOptions &options, TextSink &out);
QString kernelHtml(const KernelReport &report, const HtmlOptions &options = {});

// The URL an ImageReferences chart is referenced by.
QString chartUrl(const QString &chartId);  // "chart:speedup"

// The pieces of the suite page, for the PDF that lays it out a few hundred rows at a time.
namespace suite_html {
QString pageStart(const SuiteReport &report, const HtmlOptions &options);  // <html> to the Tasks heading
QString tasksTableStart(const SuiteReport &report);
QString taskRow(const SuiteReport &report, const optimize::TaskOutcome &task);
QString failuresStart(const SuiteReport &report);  // the heading, and the list's start (or "No task failed.")
QString failureItem(const optimize::TaskOutcome &task);
QString failuresEnd(const SuiteReport &report);
QString continuedStart(const HtmlOptions &options);  // <html> of a later part, no heading
QString pageEnd(const HtmlOptions &options);          // the footer and </html>
QString partEnd();                                    // </html> of a part before the last
} // namespace suite_html

} // namespace strata::report
