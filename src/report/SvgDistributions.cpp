// The charts of a suite too large for one bar or point per task: their size does not grow with
// the task count (a histogram of speedups, a density grid of speedup vs roofline share).
#include "report/ReportText.h"
#include "report/SvgCharts.h"
#include "report/SvgDraw.h"

#include <algorithm>
#include <cmath>

namespace strata::report {

using namespace strata::report::svg;

namespace {

constexpr int kWidth = 760, kHeight = 380;
constexpr int kLeft = 150, kRight = kWidth - 30, kTop = 50, kBottom = kHeight - 50;
constexpr int kUnmeasuredLeft = 60, kUnmeasuredWidth = 50;  // the failed/unmeasured bar, left of the axis

// 1-2-5 value at or above `value`, for a count axis.
qint64 niceCeiling(qint64 value)
{
    qint64 decade = 1;
    while (decade * 10 <= value)
        decade *= 10;
    for (qint64 step : {1, 2, 5, 10}) {
        if (step * decade >= value)
            return step * decade;
    }
    return 10 * decade;
}

QString countLabel(qint64 count) { return QString::number(count); }

// The bins that hold tasks, as the first and last index (first > last when none do).
std::pair<int, int> usedBins(const SpeedupHistogram &histogram)
{
    int first = SpeedupHistogram::kBins, last = -1;
    for (int bin = 0; bin < SpeedupHistogram::kBins; ++bin) {
        if (histogram.counts[bin]) {
            first = std::min(first, bin);
            last = bin;
        }
    }
    return {first, last};
}

} // namespace

Chart speedupHistogramChart(const SuiteReport &report)
{
    const SpeedupHistogram &histogram = report.histogram;
    const auto [first, last] = usedBins(histogram);
    QVector<double> values{report.summary.geomean, report.summary.median};
    if (first <= last)
        values << SpeedupHistogram::binLow(first) << SpeedupHistogram::binHigh(last);
    const LogAxis axis = logAxisFor(values, kLeft, kRight);
    qint64 highest = std::max<qint64>(1, histogram.unmeasured);
    for (qint64 count : histogram.counts)
        highest = std::max(highest, count);
    const qint64 top = niceCeiling(highest);
    auto y = [&](qint64 count) { return kBottom - double(count) / double(top) * (kBottom - kTop); };

    Chart chart{QStringLiteral("speedup"),
                QStringLiteral("Speedup distribution: tasks per speedup bin (initial / best, log scale)"), {}, kWidth, kHeight};
    QString svg = open(kWidth, kHeight, chart.title);
    for (int step = 0; step <= 4; ++step) {
        const qint64 count = top * step / 4;
        svg += line(kLeft, y(count), kRight, y(count), QStringLiteral("#e0e0e0"));
        svg += text(kUnmeasuredLeft - 6, y(count) + 4, countLabel(count), QStringLiteral("text-anchor=\"end\" fill=\"#424242\""));
    }
    for (double tick : ticksOf(axis))
        svg += text(axis.x(tick), kBottom + 14, tickLabel(tick), QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    svg += text((axis.left + axis.right) / 2, kBottom + 30, QStringLiteral("speedup (log scale), %1 bins per decade")
                                                               .arg(SpeedupHistogram::kBinsPerDecade),
                QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    for (int bin = std::max(first, 0); bin <= last; ++bin) {
        const qint64 count = histogram.counts[bin];
        if (!count)
            continue;
        const double x0 = axis.x(SpeedupHistogram::binLow(bin)), x1 = axis.x(SpeedupHistogram::binHigh(bin));
        SpeedupBar colourOf{{}, std::sqrt(SpeedupHistogram::binLow(bin) * SpeedupHistogram::binHigh(bin)), true, {}};
        svg += rect(x0, y(count), std::max(1.0, x1 - x0 - 0.5), kBottom - y(count), barColour(colourOf),
                    QStringLiteral("stroke=\"#ffffff\" stroke-width=\"0.5\""));
    }
    // Failed and unmeasured tasks are not hidden: their own red bar left of the axis.
    svg += rect(kUnmeasuredLeft, y(histogram.unmeasured), kUnmeasuredWidth, kBottom - y(histogram.unmeasured), QStringLiteral("#c62828"));
    svg += text(kUnmeasuredLeft + kUnmeasuredWidth / 2.0, kBottom + 14, QStringLiteral("failed /"),
                QStringLiteral("text-anchor=\"middle\" fill=\"#c62828\""), 9);
    svg += text(kUnmeasuredLeft + kUnmeasuredWidth / 2.0, kBottom + 25, QStringLiteral("unmeasured"),
                QStringLiteral("text-anchor=\"middle\" fill=\"#c62828\""), 9);
    svg += text(kUnmeasuredLeft + kUnmeasuredWidth / 2.0, y(histogram.unmeasured) - 4, countLabel(histogram.unmeasured),
                QStringLiteral("text-anchor=\"middle\" fill=\"#c62828\""), 9);
    svg += line(kLeft, kBottom, kRight, kBottom, QStringLiteral("#9e9e9e"));
    svg += speedupMarkers(axis, report.summary, kTop, kBottom);
    svg += text(kLeft, kTop - 36, QStringLiteral("%1 tasks; tallest bin %2").arg(report.summary.tasks).arg(highest),
                QStringLiteral("fill=\"#424242\""));
    chart.svg = svg + QStringLiteral("</svg>\n");
    return chart;
}

Chart rooflineDensityChart(const SuiteReport &report)
{
    constexpr int width = 560, height = 380, left = 60, right = width - 130, top = 20, bottom = height - 44;
    const RooflineDensity &density = report.density;
    QVector<double> speedups{1.0};
    qint64 fullest = 1;
    for (int share = 0; share < RooflineDensity::kShareBins; ++share) {
        for (int bin = 0; bin < SpeedupHistogram::kBins; ++bin) {
            qint64 cell = 0;
            for (qint64 count : density.cells[share][bin])
                cell += count;
            if (cell)
                speedups << SpeedupHistogram::binLow(bin) << SpeedupHistogram::binHigh(bin);
            fullest = std::max(fullest, cell);
        }
    }
    const LogAxis yAxis = logAxisFor(speedups, 0, 1);
    auto y = [&](double v) { return bottom - yAxis.x(v) * (bottom - top); };
    auto x = [&](double pct) { return left + std::clamp(pct, 0.0, 100.0) / 100.0 * (right - left); };
    Chart chart{QStringLiteral("roofline"), QStringLiteral("Speedup vs % of roofline: tasks per cell"), {}, width, height};
    QString svg = open(width, height, chart.title);
    constexpr double shareStep = 100.0 / RooflineDensity::kShareBins;
    for (int share = 0; share < RooflineDensity::kShareBins; ++share) {
        for (int bin = 0; bin < SpeedupHistogram::kBins; ++bin) {
            const auto &counts = density.cells[share][bin];
            qint64 cell = 0;
            int dominant = 0;
            for (int bound = 0; bound < RooflineDensity::kBounds; ++bound) {
                cell += counts[bound];
                if (counts[bound] > counts[dominant])
                    dominant = bound;
            }
            if (!cell)
                continue;
            // Shade by log count, so that one task still shows next to a cell of thousands.
            const double opacity = 0.2 + 0.8 * std::log1p(double(cell)) / std::log1p(double(fullest));
            const double y0 = y(SpeedupHistogram::binHigh(bin)), y1 = y(SpeedupHistogram::binLow(bin));
            svg += rect(x(share * shareStep), y0, x((share + 1) * shareStep) - x(share * shareStep), std::max(1.0, y1 - y0),
                        boundColour(RooflineDensity::boundName(dominant)), QStringLiteral("fill-opacity=\"%1\"").arg(opacity, 0, 'f', 2));
        }
    }
    for (int pct = 0; pct <= 100; pct += 20) {
        svg += line(x(pct), top, x(pct), bottom, QStringLiteral("#e0e0e0"));
        svg += text(x(pct), bottom + 14, QString::number(pct) + u'%', QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    }
    for (double tick : ticksOf(yAxis)) {
        svg += line(left, y(tick), right, y(tick), tick == 1.0 ? QStringLiteral("#9e9e9e") : QStringLiteral("#e0e0e0"));
        svg += text(left - 6, y(tick) + 4, tickLabel(tick), QStringLiteral("text-anchor=\"end\" fill=\"#424242\""));
    }
    svg += text((left + right) / 2.0, bottom + 32, QStringLiteral("% of roofline (best candidate)"),
                QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    svg += text(left, top - 6, QStringLiteral("speedup (log)"), QStringLiteral("fill=\"#424242\""));
    svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"none\" stroke=\"#9e9e9e\"/>\n")
               .arg(left).arg(top).arg(right - left).arg(bottom - top);
    for (int bound = 0; bound < RooflineDensity::kBounds; ++bound) {
        const double ly = top + 12 + 18 * bound;
        svg += rect(right + 15, ly - 5, 10, 10, boundColour(RooflineDensity::boundName(bound)));
        svg += text(right + 30, ly + 4, RooflineDensity::boundName(bound) + QStringLiteral("-bound"), QStringLiteral("fill=\"#212121\""));
    }
    const double notes = top + 12 + 18 * RooflineDensity::kBounds + 10;
    svg += text(right + 15, notes, QStringLiteral("colour: most tasks"), QStringLiteral("fill=\"#616161\""), 9);
    svg += text(right + 15, notes + 12, QStringLiteral("shade: tasks per cell"), QStringLiteral("fill=\"#616161\""), 9);
    svg += text(right + 15, notes + 24, QStringLiteral("(up to %1; %2 in all)").arg(fullest).arg(density.points),
                QStringLiteral("fill=\"#616161\""), 9);
    if (!density.points)
        svg += text((left + right) / 2.0, (top + bottom) / 2.0, QStringLiteral("no task has both a speedup and a roofline share"),
                    QStringLiteral("text-anchor=\"middle\" fill=\"#757575\""));
    chart.svg = svg + QStringLiteral("</svg>\n");
    return chart;
}

} // namespace strata::report
