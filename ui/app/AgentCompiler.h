#pragma once
// Compiles a kernel on a host agent (local by default, or the host setHost() names),
// asynchronously: starts the agent on first use, forwards its progress notifications, and turns
// the reply into a CompileResult or a ReadError naming the kernel file, kernel and line. One
// compile at a time; a new one supersedes the old (its late reply is dropped).
#include "compile/CompileResult.h"
#include "models/HostSettings.h"

#include <QJsonObject>
#include <QObject>
#include <functional>
#include <memory>

namespace strata {

class HostConnection;

class AgentCompiler : public QObject {
    Q_OBJECT
public:
    // Empty python/agentDir: LocalProcessTransport's defaults.
    explicit AgentCompiler(QString python = {}, QString agentDir = {}, QObject *parent = nullptr);
    ~AgentCompiler() override;

    // `spec`: the parsed NAME.VARIANT.spec.json at `specPath` (named by the agent's spec errors).
    // Returns false (with failed() emitted) when the agent cannot start.
    bool compile(const QString &kernelPath, const QJsonObject &spec, const QString &specPath = {});
    bool isBusy() const { return m_pendingRequest != 0; }
    // The host whose agent compiles from now on. A different host stops the running agent (a
    // compile in flight then fails with "cancelled"). Over SSH the kernel path is sent as it is:
    // the host must see the kernel, and the app the results, at the same paths (a shared folder).
    void setHost(const HostEntry &host);
    HostEntry host() const { return m_host; }
    QString describe() const;
    // New, unstarted connections to the current host's agent, for work that runs its own agents
    // (an optimization run starts one per worker).
    std::function<std::unique_ptr<HostConnection>()> connectionFactory() const;

    // The JSON-RPC params of a "compile" request (agent/PROTOCOL.md).
    static QJsonObject compileParams(const QString &kernelPath, const QJsonObject &spec,
                                     const QString &specPath = {});
    // An agent error reply as a ReadError (file, line from the error's data).
    static ReadError errorFromReply(const struct RpcError &error, const QString &kernelPath);

signals:
    void progress(const QString &message);
    void compiled(const strata::CompileResult &result);
    void failed(const strata::ReadError &error);

private:
    bool ensureStarted(QString *error);

    HostEntry m_host;
    HostTransportOptions m_transportOptions;
    std::unique_ptr<HostConnection> m_connection;
    quint64 m_pendingRequest = 0;
};

// Reads, parses and checks a spec file (compile/CompileSpec.h); errors name the file, key and line.
Expected<QJsonObject> readSpecFile(const QString &path);

} // namespace strata
