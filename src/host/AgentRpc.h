#pragma once
// JSON-RPC 2.0 replies from the host agent (protocol: agent/PROTOCOL.md).
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace strata {

// JSON-RPC error codes. The agent sends -32001..-32003 (with data.kind naming the same); the host
// side makes up the -3201x ones for failures no agent reply describes.
namespace RpcCode {
enum : int {
    ParseError = -32700,        // the agent could not parse what we sent
    MethodNotFound = -32601,
    CompileError = -32001,      // data: {kind:"compile_error", message, file, line, kernel}
    AgentTimeout = -32002,      // the agent's own compile timeout (params.timeout_s)
    BadInput = -32003,          // missing file, unknown kernel, bad spec
    WorkerFailed = -32004,      // the worker was killed, crashed, or the candidate raised
    AgentExited = -32010,       // the agent died with the request pending
    HostTimeout = -32011,       // callBlocking gave up waiting
    NotRunning = -32012,        // no agent to send to
    Cancelled = -32013,         // callBlocking stopped the agent: the caller cancelled
};
}

struct RpcError {
    int code = 0;          // JSON-RPC code; see agent/PROTOCOL.md for Strata's own codes
    QString message;
    QJsonObject data;      // structured detail, e.g. {"kind":"compile_error","file":..,"line":..}

    QString kind() const { return data.value(QStringLiteral("kind")).toString(); }
    // "file:line: message" when the agent named a place, else the message.
    QString toString() const
    {
        const QString file = data.value(QStringLiteral("file")).toString();
        const int line = data.value(QStringLiteral("line")).toInt();
        if (file.isEmpty())
            return message;
        return line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(message)
                        : QStringLiteral("%1: %2").arg(file, message);
    }
};

struct RpcReply {
    bool ok = false;
    QJsonValue result;
    RpcError error;

    static RpcReply success(QJsonValue result) { return {true, std::move(result), {}}; }
    static RpcReply failure(int code, QString message, QJsonObject data = {})
    {
        return {false, {}, {code, std::move(message), std::move(data)}};
    }
};

} // namespace strata
