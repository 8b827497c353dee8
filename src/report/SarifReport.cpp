#include "report/SarifReport.h"

#include "diagnosis/model/DiagnosisJson.h"
#include "report/ReportText.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QUrl>

namespace strata::report {

using namespace strata::diagnosis;

namespace {

const QString kSchema = QStringLiteral("https://json.schemastore.org/sarif-2.1.0.json");

QJsonObject artifactLocation(const QString &file, const SarifOptions &options)
{
    const QString root = options.sourceRoot.isEmpty() ? QString() : QDir(options.sourceRoot).absolutePath();
    if (!root.isEmpty() && QFileInfo(file).isAbsolute() && QDir::cleanPath(file).startsWith(root + u'/'))
        return {{QStringLiteral("uri"), QDir(root).relativeFilePath(file)}, {QStringLiteral("uriBaseId"), QStringLiteral("SRCROOT")}};
    if (QFileInfo(file).isAbsolute())
        return {{QStringLiteral("uri"), QUrl::fromLocalFile(file).toString(QUrl::FullyEncoded)}};
    return {{QStringLiteral("uri"), QString::fromLatin1(QUrl::toPercentEncoding(file, "/"))}};
}

QJsonObject region(const SourceSpan &span)
{
    QJsonObject region{{QStringLiteral("startLine"), span.line}};
    if (span.column > 0)
        region.insert(QStringLiteral("startColumn"), span.column);
    if (span.endLine >= span.line)
        region.insert(QStringLiteral("endLine"), span.endLine);
    if (span.endColumn > 0 && span.endLine >= span.line)
        region.insert(QStringLiteral("endColumn"), span.endColumn);
    return region;
}

QJsonObject rule(const Finding &finding)
{
    QJsonObject rule{{QStringLiteral("id"), finding.ruleId},
                     {QStringLiteral("name"), finding.ruleId.section(u'.', 1)},
                     {QStringLiteral("shortDescription"), QJsonObject{{QStringLiteral("text"), finding.title}}},
                     {QStringLiteral("defaultConfiguration"), QJsonObject{{QStringLiteral("level"), sarifLevel(finding.severity)}}},
                     {QStringLiteral("properties"), QJsonObject{{QStringLiteral("diagnosisLevel"), levelName(finding.level)}}}};
    if (!finding.recipes.isEmpty())
        rule.insert(QStringLiteral("help"), QJsonObject{{QStringLiteral("text"), QStringLiteral("Recipes: ") + finding.recipes.join(QStringLiteral(", "))}});
    return rule;
}

QJsonObject result(const RankedFinding &ranked, int rank, int ruleIndex, const QString &fallbackFile, const SarifOptions &options)
{
    const Finding &finding = ranked.finding;
    QJsonArray evidence;
    for (const Evidence &item : finding.evidence)
        evidence.append(item.kindName() + QStringLiteral(": ") + evidenceText(item));
    QJsonObject result{{QStringLiteral("ruleId"), finding.ruleId},
                       {QStringLiteral("ruleIndex"), ruleIndex},
                       {QStringLiteral("level"), sarifLevel(finding.severity)},
                       {QStringLiteral("message"), QJsonObject{{QStringLiteral("text"), finding.cause.isEmpty() ? finding.title : finding.cause}}},
                       {QStringLiteral("properties"), QJsonObject{{QStringLiteral("rank"), rank},
                                                                  {QStringLiteral("status"), ranked.status},
                                                                  {QStringLiteral("title"), finding.title},
                                                                  {QStringLiteral("confidence"), finding.confidence},
                                                                  {QStringLiteral("evidence"), evidence}}}};
    const QString file = finding.span.file.isEmpty() ? fallbackFile : finding.span.file;
    if (finding.span.isValid() && !file.isEmpty()) {
        const QJsonObject physical{{QStringLiteral("artifactLocation"), artifactLocation(file, options)},
                                   {QStringLiteral("region"), region(finding.span)}};
        result.insert(QStringLiteral("locations"), QJsonArray{QJsonObject{{QStringLiteral("physicalLocation"), physical}}});
    }
    return result;
}

} // namespace

QString sarifLevel(Severity severity)
{
    switch (severity) {
    case Severity::High: return QStringLiteral("error");
    case Severity::Medium: return QStringLiteral("warning");
    case Severity::Low: return QStringLiteral("note");
    case Severity::Info: break;
    }
    return QStringLiteral("none");
}

QJsonObject sarifLog(const LadderResult &ladder, const SarifOptions &options)
{
    QJsonArray rules, results;
    QStringList ruleIds;
    for (int i = 0; i < ladder.ranking.size(); ++i) {
        const Finding &finding = ladder.ranking[i].finding;
        qsizetype ruleIndex = ruleIds.indexOf(finding.ruleId);
        if (ruleIndex < 0) {
            ruleIndex = ruleIds.size();
            ruleIds.append(finding.ruleId);
            rules.append(rule(finding));
        }
        results.append(result(ladder.ranking[i], i + 1, int(ruleIndex), ladder.diagnosis.sourcePath, options));
    }
    QJsonObject driver{{QStringLiteral("name"), QStringLiteral("Strata")},
                       {QStringLiteral("rules"), rules}};
    if (!options.toolVersion.isEmpty())
        driver.insert(QStringLiteral("version"), options.toolVersion);
    QJsonObject run{{QStringLiteral("tool"), QJsonObject{{QStringLiteral("driver"), driver}}},
                    {QStringLiteral("results"), results},
                    {QStringLiteral("properties"), QJsonObject{{QStringLiteral("kernel"), ladder.diagnosis.kernel},
                                                               {QStringLiteral("rankingBasis"), ladder.rankingBasis}}}};
    if (!options.sourceRoot.isEmpty())
        run.insert(QStringLiteral("originalUriBaseIds"),
                   QJsonObject{{QStringLiteral("SRCROOT"), QJsonObject{{QStringLiteral("uri"),
                       QUrl::fromLocalFile(QDir(options.sourceRoot).absolutePath() + u'/').toString()}}}});
    return QJsonObject{{QStringLiteral("$schema"), kSchema}, {QStringLiteral("version"), QStringLiteral("2.1.0")},
                       {QStringLiteral("runs"), QJsonArray{run}}};
}

} // namespace strata::report
