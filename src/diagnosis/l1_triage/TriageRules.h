#pragma once
// The L1 rules, grouped by what they look at (internal to l1_triage; Triage.h lists them).
#include "diagnosis/l1_triage/KernelView.h"
#include "diagnosis/model/Finding.h"

namespace strata::diagnosis::rules {

// Shapes and launch configuration (RulesShape.cpp)
QVector<Finding> tinyBlock(const KernelView &kernel);
QVector<Finding> blockNotPowerOfTwo(const KernelView &kernel);
QVector<Finding> smallDotTile(const KernelView &kernel);
QVector<Finding> numWarpsMismatch(const KernelView &kernel);
QVector<Finding> missingAutotune(const KernelView &kernel);

// Address math and memory access (RulesMemory.cpp)
QVector<Finding> runtimeUnitStride(const KernelView &kernel);
QVector<Finding> wideIndexCast(const KernelView &kernel);
QVector<Finding> perElementDivMod(const KernelView &kernel);
QVector<Finding> reloadSamePointer(const KernelView &kernel);
QVector<Finding> redundantMask(const KernelView &kernel);
QVector<Finding> stridedAccess(const KernelView &kernel);
// Adds a span item (note kFedAccessNote) for each memory op the value at `ancestors` feeds.
void noteFedAccesses(Finding &finding, const KernelView &kernel, const QVector<pyast::Node> &ancestors);
void noteFedAccesses(Finding &finding, const KernelView &kernel, const pyast::Node &node);

// Traffic and serialization across a kernel (RulesTraffic.cpp)
QVector<Finding> multiPassReread(const KernelView &kernel);
QVector<Finding> crossProgramReread(const KernelView &kernel);

// Serialization: atomics onto few addresses, recurrences one step per iteration (RulesSerial.cpp)
QVector<Finding> atomicContention(const KernelView &kernel);
QVector<Finding> serialRecurrenceLoop(const KernelView &kernel);

// The captured launch: grid and launches per forward (RulesLaunch.cpp)
QVector<Finding> underFilledGrid(const KernelView &kernel);
QVector<Finding> hostLaunchLoop(const KernelView &kernel);
QVector<Finding> torchGlue(const KernelView &kernel);

// Loops and dots (RulesLoops.cpp)
QVector<Finding> unpipelinedDotLoop(const KernelView &kernel);
QVector<Finding> scalarLoadLoop(const KernelView &kernel);
QVector<Finding> atomicInLoop(const KernelView &kernel);
QVector<Finding> fp32DotPrecision(const KernelView &kernel);

// The outermost loop around `load` whose induction variable the pointer (its dependencies
// `deps`) walks: a pass over data; null when none (RulesTraffic.cpp).
const LoopInfo *walkingLoop(const KernelView &kernel, const LocatedNode &load, const QSet<QString> &deps);

// The names the statement holding a node assigns (empty when it is not an assignment)
// (RulesTraffic.cpp).
QStringList namesAssignedAround(const QVector<pyast::Node> &ancestors);
// Span evidence for each statement of `loop` that uses what `load` loaded (RulesTraffic.cpp).
void noteLoadUses(Finding &finding, const KernelView &kernel, const LocatedNode &load, const LoopInfo &loop);

// Iterations of a `range` / `tl.range` loop whose bounds are compile-time constants at this
// launch (constexprs, folded ints, tl.cdiv of them); nullopt otherwise (RulesLoops.cpp).
std::optional<qint64> constantTripCount(const KernelView &kernel, const LoopInfo &loop);
// The same with run-time int bounds taken at their captured launch values (scalar_args): the
// iterations this launch runs; nullopt when a bound depends on the program id or a load.
std::optional<qint64> launchTripCount(const KernelView &kernel, const LoopInfo &loop);

// Bytes of one element behind a pointer parameter's spec type ("*fp16" -> 2); 4 when unknown
// (RulesMemory.cpp).
int pointeeBytes(const KernelParam *param);

// A finding of level L1 at `node`, its span also the first evidence item.
Finding makeFinding(const KernelView &kernel, const QString &ruleId, const QString &title,
                    Severity severity, double confidence, const pyast::Node &node, const QString &cause,
                    const QStringList &recipes);

} // namespace strata::diagnosis::rules
