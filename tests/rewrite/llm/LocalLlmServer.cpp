#include "LocalLlmServer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QQueue>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

namespace strata::testing {

struct LocalLlmServer::Shared {
    mutable QMutex mutex;
    QQueue<ScriptedReply> replies;
    QVector<ReceivedRequest> requests;
};

namespace {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 529: return "Overloaded";
    default: return "Status";
    }
}

// Parses one complete request out of `buffer`; false while more bytes are needed.
bool parseRequest(const QByteArray &buffer, ReceivedRequest *request, QByteArray *rawHeaders)
{
    const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return false;
    *rawHeaders = buffer.left(headerEnd);
    const QList<QByteArray> lines = rawHeaders->split('\n');
    const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
    request->method = requestLine.value(0);
    request->path = requestLine.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            request->headers.insert(lines.at(i).left(colon).trimmed().toLower(), lines.at(i).mid(colon + 1).trimmed());
    }
    const qsizetype length = request->headers.value("content-length", "0").toLongLong();
    if (buffer.size() < headerEnd + 4 + length)
        return false;
    request->body = buffer.mid(headerEnd + 4, length);
    return true;
}

QByteArray responseBytes(const ScriptedReply &reply, const QByteArray &rawHeaders)
{
    QByteArray body = reply.body;
    if (reply.echoRequestHeaders) {
        const QJsonObject error{{QStringLiteral("type"), QStringLiteral("invalid_request_error")},
                                {QStringLiteral("message"), QStringLiteral("rejected request, headers were: ")
                                                                + QString::fromUtf8(rawHeaders)}};
        body = QJsonDocument(QJsonObject{{QStringLiteral("error"), error}}).toJson(QJsonDocument::Compact);
    }
    QByteArray bytes = "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' + reasonPhrase(reply.status) + "\r\n";
    bytes += "Content-Type: application/json\r\nConnection: close\r\n";
    bytes += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto &[name, value] : reply.headers)
        bytes += name + ": " + value + "\r\n";
    return bytes + "\r\n" + body;
}

class ServerWorker : public QObject {
public:
    explicit ServerWorker(std::shared_ptr<LocalLlmServer::Shared> shared) : m_shared(std::move(shared)) {}

    quint16 listen()
    {
        m_server = new QTcpServer(this);
        QObject::connect(m_server, &QTcpServer::newConnection, this, [this] { acceptAll(); });
        return m_server->listen(QHostAddress::LocalHost, 0) ? m_server->serverPort() : 0;
    }

private:
    void acceptAll()
    {
        while (QTcpSocket *socket = m_server->nextPendingConnection()) {
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                buffer->append(socket->readAll());
                ReceivedRequest request;
                QByteArray rawHeaders;
                if (buffer->isEmpty() || !parseRequest(*buffer, &request, &rawHeaders))
                    return;
                buffer->clear();
                answer(socket, request, rawHeaders);
            });
        }
    }

    void answer(QTcpSocket *socket, const ReceivedRequest &request, const QByteArray &rawHeaders)
    {
        ScriptedReply reply{500, R"({"error":{"type":"test_error","message":"no scripted reply left"}})", {}, 0, false};
        {
            QMutexLocker lock(&m_shared->mutex);
            m_shared->requests.append(request);
            if (!m_shared->replies.isEmpty())
                reply = m_shared->replies.dequeue();
        }
        const QByteArray bytes = responseBytes(reply, rawHeaders);
        // The socket is the timer's context: a client that gave up and closed cancels the reply.
        QTimer::singleShot(reply.delayMs, socket, [socket, bytes] {
            socket->write(bytes);
            socket->disconnectFromHost();
        });
    }

    std::shared_ptr<LocalLlmServer::Shared> m_shared;
    QTcpServer *m_server = nullptr;
};

} // namespace

LocalLlmServer::LocalLlmServer() : m_shared(std::make_shared<Shared>()), m_thread(new QThread)
{
    auto *worker = new ServerWorker(m_shared);
    worker->moveToThread(m_thread);
    m_worker = worker;
    m_thread->start();
    QMetaObject::invokeMethod(worker, [this, worker] { m_port = worker->listen(); }, Qt::BlockingQueuedConnection);
}

LocalLlmServer::~LocalLlmServer()
{
    QObject *worker = m_worker;
    QMetaObject::invokeMethod(worker, [worker] { delete worker; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_thread;
}

QString LocalLlmServer::url(const QString &path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path);
}

void LocalLlmServer::enqueue(const ScriptedReply &reply)
{
    QMutexLocker lock(&m_shared->mutex);
    m_shared->replies.enqueue(reply);
}

QVector<ReceivedRequest> LocalLlmServer::requests() const
{
    QMutexLocker lock(&m_shared->mutex);
    return m_shared->requests;
}

quint16 closedLocalPort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    const quint16 port = probe.serverPort();
    probe.close();
    return port;
}

} // namespace strata::testing
