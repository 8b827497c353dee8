#include "models/HostReport.h"

#include "host/AgentRpc.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>

namespace strata {

// The translation context of the texts below (lupdate reads the HostReport::tr calls).
class HostReport {
    Q_DECLARE_TR_FUNCTIONS(strata::HostReport)
};

namespace {

ReadError replyError(const QString &hostName, const QString &problem)
{
    return ReadError{hostName, 0, 0, problem};
}

// A JSON string, or empty for null/absent (the agent sends null for "not installed").
QString text(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

QVector<GpuInfo> parseGpus(const QJsonArray &array)
{
    QVector<GpuInfo> gpus;
    for (const QJsonValue &value : array) {
        const QJsonObject gpu = value.toObject();
        gpus.append({gpu.value(QStringLiteral("index")).toInt(), text(gpu, "name"), text(gpu, "target"),
                     gpu.value(QStringLiteral("memory_mib")).isDouble()
                         ? qint64(gpu.value(QStringLiteral("memory_mib")).toDouble())
                         : -1,
                     text(gpu, "driver")});
    }
    return gpus;
}

QStringList strings(const QJsonValue &value)
{
    QStringList list;
    for (const QJsonValue &item : value.toArray())
        list.append(item.toString());
    return list;
}

// fp16, bf16, tf32, fp32 in that order (the order of the precision ladder), then the rest.
QVector<MatmulRate> parseMatmul(const QJsonObject &rates)
{
    static const QStringList known{QStringLiteral("fp16"), QStringLiteral("bf16"), QStringLiteral("tf32"),
                                   QStringLiteral("fp32")};
    QVector<MatmulRate> matmul;
    for (const QString &precision : known)
        if (rates.value(precision).isDouble())
            matmul.append({precision, rates.value(precision).toDouble()});
    for (auto it = rates.begin(); it != rates.end(); ++it)
        if (!known.contains(it.key()) && it.value().isDouble())
            matmul.append({it.key(), it.value().toDouble()});
    return matmul;
}

} // namespace

Expected<HostInfo> parseHostInfo(const QJsonValue &result, const QString &hostName)
{
    const QJsonObject object = result.toObject();
    if (!result.isObject())
        return replyError(hostName, HostReport::tr("the info reply is not a JSON object"));
    if (!object.value(QStringLiteral("python")).isString())
        return replyError(hostName, HostReport::tr("the info reply has no python version"));
    HostInfo info;
    info.protocol = object.value(QStringLiteral("protocol")).toInt();
    info.agentVersion = text(object, "agent_version");
    info.python = text(object, "python");
    info.pythonExecutable = text(object, "python_executable");
    info.platform = text(object, "platform");
    info.triton = text(object, "triton");
    info.torch = text(object, "torch");
    info.gpus = parseGpus(object.value(QStringLiteral("gpus")).toArray());
    info.targets = strings(object.value(QStringLiteral("targets")));
    info.defaultTarget = text(object, "default_target");
    info.methods = strings(object.value(QStringLiteral("methods")));
    return info;
}

Expected<DeviceCeilings> parseCeilings(const QJsonValue &result, const QString &hostName)
{
    const QJsonObject object = result.toObject();
    const QJsonObject ceilings = object.value(QStringLiteral("ceilings")).toObject();
    if (!result.isObject() || ceilings.isEmpty())
        return replyError(hostName, HostReport::tr("the ceilings reply has no \"ceilings\" object"));
    if (!ceilings.value(QStringLiteral("copy_bandwidth_gbs")).isDouble())
        return replyError(hostName, HostReport::tr("the ceilings reply has no copy_bandwidth_gbs number"));
    DeviceCeilings parsed;
    const QJsonObject device = object.value(QStringLiteral("device")).toObject();
    parsed.deviceName = text(device, "name");
    parsed.capability = text(device, "capability");
    parsed.driver = text(device, "driver");
    parsed.torchVersion = text(object.value(QStringLiteral("versions")).toObject(), "torch");
    parsed.copyBandwidthGbs = ceilings.value(QStringLiteral("copy_bandwidth_gbs")).toDouble();
    parsed.matmul = parseMatmul(ceilings.value(QStringLiteral("matmul_tflops")).toObject());
    if (parsed.matmul.isEmpty())
        return replyError(hostName, HostReport::tr("the ceilings reply has no matmul_tflops rates"));
    parsed.cached = ceilings.value(QStringLiteral("cached")).toBool();
    parsed.cachePath = text(ceilings, "cache_path");
    parsed.measuredSeconds = ceilings.value(QStringLiteral("measured_s")).toDouble(-1);
    return parsed;
}

QString describeCeilingsError(const RpcError &error, const HostInfo *info)
{
    QString reason;
    if (error.kind() == QLatin1String("torch_missing"))
        reason = HostReport::tr("torch is not installed for the agent's Python on this host: ceilings need torch and a GPU.");
    else if (error.kind() == QLatin1String("no_device"))  // the agent's backend read its runtime's words
        reason = HostReport::tr("torch on this host sees no device (check which devices its environment "
                                "makes visible, and the driver): ceilings need one.");
    else if (info && !info->hasGpu())
        reason = HostReport::tr("no GPU on this host: ceilings need one.");
    else if (error.code == RpcCode::MethodNotFound)
        reason = HostReport::tr("this agent does not know the ceilings method: update strata_agent on the host.");
    else if (error.code == RpcCode::AgentTimeout)
        reason = HostReport::tr("the measurement ran past its time limit.");
    else if (error.code == RpcCode::AgentExited || error.code == RpcCode::NotRunning)
        reason = HostReport::tr("the agent stopped before it answered.");
    else
        reason = HostReport::tr("the ceilings could not be measured.");
    return error.message.isEmpty() ? reason : HostReport::tr("%1\nAgent: %2").arg(reason, error.message);
}

QString formatGbs(double gbs)
{
    return HostReport::tr("%1 GB/s").arg(QString::number(gbs, 'f', gbs < 100 ? 1 : 0));
}

QString formatTflops(double tflops)
{
    return HostReport::tr("%1 TFLOP/s").arg(QString::number(tflops, 'f', 1));
}

} // namespace strata
