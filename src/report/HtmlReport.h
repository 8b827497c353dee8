#pragma once
// Self-contained HTML reports: one file, inline CSS and inline SVG charts, no scripts and no
// external assets. The markup is well-formed XML (XHTML syntax) so it can be checked and parsed
// by any XML reader; every piece of text (kernel source, IR, task names) is escaped.
#include "report/KernelReport.h"
#include "report/SuiteReport.h"

#include <QString>

namespace strata::report {

struct HtmlOptions {
    // InlineSvg for browsers. ImageReferences writes <img src="chart:ID"/> instead, for
    // QTextDocument (which has no SVG): DocumentReport supplies the charts as image resources.
    enum class Charts { InlineSvg, ImageReferences };
    Charts charts = Charts::InlineSvg;
    QString generator;  // "strata-cli 0.1.0": shown in the footer
};

QString suiteHtml(const SuiteReport &report, const HtmlOptions &options = {});
QString kernelHtml(const KernelReport &report, const HtmlOptions &options = {});

// The URL an ImageReferences chart is referenced by.
QString chartUrl(const QString &chartId);  // "chart:speedup"

} // namespace strata::report
