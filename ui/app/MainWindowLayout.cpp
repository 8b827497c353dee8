// MainWindow's widgets, docks, menus and shortcuts (behaviour lives in MainWindow.cpp).
#include "app/MainWindow.h"

#include "app/Language.h"

#include "host/PluginRegistry.h"
#include "views/CodeView.h"
#include "models/LlmSettings.h"
#include "views/DiagnosisPanel.h"
#include "views/PassPanel.h"
#include "views/RemarksView.h"
#include "views/RunPanel.h"
#include "views/StagePane.h"
#include "views/SuiteBrowser.h"
#include "views/TracePanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QSplitter>
#include <QStatusBar>

#include <algorithm>

namespace strata {

namespace {

QVector<StageDescriptor> sortedPipeline(const BackendPlugin *backend, const QString &target)
{
    if (!backend)
        return {};
    QVector<StageDescriptor> stages = backend->stagesFor(target);
    std::sort(stages.begin(), stages.end(),
              [](const StageDescriptor &a, const StageDescriptor &b) { return a.order < b.order; });
    if (stages.isEmpty() || stages.first().format != StageFormat::PythonSource)
        return {};
    return stages;
}

} // namespace

QVector<StageDescriptor> MainWindow::stagesForTarget(const PluginRegistry *plugins, const QString &target)
{
    // The target's backend declares the pipeline; without one (plugins not built or not found)
    // the NVIDIA pipeline is the one every fixture and sample uses.
    const QVector<StageDescriptor> stages = sortedPipeline(plugins ? plugins->backendForTarget(target) : nullptr, target);
    return stages.isEmpty() ? defaultNvidiaStages() : stages;
}

QVector<StageDescriptor> MainWindow::pipelineStages() const
{
    // Before any compile: the panes of the backend whose plugin says "nvidia" (the fallback's).
    if (m_plugins) {
        if (BackendPlugin *backend = m_plugins->backend(QStringLiteral("nvidia"))) {
            const QVector<StageDescriptor> stages = sortedPipeline(backend, backend->defaultTarget());
            if (!stages.isEmpty())
                return stages;
        }
    }
    return defaultNvidiaStages();
}

// A compile of another backend (Ascend after NVIDIA) brings its own stages: new panes.
void MainWindow::showPipeline(const QVector<StageDescriptor> &stages)
{
    auto ids = [](const QVector<StageDescriptor> &list) {
        QStringList all;
        for (const StageDescriptor &stage : list)
            all.append(stage.id);
        return all;
    };
    if (stages.isEmpty() || ids(stages) == ids(m_stages))
        return;
    m_stages = stages;
    m_columnsNarrowed = false;
    QWidget *old = takeCentralWidget();
    m_stagePanes.clear();
    buildPanes();
    delete old;
    rebuildFocusActions();
}

void MainWindow::buildPanes()
{
    m_columns = new QSplitter(Qt::Horizontal, this);
    m_columns->setChildrenCollapsible(false);
    m_columns->setHandleWidth(4);

    m_sourcePane = new StagePane(m_stages.first(), m_linker, m_columns);
    m_columns->addWidget(m_sourcePane);

    // The stages in columns of two (TTIR over TTGIR, LLVM IR over PTX, SASS): every pane stays
    // visible, so a click shows its linked lines in all of them at once.
    QSplitter *column = nullptr;
    for (int i = 1; i < m_stages.size(); ++i) {
        if (!column || column->count() == 2) {
            column = new QSplitter(Qt::Vertical, m_columns);
            column->setChildrenCollapsible(false);
            column->setHandleWidth(4);
            m_columns->addWidget(column);
        }
        auto *pane = new StagePane(m_stages[i], m_linker, column);
        column->addWidget(pane);
        m_stagePanes.append(pane);
    }
    m_columns->setStretchFactor(0, 5);
    for (int i = 1; i < m_columns->count(); ++i)
        m_columns->setStretchFactor(i, 4);
    setCentralWidget(m_columns);
}

void MainWindow::buildDocks()
{
    m_passPanel = new PassPanel(this);
    m_passDock = new QDockWidget(tr("Passes"), this);
    m_passDock->setObjectName(QStringLiteral("passDock"));
    m_passDock->setWidget(m_passPanel);
    addDockWidget(Qt::BottomDockWidgetArea, m_passDock);

    m_remarks = new RemarksView(this);
    m_remarksDock = new QDockWidget(tr("Remarks"), this);
    m_remarksDock->setObjectName(QStringLiteral("remarksDock"));
    m_remarksDock->setWidget(m_remarks);
    addDockWidget(Qt::BottomDockWidgetArea, m_remarksDock);
    m_diagnosis = new DiagnosisPanel(this);
    m_diagnosisDock = new QDockWidget(tr("Diagnosis"), this);
    m_diagnosisDock->setObjectName(QStringLiteral("diagnosisDock"));
    m_diagnosisDock->setWidget(m_diagnosis);
    addDockWidget(Qt::BottomDockWidgetArea, m_diagnosisDock);
    // Evidence leads into the panes: a source line, or an IR line of its stage.
    connect(m_diagnosis, &DiagnosisPanel::sourceLineRequested, this, &MainWindow::selectSourceLine);
    connect(m_diagnosis, &DiagnosisPanel::stageLineRequested, this, [this](const QString &stage, int line) {
        if (StagePane *target = pane(stage)) {
            target->activateLine(line);
            target->view()->scrollToLine(line);  // the pane that "was clicked" does not scroll itself
            target->view()->setFocus(Qt::OtherFocusReason);
        }
    });
    // Tabs, not side by side: most compiles have few remarks, the pass diff needs the width.
    tabifyDockWidget(m_passDock, m_remarksDock);
    tabifyDockWidget(m_passDock, m_diagnosisDock);
    m_passDock->raise();
    resizeDocks({m_passDock}, {320}, Qt::Vertical);

    // Suite results get the right side: the chart and the table need height more than width.
    m_suiteBrowser = new SuiteBrowser(this);
    m_suiteDock = new QDockWidget(tr("Suite"), this);
    m_suiteDock->setObjectName(QStringLiteral("suiteDock"));
    m_suiteDock->setWidget(m_suiteBrowser);
    addDockWidget(Qt::RightDockWidgetArea, m_suiteDock);
    m_suiteDock->hide();  // until results are opened

    // A tritonparse trace's kernels: left of the panes, hidden until a trace is opened.
    m_tracePanel = new TracePanel(this);
    m_traceDock = new QDockWidget(tr("Trace"), this);
    m_traceDock->setObjectName(QStringLiteral("traceDock"));
    m_traceDock->setWidget(m_tracePanel);
    addDockWidget(Qt::LeftDockWidgetArea, m_traceDock);
    m_traceDock->hide();
    connect(m_tracePanel, &TracePanel::kernelActivated, this, &MainWindow::openTraceKernel);

    m_llmSettings = new LlmSettings(nullptr, this);
    m_runPanel = new RunPanel(this);
    m_runPanel->setPlugins(m_plugins.get());
    m_runPanel->setLlmSettings(m_llmSettings);
    m_runDock = new QDockWidget(tr("Run"), this);
    m_runDock->setObjectName(QStringLiteral("runDock"));
    m_runDock->setWidget(m_runPanel);
    addDockWidget(Qt::RightDockWidgetArea, m_runDock);
    tabifyDockWidget(m_suiteDock, m_runDock);
    m_runDock->hide();
    connect(m_runPanel, &RunPanel::finished, this, [this](const QString &path) { openSuiteResults(path); });
    // While a run goes, the Suite dock shows it task by task (the chart fills in).
    connect(m_runPanel, &RunPanel::partialResults, this, [this](const optimize::SuiteOutcome &suite) {
        m_suiteBrowser->setSuite(suite);
        m_suiteDock->show();
    });
    connect(m_runPanel, &RunPanel::failed, this, [this](const QString &message) { statusBar()->showMessage(message); });
    connect(m_suiteBrowser, &SuiteBrowser::statusMessage, this, [this](const QString &message) {
        statusBar()->showMessage(message);
    });
}

void MainWindow::buildMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open Kernel, Compile or Trace..."), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open a kernel (.py with its spec) to compile, an existing compile.json, or a tritonparse trace"));
    QAction *samples = file->addAction(tr("&Samples..."), this, &MainWindow::openSamplesDialog);
    samples->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QAction *recompileAction = file->addAction(tr("&Recompile"), this, &MainWindow::recompile);
    recompileAction->setShortcut(QKeySequence(Qt::Key_F5));
    buildTargetMenu(file);
    QAction *exportDiagnosis = file->addAction(tr("Export &Diagnosis..."), this, &MainWindow::exportDiagnosisDialog);
    exportDiagnosis->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D));
    exportDiagnosis->setStatusTip(tr("The open compile's findings: HTML/PDF/Markdown report with IR excerpts, SARIF, or JSON"));
    QAction *measurements = file->addAction(tr("Attach GPU &Measurements..."), this, &MainWindow::attachMeasurementsDialog);
    measurements->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M));
    measurements->setStatusTip(tr("Saved time/profile/ceilings replies of a GPU host: the diagnosis ranks findings by measured cost"));
    file->addSeparator();
    QAction *results = file->addAction(tr("Open Suite &Results..."), this, &MainWindow::openSuiteResultsDialog);
    results->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    results->setStatusTip(tr("Open the results of strata-cli bench (--json) in the Suite dock"));
    file->addAction(tr("Open Suite &Folder..."), this, &MainWindow::openSuiteFolderDialog)
        ->setStatusTip(tr("List a suite's tasks and get it ready to run in the Run dock"));
    m_recentMenu = file->addMenu(tr("Recent Suite Results"));
    rebuildRecentMenu();
    QAction *exportChart = file->addAction(tr("&Export Suite Chart..."), this, &MainWindow::exportSuiteChartDialog);
    exportChart->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    QAction *exportReport = file->addAction(tr("Export Suite Re&port..."), this, &MainWindow::exportSuiteReportDialog);
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    exportReport->setStatusTip(tr("The open suite's report: HTML with inline charts, PDF, Markdown, JSON or CSV"));
    QAction *exportTask = file->addAction(tr("Export &Task Report..."), this, &MainWindow::exportTaskReportDialog);
    exportTask->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    exportTask->setStatusTip(tr("The selected task's report: timings, every candidate and the winning change"));
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), qApp, &QApplication::closeAllWindows);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *settings = menuBar()->addMenu(tr("&Settings"));
    settings->addAction(tr("&LLM Endpoints..."), this, &MainWindow::openLlmSettings);
    QMenu *language = settings->addMenu(tr("Lan&guage"));
    auto *languages = new QActionGroup(language);
    for (const QString &code : languageCodes()) {
        QAction *choice = language->addAction(languageName(code), this, [this, code] {
            setLanguagePreference(code);
            statusBar()->showMessage(tr("Language set to %1: it applies when Strata starts next.").arg(languageName(code)));
        });
        choice->setCheckable(true);
        choice->setChecked(code == languagePreference());
        choice->setData(code);
        languages->addAction(choice);
    }

    QMenu *view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    m_focusEnd = view->addSeparator();
    rebuildFocusActions();
    view->addAction(m_passDock->toggleViewAction());
    view->addAction(m_remarksDock->toggleViewAction());
    view->addAction(m_traceDock->toggleViewAction());
    QAction *diagnosis = m_diagnosisDock->toggleViewAction();
    diagnosis->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    view->addAction(diagnosis);
    QAction *run = m_runDock->toggleViewAction();
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
    view->addAction(run);
    QAction *suite = m_suiteDock->toggleViewAction();
    suite->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    view->addAction(suite);
}

void MainWindow::rebuildFocusActions()
{
    qDeleteAll(m_focusActions);
    m_focusActions.clear();
    const QVector<StagePane *> panes = QVector<StagePane *>{m_sourcePane} + m_stagePanes;
    for (int i = 0; i < panes.size() && i < 9; ++i) {
        auto *focus = new QAction(tr("Focus %1").arg(panes[i]->stage().displayName), m_viewMenu);
        connect(focus, &QAction::triggered, this, [this, i] { focusPane(i + 1); });
        focus->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
        m_viewMenu->insertAction(m_focusEnd, focus);
        m_focusActions.append(focus);
    }
}

// File > Compile Target: the targets of every loaded backend plugin. "As the spec says" keeps the
// spec's own target; any other choice replaces it for the kernels and samples compiled from now on.
void MainWindow::buildTargetMenu(QMenu *file)
{
    QMenu *menu = file->addMenu(tr("Compile &Target"));
    menu->setObjectName(QStringLiteral("targetMenu"));
    auto *group = new QActionGroup(menu);
    auto addChoice = [&](const QString &text, const QString &target) {
        QAction *choice = menu->addAction(text, this, [this, target] { setCompileTarget(target); });
        choice->setCheckable(true);
        choice->setChecked(target == m_compileTarget);
        choice->setData(target);
        group->addAction(choice);
    };
    addChoice(tr("As the Spec Says"), QString());
    for (const BackendPlugin *backend : m_plugins->backends()) {
        menu->addSection(backend->displayName());
        for (const QString &target : backend->targets())
            addChoice(target, target);
    }
}

QStringList MainWindow::compileTargets() const
{
    QStringList targets;
    for (const BackendPlugin *backend : m_plugins->backends())
        targets += backend->targets();
    return targets;
}

bool MainWindow::setCompileTarget(const QString &target)
{
    if (!target.isEmpty() && !compileTargets().contains(target)) {
        showError(tr("Unknown target"), ReadError{{}, 0, 0, tr("no backend plugin offers the target %1 (installed: %2)")
                                                               .arg(target, compileTargets().join(QStringLiteral(", ")))});
        return false;
    }
    m_compileTarget = target;
    const QMenu *menu = findChild<QMenu *>(QStringLiteral("targetMenu"));
    for (QAction *action : menu ? menu->actions() : QList<QAction *>())
        if (action->isCheckable())
            action->setChecked(action->data().toString() == target);
    statusBar()->showMessage(target.isEmpty() ? tr("Kernels compile for their spec's target.")
                                              : tr("Kernels compile for %1 from now on.").arg(target), 5000);
    return true;
}

void MainWindow::buildStatusBar()
{
    auto field = [this](const QString &name) {
        auto *label = new QLabel(this);
        label->setObjectName(name);
        label->setContentsMargins(8, 0, 8, 0);
        statusBar()->addPermanentWidget(label);
        return label;
    };
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 0);  // busy indicator: the agent reports steps, not percentages
    m_progress->setMaximumWidth(140);
    m_progress->setVisible(false);
    statusBar()->addWidget(m_progress);
    m_kernelLabel = field(QStringLiteral("kernelField"));
    m_targetLabel = field(QStringLiteral("targetField"));
    m_registersLabel = field(QStringLiteral("registersField"));
    m_remarksLabel = field(QStringLiteral("remarksField"));
    updateStatusFields();
}

} // namespace strata
