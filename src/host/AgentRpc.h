#pragma once
// JSON-RPC 2.0 replies from the host agent (protocol: agent/PROTOCOL.md).
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

namespace strata {

struct RpcError {
    int code = 0;          // JSON-RPC code; see agent/PROTOCOL.md for Strata's own codes
    QString message;
    QJsonObject data;      // structured detail, e.g. {"kind":"compile_error","file":..,"line":..}
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
