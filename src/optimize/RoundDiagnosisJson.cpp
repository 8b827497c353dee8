#include "optimize/RoundDiagnosisJson.h"

namespace strata::optimize {

namespace {

QJsonObject toJson(const RoundFinding &finding)
{
    QJsonObject json{{QStringLiteral("rule"), finding.ruleId},
                     {QStringLiteral("title"), finding.title},
                     {QStringLiteral("severity"), finding.severity},
                     {QStringLiteral("line"), finding.line},
                     {QStringLiteral("status"), finding.status}};
    if (finding.share) {
        json.insert(QStringLiteral("share"), *finding.share);
        json.insert(QStringLiteral("share_measured"), finding.shareMeasured);
    }
    return json;
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list.append(item.toString());
    return list;
}

void setError(QString *error, const QString &message)
{
    if (error->isEmpty())
        *error = message;
}

RoundFinding findingFromJson(const QJsonObject &json, const QString &path, QString *error)
{
    RoundFinding finding;
    finding.ruleId = json.value(QLatin1String("rule")).toString();
    finding.title = json.value(QLatin1String("title")).toString();
    finding.severity = json.value(QLatin1String("severity")).toString();
    finding.line = json.value(QLatin1String("line")).toInt();
    finding.status = json.value(QLatin1String("status")).toString();
    const QJsonValue share = json.value(QLatin1String("share"));
    if (share.isDouble()) {
        if (share.toDouble() < 0 || share.toDouble() > 1)
            setError(error, path + QStringLiteral(".share: %1 is not a fraction in 0..1").arg(share.toDouble()));
        finding.share = share.toDouble();
        finding.shareMeasured = json.value(QLatin1String("share_measured")).toBool();
    } else if (!share.isUndefined() && !share.isNull()) {
        setError(error, path + QStringLiteral(".share is not a number"));
    }
    if (finding.ruleId.isEmpty())
        setError(error, path + QStringLiteral(".rule is missing"));
    return finding;
}

} // namespace

QJsonObject toJson(const RoundDiagnosis &round)
{
    QJsonArray findings;
    for (const RoundFinding &finding : round.findings)
        findings.append(toJson(finding));
    return {{QStringLiteral("iteration"), round.iteration},
            {QStringLiteral("candidate"), round.candidateId},
            {QStringLiteral("kernel"), round.kernel},
            {QStringLiteral("measured"), QJsonArray::fromStringList(round.measured)},
            {QStringLiteral("ranking_is_estimate"), round.rankingIsEstimate},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(round.warnings)},
            {QStringLiteral("escalation"), QJsonArray::fromStringList(round.escalation)},
            {QStringLiteral("findings"), findings}};
}

QJsonArray toJson(const QVector<RoundDiagnosis> &rounds)
{
    QJsonArray array;
    for (const RoundDiagnosis &round : rounds)
        array.append(toJson(round));
    return array;
}

QVector<RoundDiagnosis> roundsFromJson(const QJsonValue &value, const QString &path, QString *error)
{
    QVector<RoundDiagnosis> rounds;
    if (value.isUndefined() || value.isNull())
        return rounds;  // files from before rounds were recorded
    if (!value.isArray()) {
        setError(error, path + QStringLiteral(" is not an array"));
        return rounds;
    }
    const QJsonArray array = value.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(path).arg(i);
        const QJsonObject json = array[i].toObject();
        RoundDiagnosis round;
        round.iteration = json.value(QLatin1String("iteration")).toInt();
        round.candidateId = json.value(QLatin1String("candidate")).toInteger();
        round.kernel = json.value(QLatin1String("kernel")).toString();
        round.measured = strings(json.value(QLatin1String("measured")));
        round.rankingIsEstimate = json.value(QLatin1String("ranking_is_estimate")).toBool(true);
        round.warnings = strings(json.value(QLatin1String("warnings")));
        round.escalation = strings(json.value(QLatin1String("escalation")));
        const QJsonArray findings = json.value(QLatin1String("findings")).toArray();
        for (qsizetype f = 0; f < findings.size(); ++f)
            round.findings.append(findingFromJson(findings[f].toObject(), QStringLiteral("%1.findings[%2]").arg(at).arg(f), error));
        if (round.iteration < 1)
            setError(error, at + QStringLiteral(".iteration must be 1 or more"));
        rounds.append(round);
    }
    return rounds;
}

} // namespace strata::optimize
