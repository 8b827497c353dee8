// strata-cli run|verify|time|profile|ceilings: one task-method call on the agent of a host (local
// or over ssh), recorded in the store as it arrives (failed calls too), then a summary or the JSON.
#include "cli/TaskCommon.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "store/Store.h"
#include "tasks/ProfileResult.h"
#include "tasks/TaskRun.h"
#include "tasks/Timing.h"
#include "tasks/Verdict.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <functional>

namespace strata::cli {

namespace {

// Worker start-up, torch import and (for profile) reading ncu's report back come on top of the
// agent's own timeout_s; past this margin the agent itself is presumed stuck.
constexpr int kCallMarginSeconds = 120;

std::unique_ptr<HostConnection> connectTo(const TaskArgs &args)
{
    std::unique_ptr<AgentTransport> transport;
    if (args.host == QLatin1String("local"))
        transport = std::make_unique<LocalProcessTransport>();
    else
        transport = std::make_unique<SshTransport>(args.host.mid(4), args.remotePython);
    auto connection = std::make_unique<HostConnection>(std::move(transport));
    QString error;
    if (!connection->start(&error)) {
        fail(ExitAgentFailed, QStringLiteral("%1 (host %2)").arg(error, args.host));
        return nullptr;
    }
    const QString tag = args.command;
    if (!args.quiet) {
        QObject::connect(connection.get(), &HostConnection::progress, [tag](quint64, const QString &message) {
            err() << tag << ": " << message << Qt::endl;
        });
    }
    QObject::connect(connection.get(), &HostConnection::protocolError, [](const QString &message) {
        err() << "strata-cli: warning: " << message << Qt::endl;
    });
    return connection;
}

// A task-method failure: the candidate's own (exit 6) or the tool's (2 for a bad task, 4).
ExitCode exitCodeForTask(const RpcError &error)
{
    if (error.kind() == QLatin1String("torch_missing"))
        return ExitAgentFailed;
    if (error.code == RpcCode::AgentTimeout || error.code == RpcCode::WorkerFailed)
        return ExitTaskFailed;
    return exitCodeFor(error);
}

TaskCallRecord baseRecord(const TaskArgs &args, double seconds)
{
    TaskCallRecord call;
    call.method = args.method;
    call.host = args.host;
    call.taskPath = args.taskPath;
    call.params = args.params;
    call.durationSeconds = seconds;
    return call;
}

// Records the call; a store failure is reported, never fatal to the result already in hand.
bool record(const TaskArgs &args, const TaskCallRecord &call)
{
    if (!args.store)
        return true;
    Expected<std::unique_ptr<Store>> store = Store::open(args.dbPath);
    Expected<qint64> id = store ? (*store)->recordTaskResult(call) : Expected<qint64>(store.error());
    if (!id) {
        fail(ExitStoreFailed, id.error());
        return false;
    }
    if (!args.json)
        err() << "stored: task run #" << *id << " in " << args.dbPath << Qt::endl;
    return true;
}

int reportCallFailure(const TaskArgs &args, const RpcError &error, double seconds)
{
    if (args.json) {
        out() << QJsonDocument(QJsonObject{{QStringLiteral("error"), QJsonObject{
                                   {QStringLiteral("code"), error.code}, {QStringLiteral("message"), error.message},
                                   {QStringLiteral("data"), error.data}}}}).toJson(QJsonDocument::Indented);
    }
    const int code = fail(exitCodeForTask(error), QStringLiteral("%1 failed: %2").arg(args.method, describeRpcError(error)));
    const QString tail = error.data.value(QStringLiteral("stderr_tail")).toString().trimmed();
    if (!tail.isEmpty() && !args.quiet)
        err() << tail.right(2000) << Qt::endl;
    if (error.code != RpcCode::NotRunning) {
        TaskCallRecord call = baseRecord(args, seconds);
        call.ok = false;
        call.errorCode = error.code;
        call.errorKind = error.kind();
        call.errorMessage = error.message;
        call.errorData = error.data;
        record(args, call);
    }
    return code;
}

// The agent answered, but not with a readable result: stored as failed with what it sent.
int reportMalformed(const TaskArgs &args, TaskCallRecord call, const QString &problem)
{
    call.ok = false;
    call.errorKind = QStringLiteral("malformed_result");
    call.errorMessage = problem;
    record(args, call);
    return fail(ExitAgentFailed, QStringLiteral("the agent's %1 result is malformed: %2").arg(args.method, problem));
}

using Printer = std::function<int()>;

// Reads `result` as `call.method`'s result; fills what the store keeps of it and returns how to
// print it, or why it is malformed.
Expected<Printer> readResult(const QJsonObject &result, TaskCallRecord *call)
{
    auto fill = [&](auto parsed, auto print, auto describe) -> Expected<Printer> {
        if (!parsed)
            return parsed.error();
        describe(*parsed);
        return Printer([value = *parsed, print]() { return print(value); });
    };
    const QString &method = call->method;
    if (method == QLatin1String("run_task"))
        return fill(parseTaskRun(result), printTaskRun, [&](const TaskRun &r) {
            call->kernels = r.kernels;
            call->taskMeta = r.meta;
            call->device = r.device;
        });
    if (method == QLatin1String("verify"))
        return fill(parseVerdict(result), printVerdict, [&](const Verdict &v) {
            call->kernels = v.kernels;
            call->verdict = v.verdict;
        });
    if (method == QLatin1String("time"))
        return fill(parseTiming(result), printTiming, [&](const Timing &t) { call->device = t.device.name; });
    if (method == QLatin1String("profile"))
        return fill(parseProfileResult(result), printProfile, [&](const ProfileResult &p) { call->kernels = p.kernels; });
    return fill(parseCeilingsResult(result), printCeilings, [&](const CeilingsResult &c) { call->device = c.device.name; });
}

int present(const TaskArgs &args, const QJsonObject &result, double seconds)
{
    TaskCallRecord call = baseRecord(args, seconds);
    call.result = result;   // kept whole, also when it turns out malformed
    Expected<Printer> printer = readResult(result, &call);
    if (!printer)
        return reportMalformed(args, call, printer.error().toString());
    const bool stored = record(args, call);
    int code = ExitOk;
    if (args.json) {
        out() << QJsonDocument(result).toJson(QJsonDocument::Indented);
        out().flush();
        // The exit code still tells a failing verdict or an unusable profiler.
        const QString verdict = result.value(QStringLiteral("verdict")).toString();
        const QString ncu = result.value(QStringLiteral("ncu")).toObject().value(QStringLiteral("status")).toString();
        if (verdict == QLatin1String("fail"))
            code = ExitTaskFailed;
        else if (!ncu.isEmpty() && ncu != QLatin1String("ok"))
            code = ExitAgentFailed;
    } else {
        code = (*printer)();
        out().flush();
    }
    return code != ExitOk ? code : (stored ? ExitOk : ExitStoreFailed);
}

} // namespace

int runTaskCommand(const QString &command, const QStringList &argv)
{
    TaskArgs args;
    if (const int code = parseTaskArgs(command, argv, &args); code >= 0)
        return code;
    std::unique_ptr<HostConnection> agent = connectTo(args);
    if (!agent)
        return ExitAgentFailed;
    QElapsedTimer clock;
    clock.start();
    const RpcReply reply = agent->callBlocking(args.method, args.params, (args.timeoutSeconds + kCallMarginSeconds) * 1000);
    agent->stop();
    const double seconds = clock.elapsed() / 1000.0;
    if (!reply.ok)
        return reportCallFailure(args, reply.error, seconds);
    if (!reply.result.isObject())
        return reportMalformed(args, baseRecord(args, seconds), QStringLiteral("expected a JSON object"));
    return present(args, reply.result.toObject(), seconds);
}

} // namespace strata::cli
