// The per-suite HTML report: summary, environment, the two charts, the per-task table, failures.
// Written a task row at a time: the tasks are read from the report's source as they are needed.
#include "report/HtmlCommon.h"
#include "report/HtmlReport.h"
#include "report/ReportText.h"
#include "report/SvgCharts.h"

#include <QtMath>

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
                   .arg(html::escaped(chartUrl(chart.id))).arg(qRound(chart.width * options.imageScale))
                   .arg(qRound(chart.height * options.imageScale)).arg(html::escaped(chart.title));
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
        {QStringLiteral("Backend"), suite.backendText()},
        {QStringLiteral("Driver"), orDash(suite.driver)},
        {QStringLiteral("Triton"), orDash(suite.triton)},
        {QStringLiteral("Torch"), orDash(suite.torch)},
        {QStringLiteral("Commit"), orDash(suite.commit)},
        {QStringLiteral("Date"), suite.date.isValid() ? suite.date.toUTC().toString(Qt::ISODate) : QStringLiteral("-")},
        {QStringLiteral("Merged from"), orDash(mergedFromText(suite))},
    });
}

QStringList tasksHeader(const SuiteReport &report)
{
    QStringList header = {QStringLiteral("Task"), QStringLiteral("Category"), QStringLiteral("Status"), QStringLiteral("Initial"),
                          QStringLiteral("Best"), QStringLiteral("Speedup"), QStringLiteral("Eager"), QStringLiteral("torch.compile"),
                          QStringLiteral("vs eager"), QStringLiteral("vs compile"), QStringLiteral("Roofline"), QStringLiteral("Bound"),
                          QStringLiteral("Winning recipes"), QStringLiteral("Failure / note")};
    if (!report.suite.mergedFrom.isEmpty())
        header.append(QStringLiteral("Measured in"));
    return header;
}

QString chartsHtml(const SuiteReport &report, const HtmlOptions &options)
{
    QString out = html::heading(2, report.perTaskCharts() ? QStringLiteral("Speedup per kernel") : QStringLiteral("Speedup distribution"),
                                QStringLiteral("speedups"));
    if (!report.perTaskCharts())
        out += html::paragraph(QStringLiteral("%1 tasks are too many for one bar each: the chart counts tasks per speedup bin, "
                                              "and the table below lists every task.").arg(report.summary.tasks),
                               QStringLiteral("note"));
    for (const Chart &chart : speedupCharts(report, options.barsPerChart))
        out += chartHtml(chart, options);
    out += html::heading(2, QStringLiteral("Speedup vs % of roofline"), QStringLiteral("roofline"));
    return out + chartHtml(rooflineChart(report), options);
}

QString title(const SuiteReport &report)
{
    return QStringLiteral("Strata suite report: %1").arg(report.suite.suite);
}

} // namespace

namespace suite_html {

QString pageStart(const SuiteReport &report, const HtmlOptions &options)
{
    QString out = html::pageStart(title(report), options.extraStyle);
    out += html::heading(1, title(report));
    out += html::heading(2, QStringLiteral("Summary"), QStringLiteral("summary"));
    out += summaryHtml(report.summary);
    out += html::paragraph(QStringLiteral("Speedup is initial kernel time / best candidate time. A failed or unmeasured "
                                          "task counts as 1.0x in the geomean and the median."), QStringLiteral("note"));
    out += html::heading(2, QStringLiteral("Environment"), QStringLiteral("environment"));
    out += environmentHtml(report.suite);
    out += chartsHtml(report, options);
    return out + html::heading(2, QStringLiteral("Tasks"), QStringLiteral("tasks"));
}

QString tasksTableStart(const SuiteReport &report)
{
    return html::tableStart(QStringLiteral("tasks"), tasksHeader(report));
}

QString taskRow(const SuiteReport &report, const TaskOutcome &task)
{
    QStringList cells{task.taskId, task.category, statusText(task), formatMs(task.initialMs), formatMs(task.bestMs),
                      formatSpeedup(task.speedup()), formatMs(task.eagerMs), formatMs(task.compileMs),
                      formatSpeedup(task.speedupVsEager()), formatSpeedup(task.speedupVsCompile()),
                      formatPercent(task.rooflinePct), task.bound, task.winningRecipes.join(QStringLiteral(", ")), task.failure};
    if (!report.suite.mergedFrom.isEmpty())
        cells.append(task.measuredInText());
    return html::tableRow(tasksHeader(report), cells, QStringLiteral("task ") + task.status, task.taskId);
}

QString failuresStart(const SuiteReport &report)
{
    const QString heading = html::heading(2, QStringLiteral("Failures"), QStringLiteral("failures"));
    if (!report.summary.failures)
        return heading + html::paragraph(QStringLiteral("No task failed."), QStringLiteral("note"));
    return heading + QStringLiteral("<ul class=\"failures\">\n");
}

QString failureItem(const TaskOutcome &task)
{
    return QStringLiteral("<li><b>%1</b>: %2</li>\n")
        .arg(html::escaped(task.taskId), html::escaped(task.failure.isEmpty() ? QStringLiteral("no reason recorded") : task.failure));
}

QString failuresEnd(const SuiteReport &report)
{
    return report.summary.failures ? QStringLiteral("</ul>\n") : QString();
}

QString continuedStart(const HtmlOptions &options)
{
    return html::pageStart(QString(), options.extraStyle);
}

QString pageEnd(const HtmlOptions &options)
{
    return html::pageEnd(options.generator);
}

QString partEnd()
{
    return QStringLiteral("</body>\n</html>\n");
}

} // namespace suite_html

std::optional<ReadError> writeSuiteHtml(const SuiteReport &report, const HtmlOptions &options, TextSink &out)
{
    out << suite_html::pageStart(report, options) << suite_html::tasksTableStart(report);
    if (std::optional<ReadError> error = report.forEachTask([&](const TaskOutcome &task) { out << suite_html::taskRow(report, task); }))
        return error;
    out << html::tableEnd() << suite_html::failuresStart(report);
    if (report.summary.failures) {
        std::optional<ReadError> error = report.forEachTask([&](const TaskOutcome &task) {
            if (task.status == QLatin1String("failed"))
                out << suite_html::failureItem(task);
        });
        if (error)
            return error;
    }
    out << suite_html::failuresEnd(report) << suite_html::pageEnd(options);
    return std::nullopt;
}

QString suiteHtml(const SuiteReport &report, const HtmlOptions &options)
{
    StringSink sink;
    writeSuiteHtml(report, options, sink);
    return sink.take();
}

} // namespace strata::report
