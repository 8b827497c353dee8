#include "app/MainWindow.h"

#include "app/AgentCompiler.h"
#include "app/Samples.h"
#include "app/SamplesDialog.h"
#include "host/PluginRegistry.h"
#include "trace/TritonParseTrace.h"
#include "models/HostSettings.h"
#include "views/CodeView.h"
#include "views/DiagnosisPanel.h"
#include "views/PassPanel.h"
#include "views/RemarksView.h"
#include "views/StagePane.h"

#include <algorithm>
#include <numeric>

#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTemporaryDir>

namespace strata {

namespace {

QString pluginDir()
{
    if (!qEnvironmentVariableIsEmpty("STRATA_PLUGIN_DIR"))
        return qEnvironmentVariable("STRATA_PLUGIN_DIR");
    const QString installed = PluginRegistry::defaultPluginDir();
    if (QFileInfo(installed).isDir())
        return installed;
#ifdef STRATA_DEFAULT_PLUGIN_DIR
    return QStringLiteral(STRATA_DEFAULT_PLUGIN_DIR);
#else
    return installed;
#endif
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_plugins(std::make_unique<PluginRegistry>())
    , m_linker(new LineLinker(this))
    , m_loader(new CompileLoader(this))
    , m_compiler(new AgentCompiler({}, {}, this))
    , m_hosts(new HostSettings(this))
{
    setWindowTitle(tr("Strata"));
    m_plugins->loadFromDirectory(pluginDir());
    m_stages = pipelineStages();
    buildPanes();
    buildDocks();
    buildMenus();
    buildStatusBar();
    setUpHosts();
    m_sourcePane->showMessage(tr("Open a kernel (Ctrl+O) or a sample (Ctrl+Shift+O)."));
    for (StagePane *pane : std::as_const(m_stagePanes))
        pane->showMessage(tr("No compile loaded."));

    connect(m_loader, &CompileLoader::loaded, this, &MainWindow::onLoaded);
    connect(m_loader, &CompileLoader::failed, this, &MainWindow::onLoadFailed);
    connect(m_loader, &CompileLoader::passIndexReady, this,
            [this](quint64, std::shared_ptr<const PassOpIndex> index) {
                m_passPanel->setPassIndex(std::move(index));
                emit passIndexReady();
            });
    connect(m_compiler, &AgentCompiler::progress, this, [this](const QString &message) { setBusy(message); });
    connect(m_compiler, &AgentCompiler::compiled, this, &MainWindow::onCompiled);
    connect(m_compiler, &AgentCompiler::failed, this, [this](const ReadError &error) {
        setIdle(tr("Compile failed: %1").arg(error.toString()));
        showError(tr("Compile failed"), error);
        emit loadFailed(error);
    });
    connect(m_linker, &LineLinker::linked, this, &MainWindow::onLinked);
    connect(m_remarks, &RemarksView::sourceLineRequested, this, &MainWindow::selectSourceLine);
    resize(1600, 1000);
}

MainWindow::~MainWindow()
{
    m_loader->waitForIdle();  // background loads hold no pointer to us, but finish them cleanly
    m_traceJobs.waitForIdle();
    m_traceImportJobs.waitForIdle();  // it writes into m_traceImports
}

StagePane *MainWindow::pane(const QString &stageId) const
{
    if (stageId == m_sourcePane->stageId())
        return m_sourcePane;
    for (StagePane *pane : m_stagePanes)
        if (pane->stageId() == stageId)
            return pane;
    return nullptr;
}

quint64 MainWindow::openCompile(const QString &path)
{
    const QString file = QFileInfo(path).isDir() ? QDir(path).filePath(QStringLiteral("compile.json")) : path;
    setBusy(tr("Loading %1 ...").arg(QDir::toNativeSeparators(file)));
    m_lastKernelPath.clear();
    m_lastSpecPath.clear();
    const PluginRegistry *plugins = m_plugins.get();
    return m_loader->loadFile(file, [plugins](const CompileResult &result) { return stagesForTarget(plugins, result.target); });
}

void MainWindow::compileKernel(const QString &kernelPath, const QString &specPath)
{
    if (specPath.isEmpty()) {
        const ReadError error{kernelPath, 0, 0,
                              tr("no spec file for this kernel: put NAME.VARIANT.spec.json next to it "
                                 "(see suites/samples/README.md) or pass --spec")};
        showError(tr("Cannot compile"), error);
        emit loadFailed(error);
        return;
    }
    Expected<QJsonObject> spec = readSpecFile(specPath);
    if (!spec) {
        showError(tr("Cannot read the spec"), spec.error());
        emit loadFailed(spec.error());
        return;
    }
    if (!m_compileTarget.isEmpty())
        spec->insert(QStringLiteral("target"), m_compileTarget);   // File > Compile Target
    m_lastKernelPath = kernelPath;
    m_lastSpecPath = specPath;
    setBusy(tr("Starting the agent for %1 ...").arg(QFileInfo(kernelPath).fileName()));
    m_compiler->compile(QFileInfo(kernelPath).absoluteFilePath(), *spec, QFileInfo(specPath).absoluteFilePath());
}

void MainWindow::recompile()
{
    if (!m_lastKernelPath.isEmpty()) {
        compileKernel(m_lastKernelPath, m_lastSpecPath);
        return;
    }
    if (m_compile && !m_compile->result.spec.isEmpty() && QFileInfo::exists(m_compile->result.sourcePath)) {
        setBusy(tr("Recompiling %1 ...").arg(m_compile->result.kernel));
        m_compiler->compile(m_compile->result.sourcePath, m_compile->result.spec);
        return;
    }
    statusBar()->showMessage(tr("Nothing to recompile: open a kernel or a sample first."), 5000);
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open a kernel, a compile or a trace"), QString(),
        tr("Kernels, compiles and traces (*.py compile.json *.json *.ndjson *.ndjson.gz *.ndjson.zst);;Triton kernels (*.py);;"
           "Compiles (compile.json);;tritonparse traces (*.ndjson *.ndjson.gz *.ndjson.zst)"));
    if (path.isEmpty())
        return;
    if (trace::looksLikeTrace(path)) {
        openTrace(path);
        return;
    }
    if (!path.endsWith(QLatin1String(".py"))) {
        openCompile(path);
        return;
    }
    // A kernel needs a spec: take the only one next to it, offer a choice of several, or ask.
    const QStringList specs = specsForKernel(path);
    QString spec;
    if (specs.size() == 1) {
        spec = specs.first();
    } else if (specs.size() > 1) {
        QStringList names;
        for (const QString &candidate : specs)
            names.append(QFileInfo(candidate).fileName());
        bool ok = false;
        const QString chosen = QInputDialog::getItem(this, tr("Choose a spec"),
                                                     tr("Launch specialisation:"), names, 0, false, &ok);
        if (!ok)
            return;
        spec = specs[names.indexOf(chosen)];
    } else {
        spec = QFileDialog::getOpenFileName(this, tr("Spec for %1").arg(QFileInfo(path).fileName()),
                                            QFileInfo(path).absolutePath(), tr("Specs (*.spec.json *.json)"));
    }
    if (!spec.isEmpty())
        compileKernel(path, spec);
}

void MainWindow::openSamplesDialog()
{
    SamplesDialog dialog(defaultSamplesDir(), m_compileTarget, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const SampleVariant sample = dialog.selectedSample();
    if (!sample.kernelPath.isEmpty())
        compileKernel(sample.kernelPath, sample.specPath);
}

void MainWindow::onCompiled(const CompileResult &result)
{
    setBusy(tr("Reading the stages of %1 ...").arg(result.kernel));
    m_loader->loadResult(result, stagesForTarget(m_plugins.get(), result.target));
}

void MainWindow::onLoaded(quint64, std::shared_ptr<const LoadedCompile> compile)
{
    m_compile = std::move(compile);
    const CompileResult &result = m_compile->result;
    const QString kernelFile = result.sourcePath;
    const BackendPlugin *backend = m_plugins->backendForTarget(result.target);
    showPipeline(m_compile->declared);

    const StageListing *source = m_compile->listing(m_sourcePane->stageId());
    m_sourcePane->setListing(source ? *source : sourceListing(m_compile->sourceText, kernelFile), kernelFile);
    QSet<int> linesWithCode;
    for (StagePane *pane : std::as_const(m_stagePanes)) {
        if (const StageListing *listing = m_compile->listing(pane->stageId())) {
            pane->setListing(*listing, kernelFile);
            for (int line : m_compile->map.sourceLinesWithCode(pane->stageId()))
                linesWithCode.insert(line - 1);
        } else {
            showMissingStage(pane, result);
        }
    }
    for (const StageProblem &problem : m_compile->problems)
        for (StagePane *pane : std::as_const(m_stagePanes))
            if (problem.refused && pane->stageId() == problem.stage)
                pane->showMessage(tr("Could not read this stage:\n%1").arg(problem.toString()));
    m_sourcePane->setMarkedLines(linesWithCode);
    fitColumnsToStages();

    m_linker->setMap(m_compile->map);
    m_diagnosis->diagnose(m_compile, backend);
    // After-pass dumps start from the previous stage's artifact (Ascend: ttir for the adapter).
    QHash<QString, QString> stageInputs;
    QString previousArtifact;
    for (const StageDescriptor &stage : m_compile->declared) {
        if (!previousArtifact.isEmpty())
            stageInputs.insert(stage.id, previousArtifact);
        if (result.artifacts.contains(stage.id))
            previousArtifact = result.artifacts.value(stage.id).path;
    }
    m_passPanel->setStageInputs(stageInputs);
    m_passPanel->setPasses(result.passDumps);
    m_remarks->setRemarks(result.remarks, kernelFile);
    m_remarksDock->setWindowTitle(tr("Remarks (%1)").arg(result.remarks.size()));
    setWindowTitle(tr("%1 (%2) - Strata").arg(result.kernel, QFileInfo(kernelFile).fileName()));
    updateStatusFields();
    const auto refused = std::find_if(m_compile->problems.cbegin(), m_compile->problems.cend(),
                                      [](const StageProblem &problem) { return problem.refused; });
    // A moved folder's old compile.json, or files changed since the compile: said, not hidden.
    const QString surprises = result.warnings.isEmpty() ? QString() : QStringLiteral("; ") + result.warnings.join(QStringLiteral("; "));
    if (m_compile->problems.isEmpty()) {
        setIdle(tr("Loaded %1: %2 stages").arg(result.kernel).arg(m_compile->listings.size()) + surprises);
    } else {
        // Degraded stages are listed in the Diagnosis dock's warning banner; a refused one also
        // raises the error dialog, since its pane stays empty.
        setIdle(tr("Loaded %1; stages not read or degraded: %2 (see the Diagnosis dock)")
                    .arg(result.kernel)
                    .arg(m_compile->problems.size())
                + surprises);
        if (refused != m_compile->problems.cend())
            showError(tr("Some stages could not be read"), refused->error);
    }
    emit compileLoaded();
}

// A column whose panes all lack their stage (HIVM and the NPU binary on a machine without CANN)
// keeps a narrow strip with the reason; the panes with text share the width as the stretch
// factors of buildPanes() would.
void MainWindow::fitColumnsToStages()
{
    QList<int> sizes = m_columns->sizes();
    // Panes just rebuilt for another backend are not laid out yet: their sizes are all 0.
    const int total = qMax(std::accumulate(sizes.cbegin(), sizes.cend(), 0), m_columns->width() > 100 ? m_columns->width() : width());
    constexpr int kNarrow = 260;
    QVector<bool> narrow(sizes.size(), false);
    int narrowCount = 0;
    for (int i = 1; i < m_columns->count(); ++i) {
        const auto *column = qobject_cast<QSplitter *>(m_columns->widget(i));
        bool shown = false;
        for (int j = 0; column && j < column->count(); ++j)
            if (const auto *stagePane = qobject_cast<StagePane *>(column->widget(j)))
                shown |= m_compile->hasStage(stagePane->stageId());
        narrow[i] = column && !shown;
        narrowCount += narrow[i];
    }
    if (narrowCount == 0 && !m_columnsNarrowed)
        return;   // the layout the user may have arranged stays
    m_columnsNarrowed = narrowCount > 0;
    int weights = 0;
    for (int i = 0; i < sizes.size(); ++i)
        weights += narrow[i] ? 0 : (i == 0 ? 5 : 4);
    const int wide = qMax(0, total - narrowCount * kNarrow);
    for (int i = 0; i < sizes.size(); ++i)
        sizes[i] = narrow[i] ? kNarrow : wide * (i == 0 ? 5 : 4) / qMax(1, weights);
    m_columns->setSizes(sizes);
}

// A declared stage this compile did not produce: the agent's reason when it skipped it, the file
// of a binary artifact (nothing to read), else plainly absent.
void MainWindow::showMissingStage(StagePane *pane, const CompileResult &result)
{
    const StageDescriptor &stage = pane->stage();
    if (const StageRun *run = result.stageRun(stage.id); run && !run->ran) {
        pane->showMessage(tr("%1 was not run for this compile:\n%2").arg(stage.displayName, run->reason));
        return;
    }
    if (stage.format == StageFormat::Binary && result.artifacts.contains(stage.id)) {
        const ArtifactRef artifact = result.artifacts.value(stage.id);
        pane->showMessage(tr("%1 is a binary file (%2 bytes), not shown:\n%3")
                              .arg(stage.displayName).arg(artifact.size).arg(QDir::toNativeSeparators(artifact.path)));
        return;
    }
    pane->showMessage(tr("This compile has no %1 stage.").arg(stage.displayName));
}

void MainWindow::onLoadFailed(quint64, const ReadError &error)
{
    setIdle(tr("Could not load: %1").arg(error.toString()));
    showError(tr("Could not load the compile"), error);
    emit loadFailed(error);
}

void MainWindow::onLinked(const LinkSelection &selection)
{
    m_passPanel->setSelectedSourceLine(selection.sourceLine);
    if (selection.sourceLine > 0)
        statusBar()->showMessage(tr("Line %1: linked lines highlighted in every stage").arg(selection.sourceLine),
                                 4000);
}

void MainWindow::selectSourceLine(int sourceLine)
{
    m_sourcePane->activateLine(sourceLine - 1);
}

void MainWindow::focusPane(int number)
{
    const QVector<StagePane *> panes = QVector<StagePane *>{m_sourcePane} + m_stagePanes;
    if (number >= 1 && number <= panes.size())
        panes[number - 1]->view()->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::attachMeasurementsDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Attach GPU measurements"), QString(), tr("Saved replies of strata-cli time, profile, ceilings (*.json)"));
    if (files.isEmpty())
        return;
    const QString error = m_diagnosis->attachMeasurements(files);
    if (!error.isEmpty()) {
        showError(tr("Cannot attach the measurements"), ReadError{QString(), 0, 0, error});
        return;
    }
    m_diagnosisDock->show();
    m_diagnosisDock->raise();
    statusBar()->showMessage(tr("Measurements attached: %1").arg(m_diagnosis->measurements().origins.join(QStringLiteral(", "))));
}

void MainWindow::showError(const QString &title, const ReadError &error)
{
    statusBar()->showMessage(error.toString());
    if (!m_showErrorDialogs)
        return;
    // Non-modal: the window stays usable while the message is up.
    auto *box = new QMessageBox(QMessageBox::Warning, title, error.toString(), QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}

void MainWindow::setBusy(const QString &message)
{
    m_progress->setVisible(true);
    statusBar()->showMessage(message);
}

void MainWindow::setIdle(const QString &message)
{
    m_progress->setVisible(false);
    statusBar()->showMessage(message, 10000);
}

void MainWindow::updateStatusFields()
{
    if (!m_compile) {
        m_kernelLabel->setText(tr("No kernel"));
        m_targetLabel->clear();
        m_registersLabel->clear();
        m_remarksLabel->clear();
        return;
    }
    const CompileResult &result = m_compile->result;
    m_kernelLabel->setText(tr("Kernel: %1").arg(result.kernel));
    m_targetLabel->setText(tr("Target: %1").arg(result.target));
    // What the compile says as a whole is the backend's to tell (registers, cube/vector mode).
    const BackendPlugin *backend = m_plugins->backendForTarget(result.target);
    const CompileHeadline headline = backend ? backend->headline(result)
                                             : CompileHeadline{tr("No backend plugin for %1").arg(result.target), false};
    m_registersLabel->setText(headline.text);
    m_registersLabel->setStyleSheet(headline.alarming ? QStringLiteral("color: #e04b4b; font-weight: bold") : QString());
    m_remarksLabel->setText(result.remarks.size() == 1 ? tr("1 remark") : tr("%1 remarks").arg(result.remarks.size()));
}

QString MainWindow::statusText() const
{
    return QStringList{m_kernelLabel->text(), m_targetLabel->text(), m_registersLabel->text(),
                       m_remarksLabel->text()}
        .join(QStringLiteral(" | "));
}

} // namespace strata
