#pragma once
// The old name of the NVIDIA backend's occupancy rules, which moved to plugins/nvidia
// (NvidiaOccupancy.h, issue #16): the result type is the core's (OccupancyTypes.h), the SM limits
// and their arithmetic are the plugin's. Kept so that the plugin's L3 and L4 rules that still
// include this path build unchanged; new code includes "NvidiaOccupancy.h" (inside plugins/nvidia)
// or OccupancyTypes.h (the core), and this header goes once nothing includes it.
#include "diagnosis/l2_profile/OccupancyTypes.h"
#include "NvidiaOccupancy.h"

namespace strata::diagnosis {

using nvidia::SmLimits;
using nvidia::computeOccupancy;
using nvidia::kLowOccupancyFraction;
using nvidia::occupancyFromProfile;

} // namespace strata::diagnosis
