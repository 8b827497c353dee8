#pragma once
// How a per-element index moves from one lane to the next at the captured launch (internal to
// l1_triage). Triton's axis analysis proves contiguity only through power-of-2 or divisible
// divisors, so `offs % channels` is "not contiguous" to the compiler; at a launch with channels =
// 256 it still steps by 1 over runs of 256 lanes, and `(offs % channels) * hw` then puts
// neighbouring lanes hw elements apart: an uncoalesced access the compiler's facts cannot name.
#include "diagnosis/l1_triage/KernelView.h"
#include "diagnosis/model/Finding.h"

#include <limits>
#include <optional>

namespace strata::diagnosis::rules {

// Lanes over which a step must hold for a warp's access to follow it (half a warp: a wrap every
// 16 lanes or more leaves most of each warp instruction on the stepped addresses).
inline constexpr qint64 kMinLaneRun = 16;

struct LaneStep {
    qint64 step = 0;                                     // elements from one lane to the next
    qint64 run = std::numeric_limits<qint64>::max();     // consecutive lanes it holds for
};

// The step of per-element `expr` of a 1-D tile at the launch (constexprs and captured run-time
// ints); nullopt when a value is not known, the tile is not 1-D, or the math is not +, -, *, //, %.
std::optional<LaneStep> laneStepAtLaunch(const KernelView &kernel, const pyast::Node &expr, int depth = 0);

// Offsets that step by +-1 from lane to lane over runs of at least kMinLaneRun lanes at the
// launch, scaled by `stride` whose launch value is not +-1, into pointers (every memory op the
// value at `ancestors` feeds) that step by the same amount: neighbouring lanes are that far apart.
bool lanesStepByStride(const KernelView &kernel, const KernelParam &stride, const pyast::Node &offsets,
                       const QVector<pyast::Node> &ancestors);

// Span evidence for each statement that uses a value loaded by a memory op the value at
// `ancestors` feeds: a load's wait is sampled where its value is first used.
void noteUsesOfFedLoads(Finding &finding, const KernelView &kernel, const QVector<pyast::Node> &ancestors);

// Estimated share of a kernel's memory time that strided accesses waste, for a 1-D tile whose
// memory ops all move one element per lane: each strided access (`strided`, lanes `stride`
// elements apart) fetches k = min(32 bytes, stride x element) / element bytes per useful byte;
// the others fetch what they use. Share = wasted / fetched, by the element bytes of each op.
// nullopt when an op's element type is unknown.
std::optional<double> stridedWasteShare(const KernelView &kernel, const QVector<LocatedNode> &strided, qint64 stride);

// The same weighed by the tensors at the captured launch: each memory op counts its tensor's
// bytes (the pointer parameter it addresses, `tensor_elements`) instead of one element, so a
// strided read of a small tensor beside large contiguous ones (a matrix-vector product's vector)
// wastes little of the DRAM traffic. DRAM only: a small tensor read again by every program comes
// from L2 after the first read. nullopt when an op's tensor or element type is unknown, or when an
// op addresses several pointer parameters.
std::optional<double> tensorWeightedWasteShare(const KernelView &kernel, const QVector<LocatedNode> &strided, qint64 stride);

} // namespace strata::diagnosis::rules
