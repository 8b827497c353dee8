// Reading results JSON with its schema checked: each field's type, positive times, a known
// status. The first problem wins and names its JSON path.
#include "optimize/OutcomeJson.h"

#include "optimize/RoundDiagnosisJson.h"

#include <QJsonArray>

#include <cmath>

namespace strata::optimize {

namespace {

const QStringList kStatuses{QStringLiteral("improved"), QStringLiteral("no_gain"), QStringLiteral("failed"),
                            QStringLiteral("interrupted"), QStringLiteral("running"), QStringLiteral("pending")};

class FieldReader {
public:
    FieldReader(const QJsonObject &object, QString path, JsonProblem *problem)
        : m_object(object), m_path(std::move(path)), m_problem(problem) {}

    QString text(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isNull() && !value.isString())
            complain(key, QStringLiteral("is not a string"));
        return value.toString();
    }
    std::optional<double> number(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return std::nullopt;
        if (!value.isDouble() || !std::isfinite(value.toDouble())) {
            complain(key, QStringLiteral("is not a number"));
            return std::nullopt;
        }
        return value.toDouble();
    }
    // A measured time or ratio. Zero or negative ones would show as "infx" or as a negative
    // speedup, so they are refused rather than reported.
    std::optional<double> positive(const char *key, const char *what) const
    {
        const std::optional<double> value = number(key);
        if (value && *value <= 0)
            complain(key, QStringLiteral("is %1: %2 must be positive").arg(*value).arg(QLatin1String(what)));
        return value;
    }
    std::optional<double> nonNegative(const char *key, const char *what) const
    {
        const std::optional<double> value = number(key);
        if (value && *value < 0)
            complain(key, QStringLiteral("is %1: %2 cannot be negative").arg(*value).arg(QLatin1String(what)));
        return value;
    }
    std::optional<double> share(const char *key) const { return nonNegative(key, "a share of the roofline"); }
    QStringList strings(const char *key) const
    {
        QStringList list;
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined() || value.isNull())
            return list;
        if (!value.isArray()) {
            complain(key, QStringLiteral("is not an array of strings"));
            return list;
        }
        for (const QJsonValue &item : value.toArray()) {
            if (!item.isString())
                complain(key, QStringLiteral("is not an array of strings"));
            list.append(item.toString());
        }
        return list;
    }
    QJsonArray array(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isNull() && !value.isArray())
            complain(key, QStringLiteral("is not an array"));
        return value.toArray();
    }
    QJsonObject object(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isNull() && !value.isObject())
            complain(key, QStringLiteral("is not an object"));
        return value.toObject();
    }
    void complain(const char *key, const QString &problem) const
    {
        if (m_problem->isEmpty())
            *m_problem = {m_path + u'.' + QLatin1String(key), problem};
    }

private:
    QJsonObject m_object;
    QString m_path;
    JsonProblem *m_problem;
};

CandidateRecord candidateFromJson(const QJsonObject &json, const QString &path, JsonProblem *problem)
{
    const FieldReader read(json, path, problem);
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
    candidate.medianMs = read.positive("median_ms", "a time");
    candidate.speedupVsParent = read.positive("speedup_vs_parent", "a speedup");
    candidate.reviewState = read.text("review");
    return candidate;
}

} // namespace

TaskOutcome taskFromJson(const QJsonObject &json, const QString &path, JsonProblem *problem)
{
    const FieldReader read(json, path, problem);
    TaskOutcome task;
    task.taskId = read.text("task");
    if (task.taskId.isEmpty())
        read.complain("task", QStringLiteral("is missing"));
    task.taskPath = read.text("path");
    task.category = read.text("category");
    task.status = read.text("status");
    if (!kStatuses.contains(task.status))
        read.complain("status", task.status.isEmpty() ? QStringLiteral("is missing")
                                                      : QStringLiteral("is \"%1\", not one of %2")
                                                            .arg(task.status, kStatuses.join(QStringLiteral(", "))));
    task.failure = read.text("failure");
    task.initialMs = read.positive("initial_ms", "a time");
    task.bestMs = read.positive("best_ms", "a time");
    task.eagerMs = read.positive("eager_ms", "a time");
    task.compileMs = read.positive("compile_ms", "a time");
    task.rooflinePct = read.share("roofline_pct");
    task.bound = read.text("bound");
    task.winningRecipes = read.strings("winning_recipes");
    task.winningFindings = read.strings("winning_findings");
    task.tokens = json.value(QLatin1String("tokens")).toInteger(0);
    task.wallSeconds = read.nonNegative("wall_s", "a wall time");  // an instant stop is 0 s
    const QJsonObject agentSeconds = json.value(QLatin1String("agent_s")).toObject();
    for (auto it = agentSeconds.begin(); it != agentSeconds.end(); ++it)
        if (it.value().isDouble())
            task.agentSeconds.insert(it.key(), it.value().toDouble());
    task.measuredIn = read.object("measured_in");
    task.partial = json.value(QLatin1String("partial")).toBool();
    QString roundsError;
    task.rounds = roundsFromJson(json.value(QLatin1String("rounds")), path + QStringLiteral(".rounds"), &roundsError);
    if (!roundsError.isEmpty() && problem->isEmpty()) {
        const qsizetype space = roundsError.indexOf(u' ');
        *problem = {roundsError.left(space), roundsError.mid(space + 1)};
    }
    const QJsonArray candidates = read.array("candidates");
    for (qsizetype i = 0; i < candidates.size(); ++i) {
        const QString candidatePath = QStringLiteral("%1.candidates[%2]").arg(path).arg(i);
        if (!candidates[i].isObject() && problem->isEmpty())
            *problem = {candidatePath, QStringLiteral("is not an object")};
        task.candidates.append(candidateFromJson(candidates[i].toObject(), candidatePath, problem));
    }
    return task;
}

Expected<SuiteOutcome> suiteHeaderFromJson(const QJsonObject &json, const QString &origin, JsonProblem *problem)
{
    if (json.value(QStringLiteral("schema")).toString() != QLatin1String(kResultsSchema))
        return ReadError{origin, 0, 0, QStringLiteral("not a Strata bench results file (schema is not \"strata.bench\")")};
    const int version = json.value(QStringLiteral("version")).toInt();
    if (version > kResultsVersion)
        return ReadError{origin, 0, 0, QStringLiteral("bench results version %1 is newer than this Strata reads (%2)")
                                           .arg(version).arg(kResultsVersion)};
    const FieldReader read(json, QStringLiteral("results"), problem);
    SuiteOutcome suite;
    suite.suite = read.text("suite");
    suite.device = read.text("device");
    suite.backend = read.text("backend");
    suite.target = read.text("target");
    suite.driver = read.text("driver");
    suite.triton = read.text("triton");
    suite.torch = read.text("torch");
    suite.commit = read.text("commit");
    suite.date = QDateTime::fromString(read.text("date"), Qt::ISODate);
    suite.mergedFrom = read.array("merged_from");
    if (json.contains(QLatin1String("coverage"))) {
        const QString name = read.text("coverage");
        const std::optional<Coverage> coverage = coverageFromName(name);
        if (!coverage)
            read.complain("coverage", QStringLiteral("is \"%1\", not one of whole, part, merged").arg(name));
        suite.coverage = coverage.value_or(Coverage::Unknown);
    } else if (!suite.mergedFrom.isEmpty()) {
        suite.coverage = Coverage::Merged;  // merged before the field existed
    }
    return suite;
}

Expected<SuiteOutcome> suiteOutcomeFromJson(const QJsonObject &json, const QString &origin)
{
    JsonProblem problem;
    Expected<SuiteOutcome> suite = suiteHeaderFromJson(json, origin, &problem);
    if (!suite)
        return suite;
    const QJsonValue tasks = json.value(QLatin1String("tasks"));
    if (!tasks.isArray() && problem.isEmpty())
        problem = {QStringLiteral("results.tasks"), tasks.isUndefined() ? QStringLiteral("is missing: a results file lists its tasks")
                                                                        : QStringLiteral("is not an array")};
    const QJsonArray array = tasks.toArray();
    for (qsizetype i = 0; i < array.size() && problem.isEmpty(); ++i) {
        const QString path = QStringLiteral("tasks[%1]").arg(i);
        if (!array[i].isObject())
            problem = {path, QStringLiteral("is not an object")};
        suite->tasks.append(taskFromJson(array[i].toObject(), path, &problem));
    }
    if (!problem.isEmpty())
        return ReadError{origin, 0, 0, problem.text()};
    return suite;
}

Expected<TaskOutcome> taskOutcomeFromJson(const QJsonObject &json, const QString &origin)
{
    JsonProblem problem;
    TaskOutcome task = taskFromJson(json, QStringLiteral("task"), &problem);
    if (!problem.isEmpty())
        return ReadError{origin, 0, 0, problem.text()};
    return task;
}

} // namespace strata::optimize
