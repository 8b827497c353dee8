#pragma once
// The suite report's charts as SVG text (no external assets, so HTML stays self-contained; plain
// SVG Tiny elements, so QSvgRenderer draws the same chart into PDF and PNG). Up to
// kPerTaskChartLimit tasks they show each task; above it, distributions of fixed size.
#include "report/SuiteReport.h"

#include <QString>
#include <QVector>

namespace strata::report {

struct Chart {
    QString id;       // "speedup", "speedup-2", "roofline": the image name when not inlined
    QString title;
    QString svg;      // a complete <svg> element
    int width = 0, height = 0;
};

// Per-kernel speedup, fastest first, as horizontal bars from 1x on a log axis; 1x/2x/5x lines,
// the geomean and median marked; failed and unmeasured tasks drawn as red markers at 1x.
// With `barsPerChart` > 0 the bars are split over several charts of that many bars (one axis for
// all), so that no chart is taller than a page. Above kPerTaskChartLimit tasks: one histogram.
QVector<Chart> speedupCharts(const SuiteReport &report, int barsPerChart = 0);
Chart speedupChart(const SuiteReport &report);  // the first (for an unsplit report, the only) one
// Speedup (log) against % of roofline (linear), points coloured by what bounds the kernel; above
// kPerTaskChartLimit tasks a density grid (cells shaded by how many tasks they hold).
Chart rooflineChart(const SuiteReport &report);

QVector<Chart> suiteCharts(const SuiteReport &report, int barsPerChart = 0);

// The distribution forms, used above kPerTaskChartLimit (SvgDistributions.cpp).
Chart speedupHistogramChart(const SuiteReport &report);
Chart rooflineDensityChart(const SuiteReport &report);

// Text escaped for XML character data and attribute values (& < > " ').
QString xmlEscaped(const QString &text);

} // namespace strata::report
