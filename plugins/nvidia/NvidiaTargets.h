#pragma once
// The parts NVIDIA's targets name, as data: SMs, memory bandwidth and the per-block limits the
// core's rules and recipes read through BackendPlugin::targetLimits (diagnosis/model/TargetFacts.h).
// Header-only, so tests and benchmarks that run without loading plugins read the same figures.
#include "diagnosis/model/TargetFacts.h"

namespace strata::nvidia {

inline bool isHopperTarget(const QString &target)
{
    return target.startsWith(QLatin1String("sm_90"));
}

// One target names several parts: the figures are of the one a rule should assume. SMs: the SXM
// part (H100 SXM and H200 have 132; the H100 PCIe's 114 would leave a grid of 120 "full").
// Bandwidth: the slowest part (H100 SXM's 3.35 TB/s for sm_90, though an H200 reaches 4.8): a
// longer lower bound leaves a smaller share to a finding. Shared memory: the most one block may
// take (227 KiB on sm_90 and sm_100, 163 KiB on sm_80); 255 registers per thread on all three.
inline diagnosis::TargetLimits nvidiaTargetLimits(const QString &target)
{
    if (target.startsWith(QLatin1String("sm_100")))
        return {148, 8.0e12, 227 * 1024, 255, QStringLiteral("B200")};
    if (isHopperTarget(target))
        return {132, 3.35e12, 227 * 1024, 255, QStringLiteral("H100 SXM / H200")};
    if (target.startsWith(QLatin1String("sm_80")))
        return {108, 2.0e12, 163 * 1024, 255, QStringLiteral("A100")};
    return {};
}

} // namespace strata::nvidia
