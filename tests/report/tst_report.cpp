// The report library on real data: the ladder's diagnosis of a fixture compile and a suite
// outcome built here. Every format is parsed back: HTML as XML, Markdown tables, JSON round
// trips, CSV rows and columns, SARIF's required structure.
#include "ReportTestData.h"
#include "diagnosis/model/DiagnosisJson.h"
#include "optimize/OutcomeJson.h"
#include "report/DataReport.h"
#include "report/HtmlReport.h"
#include "report/LadderJson.h"
#include "report/MarkdownReport.h"
#include "report/SarifReport.h"

#include <QJsonArray>
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <QtTest>

using namespace strata;
using namespace strata::report;

namespace {

// Elements of an XHTML document by name (and class, when given); fails the test on bad XML.
struct XmlScan {
    QString error;
    QMap<QString, int> counts;   // "tr.task" / "svg" -> count
    QStringList texts;           // all character data
};

XmlScan scanXml(const QString &text)
{
    XmlScan scan;
    QXmlStreamReader reader(text);
    while (!reader.atEnd()) {
        reader.readNext();
        if (reader.isStartElement()) {
            const QString name = reader.name().toString();
            ++scan.counts[name];
            for (const QString &cssClass : reader.attributes().value(QStringLiteral("class")).toString().split(u' ', Qt::SkipEmptyParts))
                ++scan.counts[name + u'.' + cssClass];
        } else if (reader.isCharacters()) {
            scan.texts.append(reader.text().toString());
        }
    }
    if (reader.hasError())
        scan.error = QStringLiteral("line %1: %2").arg(reader.lineNumber()).arg(reader.errorString());
    return scan;
}

// RFC 4180 rows (quoted fields may hold commas, quotes and line breaks).
QVector<QStringList> parseCsv(const QString &text)
{
    QVector<QStringList> rows;
    QStringList row;
    QString field;
    bool quoted = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (quoted) {
            if (c == u'"' && i + 1 < text.size() && text[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            row.append(field);
            field.clear();
        } else if (c == u'\n') {
            row.append(field);
            rows.append(row);
            row.clear();
            field.clear();
        } else {
            field += c;
        }
    }
    return rows;
}

// Cells of a Markdown table row, split on pipes that are not escaped.
QStringList markdownCells(const QString &line)
{
    QString inner = line.trimmed();
    inner = inner.mid(1, inner.size() - 2);
    return inner.split(QRegularExpression(QStringLiteral("(?<!\\\\)\\|")));
}

// The Markdown table that follows `heading`: its lines, header and separator included.
QStringList markdownTableAfter(const QString &markdown, const QString &heading)
{
    const QStringList lines = markdown.split(u'\n');
    QStringList table;
    int i = int(lines.indexOf(heading));
    if (i < 0)
        return table;
    for (++i; i < lines.size() && (lines[i].isEmpty() && table.isEmpty()); ++i) {}
    for (; i < lines.size() && lines[i].startsWith(u'|'); ++i)
        table.append(lines[i]);
    return table;
}

} // namespace

class ReportTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void unifiedDiffOfTwoTexts();
    void suiteFiguresAndChartData();
    void kernelReportFromTheLadder();
    void suiteHtmlParsesAndShowsEverything();
    void kernelHtmlEscapesSourceAndShowsFindings();
    void markdownTables();
    void jsonRoundTrips();
    void mergedResultsNameWhereEachTaskWasMeasured();
    void csvRowsAndColumns();
    void sarifStructure();
    void diagnosisJsonWithBadRanking();
    void degradedInputWarningsShowInKernelReports();

private:
    std::optional<LoadedCompile> m_compile;
    diagnosis::LadderResult m_ladder;
    optimize::SuiteOutcome m_suite;
    SuiteReport m_suiteReport;
    KernelReport m_kernelReport;
};

void ReportTest::initTestCase()
{
    m_compile = testing::loadFixtureCompile(QStringLiteral("vector_add/unaligned"));
    m_ladder = testing::ladderOnUnalignedAdd(*m_compile);
    // L1 ran on the fixture AST (the sample is clean at L1), L3 and L4 found the scalar accesses.
    QCOMPARE(m_ladder.diagnosis.escalation.first().step, QStringLiteral("L1 triage"));
    QVERIFY(!m_ladder.diagnosis.escalation.first().reason.startsWith(QStringLiteral("skipped")));
    QVERIFY(m_ladder.ranking.size() >= 3);
    m_suite = testing::suiteOutcome(m_compile->sourceText);
    m_suiteReport = buildSuiteReport(m_suite);
    KernelReportInputs inputs;
    inputs.task = &m_suite.tasks[0];
    inputs.diagnosis = &m_ladder;
    inputs.compile = &*m_compile;
    m_kernelReport = buildKernelReport(inputs);
}

void ReportTest::unifiedDiffOfTwoTexts()
{
    const QString before = QStringLiteral("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n");
    const QString after = QStringLiteral("a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\n");
    const UnifiedDiff diff = diffTexts(before, after, QStringLiteral("old"), QStringLiteral("new"), 1);
    QCOMPARE(diff.removed, 1);
    QCOMPARE(diff.added, 2);
    QCOMPARE(diff.toText(), QStringLiteral("--- old\n+++ new\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n@@ -10,1 +10,2 @@\n j\n+k\n"));
    QVERIFY(diffTexts(before, before, {}, {}).isEmpty());
    // An insertion at the very start: the empty "before" side starts at line 0, as diff -u says.
    QCOMPARE(diffTexts(QStringLiteral("x\n"), QStringLiteral("y\nx\n"), QStringLiteral("a"), QStringLiteral("b"), 0).hunks.first().header(),
             QStringLiteral("@@ -0,0 +1,1 @@"));
}

void ReportTest::suiteFiguresAndChartData()
{
    const SuiteSummary &summary = m_suiteReport.summary;
    QCOMPARE(summary.tasks, 6);
    QVERIFY(qAbs(summary.geomean - std::pow(27.0, 1.0 / 6)) < 1e-9);  // 6 * 3 * 1.5, three tasks at 1.0x
    QVERIFY(qAbs(summary.median - 1.25) < 1e-9);
    QCOMPARE(summary.over2x, 2);
    QCOMPARE(summary.over5x, 1);
    QCOMPARE(summary.failures, 1);
    QCOMPARE(summary.measuredVsBaseline, 5);
    QVERIFY(qAbs(summary.geomeanVsBestBaseline - std::pow(7.2 * 3.6 * 1.8 * 1.2 * 1.2, 0.2)) < 1e-9);
    QStringList order;
    for (const SpeedupBar &bar : m_suiteReport.bars)
        order.append(bar.taskId);
    QCOMPARE(order.first(), QStringLiteral("vector_add"));
    QCOMPARE(order.last(), QStringLiteral("attention|<bad>"));  // the failure is kept, last
    QVERIFY(!m_suiteReport.bars.last().measured);
    QCOMPARE(m_suiteReport.roofline.size(), 4);
    QCOMPARE(m_suiteReport.failed, QVector<int>{5});
}

void ReportTest::kernelReportFromTheLadder()
{
    const KernelReport &report = m_kernelReport;
    QCOMPARE(report.title, QStringLiteral("vector_add"));
    QVERIFY(report.best);
    QCOMPARE(report.best->id, 3);  // the accepted one, not the wrong one
    QVERIFY(report.winningDiff.toText().contains(QStringLiteral("+def add_kernel(x_ptr, y_ptr, out_ptr, n_elements: tl.constexpr")));
    QCOMPARE(report.findings.size(), m_ladder.ranking.size());
    const QStringList sourceLines = m_compile->sourceText.split(u'\n');
    int withIr = 0;
    for (const FindingEntry &entry : report.findings) {
        const int line = entry.finding.span.line;
        QVERIFY(line > 0);
        bool focused = false;
        for (const ExcerptLine &excerpt : entry.source) {
            QCOMPARE(excerpt.text, sourceLines[excerpt.number - 1]);
            focused |= excerpt.focus && excerpt.number == line;
        }
        QVERIFY2(focused, qPrintable(entry.finding.ruleId));
        for (const IrExcerpt &ir : entry.ir) {
            const QVector<int> mapped = m_compile->map.linesForSource(ir.stage, line);
            QCOMPARE(ir.lines.size() + ir.omitted, mapped.size());
            for (const ExcerptLine &irLine : ir.lines) {
                QVERIFY(mapped.contains(irLine.number - 1));
                QCOMPARE(irLine.text, m_compile->listing(ir.stage)->lines[irLine.number - 1].text.trimmed());
            }
        }
        withIr += !entry.ir.isEmpty();
    }
    QVERIFY(withIr > 0);
    // The load line has code in TTGIR and PTX.
    const int xLoad = testing::sourceLineContaining(*m_compile, QStringLiteral("x = tl.load"));
    for (const FindingEntry &entry : report.findings) {
        if (entry.finding.span.line != xLoad)
            continue;
        QStringList stages;
        for (const IrExcerpt &ir : entry.ir)
            stages.append(ir.stage);
        QVERIFY2(stages.contains(QStringLiteral("ttgir")) && stages.contains(QStringLiteral("ptx")), qPrintable(stages.join(u',')));
    }
}

void ReportTest::suiteHtmlParsesAndShowsEverything()
{
    const QString page = suiteHtml(m_suiteReport);
    const XmlScan scan = scanXml(page);
    QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
    QCOMPARE(scan.counts.value(QStringLiteral("tr.task")), 6);
    QCOMPARE(scan.counts.value(QStringLiteral("tr.failed")), 1);
    QCOMPARE(scan.counts.value(QStringLiteral("svg")), 2);
    QCOMPARE(scan.counts.value(QStringLiteral("script")), 0);
    QCOMPARE(scan.counts.value(QStringLiteral("img")), 0);  // self-contained: nothing to load
    QVERIFY(!page.contains(QStringLiteral("http://www.w3.org/2000/svg\" href")));
    // Bars: one rect per measured task plus the failure's marker and the background.
    QVERIFY(scan.counts.value(QStringLiteral("rect")) >= 6 + 1);
    const QString all = scan.texts.join(u'\n');
    for (const QString &expected : {QStringLiteral("1.73x"), QStringLiteral("geomean 1.73x"), QStringLiteral("median 1.25x"),
                                    QStringLiteral("NVIDIA H200"), QStringLiteral("580.65.06"), QStringLiteral("72f7e19"),
                                    QStringLiteral("2026-12-01T12:00:00Z"), QStringLiteral("attention|<bad>"),
                                    QStringLiteral("verify failed: max abs error 3.2 > 1e-3"), QStringLiteral("2x"), QStringLiteral("5x")})
        QVERIFY2(all.contains(expected), qPrintable(expected));
    QVERIFY(!page.contains(QStringLiteral("<bad>")));

    const QString imagePage = suiteHtml(m_suiteReport, {HtmlOptions::Charts::ImageReferences, {}});
    const XmlScan images = scanXml(imagePage);
    QVERIFY2(images.error.isEmpty(), qPrintable(images.error));
    QCOMPARE(images.counts.value(QStringLiteral("svg")), 0);
    QCOMPARE(images.counts.value(QStringLiteral("img")), 2);
}

void ReportTest::kernelHtmlEscapesSourceAndShowsFindings()
{
    const QString page = kernelHtml(m_kernelReport);
    const XmlScan scan = scanXml(page);
    QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
    QVERIFY(!page.contains(QStringLiteral("</script>")));
    QVERIFY(!page.contains(QStringLiteral("<b>not bold")));
    QVERIFY(page.contains(QStringLiteral("&lt;/script&gt;&lt;b&gt;not bold&lt;/b&gt; &amp; &quot;quoted&quot;")));
    QVERIFY(scan.texts.join(QString()).contains(QStringLiteral("+# </script><b>not bold</b> & \"quoted\"")));
    QCOMPARE(scan.counts.value(QStringLiteral("script")), 0);
    QCOMPARE(scan.counts.value(QStringLiteral("div.finding")), m_ladder.ranking.size());
    QCOMPARE(scan.counts.value(QStringLiteral("tr.candidate")), 3);
    QCOMPARE(scan.counts.value(QStringLiteral("span.add")), m_kernelReport.winningDiff.added);
    QVERIFY(scan.counts.value(QStringLiteral("pre.ir")) > 0);
    QCOMPARE(scan.counts.value(QStringLiteral("pre.source")), m_ladder.ranking.size());
    QCOMPARE(scan.counts.value(QStringLiteral("ol.escalation")), 1);
    const QString all = scan.texts.join(u'\n');
    QVERIFY(all.contains(m_ladder.ranking.first().finding.cause));
    QVERIFY(all.contains(QStringLiteral("status untested")));
    QVERIFY(all.contains(QStringLiteral("6.00x")));  // 0.06 ms -> 0.01 ms
}

void ReportTest::markdownTables()
{
    const QString suite = suiteMarkdown(m_suiteReport);
    const QStringList tasks = markdownTableAfter(suite, QStringLiteral("## Tasks"));
    QCOMPARE(tasks.size(), 2 + 6);
    for (const QString &row : tasks)
        QCOMPARE(markdownCells(row).size(), 12);
    QVERIFY(tasks.last().contains(QStringLiteral("attention\\|<bad>")));
    QVERIFY(suite.contains(QStringLiteral("- **attention|<bad>**: verify failed")));
    const QStringList summary = markdownTableAfter(suite, QStringLiteral("## Summary"));
    QCOMPARE(summary.size(), 3);
    QCOMPARE(markdownCells(summary[2]).value(1).trimmed(), QStringLiteral("1.73x"));

    const QString kernel = kernelMarkdown(m_kernelReport);
    const QStringList candidates = markdownTableAfter(kernel, QStringLiteral("## Candidates tried"));
    QCOMPARE(candidates.size(), 2 + 3);
    QVERIFY(kernel.contains(QStringLiteral("```diff\n--- initial/vector_add")));
    QCOMPARE(kernel.count(QRegularExpression(QStringLiteral("^### \\d+\\. \\["), QRegularExpression::MultilineOption)), m_ladder.ranking.size());
}

void ReportTest::jsonRoundTrips()
{
    Expected<optimize::SuiteOutcome> suite = optimize::suiteOutcomeFromJson(suiteJson(m_suiteReport), QStringLiteral("<test>"));
    QVERIFY2(suite, suite ? "" : qPrintable(suite.error().toString()));
    QCOMPARE(suite->tasks.size(), 6);
    QCOMPARE(suite->device, m_suite.device);
    QCOMPARE(suite->geomeanSpeedup(), m_suite.geomeanSpeedup());
    QCOMPARE(suite->tasks[0].candidates.size(), 3);
    QCOMPARE(suite->tasks[0].candidates[2].sourceText, m_suite.tasks[0].candidates[2].sourceText);

    const QJsonObject kernel = kernelJson(m_kernelReport);
    QCOMPARE(kernel.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.report.kernel"));
    QCOMPARE(kernel.value(QStringLiteral("winning_diff")).toString(), m_kernelReport.winningDiff.toText());
    Expected<diagnosis::LadderResult> ladder = ladderResultFromJson(kernel.value(QStringLiteral("diagnosis")).toObject(), QStringLiteral("<test>"));
    QVERIFY2(ladder, ladder ? "" : qPrintable(ladder.error().toString()));
    QCOMPARE(ladder->diagnosis, m_ladder.diagnosis);
    QCOMPARE(ladder->ranking.size(), m_ladder.ranking.size());
    for (int i = 0; i < ladder->ranking.size(); ++i) {
        QCOMPARE(ladder->ranking[i].finding, m_ladder.ranking[i].finding);
        QCOMPARE(ladder->ranking[i].status, m_ladder.ranking[i].status);
    }
    QCOMPARE(ladder->rankingBasis, m_ladder.rankingBasis);
    QVERIFY(kernel.value(QStringLiteral("task")).isObject());
}

void ReportTest::mergedResultsNameWhereEachTaskWasMeasured()
{
    // The committed H200 results of 2026-12-02 merge two days' runs (bench/gpu/merge_results.py):
    // the reports must say so, per task, and a JSON round trip must keep it.
    Expected<optimize::SuiteOutcome> read =
        optimize::readSuiteOutcomeFile(QStringLiteral(STRATA_SOURCE_DIR "/bench/results/hopper-core-H200-2026-12-02-merged.json"));
    QVERIFY2(read, read ? "" : qPrintable(read.error().toString()));
    QCOMPARE(read->mergedFrom.size(), 3);
    const SuiteReport report = buildSuiteReport(*read);
    const QString markdown = suiteMarkdown(report);
    QVERIFY(markdown.contains(QStringLiteral("Merged from several runs: ae22111 2026-12-01 (48 tasks); a6dc46c 2026-12-02 (10 tasks)")));
    const QStringList tasks = markdownTableAfter(markdown, QStringLiteral("## Tasks"));
    QCOMPARE(tasks.size(), 2 + 48);
    QCOMPARE(markdownCells(tasks[0]).size(), 13);
    QVERIFY(markdownCells(tasks[0]).last().contains(QStringLiteral("measured in")));
    int fromSecondDay = 0;
    for (const QString &row : tasks.mid(2)) {
        const QStringList cells = markdownCells(row);
        fromSecondDay += cells.last().contains(QStringLiteral("a6dc46c 2026-12-02"));
        if (cells.first().trimmed() == QLatin1String("matmul_w8a16"))
            QCOMPARE(cells[2].trimmed(), QStringLiteral("improved (partial)"));
    }
    QCOMPARE(fromSecondDay, 14);
    QVERIFY(suiteHtml(report).contains(QStringLiteral("Merged from")));

    Expected<optimize::SuiteOutcome> again = optimize::suiteOutcomeFromJson(suiteJson(report), QStringLiteral("<round trip>"));
    QVERIFY(again);
    QCOMPARE(again->mergedFrom, read->mergedFrom);
    QCOMPARE(again->tasks.size(), 48);
    QCOMPARE(again->tasks.first().measuredIn, read->tasks.first().measuredIn);
}

void ReportTest::csvRowsAndColumns()
{
    const QVector<QStringList> suite = parseCsv(suiteCsv(m_suiteReport));
    QCOMPARE(suite.size(), 1 + 6);
    for (const QStringList &row : suite)
        QCOMPARE(row.size(), 14);
    QCOMPARE(suite[0].first(), QStringLiteral("task"));
    QCOMPARE(suite[6][0], QStringLiteral("attention|<bad>"));
    QCOMPARE(suite[6][13], QStringLiteral("verify failed: max abs error 3.2 > 1e-3"));

    const QVector<QStringList> kernel = parseCsv(kernelCsv(m_kernelReport));
    QCOMPARE(kernel.size(), 1 + 3);
    for (const QStringList &row : kernel)
        QCOMPARE(row.size(), 12);
    QCOMPARE(kernel[2][7], QStringLiteral("max abs error 3.2, \"wrong\""));  // comma and quotes survive
    QCOMPARE(kernel[3][6], QStringLiteral("accepted"));
    QCOMPARE(kernel[3][8].toDouble(), 0.01);
}

void ReportTest::sarifStructure()
{
    const QJsonObject log = sarifLog(m_ladder, {QStringLiteral("0.1.0"), {}});
    QCOMPARE(log.value(QStringLiteral("version")).toString(), QStringLiteral("2.1.0"));
    QVERIFY(log.value(QStringLiteral("$schema")).toString().contains(QStringLiteral("sarif-2.1.0")));
    const QJsonArray runs = log.value(QStringLiteral("runs")).toArray();
    QCOMPARE(runs.size(), 1);
    const QJsonObject driver = runs[0].toObject().value(QStringLiteral("tool")).toObject().value(QStringLiteral("driver")).toObject();
    QCOMPARE(driver.value(QStringLiteral("name")).toString(), QStringLiteral("Strata"));
    const QJsonArray rules = driver.value(QStringLiteral("rules")).toArray();
    QSet<QString> ruleIds;
    for (const QJsonValue &rule : rules) {
        QVERIFY(!rule.toObject().value(QStringLiteral("id")).toString().isEmpty());
        ruleIds.insert(rule.toObject().value(QStringLiteral("id")).toString());
    }
    QCOMPARE(ruleIds.size(), rules.size());
    const QJsonArray results = runs[0].toObject().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), m_ladder.ranking.size());
    const QSet<QString> levels{QStringLiteral("none"), QStringLiteral("note"), QStringLiteral("warning"), QStringLiteral("error")};
    for (int i = 0; i < results.size(); ++i) {
        const QJsonObject result = results[i].toObject();
        const diagnosis::Finding &finding = m_ladder.ranking[i].finding;
        QCOMPARE(result.value(QStringLiteral("ruleId")).toString(), finding.ruleId);
        const int ruleIndex = result.value(QStringLiteral("ruleIndex")).toInt(-1);
        QCOMPARE(rules[ruleIndex].toObject().value(QStringLiteral("id")).toString(), finding.ruleId);
        QVERIFY(levels.contains(result.value(QStringLiteral("level")).toString()));
        QCOMPARE(result.value(QStringLiteral("level")).toString(), sarifLevel(finding.severity));
        QCOMPARE(result.value(QStringLiteral("message")).toObject().value(QStringLiteral("text")).toString(), finding.cause);
        const QJsonObject physical = result.value(QStringLiteral("locations")).toArray().first().toObject()
                                         .value(QStringLiteral("physicalLocation")).toObject();
        const QString uri = physical.value(QStringLiteral("artifactLocation")).toObject().value(QStringLiteral("uri")).toString();
        QVERIFY2(uri.endsWith(QFileInfo(finding.span.file).fileName()), qPrintable(uri));
        QCOMPARE(physical.value(QStringLiteral("region")).toObject().value(QStringLiteral("startLine")).toInt(), finding.span.line);
    }
    QCOMPARE(sarifLevel(diagnosis::Severity::High), QStringLiteral("error"));
    QCOMPARE(sarifLevel(diagnosis::Severity::Info), QStringLiteral("none"));
}

void ReportTest::diagnosisJsonWithBadRanking()
{
    QJsonObject json = diagnosis::toJson(m_ladder);
    QJsonArray ranking = json.value(QStringLiteral("ranking")).toArray();
    QJsonObject first = ranking[0].toObject();
    first.insert(QStringLiteral("rule"), QStringLiteral("L9.nothing"));
    ranking[0] = first;
    json.insert(QStringLiteral("ranking"), ranking);
    Expected<diagnosis::LadderResult> bad = ladderResultFromJson(json, QStringLiteral("diag.json"));
    QVERIFY(!bad);
    QCOMPARE(bad.error().file, QStringLiteral("diag.json"));
    QVERIFY2(bad.error().message.startsWith(QStringLiteral("ranking[0]: no finding L9.nothing")), qPrintable(bad.error().message));

    json.remove(QStringLiteral("ranking"));
    Expected<diagnosis::LadderResult> unranked = ladderResultFromJson(json, QStringLiteral("diag.json"));
    QVERIFY(unranked);
    QCOMPARE(unranked->ranking.size(), m_ladder.diagnosis.allFindings().size());
    QCOMPARE(unranked->ranking.first().status, QStringLiteral("not ranked"));
}

void ReportTest::degradedInputWarningsShowInKernelReports()
{
    diagnosis::LadderResult degraded = m_ladder;
    degraded.diagnosis.warnings = {QStringLiteral("ttgir not read (not-a-stage): /c/k.ttgir:1: no MLIR module <or> function")};
    KernelReportInputs inputs;
    inputs.diagnosis = &degraded;
    const KernelReport report = buildKernelReport(inputs);
    const QString page = kernelHtml(report);
    const XmlScan scan = scanXml(page);
    QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
    QCOMPARE(scan.counts.value(QStringLiteral("p.warning")), 1);
    QVERIFY(scan.texts.join(u'\n').contains(QStringLiteral("Warning: ttgir not read (not-a-stage): /c/k.ttgir:1: no MLIR module <or> function")));
    QVERIFY(kernelMarkdown(report).contains(QStringLiteral("> **Warning:** ttgir not read (not-a-stage): /c/k.ttgir:1")));
    // Without warnings, no banner.
    QCOMPARE(scanXml(kernelHtml(m_kernelReport)).counts.value(QStringLiteral("p.warning")), 0);
}

QTEST_GUILESS_MAIN(ReportTest)
#include "tst_report.moc"
