#include "report/SvgCharts.h"

#include "report/ReportText.h"
#include "report/SvgDraw.h"

#include <algorithm>
#include <cmath>

namespace strata::report {

using namespace strata::report::svg;

namespace {

constexpr int kChartWidth = 760;
constexpr int kLabelWidth = 170;   // left column of task names
constexpr int kRightMargin = 60;
constexpr int kBarPitch = 18;
constexpr int kTopMargin = 46;     // room for the marker labels
constexpr int kAxisHeight = 34;

QString barsSvg(const QVector<SpeedupBar> &bars, qsizetype first, qsizetype count, const LogAxis &axis, int plotTop)
{
    QString svg;
    const double one = axis.x(1.0);
    for (qsizetype i = 0; i < count; ++i) {
        const SpeedupBar &bar = bars[first + i];
        const double y = plotTop + i * kBarPitch;
        svg += text(kLabelWidth - 6, y + 13, bar.taskId, QStringLiteral("text-anchor=\"end\" fill=\"#212121\""));
        if (!bar.measured) {
            // Not hidden: a red marker at 1x, and why.
            svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"8\" height=\"12\" fill=\"%3\"/>\n")
                       .arg(num(one - 4), num(y + 3), barColour(bar));
            svg += text(one + 8, y + 13, bar.status.isEmpty() ? QStringLiteral("not measured") : bar.status,
                        QStringLiteral("fill=\"#c62828\""));
            continue;
        }
        const double end = axis.x(bar.speedup);
        svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"12\" fill=\"%4\"/>\n")
                   .arg(num(std::min(one, end)), num(y + 3), num(std::max(1.0, std::abs(end - one))), barColour(bar));
        const bool right = bar.speedup >= 1;
        svg += text(right ? end + 4 : end - 4, y + 13, formatSpeedup(bar.speedup),
                    right ? QStringLiteral("fill=\"#212121\"") : QStringLiteral("text-anchor=\"end\" fill=\"#212121\""));
    }
    return svg;
}

// Bars [first, first + count) on `axis`; part `part` of `parts`.
Chart speedupChartPart(const SuiteReport &report, qsizetype first, qsizetype count, const LogAxis &axis, int part, int parts)
{
    const int plotTop = kTopMargin, plotBottom = plotTop + int(std::max<qsizetype>(1, count)) * kBarPitch;
    const int height = plotBottom + kAxisHeight;
    QString title = QStringLiteral("Speedup per kernel (initial / best, log scale)");
    if (parts > 1)
        title += QStringLiteral(", %1 of %2").arg(part + 1).arg(parts);
    Chart chart{part ? QStringLiteral("speedup-%1").arg(part + 1) : QStringLiteral("speedup"), title, {}, kChartWidth, height};
    QString svg = open(kChartWidth, height, chart.title);
    for (double tick : ticksOf(axis)) {
        svg += line(axis.x(tick), plotTop, axis.x(tick), plotBottom, QStringLiteral("#e0e0e0"));
        svg += text(axis.x(tick), plotBottom + 14, tickLabel(tick), QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    }
    svg += text((axis.left + axis.right) / 2, plotBottom + 28, QStringLiteral("speedup (log scale)"),
                QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    svg += barsSvg(report.bars, first, count, axis, plotTop);
    svg += speedupMarkers(axis, report.summary, plotTop, plotBottom);
    chart.svg = svg + QStringLiteral("</svg>\n");
    return chart;
}

Chart rooflineScatter(const SuiteReport &report)
{
    constexpr int width = 560, height = 380, left = 60, right = width - 130, top = 20, bottom = height - 44;
    QVector<double> speedups{1.0};
    for (const RooflinePoint &point : report.roofline)
        speedups.append(point.speedup);
    const LogAxis yAxis = logAxisFor(speedups, 0, 1);  // unit interval, mapped below
    auto y = [&](double v) { return bottom - yAxis.x(v) * (bottom - top); };
    auto x = [&](double pct) { return left + std::clamp(pct, 0.0, 100.0) / 100.0 * (right - left); };
    Chart chart{QStringLiteral("roofline"), QStringLiteral("Speedup vs % of roofline"), {}, width, height};
    QString svg = open(width, height, chart.title);
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
    const bool labelPoints = report.roofline.size() <= 20;
    for (const RooflinePoint &point : report.roofline) {
        svg += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"5\" fill=\"%3\" fill-opacity=\"0.8\" stroke=\"#212121\" stroke-width=\"0.5\">"
                              "<title>%4</title></circle>\n")
                   .arg(num(x(point.rooflinePct)), num(y(point.speedup)), boundColour(point.bound),
                        xmlEscaped(QStringLiteral("%1: %2 at %3 of roofline").arg(point.taskId, formatSpeedup(point.speedup),
                                                                                   formatPercent(point.rooflinePct))));
        if (labelPoints)
            svg += text(x(point.rooflinePct) + 7, y(point.speedup) - 5, point.taskId, QStringLiteral("fill=\"#424242\""), 9);
    }
    int legendRow = 0;
    for (const QString &bound : {QStringLiteral("memory"), QStringLiteral("compute"), QStringLiteral("latency"),
                                 QStringLiteral("launch"), QStringLiteral("unknown")}) {
        const double ly = top + 12 + 18 * legendRow++;
        svg += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"5\" fill=\"%3\"/>\n").arg(right + 20).arg(num(ly)).arg(boundColour(bound));
        svg += text(right + 30, ly + 4, bound + QStringLiteral("-bound"), QStringLiteral("fill=\"#212121\""));
    }
    if (report.roofline.isEmpty())
        svg += text((left + right) / 2.0, (top + bottom) / 2.0, QStringLiteral("no task has both a speedup and a roofline share"),
                    QStringLiteral("text-anchor=\"middle\" fill=\"#757575\""));
    chart.svg = svg + QStringLiteral("</svg>\n");
    return chart;
}

} // namespace

QString xmlEscaped(const QString &raw)
{
    QString escaped;
    escaped.reserve(raw.size());
    for (const QChar c : raw) {
        switch (c.unicode()) {
        case '&': escaped += QStringLiteral("&amp;"); break;
        case '<': escaped += QStringLiteral("&lt;"); break;
        case '>': escaped += QStringLiteral("&gt;"); break;
        case '"': escaped += QStringLiteral("&quot;"); break;
        case '\'': escaped += QStringLiteral("&#39;"); break;
        default:
            // XML 1.0 forbids most control characters even escaped; show them as U+FFFD.
            escaped += (c.unicode() < 0x20 && c != u'\n' && c != u'\t' && c != u'\r') ? QChar(0xFFFD) : c;
        }
    }
    return escaped;
}

QVector<Chart> speedupCharts(const SuiteReport &report, int barsPerChart)
{
    if (!report.perTaskCharts())
        return {speedupHistogramChart(report)};
    const QVector<SpeedupBar> &bars = report.bars;
    QVector<double> values{report.summary.geomean, report.summary.median};
    for (const SpeedupBar &bar : bars)
        values.append(bar.speedup);
    const LogAxis axis = logAxisFor(values, kLabelWidth, kChartWidth - kRightMargin);
    const qsizetype perChart = barsPerChart > 0 ? barsPerChart : std::max<qsizetype>(1, bars.size());
    const int parts = int(std::max<qsizetype>(1, (bars.size() + perChart - 1) / perChart));
    QVector<Chart> charts;
    for (int part = 0; part < parts; ++part) {
        const qsizetype first = part * perChart;
        charts.append(speedupChartPart(report, first, std::min(perChart, bars.size() - first), axis, part, parts));
    }
    return charts;
}

Chart speedupChart(const SuiteReport &report)
{
    return speedupCharts(report).first();
}

Chart rooflineChart(const SuiteReport &report)
{
    return report.perTaskCharts() ? rooflineScatter(report) : rooflineDensityChart(report);
}

QVector<Chart> suiteCharts(const SuiteReport &report, int barsPerChart)
{
    return speedupCharts(report, barsPerChart) << rooflineChart(report);
}

} // namespace strata::report
