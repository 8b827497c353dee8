#include "diagnosis/ladder/Ladder.h"

#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/l3_ir/IrAttribution.h"
#include "diagnosis/l4_compiler/CompilerAnalysis.h"
#include "diagnosis/model/DiagnosisJson.h"

#include <QJsonArray>

#include <algorithm>

namespace strata::diagnosis {

namespace {

bool reaches(const LadderOptions &options, Level level)
{
    return int(options.maxLevel) >= int(level);
}

QString statusOf(const Finding &finding)
{
    if (finding.ruleId == QLatin1String(kConfirmedCauseRule))
        return QStringLiteral("confirmed");
    if (finding.ruleId == QLatin1String(kUnconfirmedCauseRule))
        return QStringLiteral("unconfirmed");
    if (finding.ruleId == QLatin1String(kUntestedCauseRule))
        return QStringLiteral("untested");
    return QStringLiteral("not examined");
}

int statusWeight(const QString &status)
{
    if (status == QLatin1String("confirmed"))
        return 2;
    return status == QLatin1String("not examined") ? 0 : 1;
}

// Severity first; within one severity a confirmed cause before an unconfirmed one, then the
// deeper level (it carries more evidence), then confidence, then source order.
bool ranksBefore(const RankedFinding &a, const RankedFinding &b)
{
    if (a.finding.severity != b.finding.severity)
        return a.finding.severity > b.finding.severity;
    if (statusWeight(a.status) != statusWeight(b.status))
        return statusWeight(a.status) > statusWeight(b.status);
    if (a.finding.level != b.finding.level)
        return a.finding.level > b.finding.level;
    if (a.finding.confidence != b.finding.confidence)
        return a.finding.confidence > b.finding.confidence;
    return a.finding.span.line < b.finding.span.line;
}

QVector<Finding> bySeverity(QVector<Finding> findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        return a.severity > b.severity;
    });
    return findings;
}

void runL1(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L1 triage");
    if (!reaches(options, Level::L1))
        return;
    if (!inputs.astReply) {
        diagnosis.logStep(step, QStringLiteral("skipped: no AST of the kernel (%1)")
                                    .arg(inputs.astMissingReason.isEmpty() ? QStringLiteral("not requested") : inputs.astMissingReason));
        return;
    }
    Expected<QVector<Finding>> findings = runTriage(*inputs.astReply, inputs.spec);
    if (!findings) {
        diagnosis.logStep(step, QStringLiteral("failed: ") + findings.error().toString());
        return;
    }
    diagnosis.addFindings(Level::L1, *findings);
    diagnosis.logStep(step, QStringLiteral("the kernel's AST and launch spec are available: %1 findings").arg(findings->size()));
}

void logL2(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    if (!reaches(options, Level::L2))
        return;
    // Hook for L2: timing, roofline and profiler counters will run here once a GPU host is connected.
    diagnosis.logStep(QStringLiteral("L2 measurement"),
                      inputs.gpuHostConnected
                          ? QStringLiteral("skipped: L2 measurement is not part of the ladder yet")
                          : QStringLiteral("skipped: no GPU host is connected, so no timing or profile can be taken"));
}

// Returns the L3 attribution, or nullopt when L3 did not run.
std::optional<IrAttribution> runL3(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L3 IR attribution");
    if (!reaches(options, Level::L3)) {
        diagnosis.logStep(step, QStringLiteral("not run: --max-level is %1").arg(levelName(options.maxLevel)));
        return std::nullopt;
    }
    if (!inputs.compile) {
        diagnosis.logStep(step, QStringLiteral("skipped: no compile of the kernel is available"));
        return std::nullopt;
    }
    Expected<IrAttribution> attribution = attributeIr(*inputs.compile);
    if (!attribution) {
        diagnosis.logStep(step, QStringLiteral("failed: ") + attribution.error().toString());
        return std::nullopt;
    }
    diagnosis.addFindings(Level::L3, attribution->findings);
    diagnosis.logStep(step, QStringLiteral("a compile is available (%1 stages read): %2 findings; L1 findings are "
                                           "pattern matches, L3 checks what the compiler made")
                                .arg(attribution->facts.stagesRead.size()).arg(attribution->findings.size()));
    return std::move(*attribution);
}

void runL4(const LadderInputs &inputs, const LadderOptions &options, const IrAttribution &attribution, Diagnosis &diagnosis)
{
    const QVector<Finding> &l3 = attribution.findings;
    const QString step = QStringLiteral("L4 compiler analysis");
    if (l3.isEmpty()) {
        diagnosis.logStep(step, QStringLiteral("not needed: L3 found nothing to confirm"));
        return;
    }
    const QVector<Finding> top = bySeverity(l3).mid(0, options.topFindings);
    if (!reaches(options, Level::L4)) {
        diagnosis.logStep(step, QStringLiteral("not run: %1 top findings are unconfirmed, but --max-level is %2")
                                    .arg(top.size()).arg(levelName(options.maxLevel)));
        return;
    }
    diagnosis.logStep(step, QStringLiteral("%1 top L3 findings are unconfirmed compiler facts; confirming their causes")
                                .arg(top.size()));
    const CompilerAnalysis analysis = analyzeWithCompiler(top, *inputs.compile, attribution.facts, inputs.spec, inputs.runner,
                                                          {options.maxCounterfactuals});
    for (const EscalationStep &entry : analysis.log)
        diagnosis.logStep(entry.step, entry.reason);
    diagnosis.addFindings(Level::L4, analysis.findings);
    const int confirmed = std::count_if(analysis.findings.cbegin(), analysis.findings.cend(), isConfirmed);
    diagnosis.logStep(QStringLiteral("stop"), confirmed == analysis.findings.size()
        ? QStringLiteral("all %1 top findings are confirmed").arg(confirmed)
        : QStringLiteral("%1 of %2 top findings confirmed; L4 is the deepest level")
              .arg(confirmed).arg(analysis.findings.size()));
}

QVector<RankedFinding> rank(const Diagnosis &diagnosis)
{
    // An L3 finding examined at L4 is represented by its L4 finding.
    QVector<RankedFinding> ranked;
    const QVector<Finding> l4 = diagnosis.findings(Level::L4);
    auto examined = [&](const Finding &finding) {
        return std::any_of(l4.cbegin(), l4.cend(), [&](const Finding &deeper) {
            return deeper.span == finding.span && deeper.title == finding.title && deeper.cause == finding.cause;
        });
    };
    for (const Finding &finding : diagnosis.allFindings()) {
        if (finding.level == Level::L3 && examined(finding))
            continue;
        ranked.append({finding, statusOf(finding)});
    }
    std::stable_sort(ranked.begin(), ranked.end(), ranksBefore);
    return ranked;
}

} // namespace

LadderResult runLadder(const LadderInputs &inputs, const LadderOptions &options)
{
    LadderResult result;
    Diagnosis &diagnosis = result.diagnosis;
    diagnosis.kernel = inputs.kernel;
    diagnosis.sourcePath = inputs.sourcePath;
    runL1(inputs, options, diagnosis);
    logL2(inputs, options, diagnosis);
    const std::optional<IrAttribution> l3 = runL3(inputs, options, diagnosis);
    if (l3)
        runL4(inputs, options, *l3, diagnosis);
    else if (!reaches(options, Level::L3))
        diagnosis.logStep(QStringLiteral("stop"), QStringLiteral("--max-level %1 reached").arg(levelName(options.maxLevel)));
    result.ranking = rank(diagnosis);
    result.rankingIsEstimate = true;  // no level measures yet
    result.rankingBasis = QStringLiteral("estimate: ranked by static severity, then confirmation, since no GPU "
                                         "measurement gives each finding's share of the time");
    diagnosis.logStep(QStringLiteral("ranking"), result.rankingBasis);
    return result;
}

QJsonObject toJson(const LadderResult &result)
{
    QJsonObject json = toJson(result.diagnosis);
    QJsonArray ranking;
    for (int i = 0; i < result.ranking.size(); ++i) {
        const Finding &finding = result.ranking[i].finding;
        ranking.append(QJsonObject{{QStringLiteral("rank"), i + 1},
                                   {QStringLiteral("status"), result.ranking[i].status},
                                   {QStringLiteral("rule"), finding.ruleId},
                                   {QStringLiteral("level"), levelName(finding.level)},
                                   {QStringLiteral("title"), finding.title},
                                   {QStringLiteral("severity"), severityName(finding.severity)},
                                   {QStringLiteral("line"), finding.span.line}});
    }
    json.insert(QStringLiteral("ranking"), ranking);
    json.insert(QStringLiteral("ranking_estimate"), result.rankingIsEstimate);
    json.insert(QStringLiteral("ranking_basis"), result.rankingBasis);
    return json;
}

} // namespace strata::diagnosis
