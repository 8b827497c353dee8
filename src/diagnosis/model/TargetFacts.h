#pragma once
// Facts of the part a compile target names that the backend-neutral rules and recipes need: how
// many programs run at once (the grid against the machine), the memory bandwidth of a lower bound
// and the per-program limits a tile must fit. The core knows no part: each backend plugin answers
// for its own targets (BackendPlugin::targetLimits) and the plugin registry adds it as a source
// here when it loads the plugin, so L1 (the captured grid), L3 and the recipes count the same
// units. A target no source knows gets zeros, which turns the rules that need them off.
#include <QString>

#include <functional>

namespace strata::diagnosis {

struct TargetLimits {
    int computeUnits = 0;              // programs that run at once, one per unit (SMs, AI cores)
    double dramBytesPerSecond = 0;     // device memory bandwidth of the slowest part the target names
    qint64 sharedBytesPerProgram = 0;  // on-chip scratch one program may take (shared memory)
    int registersPerThread = 0;        // the most a thread may hold
    QString part;                      // which part the figures are of ("H100 SXM / H200")

    bool isKnown() const { return computeUnits > 0; }
};

using TargetLimitsSource = std::function<TargetLimits(const QString &target)>;

// Adds a source (a loaded backend); returns an id for removeTargetLimitsSource. Thread-safe.
int addTargetLimitsSource(TargetLimitsSource source);
void removeTargetLimitsSource(int id);

// The first source's answer that knows `target`; zeros when none does.
TargetLimits targetLimits(const QString &target);

// Shorthands of targetLimits(target).
inline int computeUnits(const QString &target) { return targetLimits(target).computeUnits; }
inline double dramBytesPerSecond(const QString &target) { return targetLimits(target).dramBytesPerSecond; }

} // namespace strata::diagnosis
