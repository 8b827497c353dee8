#include "report/DataReport.h"

#include "diagnosis/ladder/Ladder.h"
#include "optimize/OutcomeJson.h"
#include "report/ReportText.h"

namespace strata::report {

QJsonObject suiteJson(const SuiteReport &report)
{
    return optimize::toJson(report.suite);
}

QJsonObject kernelJson(const KernelReport &report)
{
    return QJsonObject{
        {QStringLiteral("schema"), QString::fromLatin1(kKernelReportSchema)},
        {QStringLiteral("version"), kKernelReportVersion},
        {QStringLiteral("title"), report.title},
        {QStringLiteral("source_path"), report.sourcePath},
        {QStringLiteral("task"), report.task ? QJsonValue(optimize::toJson(*report.task)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("winning_diff"), report.winningDiff.toText()},
        {QStringLiteral("diagnosis"), report.diagnosis ? QJsonValue(diagnosis::toJson(*report.diagnosis)) : QJsonValue(QJsonValue::Null)},
    };
}

QString suiteCsv(const SuiteReport &report)
{
    return optimize::toCsv(report.suite);
}

QString kernelCsv(const KernelReport &report)
{
    auto number = [](std::optional<double> value) { return value ? QString::number(*value, 'g', 8) : QString(); };
    QString out = QStringLiteral("id,iteration,parent,provider,recipe,title,state,detail,median_ms,speedup_vs_parent,review,findings\n");
    if (!report.task)
        return out;
    for (const optimize::CandidateRecord &candidate : report.task->candidates) {
        const QStringList fields{QString::number(candidate.id), QString::number(candidate.iteration),
                                 QString::number(candidate.parentId), candidate.provider, candidate.recipeId, candidate.title,
                                 candidate.state, candidate.detail, number(candidate.medianMs),
                                 number(candidate.speedupVsParent), candidate.reviewState,
                                 candidate.findingRuleIds.join(u' ')};
        QStringList quoted;
        for (const QString &field : fields)
            quoted.append(csvField(field));
        out += quoted.join(u',') + u'\n';
    }
    return out;
}

} // namespace strata::report
