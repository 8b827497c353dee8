// The NVIDIA backend's static costs (ladder/StaticCost.h): what its rules' findings cost when
// nothing was measured, where the core's neutral cost rules cannot say.
#include "NvidiaIrRules.h"

namespace strata::nvidia {

using namespace strata::diagnosis;

namespace {

// wgmma's smallest tile is 64 rows per warpgroup; mma.sync's instructions are 16 rows.
constexpr int kWgmmaTileRows = 64;
constexpr int kMmaSyncRows = 16;

// L3.mma-sync-dot: a dot of at most 16 rows would fill a quarter of wgmma's 64-row tile, so
// mma.sync is the right path and nothing is lost to it.
std::optional<EstimatedCost> mmaSyncDotCost(const Finding &finding)
{
    const double rows = metricValue(finding, "dot_tile_m", 0);
    if (rows <= 0 || rows > kMmaSyncRows)
        return std::nullopt;
    return EstimatedCost{Severity::Low, 0,
                         QStringLiteral("a %1-row dot would use a quarter of wgmma's %2-row tile at best").arg(rows).arg(kWgmmaTileRows)};
}

} // namespace

std::optional<EstimatedCost> NvidiaIrRules::estimatedCost(const Finding &finding, const KernelIrFacts &facts,
                                                          const LoadedCompile &compile) const
{
    Q_UNUSED(facts);
    Q_UNUSED(compile);
    if (finding.ruleId == QLatin1String("L3.mma-sync-dot"))
        return mmaSyncDotCost(finding);
    return std::nullopt;
}

} // namespace strata::nvidia
