#pragma once
// The suite report's charts as SVG text (no external assets, so HTML stays self-contained; plain
// SVG Tiny elements, so QSvgRenderer draws the same chart into PDF and PNG).
#include "report/SuiteReport.h"

#include <QString>
#include <QVector>

namespace strata::report {

struct Chart {
    QString id;       // "speedup", "roofline": the image name when not inlined
    QString title;
    QString svg;      // a complete <svg> element
    int width = 0, height = 0;
};

// Per-kernel speedup, fastest first, as horizontal bars from 1x on a log axis; 1x/2x/5x lines,
// the geomean and median marked; failed and unmeasured tasks drawn as red markers at 1x.
Chart speedupChart(const SuiteReport &report);
// Speedup (log) against % of roofline (linear), points coloured by what bounds the kernel.
Chart rooflineChart(const SuiteReport &report);

QVector<Chart> suiteCharts(const SuiteReport &report);

// Text escaped for XML character data and attribute values (& < > " ').
QString xmlEscaped(const QString &text);

} // namespace strata::report
