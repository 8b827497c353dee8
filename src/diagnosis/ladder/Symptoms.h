#pragma once
// Symptoms are evidence, not findings. A hot source line, a stall reason or a bound class says
// *where* the time goes; a mechanism (excess traffic, an FMA dot, serialized atomics, too few
// programs, spills ...) says *why*. With measurements, a hot line's samples move onto the
// mechanism on that line; the bound class and the stall mix stay as kernel-level context ranked
// after every mechanism; and a compiler fact whose measured cost is small (the kernel is already
// near its bound, or the fact's line holds little time) is kept at low severity as "present, not
// the cause". Each mechanism's share is what it could save: at most its line's share of the
// time, and never more than the gap to the bound.
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/model/Finding.h"

namespace strata::diagnosis {

// A kernel at or above this fraction of its bound has little to gain from any compiler fact.
inline constexpr double kNearBoundFraction = 0.85;
// A finding whose line holds less than this share of the measured time is not the cause.
inline constexpr double kCheapLineShare = 0.05;
inline constexpr char kSymptomNote[] = "symptom: ";
inline constexpr char kPresentNotCause[] = "Present, not the cause: ";

// L2.hot-line, L2.stall-mix and the bound classes (memory-, compute-, latency-bound).
bool isSymptomRule(const QString &rule);

// Joins the measured costs with the findings: shares from the line costs (capped by the gap),
// hot lines moved onto the mechanisms on their lines, cheap facts demoted. Returns one log
// sentence per kind of change made.
QStringList attachMeasuredCosts(const L2Analysis &measured, Diagnosis &diagnosis);

// Demotes a measured L2.low-occupancy to low when the kernel's dots run on the matrix unit's MMA
// tiles (KernelIrFacts::hasMmaDot, from the dot kinds the backend's IR rules read): few large
// programs per compute unit are such a kernel's design. Returns how many it demoted.
int demoteOccupancyOfMmaKernels(const KernelIrFacts &facts, Diagnosis &diagnosis);

// How far the kernel is from its bound (1 - the busier unit's fraction), when measured.
std::optional<double> measuredGap(const L2Analysis &measured);

} // namespace strata::diagnosis
