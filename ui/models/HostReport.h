#pragma once
// What a host agent says about its machine: the `info` reply (versions, GPUs, targets) and the
// `ceilings` reply (measured copy bandwidth and matmul rates), as plain structs
// (agent/PROTOCOL.md). Errors name the host and the field that is wrong.
#include "core/Expected.h"

#include <QJsonValue>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

struct RpcError;

struct GpuInfo {
    int index = 0;
    QString name;          // "NVIDIA H200"
    QString target;        // "sm_90"
    qint64 memoryMib = -1; // -1 when unknown
    QString driver;        // empty when unknown
};

struct HostInfo {
    int protocol = 0;
    QString agentVersion;
    QString python;            // "3.11.7"
    QString pythonExecutable;
    QString platform;
    QString triton;            // empty: not installed
    QString torch;             // empty: not installed
    QVector<GpuInfo> gpus;
    QStringList targets;
    QString defaultTarget;
    QStringList methods;

    bool hasGpu() const { return !gpus.isEmpty(); }
    bool hasTorch() const { return !torch.isEmpty(); }
    // Ceilings run torch on a GPU; worth measuring without being asked only when both are there.
    bool canMeasureCeilings() const
    {
        return hasGpu() && hasTorch() && methods.contains(QStringLiteral("ceilings"));
    }
};

struct MatmulRate {
    QString precision;   // "fp16", "bf16", "tf32", "fp32"
    double tflops = 0;
};

struct DeviceCeilings {
    QString deviceName;           // "NVIDIA H200"
    QString capability;           // "sm_90"
    QString driver;
    QString torchVersion;
    double copyBandwidthGbs = 0;  // bytes read + written per second, the faster copy method
    QVector<MatmulRate> matmul;   // fp16, bf16, tf32, fp32 first (in that order), then any others
    bool cached = false;          // read from the host's cache instead of measured now
    QString cachePath;
    double measuredSeconds = -1;  // how long the measurement took when it ran (-1: unknown)
};

// `hostName` only labels errors.
Expected<HostInfo> parseHostInfo(const QJsonValue &result, const QString &hostName);
Expected<DeviceCeilings> parseCeilings(const QJsonValue &result, const QString &hostName);

// A ceilings error reply as one sentence a user can act on ("no GPU on this host: ceilings need
// one"), followed by the agent's own message. `info` (may be null) is the host's info, if known.
QString describeCeilingsError(const RpcError &error, const HostInfo *info);

// "4012 GB/s" (one decimal under 100), "745.3 TFLOP/s"; locale-independent digits.
QString formatGbs(double gbs);
QString formatTflops(double tflops);

} // namespace strata

Q_DECLARE_METATYPE(strata::HostInfo)
Q_DECLARE_METATYPE(strata::DeviceCeilings)
