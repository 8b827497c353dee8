#include "report/LadderJson.h"

#include "diagnosis/model/DiagnosisJson.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace strata::report {

using namespace strata::diagnosis;

namespace {

ReadError errorAt(const QString &origin, const QString &message)
{
    return ReadError{origin, 0, 0, message};
}

// The finding a ranking entry names: same rule, level and line (the title breaks ties).
const Finding *rankedFinding(const QVector<Finding> &findings, const QJsonObject &entry, QVector<bool> &used)
{
    for (int i = 0; i < findings.size(); ++i) {
        const Finding &finding = findings[i];
        if (used[i] || finding.ruleId != entry.value(QStringLiteral("rule")).toString()
            || levelName(finding.level) != entry.value(QStringLiteral("level")).toString()
            || finding.span.line != entry.value(QStringLiteral("line")).toInt())
            continue;
        if (entry.contains(QStringLiteral("title")) && entry.value(QStringLiteral("title")).toString() != finding.title)
            continue;
        used[i] = true;
        return &finding;
    }
    return nullptr;
}

} // namespace

Expected<LadderResult> ladderResultFromJson(const QJsonObject &json, const QString &origin)
{
    Expected<Diagnosis> diagnosis = diagnosisFromJson(json, origin);
    if (!diagnosis)
        return diagnosis.error();
    LadderResult result;
    result.diagnosis = std::move(*diagnosis);
    const QVector<Finding> findings = result.diagnosis.allFindings();
    if (!json.contains(QStringLiteral("ranking"))) {
        for (const Finding &finding : findings)
            result.ranking.append({finding, QStringLiteral("not ranked")});
        std::stable_sort(result.ranking.begin(), result.ranking.end(), [](const RankedFinding &a, const RankedFinding &b) {
            return a.finding.severity > b.finding.severity;
        });
        result.rankingBasis = QStringLiteral("not ranked: the diagnosis has no ranking; most severe first");
        return result;
    }
    if (!json.value(QStringLiteral("ranking")).isArray())
        return errorAt(origin, QStringLiteral("ranking is not an array"));
    const QJsonArray ranking = json.value(QStringLiteral("ranking")).toArray();
    QVector<bool> used(findings.size(), false);
    for (int i = 0; i < ranking.size(); ++i) {
        const QJsonObject entry = ranking[i].toObject();
        const Finding *finding = rankedFinding(findings, entry, used);
        if (!finding)
            return errorAt(origin, QStringLiteral("ranking[%1]: no finding %2 (%3) on line %4 in the diagnosis")
                                       .arg(i).arg(entry.value(QStringLiteral("rule")).toString(),
                                                   entry.value(QStringLiteral("level")).toString())
                                       .arg(entry.value(QStringLiteral("line")).toInt()));
        result.ranking.append({*finding, entry.value(QStringLiteral("status")).toString()});
    }
    result.rankingIsEstimate = json.value(QStringLiteral("ranking_estimate")).toBool(true);
    result.rankingBasis = json.value(QStringLiteral("ranking_basis")).toString();
    return result;
}

Expected<LadderResult> readLadderResultFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return errorAt(path, QStringLiteral("cannot read the diagnosis: %1").arg(file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return errorAt(path, QStringLiteral("not a JSON object: %1").arg(parseError.errorString()));
    return ladderResultFromJson(document.object(), path);
}

} // namespace strata::report
