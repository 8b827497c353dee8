#include "optimize/OutcomeJson.h"

#include "optimize/RoundDiagnosisJson.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace strata::optimize {

namespace {

QJsonValue optionalNumber(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

QString csvField(const QString &text)
{
    if (!text.contains(u',') && !text.contains(u'"') && !text.contains(u'\n'))
        return text;
    QString quoted = text;
    quoted.replace(u'"', QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

QString csvNumber(const std::optional<double> &value)
{
    return value ? QString::number(*value, 'g', 6) : QString();
}

} // namespace

QJsonObject toJson(const CandidateRecord &candidate, bool withSource)
{
    QJsonObject json{{QStringLiteral("id"), candidate.id},
                     {QStringLiteral("parent"), candidate.parentId},
                     {QStringLiteral("iteration"), candidate.iteration},
                     {QStringLiteral("provider"), candidate.provider},
                     {QStringLiteral("recipe"), candidate.recipeId},
                     {QStringLiteral("title"), candidate.title},
                     {QStringLiteral("path"), candidate.taskPath},
                     {QStringLiteral("findings"), QJsonArray::fromStringList(candidate.findingRuleIds)},
                     {QStringLiteral("state"), candidate.state},
                     {QStringLiteral("detail"), candidate.detail},
                     {QStringLiteral("median_ms"), optionalNumber(candidate.medianMs)},
                     {QStringLiteral("speedup_vs_parent"), optionalNumber(candidate.speedupVsParent)},
                     {QStringLiteral("review"), candidate.reviewState}};
    if (withSource)
        json.insert(QStringLiteral("source"), candidate.sourceText);
    return json;
}

QJsonObject toJson(const TaskOutcome &task, bool withSources)
{
    QJsonArray candidates;
    for (const CandidateRecord &candidate : task.candidates)
        candidates.append(toJson(candidate, withSources));
    QJsonObject json{{QStringLiteral("task"), task.taskId},
            {QStringLiteral("path"), task.taskPath},
            {QStringLiteral("category"), task.category},
            {QStringLiteral("status"), task.status},
            {QStringLiteral("failure"), task.failure},
            {QStringLiteral("initial_ms"), optionalNumber(task.initialMs)},
            {QStringLiteral("best_ms"), optionalNumber(task.bestMs)},
            {QStringLiteral("eager_ms"), optionalNumber(task.eagerMs)},
            {QStringLiteral("compile_ms"), optionalNumber(task.compileMs)},
            {QStringLiteral("roofline_pct"), optionalNumber(task.rooflinePct)},
            {QStringLiteral("bound"), task.bound},
            {QStringLiteral("speedup"), optionalNumber(task.speedup())},
            {QStringLiteral("winning_recipes"), QJsonArray::fromStringList(task.winningRecipes)},
            {QStringLiteral("winning_findings"), QJsonArray::fromStringList(task.winningFindings)},
            {QStringLiteral("tokens"), task.tokens},
            {QStringLiteral("wall_s"), optionalNumber(task.wallSeconds)},
            {QStringLiteral("candidates"), candidates}};
    if (!task.agentSeconds.isEmpty()) {
        QJsonObject seconds;
        for (auto it = task.agentSeconds.begin(); it != task.agentSeconds.end(); ++it)
            seconds.insert(it.key(), std::round(it.value() * 1000) / 1000);
        json.insert(QStringLiteral("agent_s"), seconds);
    }
    if (!task.rounds.isEmpty())
        json.insert(QStringLiteral("rounds"), toJson(task.rounds));
    if (!task.measuredIn.isEmpty()) {
        json.insert(QStringLiteral("measured_in"), task.measuredIn);
        json.insert(QStringLiteral("partial"), task.partial);
    }
    return json;
}

QJsonObject toJson(const SuiteOutcome &suite, bool withSources)
{
    QJsonArray tasks;
    for (const TaskOutcome &task : suite.tasks)
        tasks.append(toJson(task, withSources));
    const QJsonObject summary{{QStringLiteral("tasks"), int(suite.tasks.size())},
                              {QStringLiteral("geomean_speedup"), suite.geomeanSpeedup()},
                              {QStringLiteral("median_speedup"), suite.medianSpeedup()},
                              {QStringLiteral("over_2x"), suite.countOver(2.0)},
                              {QStringLiteral("over_5x"), suite.countOver(5.0)},
                              {QStringLiteral("failures"), suite.failures()},
                              {QStringLiteral("geomean_vs_best_baseline"), suite.geomeanVsBestBaseline()}};
    QJsonObject json{{QStringLiteral("schema"), QString::fromLatin1(kResultsSchema)},
            {QStringLiteral("version"), kResultsVersion},
            {QStringLiteral("suite"), suite.suite},
            {QStringLiteral("device"), suite.device},
            {QStringLiteral("backend"), suite.backend},
            {QStringLiteral("target"), suite.target},
            {QStringLiteral("driver"), suite.driver},
            {QStringLiteral("triton"), suite.triton},
            {QStringLiteral("torch"), suite.torch},
            {QStringLiteral("commit"), suite.commit},
            {QStringLiteral("date"), suite.date.toUTC().toString(Qt::ISODate)},
            {QStringLiteral("coverage"), coverageName(suite.coverage)},
            {QStringLiteral("summary"), summary},
            {QStringLiteral("tasks"), tasks}};
    if (!suite.mergedFrom.isEmpty())
        json.insert(QStringLiteral("merged_from"), suite.mergedFrom);
    return json;
}

QString csvHeader()
{
    return QStringLiteral("task,category,status,initial_ms,best_ms,speedup,eager_ms,compile_ms,"
                          "speedup_vs_eager,speedup_vs_compile,roofline_pct,bound,winning_recipes,failure\n");
}

QString csvRow(const TaskOutcome &task)
{
    const QStringList row{csvField(task.taskId), csvField(task.category), csvField(task.status),
                          csvNumber(task.initialMs), csvNumber(task.bestMs), csvNumber(task.speedup()),
                          csvNumber(task.eagerMs), csvNumber(task.compileMs), csvNumber(task.speedupVsEager()),
                          csvNumber(task.speedupVsCompile()), csvNumber(task.rooflinePct), csvField(task.bound),
                          csvField(task.winningRecipes.join(u';')), csvField(task.failure)};
    return row.join(u',') + u'\n';
}

QString toCsv(const SuiteOutcome &suite)
{
    QString csv = csvHeader();
    for (const TaskOutcome &task : suite.tasks)
        csv += csvRow(task);
    return csv;
}

} // namespace strata::optimize
