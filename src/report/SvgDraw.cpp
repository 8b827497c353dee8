#include "report/SvgDraw.h"

#include "report/ReportText.h"
#include "report/SvgCharts.h"

#include <algorithm>
#include <cmath>

namespace strata::report::svg {

namespace {
const QString kFont = QStringLiteral("font-family=\"DejaVu Sans, Arial, sans-serif\"");
}

QString num(double value) { return QString::number(value, 'f', 1); }

double LogAxis::x(double value) const
{
    const double t = (std::log10(std::clamp(value, low, high)) - std::log10(low)) / (std::log10(high) - std::log10(low));
    return left + t * (right - left);
}

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

QString open(int width, int height, const QString &title)
{
    return QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" width=\"%1\" "
                          "height=\"%2\" viewBox=\"0 0 %1 %2\" role=\"img\" aria-label=\"%3\">\n"
                          "<title>%3</title>\n<rect x=\"0\" y=\"0\" width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n")
        .arg(width).arg(height).arg(xmlEscaped(title));
}

QString text(double x, double y, const QString &content, const QString &attributes, int fontSize)
{
    return QStringLiteral("<text x=\"%1\" y=\"%2\" %3 font-size=\"%4\" %5>%6</text>\n")
        .arg(num(x), num(y), kFont, QString::number(fontSize), attributes, xmlEscaped(content));
}

QString line(double x1, double y1, double x2, double y2, const QString &stroke, const QString &extra)
{
    return QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\" stroke=\"%5\" %6/>\n")
        .arg(num(x1), num(y1), num(x2), num(y2), stroke, extra);
}

QString rect(double x, double y, double width, double height, const QString &fill, const QString &extra)
{
    return QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"%6/>\n")
        .arg(num(x), num(y), num(width), num(height), fill, extra.isEmpty() ? QString() : u' ' + extra);
}

QString marker(const LogAxis &axis, double value, double top, double bottom, const QString &colour,
               const QString &label, int labelRow)
{
    const double x = axis.x(value);
    return line(x, top, x, bottom, colour, QStringLiteral("stroke-width=\"1.5\" stroke-dasharray=\"5,3\""))
         + text(x, top - 4 - 12 * labelRow, label, QStringLiteral("text-anchor=\"middle\" fill=\"%1\"").arg(colour));
}

QString speedupMarkers(const LogAxis &axis, const SuiteSummary &summary, double top, double bottom)
{
    const double one = axis.x(1.0);
    QString svg = line(one, top, one, bottom, QStringLiteral("#212121"), QStringLiteral("stroke-width=\"1.5\""));
    svg += text(one, top - 4, QStringLiteral("1x"), QStringLiteral("text-anchor=\"middle\" fill=\"#212121\""));
    svg += marker(axis, 2.0, top, bottom, QStringLiteral("#2e7d32"), QStringLiteral("2x"), 0);
    svg += marker(axis, 5.0, top, bottom, QStringLiteral("#1b5e20"), QStringLiteral("5x"), 0);
    svg += marker(axis, summary.geomean, top, bottom, QStringLiteral("#6a1b9a"),
                  QStringLiteral("geomean %1").arg(formatSpeedup(summary.geomean)), 2);
    svg += marker(axis, summary.median, top, bottom, QStringLiteral("#e65100"),
                  QStringLiteral("median %1").arg(formatSpeedup(summary.median)), 1);
    return svg;
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

} // namespace strata::report::svg
