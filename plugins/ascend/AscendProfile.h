#pragma once
// L2 findings of an Ascend kernel, read from `msprof op` figures (the profile reply whose
// profiler is "msprof", agent/strata_agent/backends/ascend/msprof.py) and its torch.npu timing,
// as triton-ascend's profiling guide triages them (ASCEND-NOTES.md section 3): a high
// aiv_scalar_ratio is scalar fallback, a high MTE2 share is memory-bound (small or redundant
// tiles), a block dim beyond the AI cores runs in rounds; plus the simulator's per-line cycles
// and the time against the 950's published ceilings (AscendParts.h).
//
// NEVER RUN ON AN NPU: the readers were tested on msprof CSVs written by hand from the documented
// formats; the thresholds below are this plugin's choices, not documented ones.
#include "host/BackendPlugin.h"

namespace strata::ascend {

// Rule ids, stable for JSON and tests.
inline constexpr const char *kScalarFallbackMeasuredRule = "L2.ascend-scalar-fallback";
inline constexpr const char *kMte2BoundRule = "L2.ascend-mte2-bound";
inline constexpr const char *kBlockDimOverCoresRule = "L2.ascend-block-dim-over-cores";
inline constexpr const char *kBlockDimUnderCoresRule = "L2.ascend-block-dim-under-cores";
inline constexpr const char *kVectorIdleRule = "L2.ascend-vector-idle";
inline constexpr const char *kHotLineRule = "L2.ascend-hot-line";
inline constexpr const char *kLowerBoundRule = "L2.ascend-lower-bound";

// Thresholds (this plugin's choice). triton-ascend#1220 reports ~35% scalar share as the cost of
// a fallback; one cycle in five is already worth a look.
inline constexpr double kScalarRatio = 0.2;
inline constexpr double kHighScalarRatio = 0.4;
inline constexpr double kMte2Ratio = 0.5;        // MTE2 busy half the time, and more than the vector unit
inline constexpr double kIdleVectorRatio = 0.25; // vector unit busy under a quarter of the time
inline constexpr double kHotLineShare = 0.10;

QVector<diagnosis::Finding> profileFindings(const BackendProfileInput &input);

} // namespace strata::ascend
