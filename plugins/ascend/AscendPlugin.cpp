// The Ascend backend (triton-ascend): the Ascend 950 and the Atlas A2 as targets, the pipeline
// source -> ttir -> ttadapter -> hivm -> npubin (AscendStages.h), how a compile is summarised
// (the kernel's cube/vector mode, which stages ran), the L3 facts read from ttadapter, the L2
// findings read from msprof (AscendProfile.h) and the parts' published ceilings (AscendParts.h).
#include "AscendFacts.h"
#include "AscendParts.h"
#include "AscendProfile.h"
#include "AscendStages.h"
#include "host/BackendPlugin.h"

#include <QObject>

namespace strata {

namespace {

// metadata.mix_mode, as triton-ascend's TritonToLinalg pass sets it on the kernel function.
QString modeText(const CompileResult &result)
{
    const QString mode = result.metadata.value(QStringLiteral("mix_mode")).toString();
    if (mode == QLatin1String("aiv"))
        return QStringLiteral("aiv (vector cores only)");
    if (mode == QLatin1String("mix"))
        return QStringLiteral("mix (cube and vector cores: the kernel has a tl.dot)");
    return mode.isEmpty() ? QStringLiteral("unknown (no mix_mode in the compile's metadata)") : mode;
}

QStringList stagesWith(const CompileResult &result, bool ran)
{
    QStringList stages;
    for (const StageRun &run : result.stageRuns)
        if (run.ran == ran)
            stages.append(run.stage);
    return stages;
}

} // namespace

class AscendPlugin : public QObject, public BackendPlugin {
    Q_OBJECT
    Q_PLUGIN_METADATA(IID StrataBackendPlugin_iid FILE "ascend.json")
    Q_INTERFACES(strata::BackendPlugin)

public:
    QString id() const override { return QStringLiteral("ascend"); }
    QString displayName() const override { return QStringLiteral("Huawei Ascend (triton-ascend)"); }
    // The Ascend 950 (910_95 family, SoC Ascend910_9599) and the Atlas A2 (SoC Ascend910B3): the
    // two targets the agent compiles for (agent/PROTOCOL.md).
    QStringList targets() const override { return {QStringLiteral("ascend910_95"), QStringLiteral("ascend910b3")}; }
    QString defaultTarget() const override { return QStringLiteral("ascend910_95"); }

    QVector<StageDescriptor> stages() const override { return ascendStages(); }

    // num_warps/num_stages are ignored by triton-ascend; multibuffer is its own knob (on by default
    // for the A2, off for the 950: NPUOptions.multibuffer = not compile_on_910_95).
    QJsonObject defaultOptions() const override { return {{QStringLiteral("multibuffer"), false}}; }

    QStringList summaryLines(const CompileResult &result) const override
    {
        QStringList lines{QStringLiteral("Kernel mode: ") + modeText(result)};
        const QStringList ran = stagesWith(result, true);
        const QStringList skipped = stagesWith(result, false);
        if (!ran.isEmpty() || !skipped.isEmpty())
            lines.append(QStringLiteral("Stages ran: %1; skipped: %2")
                             .arg(ran.isEmpty() ? QStringLiteral("none") : ran.join(QStringLiteral(", ")),
                                  skipped.isEmpty() ? QStringLiteral("none") : skipped.join(QStringLiteral(", "))));
        const QString version = result.metadata.value(QStringLiteral("triton_ascend_version")).toString();
        if (!version.isEmpty())
            lines.append(QStringLiteral("Compiled offline by triton-ascend %1 (no NPU was involved)").arg(version));
        return lines;
    }

    CompileHeadline headline(const CompileResult &result) const override
    {
        const QString mode = result.metadata.value(QStringLiteral("mix_mode")).toString();
        QString text = QStringLiteral("Mode: %1").arg(mode.isEmpty() ? QStringLiteral("unknown") : mode);
        const QStringList skipped = stagesWith(result, false);
        if (!skipped.isEmpty())
            text += QStringLiteral(", not run: %1").arg(skipped.join(QStringLiteral(", ")));
        return {text, false};
    }

    QVector<diagnosis::Finding> irFindings(const BackendIrInput &input) const override
    {
        return ascend::irFindings(input);
    }

    QVector<diagnosis::Finding> profileFindings(const BackendProfileInput &input) const override
    {
        return ascend::profileFindings(input);
    }

    BackendCeilings ceilings(const QString &target) const override { return ascend::ceilings(target); }
    diagnosis::TargetLimits targetLimits(const QString &target) const override
    {
        return ascend::targetLimits(target);
    }

    // torch_npu's runtime (ACL) reads this list; its indices are the npu-smi ones (untested on an
    // NPU: no Ascend hardware here).
    DeviceMask deviceMask() const override { return {QStringLiteral("ASCEND_RT_VISIBLE_DEVICES"), {}}; }

    // triton-ascend's target is GPUTarget("npu", SOC, 0): the SoC name of one of targets().
    QString targetFromTriton(const QJsonObject &tritonTarget) const override
    {
        if (tritonTarget.value(QStringLiteral("backend")).toString() != QLatin1String("npu"))
            return {};
        const QString soc = tritonTarget.value(QStringLiteral("arch")).toString();
        if (soc == QLatin1String("Ascend910_9599"))
            return QStringLiteral("ascend910_95");
        if (soc == QLatin1String("Ascend910B3"))
            return QStringLiteral("ascend910b3");
        return {};
    }
};

} // namespace strata

#include "AscendPlugin.moc"
