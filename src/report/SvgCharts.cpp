#include "report/SvgCharts.h"

#include "report/ReportText.h"

#include <algorithm>
#include <cmath>

namespace strata::report {

namespace {

constexpr int kChartWidth = 760;
constexpr int kLabelWidth = 170;   // left column of task names
constexpr int kRightMargin = 60;
constexpr int kBarPitch = 18;
constexpr int kTopMargin = 46;     // room for the marker labels
constexpr int kAxisHeight = 34;

const QString kFont = QStringLiteral("font-family=\"DejaVu Sans, Arial, sans-serif\"");

QString num(double value) { return QString::number(value, 'f', 1); }

// A log10 axis mapping [low, high] onto [left, right] pixels.
struct LogAxis {
    double low, high;
    double left, right;
    double x(double value) const
    {
        const double t = (std::log10(std::clamp(value, low, high)) - std::log10(low)) / (std::log10(high) - std::log10(low));
        return left + t * (right - left);
    }
};

// Range that holds every value and the 1x/2x/5x lines, widened to "nice" 1-2-5 ends.
LogAxis logAxisFor(QVector<double> values, double left, double right)
{
    values.append({0.8, 6.0});
    const auto [lowest, highest] = std::minmax_element(values.begin(), values.end());
    auto niceBelow = [](double v) {
        const double decade = std::pow(10.0, std::floor(std::log10(v)));
        for (double step : {5.0, 2.0, 1.0}) {
            if (step * decade <= v)
                return step * decade;
        }
        return decade;
    };
    auto niceAbove = [](double v) {
        const double decade = std::pow(10.0, std::floor(std::log10(v)));
        for (double step : {1.0, 2.0, 5.0, 10.0}) {
            if (step * decade >= v)
                return step * decade;
        }
        return 10 * decade;
    };
    return {niceBelow(std::max(*lowest, 1e-3)), niceAbove(*highest), left, right};
}

QVector<double> ticksOf(const LogAxis &axis)
{
    QVector<double> ticks;
    for (double decade = std::pow(10.0, std::floor(std::log10(axis.low))); decade <= axis.high; decade *= 10) {
        for (double step : {1.0, 2.0, 5.0}) {
            const double tick = step * decade;
            if (tick >= axis.low * 0.999 && tick <= axis.high * 1.001)
                ticks.append(tick);
        }
    }
    return ticks;
}

QString tickLabel(double tick) { return formatNumber(tick) + u'x'; }

QString svgOpen(int width, int height, const QString &title)
{
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" width=\"%1\" "
                          "height=\"%2\" viewBox=\"0 0 %1 %2\" role=\"img\" aria-label=\"%3\">\n"
                          "<title>%3</title>\n<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n")
        .arg(width).arg(height).arg(xmlEscaped(title));
}

QString text(double x, double y, const QString &content, const QString &attributes = {}, int fontSize = 11)
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\" %3 font-size=\"%4\" %5>%6</text>\n")
        .arg(num(x), num(y), kFont, QString::number(fontSize), attributes, xmlEscaped(content));
}

QString line(double x1, double y1, double x2, double y2, const QString &stroke, const QString &extra = {})
{
    return QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\" stroke=\"%5\" %6/>\n")
        .arg(num(x1), num(y1), num(x2), num(y2), stroke, extra);
}

// A vertical reference line across the plot with its label above it.
QString marker(const LogAxis &axis, double value, double top, double bottom, const QString &colour,
               const QString &label, int labelRow)
{
    const double x = axis.x(value);
    return line(x, top, x, bottom, colour, QStringLiteral("stroke-width=\"1.5\" stroke-dasharray=\"5,3\""))
         + text(x, top - 4 - 12 * labelRow, label, QStringLiteral("text-anchor=\"middle\" fill=\"%1\"").arg(colour));
}

QString barColour(const SpeedupBar &bar)
{
    if (!bar.measured)
        return QStringLiteral("#c62828");
    if (bar.speedup >= 5)
        return QStringLiteral("#1b5e20");
    if (bar.speedup >= 2)
        return QStringLiteral("#43a047");
    if (bar.speedup >= 1)
        return QStringLiteral("#90caf9");
    return QStringLiteral("#ef9a9a");
}

QString boundColour(const QString &bound)
{
    if (bound == QLatin1String("memory"))
        return QStringLiteral("#1e88e5");
    if (bound == QLatin1String("compute"))
        return QStringLiteral("#fb8c00");
    if (bound == QLatin1String("latency"))
        return QStringLiteral("#43a047");
    if (bound == QLatin1String("launch"))
        return QStringLiteral("#8e24aa");
    return QStringLiteral("#757575");
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

Chart speedupChart(const SuiteReport &report)
{
    const QVector<SpeedupBar> &bars = report.bars;
    const int plotTop = kTopMargin, plotBottom = plotTop + std::max<int>(1, bars.size()) * kBarPitch;
    const int height = plotBottom + kAxisHeight;
    QVector<double> values{report.summary.geomean, report.summary.median};
    for (const SpeedupBar &bar : bars)
        values.append(bar.speedup);
    const LogAxis axis = logAxisFor(values, kLabelWidth, kChartWidth - kRightMargin);
    Chart chart{QStringLiteral("speedup"), QStringLiteral("Speedup per kernel (initial / best, log scale)"), {}, kChartWidth, height};
    QString svg = svgOpen(kChartWidth, height, chart.title);
    for (double tick : ticksOf(axis)) {
        svg += line(axis.x(tick), plotTop, axis.x(tick), plotBottom, QStringLiteral("#e0e0e0"));
        svg += text(axis.x(tick), plotBottom + 14, tickLabel(tick), QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    }
    svg += text((axis.left + axis.right) / 2, plotBottom + 28, QStringLiteral("speedup (log scale)"),
                QStringLiteral("text-anchor=\"middle\" fill=\"#424242\""));
    const double one = axis.x(1.0);
    for (int i = 0; i < bars.size(); ++i) {
        const SpeedupBar &bar = bars[i];
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
    svg += line(one, plotTop, one, plotBottom, QStringLiteral("#212121"), QStringLiteral("stroke-width=\"1.5\""));
    svg += text(one, plotTop - 4, QStringLiteral("1x"), QStringLiteral("text-anchor=\"middle\" fill=\"#212121\""));
    svg += marker(axis, 2.0, plotTop, plotBottom, QStringLiteral("#2e7d32"), QStringLiteral("2x"), 0);
    svg += marker(axis, 5.0, plotTop, plotBottom, QStringLiteral("#1b5e20"), QStringLiteral("5x"), 0);
    svg += marker(axis, report.summary.geomean, plotTop, plotBottom, QStringLiteral("#6a1b9a"),
                  QStringLiteral("geomean %1").arg(formatSpeedup(report.summary.geomean)), 2);
    svg += marker(axis, report.summary.median, plotTop, plotBottom, QStringLiteral("#e65100"),
                  QStringLiteral("median %1").arg(formatSpeedup(report.summary.median)), 1);
    chart.svg = svg + QStringLiteral("</svg>\n");
    return chart;
}

Chart rooflineChart(const SuiteReport &report)
{
    constexpr int width = 560, height = 380, left = 60, right = width - 130, top = 20, bottom = height - 44;
    QVector<double> speedups{1.0};
    for (const RooflinePoint &point : report.roofline)
        speedups.append(point.speedup);
    const LogAxis yAxis = logAxisFor(speedups, 0, 1);  // unit interval, mapped below
    auto y = [&](double v) { return bottom - yAxis.x(v) * (bottom - top); };
    auto x = [&](double pct) { return left + std::clamp(pct, 0.0, 100.0) / 100.0 * (right - left); };
    Chart chart{QStringLiteral("roofline"), QStringLiteral("Speedup vs % of roofline"), {}, width, height};
    QString svg = svgOpen(width, height, chart.title);
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

QVector<Chart> suiteCharts(const SuiteReport &report)
{
    return {speedupChart(report), rooflineChart(report)};
}

} // namespace strata::report
