// strata-cli report end to end: a results file and a diagnosis written from real data, every
// format written to a file and read back, and the errors for bad input.
#include "ReportTestData.h"
#include "optimize/OutcomeJson.h"

#include <QJsonArray>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

struct CliRun {
    int exitCode = -1;
    QString out, err;
};

CliRun runCli(const QStringList &args)
{
    QProcess process;
    process.start(QStringLiteral(STRATA_CLI_PATH), QStringList{QStringLiteral("report")} + args);
    CliRun run;
    if (!process.waitForFinished(120000))
        return run;
    run.exitCode = process.exitCode();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

void writeJson(const QString &path, const QJsonObject &json)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QJsonDocument(json).toJson());
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class ReportCliTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void suiteReportInEveryFormat();
    void kernelReportOfATaskWithItsDiagnosis();
    void diagnosisAloneWithCompile();
    void badInputNamesTheProblem();
    void badResultsAreRefused_data();
    void badResultsAreRefused();

private:
    QTemporaryDir m_dir;
    QString m_results, m_diagnosis, m_compileDir;
    int m_findings = 0;
};

void ReportCliTest::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const LoadedCompile compile = testing::loadFixtureCompile(QStringLiteral("vector_add/unaligned"));
    const diagnosis::LadderResult ladder = testing::ladderOnUnalignedAdd(compile);
    m_findings = ladder.ranking.size();
    m_results = m_dir.filePath(QStringLiteral("results.json"));
    m_diagnosis = m_dir.filePath(QStringLiteral("diagnosis.json"));
    m_compileDir = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/unaligned");
    writeJson(m_results, optimize::toJson(testing::suiteOutcome(compile.sourceText)));
    writeJson(m_diagnosis, diagnosis::toJson(ladder));
}

void ReportCliTest::suiteReportInEveryFormat()
{
    for (const QString &format : {QStringLiteral("html"), QStringLiteral("md"), QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("pdf")}) {
        const QString out = m_dir.filePath(QStringLiteral("suite.") + format);
        const CliRun run = runCli({m_results, QStringLiteral("--format"), format, QStringLiteral("--out"), out});
        QVERIFY2(run.exitCode == 0, qPrintable(format + QStringLiteral(": ") + run.err));
        const QByteArray bytes = readAll(out);
        QVERIFY2(!bytes.isEmpty(), qPrintable(format));
        if (format == QLatin1String("html")) {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("geomean 1.73x"));
        } else if (format == QLatin1String("md")) {
            QVERIFY(bytes.startsWith("# Strata suite report: report-test"));
        } else if (format == QLatin1String("json")) {
            QCOMPARE(QJsonDocument::fromJson(bytes).object().value(QStringLiteral("tasks")).toArray().size(), 6);
        } else if (format == QLatin1String("csv")) {
            QCOMPARE(bytes.count('\n'), 7);
        } else {
            QVERIFY(bytes.startsWith("%PDF-"));
            QVERIFY2(run.err.contains(QStringLiteral("page(s)")), qPrintable(run.err));
        }
    }
    // The format follows --out's suffix when --format is left out; '-' is stdout.
    const CliRun md = runCli({m_results, QStringLiteral("--format"), QStringLiteral("md"), QStringLiteral("--out"), QStringLiteral("-")});
    QCOMPARE(md.exitCode, 0);
    QVERIFY(md.out.contains(QStringLiteral("## Tasks")));
    const CliRun bySuffix = runCli({m_results, QStringLiteral("--out"), m_dir.filePath(QStringLiteral("by-suffix.html"))});
    QCOMPARE(bySuffix.exitCode, 0);
    QVERIFY(readAll(m_dir.filePath(QStringLiteral("by-suffix.html"))).startsWith("<!DOCTYPE html>"));
}

void ReportCliTest::kernelReportOfATaskWithItsDiagnosis()
{
    const QString html = m_dir.filePath(QStringLiteral("kernel.html"));
    const CliRun run = runCli({m_results, QStringLiteral("--task"), QStringLiteral("vector_add"), QStringLiteral("--diagnosis"), m_diagnosis,
                               QStringLiteral("--compile"), m_compileDir, QStringLiteral("--format"), QStringLiteral("html"),
                               QStringLiteral("--out"), html});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString page = QString::fromUtf8(readAll(html));
    QCOMPARE(page.count(QStringLiteral("<div class=\"finding\"")), m_findings);
    QVERIFY(page.contains(QStringLiteral("class=\"ir ir-ttgir\"")));
    QVERIFY(page.contains(QStringLiteral("&lt;/script&gt;&lt;b&gt;not bold&lt;/b&gt;")));
    QVERIFY(!page.contains(QStringLiteral("</script>")));

    const CliRun sarif = runCli({m_results, QStringLiteral("--task"), QStringLiteral("vector_add"), QStringLiteral("--diagnosis"), m_diagnosis,
                                 QStringLiteral("--format"), QStringLiteral("sarif"), QStringLiteral("--out"), QStringLiteral("-")});
    QVERIFY2(sarif.exitCode == 0, qPrintable(sarif.err));
    const QJsonObject log = QJsonDocument::fromJson(sarif.out.toUtf8()).object();
    QCOMPARE(log.value(QStringLiteral("version")).toString(), QStringLiteral("2.1.0"));
    QCOMPARE(log.value(QStringLiteral("runs")).toArray().first().toObject().value(QStringLiteral("results")).toArray().size(), m_findings);

    const CliRun csv = runCli({m_results, QStringLiteral("--task"), QStringLiteral("vector_add"), QStringLiteral("--format"),
                               QStringLiteral("csv"), QStringLiteral("--out"), QStringLiteral("-")});
    QCOMPARE(csv.exitCode, 0);
    QCOMPARE(csv.out.count(u'\n'), 1 + 3);  // header and three candidates
}

void ReportCliTest::diagnosisAloneWithCompile()
{
    const QString md = m_dir.filePath(QStringLiteral("diagnosis.md"));
    const CliRun run = runCli({m_diagnosis, QStringLiteral("--compile"), m_compileDir, QStringLiteral("--out"), md});
    QVERIFY2(run.exitCode == 0, qPrintable(run.err));
    const QString text = QString::fromUtf8(readAll(md));
    QVERIFY(text.startsWith(QStringLiteral("# Strata kernel report: add_kernel")));
    QVERIFY(text.contains(QStringLiteral("TTGIR")));
    QVERIFY(!text.contains(QStringLiteral("## Candidates tried")));
    const QString pdf = m_dir.filePath(QStringLiteral("diagnosis.pdf"));
    QCOMPARE(runCli({m_diagnosis, QStringLiteral("--out"), pdf}).exitCode, 0);
    QVERIFY(readAll(pdf).startsWith("%PDF-"));
}

void ReportCliTest::badInputNamesTheProblem()
{
    const CliRun noTask = runCli({m_results, QStringLiteral("--task"), QStringLiteral("nope"), QStringLiteral("--out"), QStringLiteral("-"),
                                  QStringLiteral("--format"), QStringLiteral("md")});
    QCOMPARE(noTask.exitCode, 2);
    QVERIFY2(noTask.err.contains(QStringLiteral("results.json: no task \"nope\" in the results")), qPrintable(noTask.err));
    const CliRun suiteSarif = runCli({m_results, QStringLiteral("--format"), QStringLiteral("sarif"), QStringLiteral("--out"), QStringLiteral("-")});
    QCOMPARE(suiteSarif.exitCode, 1);
    QVERIFY(suiteSarif.err.contains(QStringLiteral("SARIF holds findings")));
    const CliRun format = runCli({m_results, QStringLiteral("--format"), QStringLiteral("docx"), QStringLiteral("--out"), QStringLiteral("-")});
    QCOMPARE(format.exitCode, 1);
    QVERIFY(format.err.contains(QStringLiteral("unknown report format \"docx\"")));
    const QString other = m_dir.filePath(QStringLiteral("other.json"));
    writeJson(other, QJsonObject{{QStringLiteral("schema"), QStringLiteral("something")}});
    const CliRun schema = runCli({other, QStringLiteral("--out"), QStringLiteral("-"), QStringLiteral("--format"), QStringLiteral("md")});
    QCOMPARE(schema.exitCode, 2);
    QVERIFY2(schema.err.contains(QStringLiteral("other.json: schema \"something\" is neither")), qPrintable(schema.err));
    const CliRun missing = runCli({m_dir.filePath(QStringLiteral("missing.json")), QStringLiteral("--out"), QStringLiteral("x.md")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(QStringLiteral("missing.json: cannot read")));
}

void ReportCliTest::badResultsAreRefused_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("message");
    QTest::newRow("negative time") << "initial_ms" << QJsonValue(-2.0) << "tasks[1].initial_ms is -2: a time must be positive";
    QTest::newRow("zero time") << "best_ms" << QJsonValue(0) << "tasks[1].best_ms is 0: a time must be positive";
    QTest::newRow("unknown status") << "status" << QJsonValue(QStringLiteral("splendid"))
                                    << "tasks[1].status is \"splendid\", not one of";
    QTest::newRow("no tasks") << QString() << QJsonValue() << "results.tasks is missing";
}

// Values that used to give "infx" and exit 0: now exit 2, the file, line and JSON path named,
// and no report written, in every format.
void ReportCliTest::badResultsAreRefused()
{
    QFETCH(QString, field);
    QFETCH(QJsonValue, value);
    QFETCH(QString, message);
    QFile file(m_results);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    if (field.isEmpty()) {
        json.remove(QStringLiteral("tasks"));
    } else {
        QJsonArray tasks = json.value(QStringLiteral("tasks")).toArray();
        QJsonObject task = tasks[1].toObject();
        task.insert(field, value);
        tasks[1] = task;
        json.insert(QStringLiteral("tasks"), tasks);
    }
    const QString bad = m_dir.filePath(QStringLiteral("bad-results.json"));
    writeJson(bad, json);
    for (const QString &format : {QStringLiteral("md"), QStringLiteral("html"), QStringLiteral("pdf"), QStringLiteral("csv")}) {
        const QString out = m_dir.filePath(QStringLiteral("bad-report.") + format);
        const CliRun run = runCli({bad, QStringLiteral("--out"), out});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(QStringLiteral("bad-results.json:")), qPrintable(run.err));
        QVERIFY2(run.err.contains(message), qPrintable(run.err));
        if (!field.isEmpty())  // the line of the bad field
            QVERIFY2(run.err.contains(QRegularExpression(QStringLiteral("bad-results.json:\\d+: "))), qPrintable(run.err));
        QVERIFY2(!QFile::exists(out), qPrintable(out));
    }
    const CliRun task = runCli({bad, QStringLiteral("--task"), QStringLiteral("vector_add"), QStringLiteral("--out"), QStringLiteral("-"),
                                QStringLiteral("--format"), QStringLiteral("md")});
    QCOMPARE(task.exitCode, 2);
    QVERIFY(task.err.contains(message));
}

QTEST_GUILESS_MAIN(ReportCliTest)
#include "tst_report_cli.moc"
