// The per-suite HTML report: summary, environment, the two charts, the per-task table, failures.
#include "report/HtmlCommon.h"
#include "report/HtmlReport.h"
#include "report/ReportText.h"
#include "report/SvgCharts.h"

namespace strata::report {

using optimize::TaskOutcome;

namespace {

QString chartHtml(const Chart &chart, const HtmlOptions &options)
{
    QString out = QStringLiteral("<div class=\"chart\" id=\"chart-%1\">\n").arg(html::escaped(chart.id));
    if (options.charts == HtmlOptions::Charts::InlineSvg)
        out += chart.svg;
    else
        out += QStringLiteral("<img src=\"%1\" width=\"%2\" height=\"%3\" alt=\"%4\"/>\n")
                   .arg(html::escaped(chartUrl(chart.id))).arg(chart.width).arg(chart.height).arg(html::escaped(chart.title));
    return out + QStringLiteral("</div>\n");
}

QString summaryHtml(const SuiteSummary &summary)
{
    return html::keyValueTable(QStringLiteral("summary"), {
        {QStringLiteral("Tasks"), QString::number(summary.tasks)},
        {QStringLiteral("Geomean speedup"), formatSpeedup(summary.geomean)},
        {QStringLiteral("Median speedup"), formatSpeedup(summary.median)},
        {QStringLiteral("At least 2x"), QString::number(summary.over2x)},
        {QStringLiteral("At least 5x"), QString::number(summary.over5x)},
        {QStringLiteral("Failures"), QString::number(summary.failures)},
        {QStringLiteral("Geomean vs best of eager / torch.compile"),
         summary.measuredVsBaseline ? QStringLiteral("%1 (over %2 tasks)").arg(formatSpeedup(summary.geomeanVsBestBaseline))
                                                                            .arg(summary.measuredVsBaseline)
                                    : QStringLiteral("-")},
    });
}

QString environmentHtml(const optimize::SuiteOutcome &suite)
{
    auto orDash = [](const QString &value) { return value.isEmpty() ? QStringLiteral("-") : value; };
    return html::keyValueTable(QStringLiteral("environment"), {
        {QStringLiteral("Device"), orDash(suite.device)},
        {QStringLiteral("Driver"), orDash(suite.driver)},
        {QStringLiteral("Triton"), orDash(suite.triton)},
        {QStringLiteral("Torch"), orDash(suite.torch)},
        {QStringLiteral("Commit"), orDash(suite.commit)},
        {QStringLiteral("Date"), suite.date.isValid() ? suite.date.toUTC().toString(Qt::ISODate) : QStringLiteral("-")},
        {QStringLiteral("Merged from"), orDash(mergedFromText(suite))},
    });
}

QString tasksHtml(const optimize::SuiteOutcome &suite)
{
    html::Table table;
    table.cssClass = QStringLiteral("tasks");
    table.header = {QStringLiteral("Task"), QStringLiteral("Category"), QStringLiteral("Status"), QStringLiteral("Initial"),
                    QStringLiteral("Best"), QStringLiteral("Speedup"), QStringLiteral("Eager"), QStringLiteral("torch.compile"),
                    QStringLiteral("vs eager"), QStringLiteral("vs compile"), QStringLiteral("Roofline"), QStringLiteral("Bound"),
                    QStringLiteral("Winning recipes"), QStringLiteral("Failure / note")};
    const bool merged = !suite.mergedFrom.isEmpty();
    if (merged)
        table.header.append(QStringLiteral("Measured in"));
    for (const TaskOutcome &task : suite.tasks) {
        table.rows.append({task.taskId, task.category, statusText(task), formatMs(task.initialMs), formatMs(task.bestMs),
                           formatSpeedup(task.speedup()), formatMs(task.eagerMs), formatMs(task.compileMs),
                           formatSpeedup(task.speedupVsEager()), formatSpeedup(task.speedupVsCompile()),
                           formatPercent(task.rooflinePct), task.bound, task.winningRecipes.join(QStringLiteral(", ")),
                           task.failure});
        if (merged)
            table.rows.last().append(task.measuredInText());
        table.rowClasses.append(QStringLiteral("task ") + task.status);
        table.rowKeys.append(task.taskId);
    }
    return html::table(table);
}

QString failuresHtml(const SuiteReport &report)
{
    if (report.failed.isEmpty())
        return html::paragraph(QStringLiteral("No task failed."), QStringLiteral("note"));
    QString out = QStringLiteral("<ul class=\"failures\">\n");
    for (int index : report.failed) {
        const TaskOutcome &task = report.suite.tasks[index];
        out += QStringLiteral("<li><b>%1</b>: %2</li>\n")
                   .arg(html::escaped(task.taskId), html::escaped(task.failure.isEmpty() ? QStringLiteral("no reason recorded") : task.failure));
    }
    return out + QStringLiteral("</ul>\n");
}

} // namespace

QString suiteHtml(const SuiteReport &report, const HtmlOptions &options)
{
    const QString title = QStringLiteral("Strata suite report: %1").arg(report.suite.suite);
    QString out = html::pageStart(title);
    out += html::heading(1, title);
    out += html::heading(2, QStringLiteral("Summary"), QStringLiteral("summary"));
    out += summaryHtml(report.summary);
    out += html::paragraph(QStringLiteral("Speedup is initial kernel time / best candidate time. A failed or unmeasured "
                                          "task counts as 1.0x in the geomean and the median."), QStringLiteral("note"));
    out += html::heading(2, QStringLiteral("Environment"), QStringLiteral("environment"));
    out += environmentHtml(report.suite);
    out += html::heading(2, QStringLiteral("Speedup per kernel"), QStringLiteral("speedups"));
    out += chartHtml(speedupChart(report), options);
    out += html::heading(2, QStringLiteral("Speedup vs % of roofline"), QStringLiteral("roofline"));
    out += chartHtml(rooflineChart(report), options);
    out += html::heading(2, QStringLiteral("Tasks"), QStringLiteral("tasks"));
    out += tasksHtml(report.suite);
    out += html::heading(2, QStringLiteral("Failures"), QStringLiteral("failures"));
    out += failuresHtml(report);
    return out + html::pageEnd(options.generator);
}

} // namespace strata::report
