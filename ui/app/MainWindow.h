#pragma once
// The Strata main window: the source and every stage side by side, linked Compiler Explorer
// style; the pass pipeline with diffs and the remarks in docks; kernel, target, registers,
// spills and remark count in the status bar. Compiles and loads run off the UI thread; every
// failure is shown (dialog + status bar) and the window stays usable.
#include "compile/LoadedCompile.h"
#include "jobs/JobTracker.h"
#include "models/CompileLoader.h"
#include "models/LineLinker.h"

#include <QHash>
#include <QJsonObject>
#include <QMainWindow>
#include <memory>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QSplitter;
class QDialog;
class QDockWidget;
class QTemporaryDir;

namespace strata {

namespace trace {
struct TraceIndex;
}

class AgentCompiler;
class DiagnosisPanel;
class LlmSettings;
class RunPanel;
struct HostEntry;
class HostSettings;
class HostsDialog;
class PassPanel;
class PluginRegistry;
class RemarksView;
class StagePane;
class SuiteBrowser;
class TracePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    // Opens an existing compile (compile.json or the folder holding it). Returns the load's id.
    quint64 openCompile(const QString &path);
    // Reads a tritonparse trace (MainWindowTrace.cpp), lists its kernels in the Trace dock and
    // opens `kernel` (NAME, NAME#N or a hash prefix; empty: the autotune winner, else the first
    // launched, else the first). traceOpened() once listed, compileLoaded() once shown.
    void openTrace(const QString &path, const QString &kernel = {});
    void openTraceKernel(int index);  // a kernel of the open trace, as the Trace dock's rows
    std::shared_ptr<const trace::TraceIndex> currentTrace() const { return m_trace; }
    TracePanel *tracePanel() const { return m_tracePanel; }
    QDockWidget *traceDock() const { return m_traceDock; }
    // Compiles `kernelPath` with the spec file on the current host's agent (Host menu; local by
    // default), then loads the result.
    void compileKernel(const QString &kernelPath, const QString &specPath);
    // File > Compile Target: the target kernels compile for instead of their spec's (empty: the
    // spec's). False (error shown) for a target no loaded backend plugin offers.
    bool setCompileTarget(const QString &target);
    QString compileTarget() const { return m_compileTarget; }
    QStringList compileTargets() const;   // every loaded backend's targets
    void recompile();  // the last kernel+spec, or the open compile's source and spec
    // Opens a `strata-cli bench --json` results file in the Suite dock. False (error shown) if it
    // cannot be read; the suite shown before stays.
    bool openSuiteResults(const QString &path);
    QStringList recentSuiteResults() const;
    // Lists a suite folder's tasks (pending) in the Suite dock and makes it the Run dock's suite.
    // False (error shown) when it holds no task.
    bool openSuiteFolder(const QString &path);  // newest first, at most 8 (File > Recent Suite Results)
    // Writes the suite chart (.png, .svg, .pdf). False (error shown) on failure.
    bool exportSuiteChart(const QString &path);
    // Writes the open suite's report; the format follows the suffix (.html, .md, .json, .csv,
    // .pdf). False (error shown) on failure.
    bool exportSuiteReport(const QString &path);
    // Writes the report of the task selected in the Suite dock (.html, .md, .json, .csv, .pdf):
    // its timings, candidates and winning change. False (error shown) on failure.
    bool exportTaskReport(const QString &path);
    // Writes the Diagnosis dock's result for the open compile: .sarif (findings as SARIF),
    // .json (the diagnosis JSON), or a kernel report with findings, evidence and IR excerpts
    // (.html, .md, .pdf, .csv). False (error shown) on failure.
    bool exportDiagnosis(const QString &path);

    // Error dialogs are modal-free already; tests turn them off entirely.
    void setShowErrorDialogs(bool show) { m_showErrorDialogs = show; }

    // Panes and parts, for tests and the screenshot program.
    StagePane *sourcePane() const { return m_sourcePane; }
    StagePane *pane(const QString &stageId) const;
    QVector<StagePane *> stagePanes() const { return m_stagePanes; }
    PassPanel *passPanel() const { return m_passPanel; }
    RemarksView *remarksView() const { return m_remarks; }
    SuiteBrowser *suiteBrowser() const { return m_suiteBrowser; }
    DiagnosisPanel *diagnosisPanel() const { return m_diagnosis; }
    QDockWidget *diagnosisDock() const { return m_diagnosisDock; }
    RunPanel *runPanel() const { return m_runPanel; }
    LlmSettings *llmSettings() const { return m_llmSettings; }
    void openLlmSettings();  // Settings > LLM Endpoints...: non-modal, kept for the session
    QDockWidget *runDock() const { return m_runDock; }
    QDockWidget *suiteDock() const { return m_suiteDock; }
    LineLinker *linker() const { return m_linker; }
    CompileLoader *loader() const { return m_loader; }
    AgentCompiler *agentCompiler() const { return m_compiler; }
    HostSettings *hostSettings() const { return m_hosts; }
    HostsDialog *hostsDialog() const { return m_hostsDialog; }   // null until first opened
    void openHostsDialog();   // Host > Hosts...: non-modal, kept for the session
    std::shared_ptr<const LoadedCompile> currentCompile() const { return m_compile; }
    QString statusText() const;  // the permanent status-bar fields, joined

    void selectSourceLine(int sourceLine);  // as if clicked in the source pane
    void focusPane(int number);             // 1 = source, 2.. = stages in pipeline order

signals:
    void compileLoaded();
    void traceOpened();
    void passIndexReady();
    void loadFailed(const strata::ReadError &error);

private:
    // MainWindowLayout.cpp: widgets, docks, menus, shortcuts.
    void buildPanes();
    void buildDocks();
    void buildMenus();
    void buildStatusBar();
    QVector<StageDescriptor> pipelineStages() const;
    // The pipeline of `target`'s backend (safe off the UI thread: plugins are read-only once loaded).
    static QVector<StageDescriptor> stagesForTarget(const PluginRegistry *plugins, const QString &target);
    void showPipeline(const QVector<StageDescriptor> &stages);
    void rebuildFocusActions();
    void buildTargetMenu(QMenu *file);
    void showMissingStage(StagePane *pane, const CompileResult &result);
    void fitColumnsToStages();
    // MainWindowHosts.cpp: the Host menu, the host status field, compiles on the current host.
    void setUpHosts();
    void rebuildHostMenu();
    void onCurrentHostChanged(const HostEntry &host);

    // MainWindow.cpp: behaviour.
    void openDialog();
    void openSamplesDialog();
    void openSuiteResultsDialog();
    void openSuiteFolderDialog();
    void rememberSuiteResults(const QString &path);
    void rebuildRecentMenu();
    void exportSuiteChartDialog();
    void exportSuiteReportDialog();
    void exportTaskReportDialog();
    void attachMeasurementsDialog();
    void exportDiagnosisDialog();
    QString reportFileFilter() const;
    bool exportFinished(const Expected<QString> &written, const QString &path, const QString &failedTitle,
                        const QString &done);
    void showTrace(std::shared_ptr<const trace::TraceIndex> index, const QString &kernel);
    void onLoaded(quint64 job, std::shared_ptr<const LoadedCompile> compile);
    void onLoadFailed(quint64 job, const ReadError &error);
    void onCompiled(const CompileResult &result);
    void onLinked(const LinkSelection &selection);
    void showError(const QString &title, const ReadError &error);
    void setBusy(const QString &message);
    void setIdle(const QString &message);
    void updateStatusFields();

    std::unique_ptr<PluginRegistry> m_plugins;
    QVector<StageDescriptor> m_stages;  // the pipeline, source first
    LineLinker *m_linker;
    CompileLoader *m_loader;
    AgentCompiler *m_compiler;
    HostSettings *m_hosts;
    HostsDialog *m_hostsDialog = nullptr;
    QMenu *m_hostMenu = nullptr;
    QMenu *m_recentMenu = nullptr;
    std::shared_ptr<const LoadedCompile> m_compile;

    StagePane *m_sourcePane = nullptr;
    QVector<StagePane *> m_stagePanes;  // without the source pane
    QSplitter *m_columns = nullptr;
    PassPanel *m_passPanel = nullptr;
    RemarksView *m_remarks = nullptr;
    QDockWidget *m_passDock = nullptr;
    QDockWidget *m_remarksDock = nullptr;
    SuiteBrowser *m_suiteBrowser = nullptr;
    DiagnosisPanel *m_diagnosis = nullptr;
    QDockWidget *m_diagnosisDock = nullptr;
    RunPanel *m_runPanel = nullptr;
    LlmSettings *m_llmSettings = nullptr;
    QDialog *m_llmDialog = nullptr;
    QDockWidget *m_runDock = nullptr;
    QDockWidget *m_suiteDock = nullptr;
    TracePanel *m_tracePanel = nullptr;
    QDockWidget *m_traceDock = nullptr;
    std::shared_ptr<const trace::TraceIndex> m_trace;
    std::unique_ptr<QTemporaryDir> m_traceImports;  // the open trace's kernels as compile folders
    JobTracker m_traceJobs{this};
    JobTracker m_traceImportJobs{this};

    QLabel *m_kernelLabel = nullptr;
    QLabel *m_targetLabel = nullptr;
    QLabel *m_registersLabel = nullptr;
    QLabel *m_remarksLabel = nullptr;
    QLabel *m_hostLabel = nullptr;
    QProgressBar *m_progress = nullptr;

    QMenu *m_viewMenu = nullptr;
    QAction *m_focusEnd = nullptr;       // the View menu's focus actions go before it
    QVector<QAction *> m_focusActions;
    QString m_compileTarget;             // empty: the spec's
    bool m_columnsNarrowed = false;      // fitColumnsToStages() narrowed a column of absent stages

    QString m_lastKernelPath;
    QString m_lastSpecPath;
    bool m_showErrorDialogs = true;
};

} // namespace strata
