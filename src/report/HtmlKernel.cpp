// The per-kernel HTML report: the task's times, the candidates tried, the winning diff, the
// ranked findings with evidence, source and IR excerpts, and the escalation log.
#include "report/HtmlCommon.h"
#include "report/HtmlReport.h"
#include "report/ReportText.h"

namespace strata::report {

using namespace strata::diagnosis;
using optimize::CandidateRecord;
using optimize::TaskOutcome;

namespace {

QString taskHtml(const TaskOutcome &task)
{
    return html::keyValueTable(QStringLiteral("task"), {
        {QStringLiteral("Task"), task.taskId},
        {QStringLiteral("Path"), task.taskPath},
        {QStringLiteral("Category"), task.category},
        {QStringLiteral("Status"), task.status},
        {QStringLiteral("Initial time"), formatMs(task.initialMs)},
        {QStringLiteral("Best time"), formatMs(task.bestMs)},
        {QStringLiteral("Speedup (initial / best)"), formatSpeedup(task.speedup())},
        {QStringLiteral("Eager PyTorch"), formatMs(task.eagerMs)},
        {QStringLiteral("torch.compile"), formatMs(task.compileMs)},
        {QStringLiteral("Speedup vs eager"), formatSpeedup(task.speedupVsEager())},
        {QStringLiteral("Speedup vs torch.compile"), formatSpeedup(task.speedupVsCompile())},
        {QStringLiteral("Roofline"), formatPercent(task.rooflinePct)},
        {QStringLiteral("Bound"), task.bound.isEmpty() ? QStringLiteral("-") : task.bound},
        {QStringLiteral("Winning recipes"), task.winningRecipes.join(QStringLiteral(", "))},
        {QStringLiteral("Winning findings"), task.winningFindings.join(QStringLiteral(", "))},
        {QStringLiteral("Failure / note"), task.failure},
    });
}

QString candidatesHtml(const QVector<CandidateRecord> &candidates)
{
    if (candidates.isEmpty())
        return html::paragraph(QStringLiteral("No candidates were recorded."), QStringLiteral("note"));
    html::Table table;
    table.cssClass = QStringLiteral("candidates");
    table.header = {QStringLiteral("Id"), QStringLiteral("Iteration"), QStringLiteral("Parent"), QStringLiteral("Provider"),
                    QStringLiteral("Recipe"), QStringLiteral("Title"), QStringLiteral("State"), QStringLiteral("Detail"),
                    QStringLiteral("Median"), QStringLiteral("vs parent"), QStringLiteral("Review")};
    for (const CandidateRecord &candidate : candidates) {
        table.rows.append({QString::number(candidate.id), QString::number(candidate.iteration),
                           candidate.parentId ? QString::number(candidate.parentId) : QStringLiteral("-"), candidate.provider,
                           candidate.recipeId, candidate.title, candidate.state, candidate.detail, formatMs(candidate.medianMs),
                           formatSpeedup(candidate.speedupVsParent), candidate.reviewState});
        table.rowClasses.append(QStringLiteral("candidate ") + candidate.state);
        table.rowKeys.append(QString::number(candidate.id));
    }
    return html::table(table);
}

QString diffHtml(const KernelReport &report)
{
    if (report.winningDiff.isEmpty())
        return html::paragraph(report.best ? QStringLiteral("The best candidate's source is the initial kernel's.")
                                           : QStringLiteral("No candidate beat the initial kernel."), QStringLiteral("note"));
    const UnifiedDiff &diff = report.winningDiff;
    QString out = html::paragraph(QStringLiteral("%1 line(s) removed, %2 added. %3: %4")
                                      .arg(diff.removed).arg(diff.added).arg(report.best->provider, report.best->title));
    out += QStringLiteral("<pre class=\"diff\">");
    out += html::escaped(QStringLiteral("--- %1\n+++ %2\n").arg(diff.beforeLabel, diff.afterLabel));
    for (const DiffHunk &hunk : diff.hunks) {
        out += QStringLiteral("<span class=\"hunk\">%1</span>\n").arg(html::escaped(hunk.header()));
        for (const DiffLine &line : hunk.lines) {
            if (line.kind == DiffLine::Added)
                out += QStringLiteral("<span class=\"add\">+%1</span>\n").arg(html::escaped(line.text));
            else if (line.kind == DiffLine::Removed)
                out += QStringLiteral("<span class=\"del\">-%1</span>\n").arg(html::escaped(line.text));
            else
                out += u' ' + html::escaped(line.text) + u'\n';
        }
    }
    return out + QStringLiteral("</pre>\n");
}

QString findingHtml(const FindingEntry &entry)
{
    const Finding &finding = entry.finding;
    const QString severity = severityName(finding.severity);
    QString out = QStringLiteral("<div class=\"finding\" id=\"finding-%1\">\n").arg(entry.rank);
    out += QStringLiteral("<h3>%1. <span class=\"sev-%2\">[%2]</span> %3</h3>\n")
               .arg(QString::number(entry.rank), html::escaped(severity), html::escaped(finding.title));
    QString facts = QStringLiteral("%1, %2, status %3, confidence %4").arg(finding.ruleId, levelName(finding.level), entry.status,
                                                                          QString::number(finding.confidence, 'f', 2));
    if (finding.span.isValid())
        facts += QStringLiteral(", at %1").arg(spanText(finding.span));
    if (finding.gapShare)
        facts += QStringLiteral(", explains %1 of the gap to roofline%2").arg(formatPercent(finding.gapShare->share * 100),
                                                                               finding.gapShare->estimate ? QStringLiteral(" (estimate)") : QString());
    out += html::paragraph(facts, QStringLiteral("facts"));
    if (!finding.cause.isEmpty())
        out += html::paragraph(finding.cause, QStringLiteral("cause"));
    if (!finding.evidence.isEmpty()) {
        out += QStringLiteral("<ul class=\"evidence\">\n");
        for (const Evidence &evidence : finding.evidence) {
            const QString text = isExaminesNote(evidence) ? evidence.note : evidence.kindName() + QStringLiteral(": ") + evidenceText(evidence);
            out += QStringLiteral("<li>%1</li>\n").arg(html::escaped(text));
        }
        out += QStringLiteral("</ul>\n");
    }
    if (!finding.recipes.isEmpty())
        out += html::paragraph(QStringLiteral("Recipes: ") + finding.recipes.join(QStringLiteral(", ")), QStringLiteral("recipes"));
    if (!entry.source.isEmpty())
        out += html::codeBlock(QStringLiteral("source"), entry.source);
    for (const IrExcerpt &excerpt : entry.ir) {
        QString label = excerpt.stageName.isEmpty() ? excerpt.stage : excerpt.stageName;
        if (excerpt.omitted > 0)
            label += QStringLiteral(" (%1 more line(s) not shown)").arg(excerpt.omitted);
        out += QStringLiteral("<h4>%1</h4>\n").arg(html::escaped(label));
        out += html::codeBlock(QStringLiteral("ir ir-") + excerpt.stage, excerpt.lines);
    }
    return out + QStringLiteral("</div>\n");
}

QString diagnosisHtml(const KernelReport &report)
{
    const LadderResult &result = *report.diagnosis;
    QString out = html::paragraph(QStringLiteral("Ranking: ") + result.rankingBasis, QStringLiteral("note"));
    for (const QString &warning : result.diagnosis.warnings)  // degraded inputs, before the findings
        out += html::paragraph(QStringLiteral("Warning: ") + warning, QStringLiteral("warning"));
    if (report.findings.isEmpty())
        out += html::paragraph(QStringLiteral("No findings."), QStringLiteral("note"));
    for (const FindingEntry &entry : report.findings)
        out += findingHtml(entry);
    out += html::heading(3, QStringLiteral("Escalation"), QStringLiteral("escalation"));
    out += QStringLiteral("<ol class=\"escalation\">\n");
    for (const EscalationStep &step : result.diagnosis.escalation)
        out += QStringLiteral("<li><b>%1</b>: %2</li>\n").arg(html::escaped(step.step), html::escaped(step.reason));
    return out + QStringLiteral("</ol>\n");
}

} // namespace

QString kernelHtml(const KernelReport &report, const HtmlOptions &options)
{
    const QString title = QStringLiteral("Strata kernel report: %1").arg(report.title);
    QString out = html::pageStart(title);
    out += html::heading(1, title);
    if (!report.sourcePath.isEmpty())
        out += html::paragraph(QStringLiteral("Source: ") + report.sourcePath, QStringLiteral("note"));
    out += html::paragraph(QStringLiteral("Backend: ") + report.backendText(), QStringLiteral("note"));
    if (report.task) {
        out += html::heading(2, QStringLiteral("Times and speedups"), QStringLiteral("task"));
        out += taskHtml(*report.task);
        out += html::heading(2, QStringLiteral("Candidates tried"), QStringLiteral("candidates"));
        out += candidatesHtml(report.task->candidates);
        out += html::heading(2, QStringLiteral("Winning change"), QStringLiteral("diff"));
        out += diffHtml(report);
    }
    if (report.diagnosis) {
        out += html::heading(2, QStringLiteral("Diagnosis"), QStringLiteral("diagnosis"));
        out += diagnosisHtml(report);
    }
    return out + html::pageEnd(options.generator);
}

} // namespace strata::report
