#pragma once
// A mechanism behind "hot operand load + latency-bound" in tensor-core kernels (issue #13): a
// loop whose MMA work per iteration is too small for what else the SM must do each iteration.
// Per iteration of the loop that holds the kernel's MMA dots, from the compile alone:
//   - tensor-core cycles: the dots' FLOPs (M x N x K of each, from its TTGIR type) at the SM's
//     dense tensor rate for the operand width;
//   - shared-memory cycles: operand bytes the MMAs read from shared memory (memdesc operands of a
//     wgmma, both operands of an mma.sync through ldmatrix) plus the bytes the loop's async copies
//     write there, over the SM's shared-memory port; the MMA overlaps with these;
//   - special-function cycles: the loop's PTX ex2 / lg2 / rsqrt / rcp / sin / cos instructions x
//     the CTA's threads at the SM's SFU rate; they depend on one dot and feed the next (softmax
//     between QK^T and PV), so they do not overlap the MMA of the same warps.
// The tile reaches at most tensor / (max(tensor, shared) + special) of the tensor peak; the rest
// is the mechanism's estimated share. The rates are Hopper's (sm_90: 4096 dense 16-bit FLOP,
// 128 shared-memory bytes and 16 SFU results per clock per SM; NVIDIA's H100 figures). Nothing
// here keys on a kernel, file or variable name.
#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
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

// One iteration of the loop that holds the kernel's MMA dots.
struct DotLoopBudget {
    QVector<int> dotLines;         // source lines of the MMA dots in the loop
    QVector<int> copyLines;        // lines whose loads / async copies feed the loop
    QVector<int> specialLines;     // lines with special-function instructions in the loop
    int firstDotIrLine = -1;       // TTGIR line of the first dot (evidence)
    QString firstDotText;
    double flops = 0;              // tensor-core FLOPs per iteration (CTA)
    double sharedReadBytes = 0;    // operand bytes the MMAs read from shared memory
    double copyBytes = 0;          // bytes the loop's loads move per iteration
    double specialOps = 0;         // SFU results per iteration (CTA)
    int operandBytes = 0;          // bytes of one operand element
    QString dotShapes;             // "64x64x32 (wgmma)" per dot, for the cause
    double tensorCycles = 0, sharedCycles = 0, specialCycles = 0;

    // Fraction of the tensor peak this iteration can reach (1 when nothing limits it).
    double attainable() const;
};

// The budget of the kernel's MMA-dot loop, or nullopt when the kernel has no MMA dot in a loop,
// the target's rates are unknown, a dot's type cannot be read, or a dot runs on mma.sync on
// sm_90 (L3.mma-sync-dot names that tile's mechanism).
std::optional<DotLoopBudget> dotLoopBudget(const KernelIrFacts &facts, const LoadedCompile &compile);

// L3.dot-loop-feed findings (at most one, at the first dot): estimated share 1 - attainable, or,
// with measured per-line costs, the time of the lines it names capped at the gap to the bound.
// Silent when the launch says the kernel's lower bound is its memory traffic (tensor work at the
// peak takes less time than the launch's tensor bytes at DRAM bandwidth): then the tile's feed
// rate is not what limits it.
QVector<Finding> dotLoopFeedFindings(const KernelIrFacts &facts, const LoadedCompile &compile, const QJsonObject &spec,
                                     const QVector<LoopAtLaunch> &loops, const L2Analysis *measured);

} // namespace strata::diagnosis
