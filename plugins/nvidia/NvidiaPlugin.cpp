// The NVIDIA backend: which GPUs it targets, which stages a Triton compile for them produces
// (NvidiaStages.h), how such a compile is summarised (ptxas registers and spills), and its parts of
// L3 (NvidiaIrRules.h) and L2 (NvidiaProfileRules.h).
#include "NvidiaIrRules.h"
#include "NvidiaProfileRules.h"
#include "NvidiaStages.h"
#include "NvidiaTargets.h"
#include "recipes/NvidiaRecipes.h"
#include "host/BackendPlugin.h"

#include <QCoreApplication>
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

    // The cubin is an artifact of its own between PTX and SASS, but no stage (nothing to read).
    QStringList summaryArtifacts(const QString &) const override
    {
        return {QStringLiteral("source"), QStringLiteral("ttir"), QStringLiteral("ttgir"), QStringLiteral("llir"),
                QStringLiteral("ptx"),    QStringLiteral("cubin"), QStringLiteral("sass")};
    }

    QStringList summaryLines(const CompileResult &result) const override
    {
        const PtxasInfo &p = result.ptxas;
        QStringList lines{QStringLiteral("Registers: %1, spills: %2 B stored / %3 B loaded, stack %4 B")
                              .arg(p.registers >= 0 ? QString::number(p.registers) : QStringLiteral("unknown"))
                              .arg(p.spillStoreBytes)
                              .arg(p.spillLoadBytes)
                              .arg(p.stackBytes)};
        for (const QString &warning : p.warnings)
            lines.append(QStringLiteral("  ptxas: ") + warning);
        return lines;
    }

    // Translated in MainWindow's context, where the app's translations of this field live.
    CompileHeadline headline(const CompileResult &result) const override
    {
        const PtxasInfo &p = result.ptxas;
        const bool spills = p.spillStoreBytes > 0 || p.spillLoadBytes > 0;
        if (p.registers < 0)
            return {QCoreApplication::translate("strata::MainWindow", "Registers: unknown"), spills};
        return {QCoreApplication::translate("strata::MainWindow", "Registers: %1, spills: %2 B store / %3 B load")
                    .arg(p.registers)
                    .arg(p.spillStoreBytes)
                    .arg(p.spillLoadBytes),
                spills};
    }

    // The core's L3 reads this backend's TTGIR with irRules() for the PTX, SASS and ptxas facts
    // and rules; L4's counterfactuals examine those rules.
    bool usesCoreIrRules() const override { return true; }
    const diagnosis::BackendIrRules *irRules() const override { return &nvidia::nvidiaIrRules(); }
    // Its own recipes (Hopper dot tiles, TMA descriptors, relaxed atomics) and its dot kinds.
    const rewrite::recipes::BackendRecipes *recipes() const override { return &nvidia::nvidiaRecipes(); }
    // The core's L2 reads Nsight Compute's figures and the SM occupancy through these.
    const diagnosis::BackendProfileRules *profileRules() const override { return &nvidia::nvidiaProfileRules(); }

    // PCI bus order makes an index the one nvidia-smi (and so the agent's `info`) gives that GPU;
    // the CUDA runtime's own default orders by speed.
    DeviceMask deviceMask() const override
    {
        return {QStringLiteral("CUDA_VISIBLE_DEVICES"),
                {{QStringLiteral("CUDA_DEVICE_ORDER"), QStringLiteral("PCI_BUS_ID")}}};
    }

    // Triton's CUDA target carries the compute capability as a number: {"backend": "cuda", "arch": 90}.
    diagnosis::TargetLimits targetLimits(const QString &target) const override
    {
        return nvidia::nvidiaTargetLimits(target);
    }

    QString targetFromTriton(const QJsonObject &tritonTarget) const override
    {
        const QJsonValue arch = tritonTarget.value(QStringLiteral("arch"));
        if (tritonTarget.value(QStringLiteral("backend")).toString() != QLatin1String("cuda") || !arch.isDouble())
            return {};
        return QStringLiteral("sm_%1").arg(arch.toInt());
    }
};

} // namespace strata

#include "NvidiaPlugin.moc"
