// Which backend and target a suite run's figures belong to, from the results file to what a
// person sees: the file keeps them (whole and streamed reading), the Suite dock's summary shows
// them, and the exported reports show them (suite HTML/Markdown/JSON, the selected task's report,
// the diagnosis report of an Ascend compile). A file written before the fields existed says
// "not recorded". The Ascend run here is made up (no Ascend suite ever ran): only its header
// matters.
#include "UiTestSupport.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsFile.h"
#include "report/ReportFiles.h"
#include "report/SuiteReport.h"
#include "views/DiagnosisPanel.h"
#include "models/DiagnosisTreeModel.h"
#include "views/SuiteBrowser.h"

#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>

using namespace strata;
using namespace strata::test;
using optimize::SuiteOutcome;
using optimize::TaskOutcome;

namespace {

SuiteOutcome ascendRun()
{
    SuiteOutcome suite;
    suite.suite = QStringLiteral("ascend-npukernelbench");
    suite.device = QStringLiteral("stand-in (no NPU)");
    suite.backend = QStringLiteral("ascend");
    suite.target = QStringLiteral("ascend910_95");
    suite.date = QDateTime::fromString(QStringLiteral("2026-12-06T00:00:00Z"), Qt::ISODate);
    TaskOutcome task;
    task.taskId = QStringLiteral("cumsum_fp16");
    task.taskPath = QStringLiteral("suites/ascend-npukernelbench/cumsum_fp16.py");
    task.category = QStringLiteral("scan");
    task.status = QStringLiteral("no_gain");
    suite.tasks = {task};
    return suite;
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class TestSuiteBackend : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void resultsFileKeepsBackendAndTarget();
    void suiteDockShowsTheBackend();
    void olderResultsSayNotRecorded();
    void suiteReportsShowTheBackend();
    void selectedTasksReportShowsTheRunsBackend();
    void diagnosisReportOfAnAscendCompileShowsItsBackend();

private:
    QString write(const SuiteOutcome &suite, const QString &name = QStringLiteral("results.json"));
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<MainWindow> m_window;
};

QString TestSuiteBackend::write(const SuiteOutcome &suite, const QString &name)
{
    const QString path = m_dir->filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(QJsonDocument(optimize::toJson(suite)).toJson());
    return path;
}

void TestSuiteBackend::init()
{
    QStandardPaths::setTestModeEnabled(true);
    m_dir = std::make_unique<QTemporaryDir>();
    m_window = std::make_unique<MainWindow>();
    m_window->setShowErrorDialogs(false);
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
}

void TestSuiteBackend::cleanup()
{
    m_window.reset();
    m_dir.reset();
}

void TestSuiteBackend::resultsFileKeepsBackendAndTarget()
{
    const QString path = write(ascendRun());
    const Expected<SuiteOutcome> whole = optimize::readSuiteOutcomeFile(path);
    QVERIFY2(whole, qPrintable(whole ? QString() : whole.error().toString()));
    QCOMPARE(whole->backend, QStringLiteral("ascend"));
    QCOMPARE(whole->target, QStringLiteral("ascend910_95"));
    QCOMPARE(whole->backendText(), QStringLiteral("ascend, target ascend910_95"));
    int tasks = 0;
    const Expected<SuiteOutcome> streamed = optimize::readResultsFile(path, [&](TaskOutcome &&) { ++tasks; });
    QVERIFY(streamed);
    QCOMPARE(streamed->backend, QStringLiteral("ascend"));
    QCOMPARE(streamed->target, QStringLiteral("ascend910_95"));
    QCOMPARE(tasks, 1);
}

void TestSuiteBackend::suiteDockShowsTheBackend()
{
    QVERIFY(m_window->openSuiteResults(write(ascendRun())));
    const QString summary = m_window->suiteBrowser()->summaryText();
    QVERIFY2(summary.contains(QLatin1String("backend: ascend, target ascend910_95")), qPrintable(summary));
    QVERIFY(m_window->suiteDock()->isVisible());
}

void TestSuiteBackend::olderResultsSayNotRecorded()
{
    QJsonObject old = optimize::toJson(ascendRun());
    old.remove(QStringLiteral("backend"));
    old.remove(QStringLiteral("target"));
    const QString path = m_dir->filePath(QStringLiteral("old.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(old).toJson());
    file.close();
    QVERIFY(m_window->openSuiteResults(path));
    const QString summary = m_window->suiteBrowser()->summaryText();
    QVERIFY2(summary.contains(QLatin1String("backend: not recorded")), qPrintable(summary));
}

void TestSuiteBackend::suiteReportsShowTheBackend()
{
    const QString results = write(ascendRun());
    const Expected<report::SuiteReport> suite = report::readSuiteReport(results);
    QVERIFY2(suite, qPrintable(suite ? QString() : suite.error().toString()));
    for (const QString &format : {QStringLiteral("html"), QStringLiteral("md")}) {
        const QString out = m_dir->filePath(QStringLiteral("suite.") + format);
        const Expected<QString> written = report::writeSuiteReport(*suite, format, out, QStringLiteral("test"));
        QVERIFY2(written, qPrintable(written ? QString() : written.error().toString()));
        QVERIFY2(readText(out).contains(QLatin1String("ascend, target ascend910_95")), qPrintable(format));
    }
    const QString json = m_dir->filePath(QStringLiteral("suite.json"));
    QVERIFY(report::writeSuiteReport(*suite, QStringLiteral("json"), json, QStringLiteral("test")));
    const QJsonObject object = QJsonDocument::fromJson(readText(json).toUtf8()).object();
    QCOMPARE(object.value(QStringLiteral("backend")).toString(), QStringLiteral("ascend"));
    QCOMPARE(object.value(QStringLiteral("target")).toString(), QStringLiteral("ascend910_95"));
}

void TestSuiteBackend::selectedTasksReportShowsTheRunsBackend()
{
    QVERIFY(m_window->openSuiteResults(write(ascendRun())));
    m_window->suiteBrowser()->selectTask(0);
    for (const QString &name : {QStringLiteral("task.html"), QStringLiteral("task.md")}) {
        const QString path = m_dir->filePath(name);
        QVERIFY2(m_window->exportTaskReport(path), qPrintable(m_window->statusBar()->currentMessage()));
        const QString text = readText(path);
        QVERIFY2(text.contains(QLatin1String("Backend: ascend, target ascend910_95")), qPrintable(text.left(2000)));
    }
    const QString json = m_dir->filePath(QStringLiteral("task.json"));
    QVERIFY(m_window->exportTaskReport(json));
    const QJsonObject object = QJsonDocument::fromJson(readText(json).toUtf8()).object();
    QCOMPARE(object.value(QStringLiteral("backend")).toString(), QStringLiteral("ascend"));
    QCOMPARE(object.value(QStringLiteral("target")).toString(), QStringLiteral("ascend910_95"));
}

void TestSuiteBackend::diagnosisReportOfAnAscendCompileShowsItsBackend()
{
    QVERIFY(openAndWait(*m_window, QStringLiteral(STRATA_FIXTURES_DIR "/ascend/vector_add/compile.json")));
    DiagnosisPanel *panel = m_window->diagnosisPanel();
    QSignalSpy diagnosed(panel, &DiagnosisPanel::diagnosed);
    QVERIFY(!panel->model()->result().diagnosis.kernel.isEmpty() || diagnosed.wait(60000));
    const QString path = m_dir->filePath(QStringLiteral("diagnosis.md"));
    QVERIFY2(m_window->exportDiagnosis(path), qPrintable(m_window->statusBar()->currentMessage()));
    const QString text = readText(path);
    QVERIFY2(text.contains(QLatin1String("Backend: ascend, target ascend910_95")), qPrintable(text.left(2000)));
}

QTEST_MAIN(TestSuiteBackend)
#include "tst_suite_backend.moc"
