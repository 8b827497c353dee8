// The suite report as PDF: A4 landscape (the task table has 14 or 15 columns), charts split so
// that none is taller than a page and drawn as vectors, and the task rows laid out
// kRowsPerDocument at a time, each part on new pages, so memory stays bounded for 10^5 tasks.
#include "report/DocumentReport.h"
#include "report/HtmlCommon.h"
#include "report/HtmlReport.h"
#include "report/PdfPages.h"

#include <QTextDocument>

namespace strata::report {

namespace {

constexpr int kBarsPerChart = 16;      // 16 bars: 368 points tall, a heading and a chart to a landscape page
constexpr int kRowsPerDocument = 400;  // one part: ~25 pages, a few MB of layout

// Compact task rows: 6.5-point text fits 15 columns across a landscape page.
const QString kPdfStyle = QStringLiteral(
    "\ntable.tasks th, table.tasks td { font-size: 6.5pt; padding: 1px 2px; }\nul.failures { font-size: 8pt; }\n");

HtmlOptions pdfOptions(const QString &generator)
{
    HtmlOptions options{HtmlOptions::Charts::ImageReferences, generator};
    options.barsPerChart = kBarsPerChart;
    options.extraStyle = kPdfStyle;
    return options;
}

// Lays out the HTML it is given a part at a time: add() a row, and once a part holds
// kRowsPerDocument rows it is closed with `close`, drawn, and the next one opened with `reopen`.
class PartWriter {
public:
    PartWriter(PdfPages &pdf, QString start, QVector<Chart> charts) : m_pdf(pdf), m_html(std::move(start)), m_charts(std::move(charts)) {}

    void add(const QString &row, const QString &close, const QString &reopen)
    {
        if (m_rows == kRowsPerDocument) {
            m_html += close + suite_html::partEnd();
            draw();
            m_html = reopen;
            m_rows = 0;
        }
        m_html += row;
        ++m_rows;
    }
    void append(const QString &html) { m_html += html; }
    void startSection() { m_rows = 0; }
    void draw()
    {
        std::unique_ptr<QTextDocument> document = chartDocument(m_html, m_charts);
        m_pdf.add(*document);
        m_charts.clear();  // only the first part shows charts
        m_html.clear();
    }

private:
    PdfPages &m_pdf;
    QString m_html;
    QVector<Chart> m_charts;
    int m_rows = 0;
};

// The task table across the whole page width, with column shares that follow what the columns
// hold (QTextDocument would otherwise give the names as little room as the numbers).
QString tasksTableStart(const SuiteReport &report)
{
    const bool merged = !report.suite.mergedFrom.isEmpty();
    // Task, category, status, initial, best, speedup, eager, compile, vs eager, vs compile,
    // roofline, bound, recipes, failure (and measured in).
    const QList<int> shares = merged ? QList<int>{11, 6, 6, 6, 6, 5, 6, 6, 5, 5, 5, 5, 9, 11, 8}
                                     : QList<int>{15, 6, 6, 6, 6, 5, 6, 6, 5, 5, 5, 5, 9, 15};
    QString start = suite_html::tasksTableStart(report);
    start.replace(QStringLiteral("<table class=\"tasks\""), QStringLiteral("<table class=\"tasks\" width=\"100%\""));
    qsizetype at = 0;
    for (int share : shares) {
        at = start.indexOf(QStringLiteral("<th>"), at);
        if (at < 0)
            break;
        const QString cell = QStringLiteral("<th width=\"%1%\">").arg(share);
        start.replace(at, 4, cell);
        at += cell.size();
    }
    return start;
}

} // namespace

std::unique_ptr<QTextDocument> suiteDocument(const SuiteReport &report, const QString &generator)
{
    const HtmlOptions options = pdfOptions(generator);
    StringSink html;
    writeSuiteHtml(report, options, html);
    const QString text = html.take().replace(suite_html::tasksTableStart(report), tasksTableStart(report));
    return chartDocument(text, suiteCharts(report, kBarsPerChart));
}

Expected<int> writeSuitePdf(const SuiteReport &report, const QString &path, const QString &generator)
{
    const HtmlOptions options = pdfOptions(generator);
    PdfPages pdf(path, report.suite.suite, QPageLayout::Landscape);
    if (!pdf.openError().isEmpty())
        return pdf.finish();
    PartWriter parts(pdf, suite_html::pageStart(report, options) + tasksTableStart(report),
                     suiteCharts(report, kBarsPerChart));
    const QString tableReopen = suite_html::continuedStart(options) + tasksTableStart(report);
    std::optional<ReadError> error = report.forEachTask([&](const optimize::TaskOutcome &task) {
        parts.add(suite_html::taskRow(report, task), html::tableEnd(), tableReopen);
    });
    if (error)
        return *error;
    parts.append(html::tableEnd() + suite_html::failuresStart(report));
    parts.startSection();
    if (report.summary.failures) {
        const QString listReopen = suite_html::continuedStart(options) + QStringLiteral("<ul class=\"failures\">\n");
        error = report.forEachTask([&](const optimize::TaskOutcome &task) {
            if (task.status == QLatin1String("failed"))
                parts.add(suite_html::failureItem(task), suite_html::failuresEnd(report), listReopen);
        });
        if (error)
            return *error;
    }
    parts.append(suite_html::failuresEnd(report) + suite_html::pageEnd(options));
    parts.draw();
    return pdf.finish();
}

} // namespace strata::report
