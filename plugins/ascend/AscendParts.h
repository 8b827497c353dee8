#pragma once
// What is published about the parts the Ascend targets name: AI core counts and the ceilings a
// lower bound on a launch's time needs. Only figures /work/shared/ASCEND-NOTES.md gives with a
// source; a figure it marks GUESS or unpublished stays unknown (std::nullopt / absent), and the
// code that uses these handles unknown.
#include "host/BackendPlugin.h"

#include <QString>

namespace strata::ascend {

// AI cube (AIC) and AI vector (AIV) cores. One target may name parts with different counts (the
// 950 comes as 28/56, 32/64 and 36/72): min and max span them; a host that read its own counts
// (triton-ascend's get_device_properties) knows the exact ones.
struct CoreCounts {
    int minCube = 0, maxCube = 0;
    int minVector = 0, maxVector = 0;

    bool isKnown() const { return maxCube > 0 && maxVector > 0; }
    bool isExact() const { return minCube == maxCube && minVector == maxVector; }
};

CoreCounts coreCounts(const QString &target);
BackendCeilings ceilings(const QString &target);
// The core's view of the part (BackendPlugin::targetLimits): the fewest AI cube cores the target
// may have as its compute units (a mixed kernel's programs spread over the cube cores; a vector
// kernel has twice as many vector cores, so a grid that fills this count may still leave some
// idle: the rules that read it under-report rather than over-report), the published bandwidth;
// the unified buffer's size per core is not published for the 950, so no per-program limit.
diagnosis::TargetLimits targetLimits(const QString &target);

} // namespace strata::ascend
