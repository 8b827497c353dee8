#include "host/HostConnection.h"

#include "host/AgentTransport.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QElapsedTimer>
#include <QTimer>
#include <optional>

namespace strata {

namespace {

QString quoted(const QByteArray &line)
{
    constexpr int kMaxQuoted = 200;
    QString text = QString::fromUtf8(line.left(kMaxQuoted));
    if (line.size() > kMaxQuoted)
        text += QStringLiteral("...");
    return QLatin1Char('"') + text + QLatin1Char('"');
}

RpcReply failureFor(int code, const QString &kind, const QString &method, const QString &message)
{
    return RpcReply::failure(code, message,
                             {{QStringLiteral("kind"), kind}, {QStringLiteral("method"), method}});
}

} // namespace

HostConnection::HostConnection(std::unique_ptr<AgentTransport> transport, QObject *parent)
    : QObject(parent), m_transport(std::move(transport))
{
    connect(m_transport.get(), &AgentTransport::lineReceived, this, &HostConnection::onLine);
    connect(m_transport.get(), &AgentTransport::finished, this, &HostConnection::onTransportFinished);
}

HostConnection::~HostConnection()
{
    m_transport->disconnect(this);
    m_transport->stop();
    const auto pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it)
        it->done(failureFor(RpcCode::AgentExited, QStringLiteral("agent_exited"), it->method,
                            QStringLiteral("request %1 cancelled: the agent connection was closed").arg(it->method)));
}

bool HostConnection::start(QString *error)
{
    m_lastProtocolError.clear();
    return m_transport->start(error);
}

void HostConnection::stop()
{
    if (!m_transport->isRunning())
        return;
    // Polite first: the agent finishes its bookkeeping on "shutdown"; the transport then closes
    // stdin and kills it if it lingers. Pending requests fail through onTransportFinished.
    call(QStringLiteral("shutdown"), {}, [](const RpcReply &) {});
    m_transport->stop();
}

bool HostConnection::isRunning() const
{
    return m_transport->isRunning();
}

QString HostConnection::describe() const
{
    return m_transport->describe();
}

quint64 HostConnection::call(const QString &method, const QJsonObject &params, ReplyHandler done)
{
    const quint64 id = m_nextId++;
    m_pending.insert(id, Pending{method, std::move(done)});
    if (!m_transport->isRunning()) {
        failLater(id, failureFor(RpcCode::NotRunning, QStringLiteral("not_running"), method,
                                 QStringLiteral("cannot send %1: the agent is not running (%2)")
                                     .arg(method, describe())));
        return id;
    }
    const QJsonObject request{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                              {QStringLiteral("id"), qint64(id)},
                              {QStringLiteral("method"), method},
                              {QStringLiteral("params"), params}};
    if (!m_transport->writeLine(QJsonDocument(request).toJson(QJsonDocument::Compact)))
        failLater(id, failureFor(RpcCode::NotRunning, QStringLiteral("not_running"), method,
                                 QStringLiteral("cannot send %1: writing to the agent failed").arg(method)));
    return id;
}

RpcReply HostConnection::callBlocking(const QString &method, const QJsonObject &params, int timeoutMs,
                                      const std::atomic_bool *cancel, int cancelGraceMs)
{
    QEventLoop loop;
    std::optional<RpcReply> reply;
    const quint64 id = call(method, params, [&](const RpcReply &r) {
        reply = r;
        loop.quit();
    });
    QTimer timer;
    timer.setSingleShot(true);
    timer.setTimerType(Qt::PreciseTimer);  // a coarse timer may fire up to 5% early
    connect(&timer, &QTimer::timeout, &loop, &QEventLoop::quit);
    timer.start(timeoutMs);
    // The cancel flag is set from a signal handler: it is polled, not signalled.
    QTimer cancelPoll;
    QElapsedTimer sinceCancel;
    bool cancelledOut = false;
    if (cancel) {
        connect(&cancelPoll, &QTimer::timeout, &loop, [&] {
            if (!cancel->load())
                return;
            if (!sinceCancel.isValid())
                sinceCancel.start();
            if (sinceCancel.elapsed() >= cancelGraceMs) {
                cancelledOut = true;
                loop.quit();
            }
        });
        cancelPoll.start(100);
    }
    while (!reply && timer.isActive() && !cancelledOut)
        loop.exec();
    if (reply)
        return *reply;
    m_pending.remove(id);   // the handler refers to this frame: it must never run now
    if (cancelledOut) {
        stop();
        return failureFor(RpcCode::Cancelled, QStringLiteral("cancelled"), method,
                          QStringLiteral("%1 was cancelled; the agent was stopped %2 s after the cancel")
                              .arg(method).arg(cancelGraceMs / 1000.0));
    }
    return failureFor(RpcCode::HostTimeout, QStringLiteral("timeout"), method,
                      QStringLiteral("no reply to %1 from the agent within %2 s").arg(method).arg(timeoutMs / 1000.0));
}

void HostConnection::failLater(quint64 id, const RpcReply &reply)
{
    QMetaObject::invokeMethod(this, [this, id, reply] { finish(id, reply); }, Qt::QueuedConnection);
}

void HostConnection::finish(quint64 id, const RpcReply &reply)
{
    const auto it = m_pending.find(id);
    if (it == m_pending.end())
        return;   // already answered, timed out or cancelled
    const ReplyHandler done = std::move(it->done);
    m_pending.erase(it);
    done(reply);
}

void HostConnection::onLine(const QByteArray &line)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        reportProtocolError(QStringLiteral("the agent wrote a line that is not JSON-RPC: %1").arg(quoted(line)));
        return;
    }
    const QJsonObject message = doc.object();
    if (message.contains(QStringLiteral("method")) && !message.contains(QStringLiteral("id")))
        onNotification(message);
    else if (message.contains(QStringLiteral("id")))
        onResponse(message);
    else
        reportProtocolError(QStringLiteral("the agent wrote a JSON object that is neither a reply nor a "
                                           "notification: %1").arg(quoted(line)));
}

void HostConnection::onNotification(const QJsonObject &message)
{
    const QJsonObject params = message.value(QStringLiteral("params")).toObject();
    if (message.value(QStringLiteral("method")).toString() == QLatin1String("progress"))
        emit progress(quint64(params.value(QStringLiteral("id")).toInteger()),
                      params.value(QStringLiteral("message")).toString());
    // Other notifications are informational; newer agents may send ones we do not know yet.
}

void HostConnection::onResponse(const QJsonObject &message)
{
    const qint64 id = message.value(QStringLiteral("id")).toInteger(-1);
    if (message.value(QStringLiteral("id")).isNull()) {
        // JSON-RPC's answer to a message the agent could not parse at all.
        const QString why = message.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString();
        reportProtocolError(QStringLiteral("the agent rejected a message: %1").arg(why));
        return;
    }
    if (id < 0 || !m_pending.contains(quint64(id))) {
        // A reply to a request callBlocking already gave up on lands here too; that is not garbage.
        if (id < 0 || quint64(id) >= m_nextId)
            reportProtocolError(QStringLiteral("the agent answered unknown request id %1").arg(id));
        return;
    }
    const QJsonValue error = message.value(QStringLiteral("error"));
    if (error.isObject()) {
        const QJsonObject e = error.toObject();
        finish(quint64(id), RpcReply::failure(e.value(QStringLiteral("code")).toInt(),
                                              e.value(QStringLiteral("message")).toString(),
                                              e.value(QStringLiteral("data")).toObject()));
        return;
    }
    finish(quint64(id), RpcReply::success(message.value(QStringLiteral("result"))));
}

void HostConnection::reportProtocolError(const QString &message)
{
    m_lastProtocolError = message;
    emit protocolError(message);
}

void HostConnection::onTransportFinished(const QString &reason)
{
    QString why = reason;
    if (!m_lastProtocolError.isEmpty())
        why += QStringLiteral("\n(before that, ") + m_lastProtocolError + QLatin1Char(')');
    const auto pending = std::exchange(m_pending, {});
    for (auto it = pending.cbegin(); it != pending.cend(); ++it) {
        const QString message = QStringLiteral("request %1 (id %2) failed: %3").arg(it->method).arg(it.key()).arg(why);
        RpcReply reply = failureFor(RpcCode::AgentExited, QStringLiteral("agent_exited"), it->method, message);
        reply.error.data.insert(QStringLiteral("stderr_tail"), m_transport->stderrTail());
        it->done(reply);
    }
    emit disconnected(why);
}

} // namespace strata
