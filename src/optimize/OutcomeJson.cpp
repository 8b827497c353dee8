#include "optimize/OutcomeJson.h"

#include "optimize/RoundDiagnosisJson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace strata::optimize {

namespace {

const QString kSchema = QStringLiteral("strata.bench");
constexpr int kVersion = 1;

QJsonValue optionalNumber(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue(QJsonValue::Null);
}

// Reads fields one by one and remembers the first problem, naming the JSON path.
class FieldReader {
public:
    FieldReader(const QJsonObject &object, QString path, QString *error)
        : m_object(object), m_path(std::move(path)), m_error(error) {}

    QString text(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isNull() && !value.isString())
            complain(key, "is not a string");
        return value.toString();
    }
    std::optional<double> number(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return std::nullopt;
        if (!value.isDouble()) {
            complain(key, "is not a number");
            return std::nullopt;
        }
        return value.toDouble();
    }
    QStringList strings(const char *key) const
    {
        QStringList list;
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return list;
        if (!value.isArray()) {
            complain(key, "is not an array of strings");
            return list;
        }
        for (const QJsonValue &item : value.toArray())
            list.append(item.toString());
        return list;
    }
    QJsonArray array(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isNull() && !value.isArray())
            complain(key, "is not an array");
        return value.toArray();
    }

private:
    void complain(const char *key, const char *problem) const
    {
        if (m_error->isEmpty())
            *m_error = QStringLiteral("%1.%2 %3").arg(m_path, QLatin1String(key), QLatin1String(problem));
    }
    QJsonObject m_object;
    QString m_path;
    QString *m_error;
};

CandidateRecord candidateFromJson(const QJsonObject &json, const QString &path, QString *error)
{
    const FieldReader read(json, path, error);
    CandidateRecord candidate;
    candidate.id = qint64(read.number("id").value_or(0));
    candidate.parentId = qint64(read.number("parent").value_or(0));
    candidate.iteration = int(read.number("iteration").value_or(0));
    candidate.provider = read.text("provider");
    candidate.recipeId = read.text("recipe");
    candidate.title = read.text("title");
    candidate.taskPath = read.text("path");
    candidate.sourceText = read.text("source");
    candidate.findingRuleIds = read.strings("findings");
    candidate.state = read.text("state");
    candidate.detail = read.text("detail");
    candidate.medianMs = read.number("median_ms");
    candidate.speedupVsParent = read.number("speedup_vs_parent");
    candidate.reviewState = read.text("review");
    return candidate;
}

TaskOutcome taskFromJson(const QJsonObject &json, const QString &path, QString *error)
{
    const FieldReader read(json, path, error);
    TaskOutcome task;
    task.taskId = read.text("task");
    task.taskPath = read.text("path");
    task.category = read.text("category");
    task.status = read.text("status");
    task.failure = read.text("failure");
    task.initialMs = read.number("initial_ms");
    task.bestMs = read.number("best_ms");
    task.eagerMs = read.number("eager_ms");
    task.compileMs = read.number("compile_ms");
    task.rooflinePct = read.number("roofline_pct");
    task.bound = read.text("bound");
    task.winningRecipes = read.strings("winning_recipes");
    task.winningFindings = read.strings("winning_findings");
    task.measuredIn = json.value(QLatin1String("measured_in")).toObject();
    task.partial = json.value(QLatin1String("partial")).toBool();
    task.rounds = roundsFromJson(json.value(QLatin1String("rounds")), path + QStringLiteral(".rounds"), error);
    const QJsonArray candidates = read.array("candidates");
    for (qsizetype i = 0; i < candidates.size(); ++i)
        task.candidates.append(candidateFromJson(candidates[i].toObject(),
                                                 QStringLiteral("%1.candidates[%2]").arg(path).arg(i), error));
    if (task.taskId.isEmpty() && error->isEmpty())
        *error = path + QStringLiteral(".task is missing");
    return task;
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
            {QStringLiteral("candidates"), candidates}};
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
    QJsonObject json{{QStringLiteral("schema"), kSchema},
            {QStringLiteral("version"), kVersion},
            {QStringLiteral("suite"), suite.suite},
            {QStringLiteral("device"), suite.device},
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

Expected<SuiteOutcome> suiteOutcomeFromJson(const QJsonObject &json, const QString &origin)
{
    if (json.value(QStringLiteral("schema")).toString() != kSchema)
        return ReadError{origin, 0, 0, QStringLiteral("not a Strata bench results file (schema is not \"strata.bench\")")};
    const int version = json.value(QStringLiteral("version")).toInt();
    if (version > kVersion)
        return ReadError{origin, 0, 0,
                         QStringLiteral("bench results version %1 is newer than this Strata reads (%2)").arg(version).arg(kVersion)};
    QString error;
    const FieldReader read(json, QStringLiteral("results"), &error);
    SuiteOutcome suite;
    suite.suite = read.text("suite");
    suite.device = read.text("device");
    suite.driver = read.text("driver");
    suite.triton = read.text("triton");
    suite.torch = read.text("torch");
    suite.commit = read.text("commit");
    suite.date = QDateTime::fromString(read.text("date"), Qt::ISODate);
    suite.mergedFrom = json.value(QLatin1String("merged_from")).toArray();
    if (json.contains(QLatin1String("coverage"))) {
        const QString name = json.value(QLatin1String("coverage")).toString();
        const std::optional<Coverage> coverage = coverageFromName(name);
        if (!coverage)
            return ReadError{origin, 0, 0, QStringLiteral("results.coverage: \"%1\" is not one of whole, part, merged").arg(name)};
        suite.coverage = *coverage;
    } else if (!suite.mergedFrom.isEmpty()) {
        suite.coverage = Coverage::Merged;  // merged before the field existed
    }
    const QJsonArray tasks = read.array("tasks");
    for (qsizetype i = 0; i < tasks.size(); ++i)
        suite.tasks.append(taskFromJson(tasks[i].toObject(), QStringLiteral("tasks[%1]").arg(i), &error));
    if (!error.isEmpty())
        return ReadError{origin, 0, 0, error};
    return suite;
}

Expected<SuiteOutcome> readSuiteOutcomeFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot open: ") + file.errorString()};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return ReadError{path, 0, 0, QStringLiteral("not a JSON object (%1 at byte %2)")
                                         .arg(parseError.errorString()).arg(parseError.offset)};
    return suiteOutcomeFromJson(document.object(), path);
}

Expected<TaskOutcome> taskOutcomeFromJson(const QJsonObject &json, const QString &origin)
{
    QString error;
    TaskOutcome task = taskFromJson(json, QStringLiteral("task"), &error);
    if (!error.isEmpty())
        return ReadError{origin, 0, 0, error};
    return task;
}

QString toCsv(const SuiteOutcome &suite)
{
    QString csv = QStringLiteral("task,category,status,initial_ms,best_ms,speedup,eager_ms,compile_ms,"
                                 "speedup_vs_eager,speedup_vs_compile,roofline_pct,bound,winning_recipes,failure\n");
    for (const TaskOutcome &task : suite.tasks) {
        const QStringList row{csvField(task.taskId), csvField(task.category), csvField(task.status),
                              csvNumber(task.initialMs), csvNumber(task.bestMs), csvNumber(task.speedup()),
                              csvNumber(task.eagerMs), csvNumber(task.compileMs), csvNumber(task.speedupVsEager()),
                              csvNumber(task.speedupVsCompile()), csvNumber(task.rooflinePct), csvField(task.bound),
                              csvField(task.winningRecipes.join(u';')), csvField(task.failure)};
        csv += row.join(u',') + u'\n';
    }
    return csv;
}

} // namespace strata::optimize
