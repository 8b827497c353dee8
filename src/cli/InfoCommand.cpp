// strata-cli info: what the agent reports about itself (versions, GPUs, targets).
#include "cli/CliCommon.h"

#include "host/HostConnection.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::cli {

namespace {

QString scalarText(const QJsonValue &value)
{
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    if (value.isNull())
        return QStringLiteral("-");
    return value.toVariant().toString();
}

} // namespace

int runInfo(const QStringList &argv)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the agent's info JSON."));
    parser.addOption(json);
    if (const int code = parseOrExit(parser, argv, QStringLiteral("strata-cli info [--json]\nAsks the host agent what it offers.")); code >= 0)
        return code;
    std::unique_ptr<HostConnection> agent = startAgent(false);
    if (!agent)
        return ExitAgentFailed;
    const RpcReply reply = agent->callBlocking(QStringLiteral("info"), {}, 120 * 1000);
    agent->stop();
    if (!reply.ok)
        return fail(exitCodeFor(reply.error), describeRpcError(reply.error));
    const QJsonObject info = reply.result.toObject();
    if (parser.isSet(json)) {
        out() << QJsonDocument(info).toJson(QJsonDocument::Indented);
    } else {
        out() << "agent: " << agent->describe() << "\n";
        for (auto it = info.begin(); it != info.end(); ++it)
            out() << it.key() << ": " << scalarText(it.value()) << "\n";
    }
    out().flush();
    return ExitOk;
}

} // namespace strata::cli
