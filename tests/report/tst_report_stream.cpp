// Reports that stream: a results file read one task at a time gives the same report as the
// suite in memory; bad results files are refused with the file, JSON path and line; suites above
// kPerTaskChartLimit get distribution charts of fixed size; PDF charts fit a page.
#include "ReportTestData.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsFile.h"
#include "report/DataReport.h"
#include "report/DocumentReport.h"
#include "report/HtmlReport.h"
#include "report/MarkdownReport.h"
#include "report/ReportFiles.h"
#include "report/SvgCharts.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace strata;
using namespace strata::report;

namespace {

QString writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

QByteArray indented(const QJsonObject &json) { return QJsonDocument(json).toJson(QJsonDocument::Indented); }

// The 1-based line of the `occurrence`-th (0-based) `"key"` in `text`.
int lineOfKey(const QByteArray &text, const QByteArray &key, int occurrence)
{
    qsizetype at = -1;
    for (int i = 0; i <= occurrence; ++i)
        at = text.indexOf('"' + key + "\":", at + 1);
    return at < 0 ? -1 : int(text.left(at).count('\n')) + 1;
}

// `count` tasks whose speedups spread over 0.5x..8x, every tenth failed, a roofline share on most.
optimize::SuiteOutcome syntheticSuite(int count)
{
    optimize::SuiteOutcome suite;
    suite.suite = QStringLiteral("synthetic");
    for (int i = 0; i < count; ++i) {
        const bool failed = i % 10 == 9;
        const double initial = 1.0, best = 1.0 / (0.5 + 7.5 * ((i * 37) % 101) / 100.0);
        optimize::TaskOutcome task = testing::task(QStringLiteral("task_%1").arg(i), failed ? QStringLiteral("failed") : QStringLiteral("improved"),
                                                   initial, failed ? std::nullopt : std::optional<double>(best),
                                                   i % 3 ? std::optional<double>((i * 13) % 100) : std::nullopt,
                                                   i % 2 ? QStringLiteral("memory") : QStringLiteral("compute"));
        suite.tasks.append(task);
    }
    return suite;
}

int xmlErrors(const QString &text, int *rows)
{
    QXmlStreamReader reader(text);
    *rows = 0;
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement() && reader.name() == QLatin1String("tr")
            && reader.attributes().value(QStringLiteral("class")).startsWith(QLatin1String("task")))
            ++*rows;
    }
    return reader.hasError() ? 1 : 0;
}

} // namespace

class ReportStreamTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void fileReportMatchesTheSuiteInMemory();
    void badResultsNameTheFilePathAndLine_data();
    void badResultsNameTheFilePathAndLine();
    void unknownFieldsAreIgnored();
    void largeSuiteChartsAreDistributions();
    void pdfChartsFitAPageAndStaySmall();

private:
    QTemporaryDir m_dir;
    optimize::SuiteOutcome m_suite;
    QByteArray m_resultsText;
    QString m_results;
};

void ReportStreamTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_suite = testing::suiteOutcome(QStringLiteral("import triton\n# <b>source</b>\n"));
    m_resultsText = indented(optimize::toJson(m_suite));
    m_results = writeFile(m_dir.filePath(QStringLiteral("results.json")), m_resultsText);
}

void ReportStreamTest::fileReportMatchesTheSuiteInMemory()
{
    Expected<SuiteReport> streamed = readSuiteReport(m_results);
    QVERIFY2(streamed, streamed ? "" : qPrintable(streamed.error().toString()));
    const SuiteReport memory = buildSuiteReport(m_suite);
    QVERIFY(streamed->suite.tasks.isEmpty());  // nothing kept: the tasks are read again per pass
    QCOMPARE(streamed->summary.geomean, memory.summary.geomean);
    QCOMPARE(streamed->summary.median, memory.summary.median);
    QCOMPARE(streamed->summary.failures, 1);
    QCOMPARE(streamed->failed, memory.failed);
    QCOMPARE(streamed->bars.size(), memory.bars.size());
    for (const char *format : {"html", "md", "csv", "json"}) {
        Expected<QString> fromFile = suiteReportText(*streamed, QLatin1String(format), QStringLiteral("test"));
        Expected<QString> inMemory = suiteReportText(memory, QLatin1String(format), QStringLiteral("test"));
        QVERIFY(fromFile && inMemory);
        QCOMPARE(*fromFile, *inMemory);
    }
    // The streamed JSON is laid out exactly as QJsonDocument lays out the whole object.
    QCOMPARE(*suiteReportText(memory, QStringLiteral("json"), {}), QString::fromUtf8(indented(suiteJson(memory))));
    // A file written as it is rendered holds the same text.
    const QString md = m_dir.filePath(QStringLiteral("streamed.md"));
    QVERIFY(writeSuiteReport(*streamed, QStringLiteral("md"), md, {}));
    QFile file(md);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(file.readAll()), suiteMarkdown(memory));
}

void ReportStreamTest::badResultsNameTheFilePathAndLine_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");
    const QByteArray good = m_resultsText;
    auto replaced = [&](const QByteArray &from, const QByteArray &to, int occurrence) {
        QByteArray text = good;
        qsizetype at = -1;
        for (int i = 0; i <= occurrence; ++i)
            at = text.indexOf(from, at + 1);
        return text.replace(at, from.size(), to);
    };
    // Task 1 (softmax) has initial 0.3 ms and best 0.1 ms; task 0 has three candidates.
    QTest::newRow("negative time") << replaced("\"initial_ms\": 0.3", "\"initial_ms\": -0.3", 0)
                                   << "tasks[1].initial_ms is -0.3: a time must be positive" << lineOfKey(good, "initial_ms", 1);
    QTest::newRow("zero time") << replaced("\"best_ms\": 0.1", "\"best_ms\": 0", 0)
                               << "tasks[1].best_ms is 0: a time must be positive" << lineOfKey(good, "best_ms", 1);
    QTest::newRow("zero candidate time") << replaced("\"median_ms\": 0.01", "\"median_ms\": 0", 0)
                                         << "tasks[0].candidates[2].median_ms is 0" << lineOfKey(good, "median_ms", 2);
    QTest::newRow("unknown status") << replaced("\"status\": \"no_gain\"", "\"status\": \"great\"", 0)
                                    << "tasks[3].status is \"great\", not one of improved, no_gain" << lineOfKey(good, "status", 3);
    QTest::newRow("number as text") << replaced("\"initial_ms\": 0.3", "\"initial_ms\": \"fast\"", 0)
                                    << "tasks[1].initial_ms is not a number" << lineOfKey(good, "initial_ms", 1);
    QTest::newRow("text as number") << replaced("\"category\": \"elementwise\"", "\"category\": 5", 0)
                                    << "tasks[0].category is not a string" << lineOfKey(good, "category", 0);
    QTest::newRow("missing tasks") << replaced("\"tasks\": [", "\"jobs\": [", 0) << "results.tasks is missing" << 0;
    QTest::newRow("tasks not an array") << QByteArray("{\"schema\": \"strata.bench\",\n \"tasks\": {}}")
                                        << "results.tasks is not an array" << 2;
    QTest::newRow("task not an object") << QByteArray("{\"schema\": \"strata.bench\",\n \"tasks\": [\n 3]}")
                                        << "tasks[0] is not an object" << 3;
    QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON" << int(good.left(good.size() / 2).count('\n')) + 1;
    QTest::newRow("not JSON") << QByteArray("root:x:0:0:root:/root:/bin/bash\n") << "not valid JSON" << 1;
    QTest::newRow("wrong schema") << replaced("strata.bench", "strata.other", 0) << "not a Strata bench results file"
                                  << lineOfKey(good, "schema", 0);
    QTest::newRow("too deep") << QByteArray("{\"schema\": \"strata.bench\", \"tasks\": [{\"task\": \"a\", \"x\": ")
                                     + QByteArray(100, '[') + QByteArray(100, ']') + "}]}"
                              << "nested deeper than 64 levels" << 1;
}

void ReportStreamTest::badResultsNameTheFilePathAndLine()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QFETCH(int, line);
    const QString path = writeFile(m_dir.filePath(QStringLiteral("bad.json")), text);
    const Expected<optimize::SuiteOutcome> read = optimize::readSuiteOutcomeFile(path);
    QVERIFY(!read);
    QCOMPARE(read.error().file, path);
    QVERIFY2(read.error().message.contains(message), qPrintable(read.error().toString()));
    QCOMPARE(read.error().line, line);
    QVERIFY(!readSuiteReport(path));
}

void ReportStreamTest::unknownFieldsAreIgnored()
{
    // Later writers may add fields (a "coverage" of whole/part/merged runs, say): not an error.
    QJsonObject json = optimize::toJson(m_suite);
    json.insert(QStringLiteral("coverage"), QStringLiteral("merged"));
    QJsonArray tasks = json.value(QStringLiteral("tasks")).toArray();
    QJsonObject first = tasks[0].toObject();
    first.insert(QStringLiteral("coverage"), QJsonObject{{QStringLiteral("runs"), QJsonArray{1, 2}}});
    tasks[0] = first;
    json.insert(QStringLiteral("tasks"), tasks);
    const QString path = writeFile(m_dir.filePath(QStringLiteral("extra.json")), indented(json));
    const Expected<optimize::SuiteOutcome> read = optimize::readSuiteOutcomeFile(path);
    QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
    QCOMPARE(read->tasks.size(), m_suite.tasks.size());
    QCOMPARE(read->tasks[0].candidates.size(), 3);
}

void ReportStreamTest::largeSuiteChartsAreDistributions()
{
    const SuiteReport report = buildSuiteReport(syntheticSuite(3000));
    QVERIFY(!report.perTaskCharts());
    QVERIFY(report.bars.isEmpty());
    qint64 counted = report.histogram.unmeasured;
    for (qint64 count : report.histogram.counts)
        counted += count;
    QCOMPARE(counted, 3000);
    QCOMPARE(report.histogram.unmeasured, 300);
    const QVector<Chart> charts = suiteCharts(report, 16);
    QCOMPARE(charts.size(), 2);
    for (const Chart &chart : charts) {
        QVERIFY2(chart.height <= 400, qPrintable(chart.id));
        QVERIFY2(chart.svg.size() < 200 * 1024, qPrintable(chart.id));  // fixed size, not one mark per task
        QVERIFY2(!chartImage(chart, 1.0).isNull(), qPrintable(chart.id));
    }
    QVERIFY(charts[0].title.startsWith(QStringLiteral("Speedup distribution")));
    int rows = 0;
    QCOMPARE(xmlErrors(suiteHtml(report), &rows), 0);
    QCOMPARE(rows, 3000);  // the table still lists every task

    // At the limit the charts still show each task, split for the PDF into parts of 16 bars.
    const SuiteReport atLimit = buildSuiteReport(syntheticSuite(kPerTaskChartLimit));
    QVERIFY(atLimit.perTaskCharts());
    const QVector<Chart> parts = speedupCharts(atLimit, 16);
    QCOMPARE(parts.size(), (kPerTaskChartLimit + 15) / 16);
    QCOMPARE(parts[1].id, QStringLiteral("speedup-2"));
    for (const Chart &part : parts)
        QVERIFY(part.height <= 46 + 16 * 18 + 34);
}

void ReportStreamTest::pdfChartsFitAPageAndStaySmall()
{
    constexpr int tasks = 1200;
    const QString results = writeFile(m_dir.filePath(QStringLiteral("big.json")), indented(optimize::toJson(syntheticSuite(tasks))));
    Expected<SuiteReport> report = readSuiteReport(results);
    QVERIFY(report);
    const QString pdf = m_dir.filePath(QStringLiteral("big.pdf"));
    Expected<int> pages = writeSuitePdf(*report, pdf, {});
    QVERIFY2(pages, pages ? "" : qPrintable(pages.error().toString()));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.startsWith("%PDF-"));
    QVERIFY2(bytes.size() < tasks / 100 * 1024 * 1024, qPrintable(QString::number(bytes.size())));
    QVERIFY(*pages > tasks / 60);  // every row is there, a few dozen to a page
    // Images at twice their size: none taller than two landscape pages' worth of points.
    static const QRegularExpression imageHeight(QStringLiteral("/Subtype /Image[^>]*?/Height (\\d+)"));
    int images = 0;
    for (const QRegularExpressionMatch &match : imageHeight.globalMatch(QString::fromLatin1(bytes))) {
        ++images;
        QVERIFY2(match.captured(1).toInt() <= 2 * 527, qPrintable(match.captured(1)));
    }
    QCOMPARE(images, 2);  // the histogram and the density grid
}

QTEST_MAIN(ReportStreamTest)
#include "tst_report_stream.moc"
