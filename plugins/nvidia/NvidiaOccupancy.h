#pragma once
// Theoretical occupancy of a kernel on one SM: how many CTAs fit by registers, shared memory,
// warps and the CTA slot limit, and which of them binds. From ncu's Occupancy section when a
// profile has one, else computed from ptxas registers, the compile's shared memory and
// num_warps against the SM's limits (H200 / sm_90 by default, the CUDA occupancy rules).
// Moved from the core's L2 (issue #16); the result type, diagnosis::Occupancy, is the core's.
#include "diagnosis/l2_profile/OccupancyTypes.h"
#include "tasks/ProfileResult.h"

#include <QString>
#include <optional>

namespace strata::nvidia {

using diagnosis::Occupancy;

// Under 16 of 64 warps per SM, too few warps are left to hide memory latency for kernels that do
// not pipeline (a static finding; measured occupancy has its own threshold in L2).
inline constexpr double kLowOccupancyFraction = 0.25;

struct SmLimits {
    int maxWarps = 64;                 // resident warps per SM
    int maxBlocks = 32;                // resident CTAs per SM
    int registers = 65536;             // 32-bit registers per SM
    int registerAllocationUnit = 256;  // registers are given to a warp in units of 256
    int maxRegistersPerThread = 255;
    int sharedBytes = 233472;          // shared memory per SM (228 KiB)
    int maxSharedPerBlock = 232448;    // opt-in maximum per CTA (227 KiB)
    int reservedSharedPerBlock = 1024; // the driver's per-CTA reservation

    static SmLimits forTarget(const QString &target);  // "sm_90" (default for unknown targets)
};

// `sharedBytes`: static + dynamic shared memory per CTA; `registersPerThread` from ptxas.
Occupancy computeOccupancy(int registersPerThread, int sharedBytes, int warpsPerBlock,
                           const SmLimits &limits = {});

// Read from ncu's Occupancy section ("Block Limit Registers", "Theoretical Occupancy", ...);
// nullopt when the profile has no such section.
std::optional<Occupancy> occupancyFromProfile(const ProfiledKernel &kernel);

} // namespace strata::nvidia
