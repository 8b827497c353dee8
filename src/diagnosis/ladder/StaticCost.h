#pragma once
// Severity by estimated cost when nothing was measured (issue #13, point 3). A rule states a
// compiler or code fact; whether the fact costs time is a separate question. Without a profile
// the cost is estimated from general IR and launch facts: the bytes a line moves against the
// kernel's bytes (a line inside a loop counts as repeated), whether the warp's lanes are adjacent
// (then a narrow access costs instructions, not sectors), whether the kernel is dot-free (then a
// hidden unit stride costs vector width only), and how large a dot tile is; the backend prices
// its own rules' findings first (BackendIrRules::estimatedCost). A fact whose estimated cost is
// small is kept, at low or medium, with its estimated share and the cause prefixed "Present, not
// the cause (estimated ...)" or "Cost estimated, not measured: ...".
// Nothing here keys on a kernel, file or library name.
#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QStringList>

namespace strata {
struct LoadedCompile;
}

namespace strata::diagnosis {

// A line inside a loop whose trip count the launch does not give counts as this many executions
// of a line outside every loop (a conservative floor for a loop that survived to TTGIR: loops of
// one iteration are folded away by the compiler). A loop whose bounds are constants or captured
// run-time ints counts its real iterations (loopsAtLaunch).
inline constexpr int kAssumedLoopTrips = 16;
// Below this estimated share of the kernel's global bytes, a line's access is not the cause.
inline constexpr double kSmallByteShare = 0.10;

inline constexpr char kEstimatedNotCausePrefix[] = "Present, not the cause (estimated";
inline constexpr char kEstimatedCostPrefix[] = "Cost estimated, not measured: ";

// Caps the severity of L3 findings (and of L1 findings that only a cost can judge) by their
// estimated cost, the compile's backend `rules` pricing their own findings first; returns one log
// sentence per change. `loops` are the kernel's loops with their iterations at the captured launch
// (empty without an AST).
QStringList applyStaticCosts(Diagnosis &diagnosis, const KernelIrFacts &facts, const LoadedCompile &compile,
                             const BackendIrRules &rules, const QVector<LoopAtLaunch> &loops = {});

// The launch facts that hold whether or not anything was measured: a dot-loop load whose loop
// runs once at this launch is present, not the cause (nothing to overlap). Returns one log
// sentence per change.
QStringList applyLaunchFacts(Diagnosis &diagnosis, const QVector<LoopAtLaunch> &loops);

} // namespace strata::diagnosis
