#pragma once
// How many programs of a kernel one compute unit holds at once, and which of its limits binds:
// the figure L2 carries and prints (the ladder's "measured" JSON). A backend's profile rules fill
// it, from its profiler's figures or from the compile's resources against its parts' limits
// (BackendProfileRules.h); the core only reads it.
#include <QString>

#include <optional>

namespace strata::diagnosis {

struct Occupancy {
    // Resident programs (CTAs, work groups) per compute unit allowed by each limit.
    int blocksByRegisters = 0, blocksBySharedMemory = 0, blocksByWarps = 0, blocksBySlots = 0;
    int activeBlocks = 0;
    int activeWarps = 0;
    double theoretical = 0;            // active warps / max warps, 0..1
    std::optional<double> achieved;    // the profiler's achieved occupancy, 0..1 (profiles only)
    QString limiter;                   // "registers", "shared_memory", "warps", "blocks", "none" (full),
                                       // "launch" (a resource exceeds the per-program maximum)
    QString source;                    // the profiler that measured it, or "static" (computed)

    bool canLaunch() const { return activeBlocks > 0; }
};

} // namespace strata::diagnosis
