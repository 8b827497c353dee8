// MainWindow and suite results: opening them (and the recent list), exporting the chart and the
// suite or task reports. The docks themselves are built in MainWindowLayout.cpp.
#include "app/MainWindow.h"

#include "core/AtomicFile.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/PluginRegistry.h"
#include "models/DiagnosisTreeModel.h"
#include "models/SuiteTableModel.h"
#include "optimize/ResultsCatalog.h"
#include "optimize/ResultsIndex.h"
#include "report/SuiteReport.h"
#include "optimize/SuiteBench.h"
#include "report/ReportFiles.h"
#include "views/SpeedupPlot.h"
#include "views/DiagnosisPanel.h"
#include "views/RunPanel.h"
#include "views/SuiteBrowser.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

namespace strata {

bool MainWindow::openSuiteResults(const QString &pathOrFolder)
{
    // A folder (bench/results) opens its newest complete results file, by the files' coverage.
    QString note;
    Expected<QString> resolved = optimize::resolveResultsPath(pathOrFolder, &note);
    if (!resolved) {
        showError(tr("Cannot open the suite results"), resolved.error());
        return false;
    }
    const QString path = *resolved;
    const QString error = m_suiteBrowser->openResults(path);
    if (!error.isEmpty()) {
        showError(tr("Cannot open the suite results"), ReadError{QString(), 0, 0, error});
        return false;
    }
    m_suiteDock->show();
    m_suiteDock->raise();
    statusBar()->showMessage(note.isEmpty() ? m_suiteBrowser->summaryText()
                                            : m_suiteBrowser->summaryText() + QStringLiteral(" (") + note + u')');
    rememberSuiteResults(path);
    return true;
}

namespace {
const QString kRecentResultsKey = QStringLiteral("recentSuiteResults");
constexpr int kMaxRecent = 8;
} // namespace

QStringList MainWindow::recentSuiteResults() const
{
    return QSettings().value(kRecentResultsKey).toStringList();
}

void MainWindow::rememberSuiteResults(const QString &path)
{
    QStringList recent = recentSuiteResults();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    QSettings().setValue(kRecentResultsKey, recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentSuiteResults();
    for (const QString &path : recent) {
        QAction *action = m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openSuiteResults(path); });
        action->setToolTip(path);
        action->setStatusTip(path);
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::openSuiteResultsDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open suite results"), QString(),
                                                      tr("Suite results (*.json)"));
    if (!path.isEmpty())
        openSuiteResults(path);
}

bool MainWindow::exportSuiteChart(const QString &path)
{
    const QString error = m_suiteBrowser->plot()->exportTo(path);
    if (!error.isEmpty()) {
        showError(tr("Cannot export the chart"), ReadError{QString(), 0, 0, error});
        return false;
    }
    statusBar()->showMessage(tr("Chart written to %1").arg(path));
    return true;
}

void MainWindow::exportSuiteChartDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the suite chart"), QStringLiteral("speedups.svg"),
                                                      tr("SVG (*.svg);;PNG (*.png);;PDF (*.pdf)"));
    if (!path.isEmpty())
        exportSuiteChart(path);
}

// The formats a suite or task report can be saved in, for the save dialogs.
QString MainWindow::reportFileFilter() const
{
    return tr("HTML (*.html);;PDF (*.pdf);;Markdown (*.md);;JSON (*.json);;CSV (*.csv)");
}

// An export's end: its error shown (naming the file), or `done` in the status bar.
bool MainWindow::exportFinished(const Expected<QString> &written, const QString &path, const QString &failedTitle,
                                const QString &done)
{
    if (!written) {
        ReadError error = written.error();
        error.file = path;
        showError(failedTitle, error);
        return false;
    }
    statusBar()->showMessage(done);
    return true;
}

bool MainWindow::exportSuiteReport(const QString &path)
{
    const QString format = report::reportFormatForPath(path);
    if (m_suiteBrowser->model()->suite().tasks.isEmpty()) {
        showError(tr("Cannot export the report"), ReadError{path, 0, 0, tr("no suite results are open")});
        return false;
    }
    // An indexed results file is streamed (its tasks' candidates are not in memory); a suite in
    // memory (a run in progress) is reported as it is.
    Expected<report::SuiteReport> built = m_suiteBrowser->model()->resultsIndex()
        ? report::readSuiteReport(m_suiteBrowser->model()->resultsIndex()->path())
        : Expected<report::SuiteReport>(report::buildSuiteReport(m_suiteBrowser->model()->suite()));
    if (!built) {
        showError(tr("Cannot export the report"), built.error());
        return false;
    }
    const Expected<QString> written =
        report::writeSuiteReport(*built, format, path, QStringLiteral("Strata " STRATA_VERSION));
    return exportFinished(written, path, tr("Cannot export the report"), tr("Report written to %1").arg(path));
}

void MainWindow::exportSuiteReportDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the suite report"), QStringLiteral("suite-report.html"),
        reportFileFilter());
    if (!path.isEmpty())
        exportSuiteReport(path);
}

bool MainWindow::exportTaskReport(const QString &path)
{
    const optimize::TaskOutcome *task = m_suiteBrowser->selectedWholeTask();
    if (!task) {
        showError(tr("Cannot export the report"), ReadError{path, 0, 0, tr("select a task in the Suite dock first")});
        return false;
    }
    report::KernelReportInputs inputs;
    inputs.task = task;
    inputs.backend = m_suiteBrowser->model()->suite().backend;   // the run's, which the task's figures belong to
    inputs.target = m_suiteBrowser->model()->suite().target;
    const Expected<QString> written =
        report::writeKernelReport(report::buildKernelReport(inputs), report::reportFormatForPath(path), path,
                                  QStringLiteral("Strata " STRATA_VERSION), QStringLiteral(STRATA_VERSION));
    return exportFinished(written, path, tr("Cannot export the report"),
                          tr("Report of %1 written to %2").arg(task->taskId, path));
}

void MainWindow::exportTaskReportDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the task report"), QStringLiteral("task-report.html"),
        reportFileFilter());
    if (!path.isEmpty())
        exportTaskReport(path);
}

bool MainWindow::exportDiagnosis(const QString &path)
{
    const diagnosis::LadderResult &result = m_diagnosis->model()->result();
    if (!m_compile || result.diagnosis.kernel.isEmpty()) {
        showError(tr("Cannot export the diagnosis"), ReadError{path, 0, 0, tr("open or compile a kernel first")});
        return false;
    }
    QString format = report::reportFormatForPath(path);
    Expected<QString> written = ReadError{path, 0, 0, {}};
    if (format == QLatin1String("json")) {  // the diagnosis itself, schema strata.diagnosis
        const QString error = writeFileAtomically(path, QJsonDocument(diagnosis::toJson(result)).toJson());
        written = error.isEmpty() ? Expected<QString>(path) : Expected<QString>(ReadError{path, 0, 0, tr("cannot write: %1").arg(error)});
    } else {
        report::KernelReportInputs inputs;
        inputs.diagnosis = &result;
        inputs.compile = m_compile.get();
        if (const BackendPlugin *backend = m_plugins->backendForTarget(m_compile->result.target))
            inputs.backend = backend->id();
        written = report::writeKernelReport(report::buildKernelReport(inputs), format, path,
                                            QStringLiteral("Strata " STRATA_VERSION), QStringLiteral(STRATA_VERSION));
    }
    return exportFinished(written, path, tr("Cannot export the diagnosis"),
                          tr("Diagnosis of %1 written to %2").arg(result.diagnosis.kernel, path));
}

void MainWindow::exportDiagnosisDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the diagnosis"), QStringLiteral("diagnosis.html"),
        tr("HTML report (*.html);;SARIF (*.sarif);;Diagnosis JSON (*.json);;PDF (*.pdf);;Markdown (*.md)"));
    if (!path.isEmpty())
        exportDiagnosis(path);
}

bool MainWindow::openSuiteFolder(const QString &path)
{
    Expected<optimize::SuiteOutcome> suite = optimize::pendingSuite(path);
    if (!suite) {
        showError(tr("Cannot open the suite folder"), suite.error());
        return false;
    }
    m_suiteBrowser->setSuite(*suite);
    m_runPanel->suiteField()->setText(QFileInfo(path).absoluteFilePath());
    m_suiteDock->show();
    m_runDock->show();
    m_suiteDock->raise();
    statusBar()->showMessage(tr("%1: %n task(s); start a run in the Run dock", nullptr, int(suite->tasks.size())).arg(suite->suite));
    return true;
}

void MainWindow::openSuiteFolderDialog()
{
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open a suite folder"));
    if (!path.isEmpty())
        openSuiteFolder(path);
}

} // namespace strata
