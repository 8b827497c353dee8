#pragma once
// A suite run: the optimization loop on every task of a folder, several tasks at a time (each on
// its own thread with its own agent and store connection; GPU timing stays exclusive through one
// GpuGate per GPU), then the suite figures. Shared by `strata-cli bench` and the explorer's run
// control. The tasks may be spread over a pool of hosts (BenchSetup::hosts) and, on a host with
// several GPUs, over its GPUs: a host that drops out loses only the tasks it was running, which
// go back to the queue and resume from the store on another worker.
#include "core/Expected.h"
#include "optimize/OptimizeOptions.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QJsonObject>
#include <QStringList>
#include <QVector>
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
// A new, not yet started agent that sees only `device` (the backend's device mask; empty: as is).
using DeviceAgentFactory = std::function<std::unique_ptr<HostConnection>(const QString &device)>;

// One host of a pool (strata-cli bench --hosts; cluster/HostPool.h makes them).
struct BenchHost {
    QString name;                // "local", "ssh:gpu3": in progress lines and the store
    int jobs = 1;                // tasks at a time per GPU (a host without GPUs: in all)
    DeviceAgentFactory agentFactory;
    // The devices this side already restricts the host to (this process's device mask for
    // "local"); empty: the GPUs the agent's `info` lists. Workers are spread over them.
    QStringList inheritedDevices;
    bool splitDevices = true;    // false: the factory ignores `device` (every worker sees every GPU)
};

struct BenchSetup {
    QString suiteDir;
    QStringList only;              // task stems to run (empty: all)
    int jobs = 1;                  // tasks at a time (without `hosts`)
    QString storePath;
    QString host = QStringLiteral("local");
    // A pool of hosts, each with its own jobs and agents. Empty: the one host `host`, with
    // `agentFactory` and `jobs` (every worker sees every GPU: the explorer's run control).
    QVector<BenchHost> hosts;
    bool interpret = false;        // run_task/verify on the CPU (no timing possible: tests only)
    OptimizeOptions options;
    AgentFactory agentFactory;
    ProviderFactory providerFactory;
    const PluginRegistry *plugins = nullptr;
    const std::atomic_bool *cancel = nullptr;
    // A soft stop (a deadline coming): no task, round, check or timing starts any more; the ones
    // in flight finish and are stored, so the next run on the store redoes nothing.
    const std::atomic_bool *drain = nullptr;
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

// The GPUs to spread a host's workers over, one entry per worker group: `inherited` when set, else
// the "index" of each GPU the agent's `info` lists. One GPU or none gives one group that keeps the
// host's environment (an empty entry): such a run behaves as before GPUs were split.
QStringList workerDevices(const QJsonObject &info, const QStringList &inherited);

// Runs the suite; `environment` fills device/driver/versions (from the agent's info). Tasks that
// fail keep their place in the outcome with status "failed" and the reason.
Expected<SuiteOutcome> runSuite(const BenchSetup &setup);

} // namespace strata::optimize
