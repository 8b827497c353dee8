#include "cli/CliCommon.h"

#include "compile/CompileSpec.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"

#include <QJsonObject>
#include <QJsonDocument>
#include <QFile>
#include <QFileInfo>

namespace strata::cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int fail(ExitCode code, const QString &message)
{
    out().flush();
    err() << "strata-cli: error: " << message << Qt::endl;
    return code;
}

int fail(ExitCode code, const ReadError &error)
{
    return fail(code, error.toString());
}

int parseOrExit(QCommandLineParser &parser, const QStringList &args, const QString &usage)
{
    parser.setApplicationDescription(usage);
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(args))
        return fail(ExitUsage, parser.errorText() + QStringLiteral(" (see --help)"));
    if (parser.isSet(help)) {
        out() << parser.helpText();
        out().flush();
        return ExitOk;
    }
    return -1;
}

std::unique_ptr<HostConnection> startAgent(bool verbose)
{
    auto connection = std::make_unique<HostConnection>(std::make_unique<LocalProcessTransport>());
    QString error;
    if (!connection->start(&error)) {
        fail(ExitAgentFailed, error + QStringLiteral(" (set STRATA_PYTHON to a python with triton)"));
        return nullptr;
    }
    if (verbose) {
        err() << "agent: " << connection->describe() << Qt::endl;
        QObject::connect(connection.get(), &HostConnection::progress, [](quint64, const QString &message) {
            err() << "  " << message << Qt::endl;
        });
    }
    QObject::connect(connection.get(), &HostConnection::protocolError, [](const QString &message) {
        err() << "strata-cli: warning: " << message << Qt::endl;
    });
    return connection;
}

std::unique_ptr<PluginRegistry> loadPlugins(bool verbose)
{
    auto registry = std::make_unique<PluginRegistry>();
    registry->loadDefault();
    if (verbose || registry->backends().isEmpty()) {
        for (const PluginLoadError &error : registry->errors())
            err() << "strata-cli: warning: plugin " << error.toString() << Qt::endl;
    }
    return registry;
}

ExitCode exitCodeFor(const RpcError &error)
{
    switch (error.code) {
    case RpcCode::CompileError: return ExitCompileFailed;
    case RpcCode::BadInput: return ExitBadInput;
    default: return ExitAgentFailed;
    }
}

QString describeRpcError(const RpcError &error)
{
    QString text = error.toString();
    const QString kernel = error.data.value(QStringLiteral("kernel")).toString();
    if (!kernel.isEmpty())
        text += QStringLiteral(" (kernel %1)").arg(kernel);
    return text;
}

QString humanSize(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return QStringLiteral("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 MiB").arg(bytes / (1024.0 * 1024.0), 0, 'f', 1);
}

Expected<QJsonObject> readSpec(const QString &spec)
{
    if (spec.trimmed().startsWith(QLatin1Char('{')))
        return parseCompileSpec(spec.toUtf8(), QStringLiteral("--spec"));
    return readCompileSpec(spec);
}

QString specFilePath(const QString &spec)
{
    return spec.trimmed().startsWith(QLatin1Char('{')) ? QString() : QFileInfo(spec).absoluteFilePath();
}

} // namespace strata::cli
