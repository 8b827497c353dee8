#include "optimize/AgentSession.h"

#include "host/AgentRpc.h"
#include "host/HostConnection.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>

namespace strata::optimize {

namespace {

// Extra seconds the host waits beyond the agent's own timeout before giving up on a reply.
constexpr int kReplyGraceSeconds = 120;

QJsonObject taskParams(const QString &taskPath, int timeoutSeconds, bool interpret, const GpuGate &gate,
                       const QString &target)
{
    QJsonObject params{{QStringLiteral("task"), taskPath}, {QStringLiteral("timeout_s"), timeoutSeconds}};
    if (!target.isEmpty())
        params.insert(QStringLiteral("target"), target);
    if (interpret)
        params.insert(QStringLiteral("interpret"), true);
    if (!gate.name.isEmpty())
        params.insert(QStringLiteral("gpu_gate"), gate.name);
    return params;
}

// The host-side hold of the gate: none when the worker takes it itself (a named gate).
class HostGateHold {
public:
    enum Mode { Shared, Exclusive };
    HostGateHold(GpuGate &gate, Mode mode, QMap<QString, double> &seconds)
        : m_lock(gate.name.isEmpty() ? &gate.lock : nullptr)
    {
        if (!m_lock)
            return;
        QElapsedTimer waited;
        waited.start();
        mode == Shared ? m_lock->lockForRead() : m_lock->lockForWrite();
        seconds[QStringLiteral("host_gate_wait_s")] += waited.elapsed() / 1000.0;
    }
    ~HostGateHold()
    {
        if (m_lock)
            m_lock->unlock();
    }
    HostGateHold(const HostGateHold &) = delete;
    HostGateHold &operator=(const HostGateHold &) = delete;

private:
    QReadWriteLock *m_lock;
};

// The worker gate's phases of one reply (agent/PROTOCOL.md, param gpu_gate), summed per phase.
void addWorkerGateSeconds(const QJsonObject &result, QMap<QString, double> &seconds)
{
    const QJsonObject gate = result.value(QStringLiteral("gpu_gate")).toObject();
    for (auto it = gate.begin(); it != gate.end(); ++it)
        if (it.value().isDouble())
            seconds[it.key()] += it.value().toDouble();
}

} // namespace

QString timingLabel(const QString &taskPath)
{
    return QStringLiteral("triton:") + QFileInfo(taskPath).completeBaseName();
}

AgentSession::AgentSession(HostConnection &agent, GpuGate &gate, int timeoutSeconds)
    : m_agent(agent), m_gate(gate), m_timeoutSeconds(timeoutSeconds)
{
}

Expected<QJsonObject> AgentSession::call(const QString &method, const QJsonObject &params, const QString &subject)
{
    QElapsedTimer clock;
    clock.start();
    const RpcReply reply = m_agent.callBlocking(method, params, (m_timeoutSeconds + kReplyGraceSeconds) * 1000, m_cancel);
    m_seconds[method] += clock.elapsed() / 1000.0;
    if (reply.ok) {
        addWorkerGateSeconds(reply.result.toObject(), m_seconds);
        return reply.result.toObject();
    }
    ReadError error{subject, 0, 0, QStringLiteral("%1 failed: %2").arg(method, reply.error.toString())};
    const QJsonObject &data = reply.error.data;
    if (data.contains(QStringLiteral("line")) && data.value(QStringLiteral("file")).toString() == subject)
        error.line = data.value(QStringLiteral("line")).toInt();
    return error;
}

Expected<TaskRun> AgentSession::runTask(const QString &taskPath, const QString &target)
{
    QJsonObject params = taskParams(taskPath, m_timeoutSeconds, m_interpret, m_gate, m_target);
    if (!target.isEmpty())
        params.insert(QStringLiteral("target"), target);
    HostGateHold shared(m_gate, HostGateHold::Shared, m_seconds);
    Expected<QJsonObject> result = call(QStringLiteral("run_task"), params, taskPath);
    if (!result)
        return result.error();
    return parseTaskRun(*result);
}

Expected<Verdict> AgentSession::verify(const QString &taskPath, const QJsonValue &glue)
{
    QJsonObject params = taskParams(taskPath, m_timeoutSeconds, m_interpret, m_gate, m_target);
    if (!glue.isUndefined() && !glue.isNull())
        params.insert(QStringLiteral("glue"), glue);
    HostGateHold shared(m_gate, HostGateHold::Shared, m_seconds);
    Expected<QJsonObject> result = call(QStringLiteral("verify"), params, taskPath);
    if (!result)
        return result.error();
    return parseVerdict(*result);
}

Expected<Timing> AgentSession::time(const TimingRequest &request)
{
    QJsonObject params = taskParams(request.taskPath, m_timeoutSeconds, false, m_gate, m_target);
    QStringList candidates{QStringLiteral("triton")};
    candidates += request.baselines;
    params.insert(QStringLiteral("candidates"), QJsonArray::fromStringList(candidates));
    params.insert(QStringLiteral("compare_with"), QJsonArray::fromStringList(request.compareWith));
    params.insert(QStringLiteral("time_cap_s"), request.timeCapSeconds);
    params.insert(QStringLiteral("target_ci"), request.targetCi);
    HostGateHold exclusive(m_gate, HostGateHold::Exclusive, m_seconds);
    Expected<QJsonObject> result = call(QStringLiteral("time"), params, request.taskPath);
    if (!result)
        return result.error();
    return parseTiming(*result);
}

Expected<ProfileResult> AgentSession::profile(const QString &taskPath, const QString &workDir)
{
    QJsonObject params = taskParams(taskPath, m_timeoutSeconds, false, m_gate, m_target);
    params.insert(QStringLiteral("work_dir"), workDir);
    HostGateHold exclusive(m_gate, HostGateHold::Exclusive, m_seconds);
    Expected<QJsonObject> result = call(QStringLiteral("profile"), params, taskPath);
    if (!result)
        return result.error();
    return parseProfileResult(*result);
}

Expected<CompileResult> AgentSession::compile(const QString &sourcePath, const QString &kernel, const QJsonObject &spec,
                                              const QString &workDir)
{
    const QJsonObject params{{QStringLiteral("source_path"), sourcePath},
                             {QStringLiteral("kernel"), kernel},
                             {QStringLiteral("spec"), spec},
                             {QStringLiteral("work_dir"), workDir},
                             {QStringLiteral("pass_dumps"), false},
                             {QStringLiteral("timeout_s"), m_timeoutSeconds}};
    Expected<QJsonObject> result = call(QStringLiteral("compile"), params, sourcePath);
    if (!result)
        return result.error();
    return parseCompileResult(*result, workDir);
}

Expected<QJsonObject> AgentSession::ast(const QString &sourcePath, const QString &kernel)
{
    return call(QStringLiteral("ast"), {{QStringLiteral("source_path"), sourcePath}, {QStringLiteral("kernel"), kernel}},
                sourcePath);
}

} // namespace strata::optimize
