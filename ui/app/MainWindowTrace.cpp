// MainWindow and tritonparse traces: the trace is indexed off the UI thread and listed in the
// Trace dock; the kernel picked there is imported as a compile folder (in a folder that lives as
// long as the window) and opened like any compile.
#include "app/MainWindow.h"
#include "host/PluginRegistry.h"

#include "trace/TraceImport.h"
#include "views/TracePanel.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QStatusBar>
#include <QTemporaryDir>

namespace strata {

namespace {

// The kernel shown first: the autotuner's winner, else the first one launched, else the first.
int firstKernelToShow(const trace::TraceIndex &index)
{
    for (int i = 0; i < index.kernels.size(); ++i)
        if (index.kernels[i].autotuneWinner)
            return i;
    for (int i = 0; i < index.kernels.size(); ++i)
        if (index.kernels[i].launches.count > 0)
            return i;
    return 0;
}

} // namespace

void MainWindow::openTrace(const QString &path, const QString &kernel)
{
    setBusy(tr("Reading the trace %1 ...").arg(QDir::toNativeSeparators(path)));
    // Each backend names its own targets; the registry lives as long as the window (and the job).
    const PluginRegistry *plugins = m_plugins.get();
    const trace::TargetNamer namer = [plugins](const QJsonObject &tritonTarget) {
        return plugins ? plugins->targetFromTriton(tritonTarget) : QString();
    };
    m_traceJobs.start([path, namer](const JobTracker::IsCancelled &) { return trace::readTrace(path, namer); },
                      [this, kernel](Expected<trace::TraceIndex> index) {
                          if (!index) {
                              setIdle(tr("Could not read the trace: %1").arg(index.error().toString()));
                              showError(tr("Could not read the trace"), index.error());
                              emit loadFailed(index.error());
                              return;
                          }
                          showTrace(std::make_shared<const trace::TraceIndex>(std::move(*index)), kernel);
                      });
}

void MainWindow::showTrace(std::shared_ptr<const trace::TraceIndex> index, const QString &kernel)
{
    m_trace = std::move(index);
    m_traceImports = std::make_unique<QTemporaryDir>();
    m_tracePanel->setTrace(*m_trace);
    m_traceDock->show();
    m_traceDock->raise();
    int first = firstKernelToShow(*m_trace);
    if (!kernel.isEmpty()) {
        Expected<int> chosen = trace::findKernel(*m_trace, kernel);
        if (!chosen) {
            showError(tr("No such kernel in the trace"), chosen.error());
            emit loadFailed(chosen.error());
        } else {
            first = *chosen;
        }
    }
    emit traceOpened();
    openTraceKernel(first);
}

void MainWindow::openTraceKernel(int index)
{
    if (!m_trace || index < 0 || index >= m_trace->kernels.size())
        return;
    m_tracePanel->setCurrentKernel(index);
    const trace::TraceKernel &kernel = m_trace->kernels[index];
    const QString dir = QDir(m_traceImports->path()).filePath(QString(kernel.label).replace(u'#', u'-'));
    if (QFileInfo::exists(QDir(dir).filePath(QStringLiteral("compile.json")))) {  // imported before
        openCompile(dir);
        return;
    }
    setBusy(tr("Importing %1 from the trace ...").arg(kernel.label));
    std::shared_ptr<const trace::TraceIndex> traceIndex = m_trace;
    m_traceImportJobs.start([traceIndex, index, dir](const JobTracker::IsCancelled &) { return trace::importKernel(*traceIndex, index, dir); },
                            [this, dir](Expected<CompileResult> result) {
                                if (!result) {
                                    setIdle(tr("Could not import the kernel: %1").arg(result.error().toString()));
                                    showError(tr("Could not import the kernel"), result.error());
                                    emit loadFailed(result.error());
                                    return;
                                }
                                openCompile(dir);
                            });
}

} // namespace strata
