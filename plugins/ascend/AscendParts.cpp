#include "AscendParts.h"

namespace strata::ascend {

// ASCEND-NOTES.md section 4, from AscendNPU-IR include/.../HACC/Targets/NPUTargetSpec.td:
// 910B3/B4 20 AIC / 40 AIV; 950 (dav-c310) 28/56, 32/64 or 36/72.
CoreCounts coreCounts(const QString &target)
{
    if (target == QLatin1String("ascend910_95"))
        return {28, 36, 56, 72};
    if (target == QLatin1String("ascend910b3"))
        return {20, 20, 40, 40};
    return {};
}

BackendCeilings ceilings(const QString &target)
{
    BackendCeilings c;
    if (target == QLatin1String("ascend910_95")) {
        // Huawei Connect 2025 press figures (ASCEND-NOTES.md section 4, "950 (press)"): 950PR
        // 128 GB at 1.6 TB/s, 950DT 144 GB at 4 TB/s; FP8/HiF8 1 PFLOPS, MXFP4 2 PFLOPS (dense or
        // sparse is not said). The SoC name (Ascend910_9599) does not say which part, so the
        // bandwidth is the slower part's, as src/diagnosis/model/TargetFacts.h does for a GPU
        // target: a longer bound leaves a smaller share to a finding.
        c.part = QStringLiteral("Ascend 950PR (the slower published 950 part; the 950DT has 4 TB/s)");
        c.source = QStringLiteral("Huawei Connect 2025 press figures (ASCEND-NOTES.md section 4)");
        c.copyBandwidthGbs = 1600.0;
        c.peakTflops.insert(QStringLiteral("fp8"), 1000.0);
        c.peakTflops.insert(QStringLiteral("hif8"), 1000.0);
        c.peakTflops.insert(QStringLiteral("mxfp4"), 2000.0);
        c.unknown << QStringLiteral("fp16, bf16 and fp32 peaks: unpublished")
                  << QStringLiteral("clock: unpublished");
        return c;
    }
    if (target == QLatin1String("ascend910b3")) {
        // The notes give only GUESSes for the 910B (HBM ~1.6 TB/s, FP16 ~324 TFLOPS for a B2):
        // not used.
        c.part = QStringLiteral("Atlas A2 910B3");
        c.unknown << QStringLiteral("memory bandwidth: unpublished (only guesses)")
                  << QStringLiteral("peak per precision: unpublished (only guesses)");
        return c;
    }
    return c;
}

diagnosis::TargetLimits targetLimits(const QString &target)
{
    const CoreCounts counts = coreCounts(target);
    if (!counts.isKnown())
        return {};
    diagnosis::TargetLimits limits;
    limits.computeUnits = counts.minCube;
    const BackendCeilings published = ceilings(target);
    limits.dramBytesPerSecond = published.copyBandwidthGbs.value_or(0.0) * 1e9;
    limits.part = published.part;
    return limits;
}

} // namespace strata::ascend
