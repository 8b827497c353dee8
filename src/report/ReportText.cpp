#include "report/ReportText.h"

#include <QFileInfo>
#include <cmath>

namespace strata::report {

using namespace strata::diagnosis;

QString formatNumber(double value)
{
    if (std::isfinite(value) && value == std::round(value) && std::abs(value) < 1e15)
        return QString::number(qint64(value));
    return QString::number(value, 'g', 4);
}

QString formatMs(std::optional<double> ms)
{
    return ms ? QString::number(*ms, 'g', 4) + QStringLiteral(" ms") : QStringLiteral("-");
}

QString formatSpeedup(std::optional<double> factor)
{
    return factor ? QString::number(*factor, 'f', 2) + u'x' : QStringLiteral("-");
}

QString formatPercent(std::optional<double> percent)
{
    return percent ? QString::number(*percent, 'f', 1) + u'%' : QStringLiteral("-");
}

QString spanText(const SourceSpan &span)
{
    if (!span.isValid())
        return {};
    return QStringLiteral("%1:%2").arg(QFileInfo(span.file).fileName()).arg(span.line);
}

bool isExaminesNote(const Evidence &evidence)
{
    return std::holds_alternative<SpanEvidence>(evidence.data) && evidence.note.startsWith(QLatin1String("examines "));
}

QString evidenceText(const Evidence &evidence)
{
    QString text = std::visit([](const auto &item) -> QString {
        using T = std::decay_t<decltype(item)>;
        if constexpr (std::is_same_v<T, SpanEvidence>)
            return spanText(item.span);
        else if constexpr (std::is_same_v<T, MetricEvidence>)
            return QStringLiteral("%1 = %2%3").arg(item.name, formatNumber(item.value),
                                                   item.unit.isEmpty() ? QString() : u' ' + item.unit);
        else if constexpr (std::is_same_v<T, IrOpEvidence>)
            return QStringLiteral("%1:%2  %3").arg(item.stage).arg(item.irLine + 1).arg(item.text);
        else if constexpr (std::is_same_v<T, PassEvidence>)
            return QStringLiteral("%1 (%2)").arg(item.name.isEmpty() ? QStringLiteral("?") : item.name, item.argument);
        else if constexpr (std::is_same_v<T, RemarkEvidence>)
            return QStringLiteral("%1 (%2): %3").arg(spanText(item.span), item.severity, item.message);
        else
            return QStringLiteral("\"%1\": %2 -> %3").arg(item.change, item.factBefore, item.factAfter);
    }, evidence.data);
    if (!evidence.note.isEmpty())
        text += QStringLiteral("  [%1]").arg(evidence.note);
    return text;
}

QString csvField(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n') && !text.contains(u'\r'))
        return text;
    QString quoted = text;
    quoted.replace(u'"', QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

} // namespace strata::report
