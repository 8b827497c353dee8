// The Diagnosis dock on real triton 3.6.0 compiles: the ladder runs off the UI thread when a
// compile loads, its findings, evidence and escalation log fill the tree, and clicking a finding
// or an ir_op evidence row selects that line in the source pane or the IR stage's pane.
#include "UiTestSupport.h"
#include "models/DiagnosisTreeModel.h"
#include "views/DiagnosisPanel.h"

#include <QDirIterator>
#include <QDockWidget>
#include <QLabel>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTreeView>

using namespace strata;

namespace {

bool waitForDiagnosis(MainWindow &window, const QString &compileJson)
{
    QSignalSpy diagnosed(window.diagnosisPanel(), &DiagnosisPanel::diagnosed);
    return test::openAndWait(window, compileJson) && (!diagnosed.isEmpty() || diagnosed.wait(120000));
}

// The first evidence row (under any finding) for which `accept(row)` holds.
template <typename Accept>
QModelIndex findEvidence(const DiagnosisTreeModel *model, Accept accept)
{
    const QModelIndex findings = model->findingsRoot();
    for (int f = 0; f < model->rowCount(findings); ++f) {
        const QModelIndex finding = model->index(f, 0, findings);
        for (int e = 1; e < model->rowCount(finding); ++e) {
            const QModelIndex row = model->index(e, 0, finding);
            if (accept(row))
                return row;
        }
    }
    return {};
}

void click(QTreeView *tree, const QModelIndex &index)
{
    tree->expand(index.parent());
    tree->scrollTo(index);
    QCoreApplication::processEvents();
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(index).center());
}

// A copy of tests/fixtures/<sampleVariant> in `to` (compile.json names its artifacts relatively).
bool copyFixture(const QString &sampleVariant, const QString &to)
{
    const QString from = QStringLiteral(STRATA_FIXTURES_DIR "/") + sampleVariant;
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + QLatin1Char('/') + QDir(from).relativeFilePath(file);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(file, target))
            return false;
    }
    return true;
}

} // namespace

class TestDiagnosisPanel : public QObject {
    Q_OBJECT
private slots:
    void loadedCompileIsDiagnosed();
    void findingAndEvidenceLeadIntoThePanes();
    void newerCompileReplacesTheDiagnosis();
    void measurementsRankByMeasuredCost();
    void diagnosisExportsAsSarifJsonAndReport();
    void degradedStageShowsAWarningBanner();
};

void TestDiagnosisPanel::loadedCompileIsDiagnosed()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    const DiagnosisTreeModel *model = window.diagnosisPanel()->model();
    QVERIFY(model->rowCount(model->findingsRoot()) >= 1);
    QStringList rules;
    for (int f = 0; f < model->rowCount(model->findingsRoot()); ++f)
        rules << model->findingIndex(f).data(DiagnosisTreeModel::RuleRole).toString()
              << model->findingIndex(f).data(DiagnosisTreeModel::ExaminesRole).toString();
    // The unaligned add's 32-bit loads are the L3 fact the ladder reports (L4 examines it).
    QVERIFY2(rules.contains(QStringLiteral("L3.scalar-global-access")), qPrintable(rules.join(u' ')));
    // The escalation log says what ran and why L1 did not.
    const QModelIndex log = model->escalationRoot();
    QVERIFY(model->rowCount(log) >= 3);
    QStringList steps;
    for (int s = 0; s < model->rowCount(log); ++s)
        steps.append(model->index(s, 0, log).data().toString());
    QVERIFY2(steps.join(u'\n').contains(QLatin1String("the app diagnoses the compile it shows")), qPrintable(steps.join(u'\n')));
    QVERIFY(window.diagnosisPanel()->statusText().contains(QLatin1String("add_kernel")));
}

void TestDiagnosisPanel::findingAndEvidenceLeadIntoThePanes()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    window.diagnosisDock()->show();
    window.diagnosisDock()->raise();
    QTreeView *tree = window.diagnosisPanel()->tree();
    const DiagnosisTreeModel *model = window.diagnosisPanel()->model();

    const QModelIndex finding = model->findingIndex(0);
    const int line = finding.data(DiagnosisTreeModel::SourceLineRole).toInt();
    QVERIFY(line > 0);
    click(tree, finding);
    QVERIFY2(window.sourcePane()->highlightedLines().contains(line - 1), qPrintable(QString::number(line)));

    const QModelIndex op = findEvidence(model, [](const QModelIndex &row) {
        return row.data(DiagnosisTreeModel::StageRole).isValid() && row.data(DiagnosisTreeModel::IrLineRole).isValid();
    });
    QVERIFY(op.isValid());
    const QString stage = op.data(DiagnosisTreeModel::StageRole).toString();
    const int irLine = op.data(DiagnosisTreeModel::IrLineRole).toInt();
    QVERIFY(window.pane(stage));
    click(tree, op);
    QVERIFY2(window.pane(stage)->highlightedLines().contains(irLine),
             qPrintable(QStringLiteral("%1:%2").arg(stage).arg(irLine)));
    QVERIFY(window.pane(stage)->view()->isLineVisible(irLine));
    // The IR line is the one the evidence quotes.
    QVERIFY(window.pane(stage)->view()->lineText(irLine).contains(op.data(Qt::ToolTipRole).toString().section(u' ', 2, 2)));

    const QString dir = qEnvironmentVariable("STRATA_SCREENSHOT_DIR", QStringLiteral(STRATA_BUILD_DIR));
    QVERIFY(window.grab().save(dir + QStringLiteral("/strata-diagnosis.png")));
}

void TestDiagnosisPanel::newerCompileReplacesTheDiagnosis()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("matmul"), QStringLiteral("big_spill"))));
    window.diagnosisPanel()->waitForIdle();
    QVERIFY2(window.diagnosisPanel()->statusText().contains(QLatin1String("matmul")),
             qPrintable(window.diagnosisPanel()->statusText()));
    const DiagnosisTreeModel *model = window.diagnosisPanel()->model();
    QStringList rules;
    for (int f = 0; f < model->rowCount(model->findingsRoot()); ++f)
        rules << model->findingIndex(f).data(DiagnosisTreeModel::RuleRole).toString()
              << model->findingIndex(f).data(DiagnosisTreeModel::ExaminesRole).toString();
    QVERIFY2(rules.join(u' ').contains(QLatin1String("spill")), qPrintable(rules.join(u' ')));
}

void TestDiagnosisPanel::measurementsRankByMeasuredCost()
{
    // Replies captured from an H200 for add_kernel (tests/tasks/fixtures/h200), attached to the
    // vector_add compile: L2 runs, hot lines appear, and the ranking is measured, not estimated.
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    DiagnosisPanel *panel = window.diagnosisPanel();
    QVERIFY(panel->model()->result().rankingIsEstimate);
    const QString replies = QStringLiteral(STRATA_SOURCE_DIR "/tests/tasks/fixtures/h200/");
    QVERIFY(!panel->attachMeasurements({replies + QStringLiteral("verify-vector_add.json")}).isEmpty());  // not a measurement
    QVERIFY(panel->measurements().isEmpty());
    QSignalSpy diagnosed(panel, &DiagnosisPanel::diagnosed);
    const QString error = panel->attachMeasurements({replies + QStringLiteral("time-vector_add.json"),
                                                     replies + QStringLiteral("profile-vector_add.json"),
                                                     replies + QStringLiteral("ceilings.json")});
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(diagnosed.wait(120000));
    const DiagnosisTreeModel *model = panel->model();
    QStringList rules;
    for (int f = 0; f < model->rowCount(model->findingsRoot()); ++f)
        rules << model->findingIndex(f).data(DiagnosisTreeModel::RuleRole).toString();
    QVERIFY2(rules.contains(QStringLiteral("L2.memory-bound")) || rules.contains(QStringLiteral("L2.latency-bound"))
                 || rules.contains(QStringLiteral("L2.launch-bound")),
             qPrintable(rules.join(u' ')));
    QStringList steps;
    for (int s = 0; s < model->rowCount(model->escalationRoot()); ++s)
        steps << model->index(s, 0, model->escalationRoot()).data().toString();
    QVERIFY2(steps.join(u'\n').contains(QLatin1String("measurements given (timing: time-vector_add.json, profile: profile-vector_add.json")),
             qPrintable(steps.join(u'\n')));
    panel->clearMeasurements();
    QVERIFY(diagnosed.wait(120000));
    QVERIFY(panel->measurements().isEmpty());
}

void TestDiagnosisPanel::diagnosisExportsAsSarifJsonAndReport()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    QTemporaryDir dir;
    QVERIFY(!window.exportDiagnosis(dir.filePath(QStringLiteral("early.sarif"))));  // nothing open yet
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    const QString sarif = dir.filePath(QStringLiteral("findings.sarif"));
    QVERIFY(window.exportDiagnosis(sarif));
    QFile sarifFile(sarif);
    QVERIFY(sarifFile.open(QIODevice::ReadOnly));
    const QJsonObject log = QJsonDocument::fromJson(sarifFile.readAll()).object();
    QCOMPARE(log.value(QLatin1String("version")).toString(), QStringLiteral("2.1.0"));
    const QJsonArray results = log.value(QLatin1String("runs")).toArray().first().toObject().value(QLatin1String("results")).toArray();
    QCOMPARE(results.size(), window.diagnosisPanel()->model()->result().ranking.size());
    const QString json = dir.filePath(QStringLiteral("diagnosis.json"));
    QVERIFY(window.exportDiagnosis(json));
    QFile jsonFile(json);
    QVERIFY(jsonFile.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(jsonFile.readAll()).object().value(QLatin1String("schema")).toString(), QStringLiteral("strata.diagnosis"));
    const QString html = dir.filePath(QStringLiteral("report.html"));
    QVERIFY(window.exportDiagnosis(html));
    QFile htmlFile(html);
    QVERIFY(htmlFile.open(QIODevice::ReadOnly));
    QVERIFY(htmlFile.readAll().contains("ld.global.b32"));  // IR excerpts from the compile
}


void TestDiagnosisPanel::degradedStageShowsAWarningBanner()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    const QLabel *banner = window.diagnosisPanel()->warningBanner();
    // An intact compile: no banner.
    QVERIFY(waitForDiagnosis(window, test::fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("aligned"))));
    QVERIFY(banner->isHidden());

    // The same compile with /etc/passwd-like text as its TTGIR: the stage is refused, and the
    // dock says so above the findings, naming the file and the kind.
    QTemporaryDir dir;
    QVERIFY(copyFixture(QStringLiteral("vector_add/aligned"), dir.path()));
    const QString ttgir = dir.filePath(QStringLiteral("add_kernel.ttgir"));
    QFile file(ttgir);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n");
    file.close();
    QVERIFY(waitForDiagnosis(window, dir.filePath(QStringLiteral("compile.json"))));
    window.diagnosisDock()->show();
    QVERIFY(banner->isVisible());
    QVERIFY2(banner->text().startsWith(QStringLiteral("Warning:")), qPrintable(banner->text()));
    QVERIFY2(banner->text().contains(QStringLiteral("ttgir not read (not-a-stage): ") + ttgir), qPrintable(banner->text()));
    const StageListingModel *pane = window.pane(QStringLiteral("ttgir"))->model();
    for (int row = 0; row < pane->rowCount(); ++row)
        QVERIFY(!pane->index(row, 0).data().toString().contains(QStringLiteral("root:x:")));
    // No finding is high on what is left.
    const DiagnosisTreeModel *model = window.diagnosisPanel()->model();
    for (int f = 0; f < model->rowCount(model->findingsRoot()); ++f)
        QVERIFY(model->findingIndex(f).siblingAtColumn(DiagnosisTreeModel::SeverityColumn).data().toString() != QLatin1String("high"));
}

QTEST_MAIN(TestDiagnosisPanel)
#include "tst_diagnosis_panel.moc"
