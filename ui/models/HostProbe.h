#pragma once
// Asks one host's agent what it has (`info`) and how fast its device is (`ceilings`), without
// blocking the caller: every request is an asynchronous HostConnection::call() answered on the
// event loop, with a deadline of its own so an unreachable host ends in a message, not a wait.
// A newer request of the same kind supersedes an older one (its late reply is dropped).
#include "models/HostReport.h"
#include "models/HostSettings.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace strata {

class HostConnection;
struct RpcReply;

class HostProbe : public QObject {
    Q_OBJECT
public:
    HostProbe(HostEntry host, HostTransportOptions options, QObject *parent = nullptr);
    ~HostProbe() override;

    HostEntry host() const { return m_host; }
    QString describe() const;   // the agent command line, e.g. "ssh gpu-box: ssh -T ... --stdio"
    bool isBusy() const { return m_pendingRequests > 0; }
    std::optional<HostInfo> lastInfo() const { return m_info; }

    // Starts the agent if it is not running and asks for `info`: infoReady or infoFailed follows.
    void refresh();
    // Asks for `ceilings` (the host's cache unless `remeasure`): ceilingsReady or ceilingsFailed.
    void measureCeilings(bool remeasure);

    // Deadlines (ms). Ceilings measure for up to the agent's own 300 s on first use.
    void setTimeouts(int infoMs, int ceilingsMs);

signals:
    void infoReady(const strata::HostInfo &info);
    void infoFailed(const QString &message);
    void ceilingsReady(const strata::DeviceCeilings &ceilings);
    void ceilingsFailed(const QString &message);
    void progress(const QString &message);   // agent progress notifications

private:
    using Handler = std::function<void(const RpcReply &)>;
    bool ensureStarted(QString *error);
    void send(const QString &method, const QJsonObject &params, int timeoutMs, Handler done);
    void onInfoReply(const RpcReply &reply);
    void onCeilingsReply(const RpcReply &reply);

    HostEntry m_host;
    HostTransportOptions m_options;
    std::unique_ptr<HostConnection> m_connection;
    std::optional<HostInfo> m_info;
    int m_infoTimeoutMs = 90 * 1000;
    int m_ceilingsTimeoutMs = 330 * 1000;
    quint64 m_infoGeneration = 0;
    quint64 m_ceilingsGeneration = 0;
    int m_pendingRequests = 0;
    // Cleared first in the destructor: the connection fails pending requests as it closes, and
    // those handlers must not reach a half-destroyed probe.
    std::shared_ptr<bool> m_alive = std::make_shared<bool>(true);
};

} // namespace strata
