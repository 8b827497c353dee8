// L1 rules on serialization: atomics whose updates land on few addresses (within a tile, or the
// same addresses from every program), and loops whose every step waits for the previous one
// (a scan or recurrence advanced one element at a time).
#include "diagnosis/l1_triage/TriageRules.h"
#include "diagnosis/model/TargetFacts.h"

#include <QHash>

#include <algorithm>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

// Reductions return one value per reduced axis: an atomic of their result is one update per program.
bool isReduction(const Node &expr)
{
    static const char *const reductions[] = {"sum", "max", "min", "reduce", "xor_sum", "argmax", "argmin"};
    if (!isType(expr, "Call"))
        return false;
    return std::any_of(std::begin(reductions), std::end(reductions), [&](const char *name) {
        return isTritonCall(expr, name) || isMethodCall(expr, name);
    });
}

// True when every per-element part of `value` passes through a reduction: `tl.sum(x) * scale`,
// `(tl.sum(a) + tl.sum(b)).to(dtype)` or a name assigned such values is one value per program,
// whatever scalars combine with it afterwards.
bool reducedValue(const KernelView &kernel, const Node &value, int depth = 0)
{
    if (isReduction(value))
        return true;
    if (depth > 8)
        return false;
    if (isType(value, "Name")) {
        const QVector<Node> assigned = kernel.assignmentsOf(value.value(QStringLiteral("id")).toString());
        return !assigned.isEmpty() && std::all_of(assigned.cbegin(), assigned.cend(), [&](const Node &each) {
            return reducedValue(kernel, each, depth + 1);
        });
    }
    const auto reducedOrScalar = [&](const Node &part) {
        return !kernel.isPerElement(part) || reducedValue(kernel, part, depth + 1);
    };
    if (isType(value, "BinOp"))
        return reducedOrScalar(child(value, "left")) && reducedOrScalar(child(value, "right"));
    if (isType(value, "UnaryOp"))
        return reducedValue(kernel, child(value, "operand"), depth + 1);
    if (isMethodCall(value, "to"))  // a cast of a reduced value
        return reducedValue(kernel, child(child(value, "func"), "value"), depth + 1);
    return false;
}

// The value of a run-time or constexpr integer as launched: a literal, a spec constexpr or the
// captured launch's scalar argument.
std::optional<qint64> launchedValue(const KernelView &kernel, const Node &expr)
{
    if (const auto constant = kernel.constValue(expr))
        return constant;
    if (!isType(expr, "Name"))
        return std::nullopt;
    const KernelParam *param = kernel.param(expr.value(QStringLiteral("id")).toString());
    return param ? param->launchValue : std::nullopt;
}

// True when `expr` takes one value (or a few) over the whole tile although it is written with
// per-element names: tl.zeros_like / tl.full_like of a tile, `tile * 0`, and `tile // d` with d
// at least the tile's extent (a flat index divided by the row length names one row).
bool collapsesOverTile(const KernelView &kernel, const Node &expr, int depth = 0)
{
    if (depth > 8)
        return false;
    if (!kernel.isPerElement(expr))
        return true;
    if (isTritonCall(expr, "zeros_like") || isTritonCall(expr, "full_like"))
        return true;
    if (isType(expr, "Name")) {
        const QVector<Node> values = kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString());
        return !values.isEmpty() && std::all_of(values.cbegin(), values.cend(), [&](const Node &value) {
            return collapsesOverTile(kernel, value, depth + 1);
        });
    }
    if (isType(expr, "Subscript"))
        return collapsesOverTile(kernel, child(expr, "value"), depth + 1);
    if (!isType(expr, "BinOp"))
        return false;
    const QString op = typeOf(child(expr, "op"));
    const Node left = child(expr, "left"), right = child(expr, "right");
    if (op == QLatin1String("Mult") && (kernel.constValue(left) == 0 || kernel.constValue(right) == 0))
        return true;
    if (op == QLatin1String("FloorDiv") && !kernel.isPerElement(right)) {
        const QVector<qint64> extents = kernel.arangeExtents(left);
        const auto divisor = launchedValue(kernel, right);
        const qint64 extent = extents.isEmpty() ? 0 : *std::max_element(extents.cbegin(), extents.cend());
        return divisor && extent > 0 && *divisor >= extent;
    }
    return collapsesOverTile(kernel, left, depth + 1) && collapsesOverTile(kernel, right, depth + 1);
}

bool accumulatedInLoop(const KernelView &kernel, const Node &value);

Finding contentionFinding(const KernelView &kernel, const LocatedNode &call, const QString &title,
                          const QString &cause, qint64 updatesPerAddress)
{
    Finding finding = makeFinding(kernel, QStringLiteral("L1.atomic-contention"), title, Severity::High, 0.8,
                                  call.node, cause, {QStringLiteral("reduce-then-atomic")});
    if (updatesPerAddress > 0)
        finding.evidence.append(Evidence::metric(QStringLiteral("programs updating each address"),
                                                 double(updatesPerAddress), QString()));
    return finding;
}

// Below this many programs, updates from every program onto the same addresses queue too little
// to matter next to the loads that produce them.
constexpr qint64 kContendingPrograms = 64;

// A loop's step when it is written as range(start, end, step) / tl.range(...); 1 when omitted.
std::optional<qint64> loopStep(const KernelView &kernel, const LoopInfo &loop)
{
    if (loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range"))
        return std::nullopt;
    const QJsonArray args = children(loop.iteratorCall, "args");
    const Node step = args.size() >= 3 ? args.at(2).toObject() : keyword(loop.iteratorCall, "step");
    return step.isEmpty() ? std::optional<qint64>(1) : kernel.constValue(step);
}

std::optional<qint64> loopTrips(const KernelView &kernel, const LoopInfo &loop)
{
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (args.isEmpty())
        return std::nullopt;
    const auto end = launchedValue(kernel, args.at(args.size() == 1 ? 0 : 1).toObject());
    const auto start = args.size() == 1 ? std::optional<qint64>(0) : kernel.constValue(args.at(0).toObject());
    if (!end || !start)
        return std::nullopt;
    return std::max<qint64>(0, *end - *start);
}

bool readsAny(const QSet<QString> &deps, const QStringList &names)
{
    return std::any_of(names.cbegin(), names.cend(), [&](const QString &name) { return deps.contains(name); });
}

// Names `loop` re-initialises in every iteration: a plain assignment that does not read the name,
// outside any inner loop or branch (so it runs every iteration), with the line it sits on.
QHash<QString, int> resetEachIteration(const LoopInfo &loop)
{
    QHash<QString, int> resets;
    walk(loop.node, [&](const Node &node, const QVector<Node> &ancestors) {
        if (!isType(node, "Assign") || readsAny(namesRead(child(node, "value")), namesAssignedBy(node)))
            return;
        const bool everyIteration = std::none_of(ancestors.cbegin(), ancestors.cend(), [&](const Node &outer) {
            return outer != loop.node && (isType(outer, "For") || isType(outer, "While") || isType(outer, "If"));
        });
        if (everyIteration)
            for (const QString &name : namesAssignedBy(node))
                if (!resets.contains(name))
                    resets.insert(name, lineOf(node));
    });
    return resets;
}

// Assignments inside `loop` whose value reads the name they assign: values carried from one
// iteration to the next. A name the iteration re-initialises before the update carries nothing
// across iterations of `loop` (its chain, if any, belongs to an inner loop).
QVector<LocatedNode> carriedAssignments(const LoopInfo &loop)
{
    QVector<LocatedNode> carried;
    const QHash<QString, int> resets = resetEachIteration(loop);
    walk(loop.node, [&](const Node &node, const QVector<Node> &ancestors) {
        const bool augmented = isType(node, "AugAssign");
        if (!augmented && !isType(node, "Assign"))
            return;
        const QSet<QString> read = namesRead(child(node, "value"));
        const QStringList names = namesAssignedBy(node);
        const bool reset = std::all_of(names.cbegin(), names.cend(), [&](const QString &name) {
            return resets.contains(name) && resets.value(name) < lineOf(node);
        });
        if (!names.isEmpty() && !reset && (augmented || readsAny(read, names)))
            carried.append({node, ancestors});
    });
    return carried;
}

// A value summed (or otherwise carried) over a loop before it is used: one update per program
// and loop, not one per loaded element.
bool accumulatedInLoop(const KernelView &kernel, const Node &value)
{
    const QSet<QString> deps = kernel.dependencies(value) + namesRead(value);
    for (const LoopInfo &loop : kernel.loops())
        for (const LocatedNode &assignment : carriedAssignments(loop))
            if (readsAny(deps, namesAssignedBy(assignment.node)))
                return true;
    return false;
}

// Steps of a serial chain that cost more than their loads: at ~0.4 us of load latency each
// (Triton does not prefetch loads of a loop without a dot), a few hundred steps are already a
// fraction of a millisecond.
constexpr qint64 kCostlySerialSteps = 256;
constexpr double kSerialStepSeconds = 0.4e-6;

// The chain's share of the time beyond the launch's memory bound: steps x one load latency
// against the tensor bytes at DRAM bandwidth. Needs the captured launch (bytes, step count).
std::optional<double> serialChainShare(const KernelView &kernel, qint64 steps)
{
    const double bandwidth = dramBytesPerSecond(kernel.target());
    if (bandwidth <= 0 || kernel.tensorBytes() <= 0 || steps <= 0)
        return std::nullopt;
    const double chain = steps * kSerialStepSeconds, bound = kernel.tensorBytes() / bandwidth;
    return chain > bound ? 1.0 - bound / chain : 0.0;
}

// A scatter through loaded indices (a histogram, an index_add) can reach only the elements of
// the tensor it updates: at the captured launch, programs x the atomic's tile updates over that
// tensor's elements is a lower bound (loops only add updates) on the updates each address takes
// on average, whatever the indices are.
std::optional<Finding> crowdedScatter(const KernelView &kernel, const LocatedNode &call, const Node &pointer)
{
    const KernelParam *target = nullptr;
    for (const QString &name : kernel.addressDependencies(pointer)) {
        const KernelParam *param = kernel.param(name);
        if (param && param->isPointer() && param->tensorElements && *param->tensorElements > 0)
            target = target ? nullptr : param;  // one tensor, or the bound is unclear
    }
    if (!target || kernel.programs() <= 0)
        return std::nullopt;
    qint64 tile = 1;
    for (const qint64 extent : kernel.arangeExtents(pointer))
        tile *= std::max<qint64>(extent, 1);
    const qint64 updates = kernel.programs() * std::min(tile, std::max<qint64>(kernel.largestTile().elements, 1));
    const qint64 perAddress = updates / *target->tensorElements;
    if (tile <= 1 || perAddress < kContendingPrograms)
        return std::nullopt;
    Finding finding = contentionFinding(
        kernel, call, QStringLiteral("A scatter onto %1 addresses takes %2 updates each").arg(*target->tensorElements).arg(perAddress),
        QStringLiteral("The atomic's addresses come from loaded values, but they can only land in the %1 elements of "
                       "%2: the launch's %3 programs x %4 elements issue %5 updates, at least %6 per address on "
                       "average, each queued behind the others at that address. Count or reduce per program first "
                       "(tl.histogram, a sort, or partial sums in registers) and issue one atomic per address per "
                       "program.")
            .arg(*target->tensorElements).arg(target->name).arg(kernel.programs()).arg(tile).arg(updates).arg(perAddress),
        0);
    finding.evidence.append(Evidence::metric(QStringLiteral("updates per address"), double(perAddress), QString(),
                                             QStringLiteral("at least, from the launch's programs, the atomic's tile and the "
                                                            "updated tensor's elements")));
    finding.evidence.append(Evidence::metric(QStringLiteral("target elements"), double(*target->tensorElements),
                                             QStringLiteral("elements")));
    return finding;
}

} // namespace

// An atomic whose updates land on few addresses: the memory system applies them one after
// another. Either the address is the same for every element of the tile (its per-element part
// collapses) while the value is per element, or the address is per element but ignores the
// program id, so every program of the grid updates the same addresses.
QVector<Finding> atomicContention(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &call : kernel.calls()) {
        if (!isAtomicCall(call.node))
            continue;
        const Node pointer = argument(call.node, 0, "pointer");
        const Node value = argument(call.node, 1, "val");
        if (pointer.isEmpty() || value.isEmpty())
            continue;
        const bool perElementValue = kernel.isPerElement(value) && !reducedValue(kernel, value);
        if (perElementValue && collapsesOverTile(kernel, pointer)) {
            findings.append(contentionFinding(
                kernel, call, QStringLiteral("Every element's atomic hits one address"),
                QStringLiteral("The atomic's address is the same for all elements of the tile while its value is "
                               "per element, so every element of every program is one serialized update of a "
                               "single location. Reduce the tile first (tl.sum) and issue one atomic per "
                               "program, or write partials and reduce them in a second pass."),
                kernel.programs()));
            continue;
        }
        if (kernel.dependencies(pointer) != kernel.addressDependencies(pointer)) {
            // A tile of gathered addresses: every element is an update, whatever its value is.
            if (const std::optional<Finding> crowded = crowdedScatter(kernel, call, pointer))
                findings.append(*crowded);
            continue;
        }
        if (!perElementValue || !kernel.programAxes(pointer).isEmpty() || kernel.programs() < kContendingPrograms
            || !kernel.enclosingLoops(call.ancestors).isEmpty() || accumulatedInLoop(kernel, value))
            continue;
        findings.append(contentionFinding(
            kernel, call, QStringLiteral("Every program's atomics hit the same addresses"),
            QStringLiteral("The atomic's addresses do not depend on the program id, so all %1 programs of the "
                           "grid update the same locations and queue on each of them. Give each program a "
                           "slice of the output to reduce over a loop, or reduce a block of rows in "
                           "registers and issue one atomic per block.").arg(kernel.programs()),
            kernel.programs()));
    }
    return findings;
}

// A loop advancing one element per iteration that carries a value into the next iteration and
// stores it every iteration: a scan or recurrence evaluated serially, each step waiting for the
// previous one and for its own load.
QVector<Finding> serialRecurrenceLoop(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LoopInfo &loop : kernel.loops()) {
        if (loopStep(kernel, loop) != 1 || containsCall(loop.node, "dot"))
            continue;
        const QVector<LocatedNode> carried = carriedAssignments(loop);
        const QVector<LocatedNode> loads = kernel.callsOf("load"), stores = kernel.callsOf("store");
        const auto steppedInLoop = [&](const LocatedNode &call) {
            return kernel.enclosingLoops(call.ancestors).contains(&loop)
                   && readsAny(kernel.dependencies(argument(call.node, 0, "pointer")), loop.inductionNames);
        };
        for (const LocatedNode &assignment : carried) {
            const QStringList names = namesAssignedBy(assignment.node);
            const Node value = child(assignment.node, "value");
            const QSet<QString> valueDeps = kernel.dependencies(value);
            // This step's load reaches the carried value: inside its expression, or through a
            // name the load's statement assigns.
            const bool fedByStepLoad = std::any_of(loads.cbegin(), loads.cend(), [&](const LocatedNode &load) {
                return steppedInLoop(load)
                       && (std::find(load.ancestors.cbegin(), load.ancestors.cend(), assignment.node) != load.ancestors.cend()
                           || readsAny(valueDeps, namesAssignedAround(load.ancestors)));
            });
            const bool storedEachStep = std::any_of(stores.cbegin(), stores.cend(), [&](const LocatedNode &store) {
                const Node stored = argument(store.node, 1, "value");
                return steppedInLoop(store) && readsAny(kernel.dependencies(stored) + namesRead(stored), names);
            });
            if (!fedByStepLoad || !storedEachStep)
                continue;
            const auto trips = loopTrips(kernel, loop);
            const std::optional<double> share = trips ? serialChainShare(kernel, *trips) : std::nullopt;
            const bool costly = share ? *share >= 0.5 : (!trips || *trips >= kCostlySerialSteps);
            const Severity severity = costly ? Severity::High : Severity::Low;
            Finding finding = makeFinding(
                kernel, QStringLiteral("L1.serial-recurrence"), QStringLiteral("Recurrence advanced one step per iteration"),
                severity, 0.8, assignment.node,
                QStringLiteral("%1 carries into the next iteration and is stored every iteration of a loop that "
                               "advances one element at a time, so the %2 steps run one after another, each "
                               "waiting for its load. Process a block of steps per iteration with "
                               "tl.associative_scan (or tl.cumsum / tl.cummax) and carry only the block's last value.")
                    .arg(names.join(QStringLiteral(", ")),
                         trips ? QString::number(*trips) : QStringLiteral("loop's")),
                {QStringLiteral("blocked-scan")});
            SourceSpan header = kernel.span(loop.node);
            header.endLine = header.line;
            header.endColumn = 0;
            finding.evidence.append(Evidence::span(header, QStringLiteral("the loop")));
            if (trips)
                finding.evidence.append(Evidence::metric(QStringLiteral("serial steps"), double(*trips), QString()));
            if (share)
                finding.gapShare = GapShare{*share, true};
            findings.append(finding);
            break;
        }
    }
    return findings;
}

} // namespace strata::diagnosis::rules
