#pragma once
// L2: what the GPU host measured, turned into findings. From the `time` reply (median time, the
// roofline's achieved bandwidth / FLOP rate against the measured ceilings), the `profile` reply
// (the profiler's figures of the launch, stall samples per source line) and the compile, it
// derives:
//   - the bound class: memory, compute, latency (neither unit busy) or launch (the kernel runs
//     about as long as a launch costs);
//   - the occupancy and its limiter (the backend's rules: measured, else computed from the
//     compile's resources);
//   - the stall mix (stall samples by reason over the kernel's lines);
//   - the cost of each source line: its share of the stall samples.
// The per-line costs are what the ladder ranks findings by (a measured share, not an estimate).
// What a backend's profiler reports and what its parts hold is the backend's to say
// (BackendProfileRules.h, plugins/<id>); the model above is the same for every backend.
#include "diagnosis/l2_profile/BackendProfileRules.h"
#include "diagnosis/l2_profile/Measurements.h"
#include "diagnosis/model/Finding.h"
#include "host/BackendPlugin.h"

#include <QHash>
#include <QVector>

namespace strata::diagnosis {

// A kernel launch costs a few microseconds of host and front-end time (measured on H100/H200:
// ~2-5 us with direct launches, less under graph replay); a kernel shorter than kLaunchBoundUs is
// dominated by it.
inline constexpr double kLaunchOverheadUs = 4.0;
inline constexpr double kLaunchBoundUs = 10.0;

// A hot line's severity from a share of the kernel (its stall samples, or what it could save):
// high at >= 50%, medium at >= 25%, else low.
Severity hotLineSeverity(double share);

struct L2Context {
    QString kernel;        // the kernel function (matches the profiler's kernel and source-view function)
    QString sourcePath;    // where findings point
    QString target;        // the compile's target ("sm_90", "ascend910_95"); empty: unknown
    // The kernel's compile, when there is one: its resources give the static occupancy.
    const CompileResult *compile = nullptr;
    // "standard.py:170" -> the kernel lines that call that inlined library line
    // (LoadedCompile::inlinedCallers); the profiler's samples on such lines fold onto them.
    QHash<QString, QVector<int>> inlinedCallers;
    // The compile's backend plugin, when known: its profileRules() read its profiler's figures for
    // the core's model, and its profileFindings() what the model does not cover (another
    // profiler's figures, e.g. Ascend's msprof). Null: defaultProfileRules().
    const BackendPlugin *backend = nullptr;
};

struct LineCost {
    int line = 0;
    QString source;
    double samples = 0;
    double share = 0;          // of the kernel's stall samples, 0..1
    double timeShare = 0;      // of the measured time, launch included: share x (1 - launch share)
    StallCounts stalls;
};

struct L2Analysis {
    QString bound;                         // "memory", "compute", "latency", "launch"; empty: unknown
    std::optional<double> durationUs;      // the profiler's duration, else the timing median
    std::optional<double> memoryFraction;  // achieved / ceiling bandwidth (or the profiler's memory throughput)
    std::optional<double> computeFraction; // achieved / ceiling FLOP rate (or the profiler's compute throughput)
    std::optional<double> gapFraction;     // 1 - speed of light: what there is left to gain
    double launchShare = 0;                // share of the measured time that is launch overhead
    std::optional<Occupancy> occupancy;
    StallCounts stallMix;                  // reason -> samples, largest first
    double totalSamples = 0;
    QVector<LineCost> lines;               // costliest first, only the kernel's own lines
    QVector<Finding> findings;             // level L2
    QStringList notes;                     // what was used and what was missing, for the log

    const LineCost *line(int sourceLine) const;
};

L2Analysis analyzeMeasurements(const Measurements &measurements, const L2Context &context);

} // namespace strata::diagnosis
