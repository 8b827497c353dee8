#pragma once
// The optimization loop's view of one host agent: blocking calls that return typed results, and
// a gate that keeps GPU timing exclusive. Several loops (one per task, each on its own thread with
// its own agent) share one GpuGate: run_task and verify hold it shared, `time` and `profile` alone,
// so no other work disturbs a measurement while compiles and checks of other tasks overlap.
#include "compile/CompileResult.h"
#include "core/Expected.h"
#include "tasks/TaskRun.h"
#include "tasks/ProfileResult.h"
#include "tasks/Timing.h"
#include "tasks/Verdict.h"

#include <QJsonObject>
#include <QMap>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>

#include <atomic>

namespace strata {
class HostConnection;
struct RpcReply;
}

namespace strata::optimize {

// With a name, the agent's task worker takes the gate itself (a file lock of that name on the
// GPU's machine, agent/strata_agent/gpu_gate.py): shared for checks and warm-ups, exclusive only
// for the measured repetitions and the profiled range. Process start, imports, Triton compiles and
// torch.compile warm-ups then overlap other loops' work instead of queueing behind the lock.
// Without a name the host holds `lock` around the whole call (shared or exclusive, as below).
class GpuGate {
public:
    GpuGate() = default;
    explicit GpuGate(QString workerGateName) : name(std::move(workerGateName)) {}
    QReadWriteLock lock;
    const QString name;
};

struct TimingRequest {
    QString taskPath;            // timed as "triton" (alone) or "triton:<stem>" (with others)
    QStringList compareWith;     // more task files, timed interleaved
    QStringList baselines;       // "eager", "compile"
    double timeCapSeconds = 2;
    double targetCi = 0.005;
};

class AgentSession {
public:
    AgentSession(HostConnection &agent, GpuGate &gate, int timeoutSeconds);
    // run_task and verify under Triton's CPU interpreter (no GPU: tests and dry runs; `time`
    // still needs a GPU and fails without one).
    void setInterpret(bool interpret) { m_interpret = interpret; }
    // Set: every task call (run_task, verify, time, profile) names this target, and the agent
    // runs it on that target's backend (an Ascend target on the NPU; agent/PROTOCOL.md).
    void setTarget(const QString &target) { m_target = target; }
    // Set: a call in flight ends (and its agent stops) a grace period after the flag is raised.
    void setCancel(const std::atomic_bool *cancel) { m_cancel = cancel; }
    HostConnection &connection() { return m_agent; }
    int timeoutSeconds() const { return m_timeoutSeconds; }

    Expected<TaskRun> runTask(const QString &taskPath, const QString &target);
    // `glue`: verify's param (agent/PROTOCOL.md): "initial" for the user's own kernel, the
    // initial's glue_calls ({op: calls}) for a candidate; undefined for none.
    Expected<Verdict> verify(const QString &taskPath, const QJsonValue &glue = QJsonValue::Undefined);
    Expected<Timing> time(const TimingRequest &request);
    // Nsight Compute on one forward of the task (exclusive on the GPU, like time). A reply whose
    // ncu status is not "ok" is a value, not an error: the caller decides what missing counters mean.
    Expected<ProfileResult> profile(const QString &taskPath, const QString &workDir);
    Expected<CompileResult> compile(const QString &sourcePath, const QString &kernel, const QJsonObject &spec,
                                    const QString &workDir);
    Expected<QJsonObject> ast(const QString &sourcePath, const QString &kernel);

    // Where this session's time went, in seconds: each agent method's calls ("verify", "time",
    // ...), the host gate's waits ("host_gate_wait_s") and the worker gate's phases as the replies
    // report them ("measure_wait_s", "warmup_held_s", ...). The suite's speed is judged from these.
    const QMap<QString, double> &secondsSpent() const { return m_seconds; }

private:
    Expected<QJsonObject> call(const QString &method, const QJsonObject &params, const QString &subject);

    HostConnection &m_agent;
    GpuGate &m_gate;
    int m_timeoutSeconds;
    bool m_interpret = false;
    QString m_target;
    const std::atomic_bool *m_cancel = nullptr;
    QMap<QString, double> m_seconds;
};

// The label `time` gives a task file's ModelNew when several are timed together.
QString timingLabel(const QString &taskPath);

} // namespace strata::optimize
