#pragma once
// A local HTTP/1.1 server for the provider tests: it runs its own event loop on a QThread (the
// providers block the test thread in libcurl), answers each request with the next scripted reply
// (status, headers, body, an optional delay) and records what it received, so tests can check
// the wire format both ways without any network.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPair>
#include <QString>
#include <QVector>

#include <memory>

class QThread;

namespace strata::testing {

struct ScriptedReply {
    int status = 200;
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers;
    int delayMs = 0;
    // Replace the body by an API error whose message quotes the request's headers back (as some
    // proxies do), to prove that the client redacts what it sent.
    bool echoRequestHeaders = false;
};

struct ReceivedRequest {
    QByteArray method;
    QByteArray path;
    QMap<QByteArray, QByteArray> headers;  // names lower-case
    QByteArray body;
};

class LocalLlmServer {
public:
    LocalLlmServer();
    ~LocalLlmServer();
    LocalLlmServer(const LocalLlmServer &) = delete;
    LocalLlmServer &operator=(const LocalLlmServer &) = delete;

    quint16 port() const { return m_port; }
    QString url(const QString &path = {}) const;  // "http://127.0.0.1:PORT" + path

    void enqueue(const ScriptedReply &reply);  // thread-safe; without one the server answers 500
    QVector<ReceivedRequest> requests() const;

    struct Shared;

private:
    std::shared_ptr<Shared> m_shared;
    QThread *m_thread = nullptr;
    QObject *m_worker = nullptr;
    quint16 m_port = 0;
};

// A port on 127.0.0.1 that nothing listens on (bound, then released).
quint16 closedLocalPort();

} // namespace strata::testing
