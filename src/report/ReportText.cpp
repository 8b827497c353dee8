#include "report/ReportText.h"

namespace strata::report {

using namespace strata::diagnosis;

QString formatNumber(double value) { return compactNumber(value); }

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

QString csvField(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n') && !text.contains(u'\r'))
        return text;
    QString quoted = text;
    quoted.replace(u'"', QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

QString statusText(const optimize::TaskOutcome &task)
{
    return task.partial ? task.status + QStringLiteral(" (partial)") : task.status;
}

QString mergedFromText(const optimize::SuiteOutcome &suite)
{
    QStringList runs;
    for (const QJsonValue &value : suite.mergedFrom) {
        const QJsonObject run = value.toObject();
        runs.append(QStringLiteral("%1 %2 (%3 tasks)").arg(run.value(QLatin1String("commit")).toString().left(7),
                                                           run.value(QLatin1String("date")).toString().left(10))
                        .arg(run.value(QLatin1String("tasks")).toInt()));
    }
    return runs.join(QLatin1String("; "));
}

} // namespace strata::report
