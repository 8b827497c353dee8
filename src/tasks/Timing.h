#pragma once
// `time` and `ceilings` (agent/PROTOCOL.md, "Task methods"): interleaved CUDA-event timings of the
// Triton candidate against its baselines, and how close each came to the measured roofline.
#include "core/Expected.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace strata {

struct DeviceInfo {
    QString name;              // "NVIDIA H200"
    QString capability;        // "sm_90"
    int multiprocessors = 0;
    qint64 l2Bytes = 0;
    qint64 memoryBytes = 0;
    QString driver;
};

// One GPU's clocks as nvidia-smi read them before or after the timing.
struct ClockReading {
    QString gpu;
    std::optional<double> smMhz, memoryMhz, maxSmMhz, temperatureC;
    QString pstate;
};

struct CandidateTiming {
    QString name;              // "triton", "eager", "compile", "triton#2", "triton/warm-l2", ...
    QString method;            // "cuda_graph" or direct launches
    QString l2;                // "flushed" or "warm"
    QString error;             // why it has no time; empty when it ran
    QStringList notes;
    int n = 0;
    std::optional<double> medianMs, q1Ms, q3Ms, iqrMs, minMs, maxMs, meanMs, medianCiRel;

    bool ok() const { return error.isEmpty() && medianMs.has_value(); }
};

// The ceilings the roofline compares with: copy bandwidth and matmul rate per precision.
struct Ceilings {
    std::optional<double> copyBandwidthGbs;
    QMap<QString, double> copyBandwidthByMethodGbs;   // "memcpy", "kernel"
    QMap<QString, double> matmulTflops;               // "fp16", "bf16", "tf32", "fp32"
    bool cached = false;
    QString cachePath;
    QString error;             // the agent could not measure them
};

// One candidate against the roofline.
struct RooflineEstimate {
    QString candidate;
    QString precisionCeiling;  // the matmul ceiling used: "fp32", ...
    QString bound;             // "memory" or "compute"
    std::optional<double> memoryFloorMs, computeFloorMs, solPct, achievedGbs, achievedTflops,
        arithmeticIntensity;
    QString implausible;       // set when sol_pct > 110: wrong counts or a cheat
    QString error;             // "no time"
};

struct Roofline {
    Ceilings ceilings;
    std::optional<double> flops, bytes;
    QString bytesSource;
    QString category;
    QString precision;         // the task's precision ("fp16"), when the agent sends it (Ascend)
    QVector<RooflineEstimate> perCandidate;
    QString error;             // the whole section failed (e.g. the ceilings)

    const RooflineEstimate *estimate(const QString &candidate) const;
};

struct Timing {
    int protocol = 0;
    QString backend, target;   // set by backends other than the CUDA one ("ascend", "ascend910_95")
    QStringList tasks;
    QJsonValue shape;          // the {global: value} overrides, or null
    QString stopReason;        // "converged", "time_cap", ...
    double timingSeconds = 0;
    qint64 l2FlushBytes = 0;
    DeviceInfo device;
    QMap<QString, QString> versions;   // python, torch, triton, cuda, agent
    QVector<ClockReading> clocksBefore, clocksAfter;
    QVector<CandidateTiming> candidates;   // "triton" first, then the rest by name
    QMap<QString, double> comparisons;     // speedup_vs_eager, self_check_median_diff, ...
    std::optional<Roofline> roofline;

    const CandidateTiming *candidate(const QString &name) const;
};

struct CeilingsResult {
    int protocol = 0;
    DeviceInfo device;
    QMap<QString, QString> versions;
    Ceilings ceilings;
};

Expected<Timing> parseTiming(const QJsonObject &result);
Expected<CeilingsResult> parseCeilingsResult(const QJsonObject &result);

} // namespace strata
