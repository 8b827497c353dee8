#pragma once
// A mechanism behind "hot operand load + latency-bound" in matrix-unit kernels (issue #13): a
// loop whose dot work per iteration is too small for what else the compute unit must do each
// iteration. Per iteration of the loop that holds the kernel's matrix-unit dots, from the compile
// alone:
//   - tensor cycles: the dots' FLOPs (M x N x K of each, from its GPU IR type) at the unit's dense
//     matrix rate for the operand width;
//   - shared-memory cycles: operand bytes the matrix unit reads from shared memory (the operands
//     the GPU IR keeps there, and those the backend says it reads through it anyway) plus the
//     bytes the loop's copies write there, over the unit's shared-memory port; the dots overlap
//     with these;
//   - special-function cycles: the loop's special-function instructions (exp, log, rsqrt, ...)
//     x the CTA's threads at the unit's special-function rate; they depend on one dot and feed
//     the next (softmax between QK^T and PV), so they do not overlap the dots of the same warps.
// The tile reaches at most tensor / (max(tensor, shared) + special) of the tensor peak; the rest
// is the mechanism's estimated share. Which dots count, how their operands are read, the
// special-function count and the rates are the backend's (BackendIrRules: dotFeed,
// specialFunctionOps, computeUnitRates; NVIDIA's in plugins/nvidia/NvidiaDotLoopFeed.cpp); a
// backend without rates gets no finding. Nothing here keys on a kernel, file or variable name.
#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>
#include <optional>

namespace strata {
struct LoadedCompile;
}

namespace strata::diagnosis {

// Below this estimated attainable fraction of the tensor peak the loop's feed is a mechanism.
inline constexpr double kFeedAttainableLimit = 0.75;

// One iteration of the loop that holds the kernel's matrix-unit dots.
struct DotLoopBudget {
    QVector<int> dotLines;         // source lines of the matrix-unit dots in the loop
    QVector<int> copyLines;        // lines whose loads / async copies feed the loop
    QVector<int> specialLines;     // lines with special-function instructions in the loop
    int firstDotIrLine = -1;       // TTGIR line of the first dot (evidence)
    QString firstDotText;
    double flops = 0;              // tensor-core FLOPs per iteration (CTA)
    double sharedReadBytes = 0;    // operand bytes the matrix unit reads from shared memory
    double copyBytes = 0;          // bytes the loop's loads move per iteration
    double specialOps = 0;         // special-function results per iteration (CTA)
    int operandBytes = 0;          // bytes of one operand element
    QString dotShapes;             // "64x64x32 bf16 (<dot kind>)" per dot, for the cause
    double tensorCycles = 0, sharedCycles = 0, specialCycles = 0;
    ComputeUnitRates rates;        // the backend's, for the dots' operand width

    // Fraction of the tensor peak this iteration can reach (1 when nothing limits it).
    double attainable() const;
};

// The budget of the kernel's matrix-unit dot loop under the backend's `rules`, or nullopt when the
// kernel has no such dot in a loop, the target's rates are unknown, a dot's type cannot be read,
// or the backend names a dot of the loop by another rule (DotFeed::Use::NamedElsewhere).
std::optional<DotLoopBudget> dotLoopBudget(const KernelIrFacts &facts, const LoadedCompile &compile,
                                           const BackendIrRules &rules);

// L3.dot-loop-feed findings (at most one, at the first dot): estimated share 1 - attainable, or,
// with measured per-line costs, the time of the lines it names capped at the gap to the bound.
// Silent when the launch says the kernel's lower bound is its memory traffic (tensor work at the
// peak takes less time than the launch's tensor bytes at DRAM bandwidth): then the tile's feed
// rate is not what limits it.
QVector<Finding> dotLoopFeedFindings(const KernelIrFacts &facts, const LoadedCompile &compile, const BackendIrRules &rules,
                                     const QJsonObject &spec, const QVector<LoopAtLaunch> &loops, const L2Analysis *measured);

} // namespace strata::diagnosis
