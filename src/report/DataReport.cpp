#include "report/DataReport.h"

#include "diagnosis/ladder/Ladder.h"
#include "optimize/OutcomeJson.h"
#include "report/ReportText.h"

#include <QJsonDocument>

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
        {QStringLiteral("backend"), report.backend},
        {QStringLiteral("target"), report.target},
        {QStringLiteral("task"), report.task ? QJsonValue(optimize::toJson(*report.task)) : QJsonValue(QJsonValue::Null)},
        {QStringLiteral("winning_diff"), report.winningDiff.toText()},
        {QStringLiteral("diagnosis"), report.diagnosis ? QJsonValue(diagnosis::toJson(*report.diagnosis)) : QJsonValue(QJsonValue::Null)},
    };
}

namespace {

QJsonObject summaryJson(const SuiteSummary &summary)
{
    return {{QStringLiteral("tasks"), summary.tasks},
            {QStringLiteral("geomean_speedup"), summary.geomean},
            {QStringLiteral("median_speedup"), summary.median},
            {QStringLiteral("over_2x"), summary.over2x},
            {QStringLiteral("over_5x"), summary.over5x},
            {QStringLiteral("failures"), summary.failures},
            {QStringLiteral("geomean_vs_best_baseline"), summary.geomeanVsBestBaseline}};
}

// `text` with every line but the first indented by `spaces`.
QString indentedAfterFirst(QString text, int spaces)
{
    return text.replace(u'\n', u'\n' + QString(spaces, u' '));
}

} // namespace

std::optional<ReadError> writeSuiteJson(const SuiteReport &report, TextSink &out)
{
    // The header is laid out by QJsonDocument with a stand-in for the tasks, which are then
    // written in its place one by one, each laid out the same way.
    static const QString standIn = QStringLiteral("strata-report-tasks-stand-in");
    optimize::SuiteOutcome header = report.suite;
    header.tasks.clear();
    QJsonObject json = optimize::toJson(header);
    json.insert(QStringLiteral("summary"), summaryJson(report.summary));
    json.insert(QStringLiteral("tasks"), standIn);
    const QString text = QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
    const QString marker = QStringLiteral("\"tasks\": \"%1\"").arg(standIn);
    const qsizetype at = text.indexOf(marker);
    out << QStringView(text).left(at) << QStringLiteral("\"tasks\": [");
    bool first = true;
    std::optional<ReadError> error = report.forEachTask([&](const optimize::TaskOutcome &task) {
        QString task_text = QString::fromUtf8(QJsonDocument(optimize::toJson(task)).toJson(QJsonDocument::Indented));
        task_text.chop(1);  // its final line break
        out << (first ? QStringLiteral("\n        ") : QStringLiteral(",\n        ")) << indentedAfterFirst(std::move(task_text), 8);
        first = false;
    });
    if (error)
        return error;
    out << (first ? QStringLiteral("\n    ]") : QStringLiteral("\n    ]")) << QStringView(text).mid(at + marker.size());
    return std::nullopt;
}

std::optional<ReadError> writeSuiteCsv(const SuiteReport &report, TextSink &out)
{
    out << optimize::csvHeader();
    return report.forEachTask([&](const optimize::TaskOutcome &task) { out << optimize::csvRow(task); });
}

QString suiteCsv(const SuiteReport &report)
{
    StringSink sink;
    writeSuiteCsv(report, sink);
    return sink.take();
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
