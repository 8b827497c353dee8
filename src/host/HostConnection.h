#pragma once
// A connection to one host agent over a transport (LocalProcessTransport, SshTransport: see
// host/AgentTransport.h). Requests are asynchronous with a callback; callBlocking() serves the CLI
// and tests. If the agent dies, every pending request fails with an error naming the method, the
// exit status and the agent's last stderr lines (RpcCode::AgentExited), and start() restarts it.
#include "host/AgentRpc.h"

#include <QObject>
#include <QHash>
#include <atomic>
#include <functional>
#include <memory>

namespace strata {

class AgentTransport;

class HostConnection : public QObject {
    Q_OBJECT
public:
    using ReplyHandler = std::function<void(const RpcReply &)>;

    explicit HostConnection(std::unique_ptr<AgentTransport> transport, QObject *parent = nullptr);
    ~HostConnection() override;

    bool start(QString *error = nullptr);   // waits until the agent process runs
    void stop();
    bool isRunning() const;
    QString describe() const;               // "local: /path/python3 -m strata_agent"
    AgentTransport *transport() const { return m_transport.get(); }
    int pendingCount() const { return m_pending.size(); }

    // Sends a request; `done` runs on this object's thread exactly once.
    quint64 call(const QString &method, const QJsonObject &params, ReplyHandler done);
    // Runs a nested event loop until the reply (or timeout/agent death) arrives; not for GUI
    // slots. On timeout the request is forgotten (RpcCode::HostTimeout); a late reply is dropped.
    // Once `cancel` is set the reply gets `cancelGraceMs` more; then the agent is stopped (its
    // process group with the work it runs) and the call fails with RpcCode::Cancelled, so that a
    // deadline's SIGTERM is honoured within seconds even during a minute-long timing call.
    static constexpr int kCancelGraceMs = 10000;
    RpcReply callBlocking(const QString &method, const QJsonObject &params, int timeoutMs,
                          const std::atomic_bool *cancel = nullptr, int cancelGraceMs = kCancelGraceMs);

signals:
    void progress(quint64 requestId, const QString &message);  // agent "progress" notifications
    void disconnected(const QString &reason);
    // The agent wrote something that is not a JSON-RPC message (or answers no request we sent).
    void protocolError(const QString &message);

private:
    void onLine(const QByteArray &line);
    void onTransportFinished(const QString &reason);
    void onNotification(const QJsonObject &message);
    void onResponse(const QJsonObject &message);
    void reportProtocolError(const QString &message);
    void failLater(quint64 id, const RpcReply &reply);   // queued, so `done` never runs inside call()
    void finish(quint64 id, const RpcReply &reply);

    std::unique_ptr<AgentTransport> m_transport;
    quint64 m_nextId = 1;
    struct Pending { QString method; ReplyHandler done; };
    QHash<quint64, Pending> m_pending;
    QString m_lastProtocolError;   // quoted when the agent dies afterwards
};

} // namespace strata
