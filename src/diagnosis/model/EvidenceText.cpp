#include "diagnosis/model/EvidenceText.h"

#include <QFileInfo>
#include <cmath>

namespace strata::diagnosis {

QString compactNumber(double value)
{
    if (std::isfinite(value) && value == std::round(value) && std::abs(value) < 1e15)
        return QString::number(qint64(value));
    return QString::number(value, 'g', 4);
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
            return QStringLiteral("%1 = %2%3").arg(item.name, compactNumber(item.value),
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

} // namespace strata::diagnosis
