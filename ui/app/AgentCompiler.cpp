#include "app/AgentCompiler.h"

#include "compile/CompileSpec.h"
#include "host/HostConnection.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

namespace strata {

AgentCompiler::AgentCompiler(QString python, QString agentDir, QObject *parent)
    : QObject(parent)
{
    m_transportOptions.localPython = std::move(python);
    m_transportOptions.localAgentDir = std::move(agentDir);
    qRegisterMetaType<strata::CompileResult>();
    qRegisterMetaType<strata::ReadError>();
}

AgentCompiler::~AgentCompiler()
{
    if (m_connection)
        m_connection->stop();
}

QString AgentCompiler::describe() const
{
    if (m_connection)
        return m_connection->describe();
    return m_host.isLocal() ? tr("local agent (not started)")
                            : tr("agent on %1 (not started)").arg(m_host.displayName());
}

void AgentCompiler::setHost(const HostEntry &host)
{
    if (host == m_host)
        return;
    m_host = host;
    m_connection.reset();  // the next compile starts the new host's agent
}

bool AgentCompiler::ensureStarted(QString *error)
{
    if (m_connection && m_connection->isRunning())
        return true;
    if (!m_connection) {
        m_connection = std::make_unique<HostConnection>(
            createTransport(m_host, m_transportOptions));
        connect(m_connection.get(), &HostConnection::progress, this,
                [this](quint64 requestId, const QString &message) {
                    if (requestId == m_pendingRequest)
                        emit progress(message);
                });
    }
    return m_connection->start(error);
}

QJsonObject AgentCompiler::compileParams(const QString &kernelPath, const QJsonObject &spec,
                                         const QString &specPath)
{
    QJsonObject params;
    params.insert(QStringLiteral("source_path"), kernelPath);
    params.insert(QStringLiteral("spec"), spec);
    if (!specPath.isEmpty())
        params.insert(QStringLiteral("spec_path"), specPath);
    return params;
}

ReadError AgentCompiler::errorFromReply(const RpcError &error, const QString &kernelPath)
{
    ReadError readError;
    const QString file = error.data.value(QStringLiteral("file")).toString();
    readError.file = file.isEmpty() ? kernelPath : file;
    readError.line = error.data.value(QStringLiteral("line")).toInt();
    const QString kernel = error.data.value(QStringLiteral("kernel")).toString();
    readError.message = kernel.isEmpty() ? error.message
                                         : tr("kernel %1: %2").arg(kernel, error.message);
    return readError;
}

bool AgentCompiler::compile(const QString &kernelPath, const QJsonObject &spec, const QString &specPath)
{
    QString startError;
    if (!ensureStarted(&startError)) {
        emit failed({kernelPath, 0, 0, tr("cannot start the host agent: %1").arg(startError)});
        return false;
    }
    emit progress(tr("compiling %1 on %2").arg(spec.value(QStringLiteral("kernel")).toString(), describe()));
    // The id is only known after call() returns; the handler runs later, on the event loop.
    auto requestId = std::make_shared<quint64>(0);
    *requestId = m_connection->call(
        QStringLiteral("compile"), compileParams(kernelPath, spec, specPath), [this, requestId, kernelPath](const RpcReply &reply) {
            if (*requestId != m_pendingRequest)
                return;  // superseded by a newer compile
            m_pendingRequest = 0;
            if (!reply.ok) {
                emit failed(errorFromReply(reply.error, kernelPath));
                return;
            }
            Expected<CompileResult> result = parseCompileResult(reply.result.toObject());
            if (!result) {
                emit failed(result.error());
                return;
            }
            emit compiled(*result);
        });
    m_pendingRequest = *requestId;
    return true;
}

Expected<QJsonObject> readSpecFile(const QString &path)
{
    return readCompileSpec(path);
}

std::function<std::unique_ptr<HostConnection>()> AgentCompiler::connectionFactory() const
{
    return [host = m_host, options = m_transportOptions] {
        return std::make_unique<HostConnection>(createTransport(host, options));
    };
}

} // namespace strata
