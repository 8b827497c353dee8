#pragma once
// A backend's part of L2 (issue #16): what its profiler's figures of one launch say in the terms
// of the core's measurement model, what its stall reasons mean, how many programs of a compile
// its compute units hold, and its rules over that occupancy. The core (MeasurementAnalysis.cpp)
// owns the model itself: the bound class from the timing's roofline (or these figures), the gap
// to the bound, the launch share, the per-line cost from the profile's source view and the
// findings on them. A backend's plugin implements this in plugins/<id> and hands it out through
// BackendPlugin::profileRules(); a backend whose profiler does not fit the model (Ascend's
// msprof) reads its replies in BackendPlugin::profileFindings() instead.
#include "compile/CompileResult.h"
#include "diagnosis/l2_profile/OccupancyTypes.h"
#include "diagnosis/model/Finding.h"
#include "tasks/ProfileResult.h"

#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata::diagnosis {

// What the profiler measured of one launch; each figure optional.
struct ProfiledFigures {
    std::optional<double> durationUs;       // the kernel's duration
    std::optional<double> memoryFraction;   // memory throughput against its peak, 0..1 (used when the
                                            // timing has no roofline against measured ceilings)
    std::optional<double> computeFraction;  // compute throughput against its peak, 0..1 (likewise)
    std::optional<Occupancy> occupancy;     // measured occupancy
};

// Where an occupancy finding points and what the core concluded before it.
struct OccupancyContext {
    QString sourcePath;   // the kernel's file (the finding is on the whole kernel: line 0)
    QString bound;        // the bound class: "memory", "compute", "latency", "launch"; empty: unknown
};

class BackendProfileRules {
public:
    virtual ~BackendProfileRules() = default;

    // The profiler whose replies these rules read (ProfileResult::profiler). A reply of another
    // profiler is left to the plugin's profileFindings().
    virtual QString profiler() const = 0;
    // The figures of one profiled launch.
    virtual ProfiledFigures readLaunch(const ProfiledKernel &launch) const = 0;
    // The occupancy of `compile` computed from its resources against the target's limits, when no
    // profile measured it; nullopt when the compile does not say enough. `note` says what was used.
    virtual std::optional<Occupancy> staticOccupancy(const CompileResult &compile, QString &note) const = 0;
    // What a stall reason of the profiler's source view means, for the stall-mix and hot-line causes.
    virtual QString stallMeaning(const QString &reason) const = 0;
    // Findings on the kernel's occupancy (measured or static), level L2.
    virtual QVector<Finding> occupancyFindings(const Occupancy &occupancy, const OccupancyContext &context) const = 0;
    // Recipes of the backend's runtime that remove launch overhead, offered by L2.launch-bound
    // between fusing kernels and batching work (a graph replay of the launches); default none.
    virtual QStringList launchOverheadRecipes() const { return {}; }
};

// The rules the core's L2 applies when a caller names no backend: the NVIDIA backend's
// (plugins/nvidia, linked into the core for now, as diagnosis::defaultIrRules() is for L3).
const BackendProfileRules &defaultProfileRules();

} // namespace strata::diagnosis
