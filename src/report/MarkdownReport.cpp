#include "report/MarkdownReport.h"

#include "report/ReportText.h"

#include <QRegularExpression>

namespace strata::report {

using namespace strata::diagnosis;
using optimize::CandidateRecord;
using optimize::TaskOutcome;

namespace {

// A table cell: pipes escaped, line breaks folded, Markdown emphasis characters left alone.
QString cell(const QString &text)
{
    if (text.isEmpty())
        return QStringLiteral(" ");
    QString out = text;
    out.replace(u'\\', QStringLiteral("\\\\")).replace(u'|', QStringLiteral("\\|"));
    if (out.contains(u'\n')) {
        // Compiled once: a regular expression per cell made a 10^5-task table take 16 s.
        static const QRegularExpression lineBreak(QStringLiteral("\\s*\\n\\s*"));
        out.replace(lineBreak, QStringLiteral(" "));
    }
    return out.isEmpty() ? QStringLiteral(" ") : out;
}

QString tableRow(const QStringList &cells)
{
    QStringList escaped;
    for (const QString &text : cells)
        escaped.append(cell(text));
    return QStringLiteral("| ") + escaped.join(QStringLiteral(" | ")) + QStringLiteral(" |\n");
}

QString tableHeader(const QStringList &header)
{
    return tableRow(header) + QStringLiteral("|") + QStringLiteral(" --- |").repeated(header.size()) + u'\n';
}

QString table(const QStringList &header, const QVector<QStringList> &rows)
{
    QString out = tableHeader(header);
    for (const QStringList &row : rows)
        out += tableRow(row);
    return out + u'\n';
}

// A fence longer than any run of backticks in `text`, so the block cannot be closed early.
QString fenced(const QString &text, const QString &language)
{
    int longest = 0;
    for (const QRegularExpressionMatch &match : QRegularExpression(QStringLiteral("`+")).globalMatch(text))
        longest = std::max<int>(longest, match.capturedLength());
    const QString fence = QString(std::max(3, longest + 1), u'`');
    QString body = text;
    if (!body.endsWith(u'\n'))
        body += u'\n';
    return fence + language + u'\n' + body + fence + QStringLiteral("\n\n");
}

QString excerptText(const QVector<ExcerptLine> &lines)
{
    QString out;
    for (const ExcerptLine &line : lines)
        out += QStringLiteral("%1%2 | %3\n").arg(line.focus ? u'>' : u' ').arg(line.number, 4).arg(line.text);
    return out;
}

QString findingMarkdown(const FindingEntry &entry)
{
    const Finding &finding = entry.finding;
    QString out = QStringLiteral("### %1. [%2] %3\n\n").arg(entry.rank).arg(severityName(finding.severity), cell(finding.title));
    out += QStringLiteral("- rule: `%1` (%2), status: %3, confidence %4\n")
               .arg(finding.ruleId, levelName(finding.level), entry.status, QString::number(finding.confidence, 'f', 2));
    if (finding.span.isValid())
        out += QStringLiteral("- at: `%1`\n").arg(spanText(finding.span));
    if (!finding.cause.isEmpty())
        out += QStringLiteral("- cause: %1\n").arg(cell(finding.cause));
    for (const Evidence &evidence : finding.evidence) {
        const QString text = isExaminesNote(evidence) ? evidence.note : evidence.kindName() + QStringLiteral(": ") + evidenceText(evidence);
        out += QStringLiteral("- evidence: %1\n").arg(cell(text));
    }
    if (!finding.recipes.isEmpty())
        out += QStringLiteral("- recipes: %1\n").arg(finding.recipes.join(QStringLiteral(", ")));
    out += u'\n';
    if (!entry.source.isEmpty())
        out += fenced(excerptText(entry.source), QStringLiteral("python"));
    for (const IrExcerpt &excerpt : entry.ir) {
        out += QStringLiteral("%1%2:\n\n").arg(excerpt.stageName.isEmpty() ? excerpt.stage : excerpt.stageName,
                                              excerpt.omitted ? QStringLiteral(" (%1 more line(s) not shown)").arg(excerpt.omitted) : QString());
        out += fenced(excerptText(excerpt.lines), QString());
    }
    return out;
}

} // namespace

std::optional<ReadError> writeSuiteMarkdown(const SuiteReport &report, TextSink &out)
{
    const SuiteSummary &summary = report.summary;
    const optimize::SuiteOutcome &suite = report.suite;
    out << QStringLiteral("# Strata suite report: %1\n\n## Summary\n\n").arg(suite.suite);
    out << table({QStringLiteral("tasks"), QStringLiteral("geomean"), QStringLiteral("median"), QStringLiteral(">= 2x"),
                  QStringLiteral(">= 5x"), QStringLiteral("failures"), QStringLiteral("geomean vs best baseline")},
                 {{QString::number(summary.tasks), formatSpeedup(summary.geomean), formatSpeedup(summary.median),
                   QString::number(summary.over2x), QString::number(summary.over5x), QString::number(summary.failures),
                   summary.measuredVsBaseline ? formatSpeedup(summary.geomeanVsBestBaseline) : QStringLiteral("-")}});
    out << QStringLiteral("## Environment\n\n");
    out << table({QStringLiteral("device"), QStringLiteral("backend"), QStringLiteral("driver"), QStringLiteral("triton"),
                  QStringLiteral("torch"), QStringLiteral("commit"), QStringLiteral("date")},
                 {{suite.device, suite.backendText(), suite.driver, suite.triton, suite.torch, suite.commit,
                   suite.date.isValid() ? suite.date.toUTC().toString(Qt::ISODate) : QString()}});
    const QString merged = mergedFromText(suite);
    if (!merged.isEmpty())
        out << QStringLiteral("Merged from several runs: %1. Each task names the run it was measured in.\n\n").arg(merged);
    out << QStringLiteral("## Tasks\n\n");
    QStringList header = {QStringLiteral("task"), QStringLiteral("category"), QStringLiteral("status"), QStringLiteral("initial"),
                          QStringLiteral("best"), QStringLiteral("speedup"), QStringLiteral("vs eager"), QStringLiteral("vs compile"),
                          QStringLiteral("roofline"), QStringLiteral("bound"), QStringLiteral("winning recipes"),
                          QStringLiteral("failure / note")};
    if (!merged.isEmpty())
        header.append(QStringLiteral("measured in"));
    out << tableHeader(header);
    std::optional<ReadError> error = report.forEachTask([&](const TaskOutcome &task) {
        QStringList row{task.taskId, task.category, statusText(task), formatMs(task.initialMs), formatMs(task.bestMs),
                        formatSpeedup(task.speedup()), formatSpeedup(task.speedupVsEager()), formatSpeedup(task.speedupVsCompile()),
                        formatPercent(task.rooflinePct), task.bound, task.winningRecipes.join(QStringLiteral(", ")), task.failure};
        if (!merged.isEmpty())
            row.append(task.measuredInText());
        out << tableRow(row);
    });
    if (error)
        return error;
    out << QStringLiteral("\n## Failures\n\n");
    if (!summary.failures) {
        out << QStringLiteral("No task failed.\n");
        return std::nullopt;
    }
    return report.forEachTask([&](const TaskOutcome &task) {
        if (task.status == QLatin1String("failed"))
            out << QStringLiteral("- **%1**: %2\n").arg(task.taskId, cell(task.failure));
    });
}

QString suiteMarkdown(const SuiteReport &report)
{
    StringSink sink;
    writeSuiteMarkdown(report, sink);
    return sink.take();
}

QString kernelMarkdown(const KernelReport &report)
{
    QString out = QStringLiteral("# Strata kernel report: %1\n\n").arg(report.title);
    if (!report.sourcePath.isEmpty())
        out += QStringLiteral("Source: `%1`\n\n").arg(report.sourcePath);
    out += QStringLiteral("Backend: %1\n\n").arg(report.backendText());
    if (report.task) {
        const TaskOutcome &task = *report.task;
        out += QStringLiteral("## Times and speedups\n\n");
        out += table({QStringLiteral("status"), QStringLiteral("initial"), QStringLiteral("best"), QStringLiteral("speedup"),
                      QStringLiteral("eager"), QStringLiteral("torch.compile"), QStringLiteral("vs eager"),
                      QStringLiteral("vs compile"), QStringLiteral("roofline"), QStringLiteral("bound")},
                     {{task.status, formatMs(task.initialMs), formatMs(task.bestMs), formatSpeedup(task.speedup()),
                       formatMs(task.eagerMs), formatMs(task.compileMs), formatSpeedup(task.speedupVsEager()),
                       formatSpeedup(task.speedupVsCompile()), formatPercent(task.rooflinePct), task.bound}});
        if (!task.failure.isEmpty())
            out += QStringLiteral("Note: %1\n\n").arg(task.failure);
        out += QStringLiteral("## Candidates tried\n\n");
        QVector<QStringList> rows;
        for (const CandidateRecord &candidate : task.candidates)
            rows.append({QString::number(candidate.id), QString::number(candidate.iteration), candidate.provider,
                         candidate.recipeId, candidate.title, candidate.state, candidate.detail, formatMs(candidate.medianMs),
                         formatSpeedup(candidate.speedupVsParent)});
        out += table({QStringLiteral("id"), QStringLiteral("iteration"), QStringLiteral("provider"), QStringLiteral("recipe"),
                      QStringLiteral("title"), QStringLiteral("state"), QStringLiteral("detail"), QStringLiteral("median"),
                      QStringLiteral("vs parent")}, rows);
        out += QStringLiteral("## Winning change\n\n");
        out += report.winningDiff.isEmpty() ? QStringLiteral("No candidate beat the initial kernel.\n\n")
                                            : fenced(report.winningDiff.toText(), QStringLiteral("diff"));
    }
    if (report.diagnosis) {
        out += QStringLiteral("## Diagnosis\n\nRanking: %1\n\n").arg(report.diagnosis->rankingBasis);
        for (const QString &warning : report.diagnosis->diagnosis.warnings)
            out += QStringLiteral("> **Warning:** %1\n\n").arg(cell(warning));
        if (report.findings.isEmpty())
            out += QStringLiteral("No findings.\n\n");
        for (const FindingEntry &entry : report.findings)
            out += findingMarkdown(entry);
        out += QStringLiteral("### Escalation\n\n");
        for (const EscalationStep &step : report.diagnosis->diagnosis.escalation)
            out += QStringLiteral("1. **%1**: %2\n").arg(step.step, cell(step.reason));
    }
    return out;
}

} // namespace strata::report
