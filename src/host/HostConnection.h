#pragma once
// A connection to one host agent over a transport (local process now, SSH next). Requests are
// asynchronous with a callback; callBlocking() serves the CLI and tests. If the agent dies, every
// pending request fails with an error naming the method, and the connection can be restarted.
#include "host/AgentRpc.h"

#include <QObject>
#include <QHash>
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

    // Sends a request; `done` runs on this object's thread exactly once.
    quint64 call(const QString &method, const QJsonObject &params, ReplyHandler done);
    // Runs a local event loop until the reply (or timeout/agent death) arrives.
    RpcReply callBlocking(const QString &method, const QJsonObject &params, int timeoutMs);

signals:
    void progress(quint64 requestId, const QString &message);  // agent "progress" notifications
    void disconnected(const QString &reason);

private:
    void onLine(const QByteArray &line);
    void onTransportFinished(const QString &reason);

    std::unique_ptr<AgentTransport> m_transport;
    quint64 m_nextId = 1;
    struct Pending { QString method; ReplyHandler done; };
    QHash<quint64, Pending> m_pending;
};

} // namespace strata
