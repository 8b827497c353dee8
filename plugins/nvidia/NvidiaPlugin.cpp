// The NVIDIA backend as data: which GPUs it targets and which stages a Triton compile for them
// produces (NvidiaStages.h).
#include "NvidiaStages.h"
#include "host/BackendPlugin.h"

#include <QObject>

namespace strata {

class NvidiaPlugin : public QObject, public BackendPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID StrataBackendPlugin_iid FILE "nvidia.json")
    Q_INTERFACES(strata::BackendPlugin)

public:
    QString id() const override { return QStringLiteral("nvidia"); }
    QString displayName() const override { return QStringLiteral("NVIDIA (CUDA)"); }
    // Ampere, Hopper, Blackwell: the architectures Triton 3.6 lowers to with distinct code paths
    // (mma.sync, wgmma + TMA, tcgen05).
    QStringList targets() const override
    {
        return {QStringLiteral("sm_80"), QStringLiteral("sm_90"), QStringLiteral("sm_100")};
    }
    QString defaultTarget() const override { return QStringLiteral("sm_90"); }

    QVector<StageDescriptor> stages() const override { return nvidiaStages(); }

    // Triton's own defaults for CUDA (knobs in triton/backends/nvidia/compiler.py).
    QJsonObject defaultOptions() const override
    {
        return {{QStringLiteral("num_warps"), 4}, {QStringLiteral("num_stages"), 3}};
    }
};

} // namespace strata

#include "NvidiaPlugin.moc"
