#include "models/HostProbe.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include <QTimer>

namespace strata {

HostProbe::HostProbe(HostEntry host, HostTransportOptions options, QObject *parent)
    : QObject(parent)
    , m_host(std::move(host))
    , m_options(std::move(options))
{
    qRegisterMetaType<strata::HostInfo>();
    qRegisterMetaType<strata::DeviceCeilings>();
}

HostProbe::~HostProbe()
{
    *m_alive = false;
    if (m_connection)
        m_connection->stop();   // "shutdown" first, then EOF, then a kill if it lingers
}

QString HostProbe::describe() const
{
    if (m_connection)
        return m_connection->describe();
    return createTransport(m_host, m_options)->describe();
}

void HostProbe::setTimeouts(int infoMs, int ceilingsMs)
{
    m_infoTimeoutMs = infoMs;
    m_ceilingsTimeoutMs = ceilingsMs;
}

bool HostProbe::ensureStarted(QString *error)
{
    if (!m_connection) {
        m_connection = std::make_unique<HostConnection>(createTransport(m_host, m_options));
        connect(m_connection.get(), &HostConnection::progress, this,
                [this](quint64, const QString &message) { emit progress(message); });
    }
    // Only waits for the process to exist (ssh or python forked), not for an answer.
    return m_connection->isRunning() || m_connection->start(error);
}

void HostProbe::send(const QString &method, const QJsonObject &params, int timeoutMs, Handler done)
{
    // Whichever comes first, the reply or the deadline, is delivered; the other is dropped.
    auto answered = std::make_shared<bool>(false);
    auto deliver = [this, alive = m_alive, answered, done = std::move(done)](const RpcReply &reply) {
        if (*answered || !*alive)
            return;
        *answered = true;
        --m_pendingRequests;
        done(reply);
    };
    ++m_pendingRequests;
    m_connection->call(method, params, deliver);
    QTimer::singleShot(timeoutMs, this, [deliver, method, timeoutMs] {
        deliver(RpcReply::failure(RpcCode::HostTimeout,
                                  tr("no answer to %1 within %2 s").arg(method).arg(timeoutMs / 1000)));
    });
}

void HostProbe::refresh()
{
    QString error;
    if (!ensureStarted(&error)) {
        emit infoFailed(tr("cannot start the agent on %1: %2").arg(m_host.displayName(), error));
        return;
    }
    const quint64 generation = ++m_infoGeneration;
    send(QStringLiteral("info"), {}, m_infoTimeoutMs, [this, generation](const RpcReply &reply) {
        if (generation == m_infoGeneration)
            onInfoReply(reply);
    });
}

void HostProbe::measureCeilings(bool remeasure)
{
    QString error;
    if (!ensureStarted(&error)) {
        emit ceilingsFailed(tr("cannot start the agent on %1: %2").arg(m_host.displayName(), error));
        return;
    }
    const quint64 generation = ++m_ceilingsGeneration;
    const QJsonObject params{{QStringLiteral("refresh"), remeasure}};
    send(QStringLiteral("ceilings"), params, m_ceilingsTimeoutMs, [this, generation](const RpcReply &reply) {
        if (generation == m_ceilingsGeneration)
            onCeilingsReply(reply);
    });
}

void HostProbe::onInfoReply(const RpcReply &reply)
{
    if (!reply.ok) {
        emit infoFailed(reply.error.message);
        return;
    }
    Expected<HostInfo> info = parseHostInfo(reply.result, m_host.displayName());
    if (!info) {
        emit infoFailed(info.error().toString());
        return;
    }
    m_info = *info;
    emit infoReady(*info);
}

void HostProbe::onCeilingsReply(const RpcReply &reply)
{
    if (!reply.ok) {
        emit ceilingsFailed(describeCeilingsError(reply.error, m_info ? &*m_info : nullptr));
        return;
    }
    Expected<DeviceCeilings> ceilings = parseCeilings(reply.result, m_host.displayName());
    if (!ceilings) {
        emit ceilingsFailed(ceilings.error().toString());
        return;
    }
    emit ceilingsReady(*ceilings);
}

} // namespace strata
