#pragma once
// A suite run: the optimization loop on every task of a folder, several tasks at a time (each on
// its own thread with its own agent and store connection; GPU timing stays exclusive through one
// GpuGate), then the suite figures. Shared by `strata-cli bench` and the explorer's run control.
#include "core/Expected.h"
#include "optimize/OptimizeOptions.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>
#include <vector>

namespace strata {
class HostConnection;
class PluginRegistry;
}
namespace strata::rewrite {
class RewriteProvider;
}

namespace strata::optimize {

using ProviderFactory = std::function<std::vector<std::unique_ptr<rewrite::RewriteProvider>>()>;
using AgentFactory = std::function<std::unique_ptr<HostConnection>()>;  // a new, not yet started agent

struct BenchSetup {
    QString suiteDir;
    QStringList only;              // task stems to run (empty: all)
    int jobs = 1;                  // tasks at a time
    QString storePath;
    QString host = QStringLiteral("local");
    bool interpret = false;        // run_task/verify on the CPU (no timing possible: tests only)
    OptimizeOptions options;
    AgentFactory agentFactory;
    ProviderFactory providerFactory;
    const PluginRegistry *plugins = nullptr;
    const std::atomic_bool *cancel = nullptr;
    std::function<void(const QString &line)> progress;  // called from worker threads, serialised
    // Each task's outcome as it ends (index into suiteTasks' list), from worker threads, serialised.
    std::function<void(int index, const TaskOutcome &outcome)> taskFinished;
};

// The task files of a suite folder: *.py that define ModelNew (sorted by name), without the ones
// set aside with a leading "_" unless `only` names them. Errors name the
// folder when it is missing or has no task.
Expected<QStringList> suiteTasks(const QString &suiteDir, const QStringList &only);

// The suite's tasks before any run: each "pending", with the category its STRATA_TASK declares
// (read from the text, no Python). What the explorer shows of a folder, and of a run as it starts.
Expected<SuiteOutcome> pendingSuite(const QString &suiteDir);

// Runs the suite; `environment` fills device/driver/versions (from the agent's info). Tasks that
// fail keep their place in the outcome with status "failed" and the reason.
Expected<SuiteOutcome> runSuite(const BenchSetup &setup);

} // namespace strata::optimize
