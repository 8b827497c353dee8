// L1 rules on memory traffic that no single load shows: a tensor read again in a later pass over
// the same data, or by every program along a grid axis it does not depend on.
#include "diagnosis/l1_triage/TriageRules.h"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

// The kernel's pointer parameters a pointer expression is built from.
QStringList basePointers(const KernelView &kernel, const Node &pointer)
{
    QStringList bases;
    const QSet<QString> deps = kernel.addressDependencies(pointer);
    for (const KernelParam &param : kernel.params()) {
        if (deps.contains(param.name) && (param.isPointer() || param.type.isEmpty()))
            bases << param.name;
    }
    return bases;
}

bool nested(const LoopInfo &outer, const LoopInfo &inner)
{
    const int first = lineOf(outer.node), last = outer.node.value(QStringLiteral("end_lineno")).toInt();
    const int line = lineOf(inner.node);
    return line > first && line <= last;
}

struct Pass {
    const LoopInfo *loop = nullptr;
    LocatedNode load;
};

// An AST expression without its source positions, to compare two expressions by structure.
QJsonValue withoutPositions(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray items;
        for (const QJsonValue &item : value.toArray())
            items.append(withoutPositions(item));
        return items;
    }
    if (!value.isObject())
        return value;
    QJsonObject object;
    const QJsonObject node = value.toObject();
    for (auto it = node.begin(); it != node.end(); ++it) {
        static const QStringList positions{QStringLiteral("lineno"), QStringLiteral("col_offset"),
                                           QStringLiteral("end_lineno"), QStringLiteral("end_col_offset"), QStringLiteral("ctx")};
        if (!positions.contains(it.key()))
            object.insert(it.key(), withoutPositions(it.value()));
    }
    return object;
}

// A `range`-style loop's start and stop expressions; false for other loops.
bool rangeBounds(const LoopInfo &loop, QJsonValue *start, QJsonValue *stop)
{
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (loop.iteratorCall.isEmpty() || args.size() < 2 || args.size() > 3
        || (loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range")))
        return false;
    *start = withoutPositions(args[0]);
    *stop = withoutPositions(args[1]);
    return true;
}

// `later` starts where `earlier` stops (the same expression, or that expression plus a constant):
// the two loops split one walk into disjoint ranges (off-diagonal blocks, then the diagonal
// one), so nothing is read twice.
bool continuesWalk(const LoopInfo &earlier, const LoopInfo &later)
{
    QJsonValue earlierStart, earlierStop, laterStart, laterStop;
    if (!rangeBounds(earlier, &earlierStart, &earlierStop) || !rangeBounds(later, &laterStart, &laterStop))
        return false;
    if (laterStart == earlierStop)
        return true;
    const QJsonObject sum = laterStart.toObject();
    return sum.value(QStringLiteral("_type")) == QLatin1String("BinOp")
        && sum.value(QStringLiteral("op")).toObject().value(QStringLiteral("_type")) == QLatin1String("Add")
        && sum.value(QStringLiteral("left")) == earlierStop
        && sum.value(QStringLiteral("right")).toObject().value(QStringLiteral("_type")) == QLatin1String("Constant");
}


// A load whose value reaches a tl.dot operand: tiled matrix products re-read each operand tile
// from every program of the other output axis by design (L2 and the tile order absorb it).
bool feedsDot(const KernelView &kernel, const LocatedNode &load)
{
    const QStringList assigned = namesAssignedAround(load.ancestors);
    for (const LocatedNode &dot : kernel.callsOf("dot")) {
        if (std::any_of(load.ancestors.cbegin(), load.ancestors.cend(), [&](const Node &node) { return node == dot.node; }))
            return true;
        const QSet<QString> operands = kernel.dependencies(argument(dot.node, 0, "input"))
                                       + kernel.dependencies(argument(dot.node, 1, "other"));
        if (std::any_of(assigned.cbegin(), assigned.cend(), [&](const QString &name) { return operands.contains(name); }))
            return true;
    }
    return false;
}

QString axisList(const QSet<int> &axes)
{
    QList<int> sorted(axes.cbegin(), axes.cend());
    std::sort(sorted.begin(), sorted.end());
    QStringList names;
    for (int axis : sorted)
        names << QString::number(axis);
    return names.join(QStringLiteral(", "));
}

// Most iterations a unit-step `range` loop can run at this launch: its constant trip count, or
// a constant stop when the start is not constant (such starts are indices built from program ids
// and `%` results, never negative); nullopt without a compile-time bound.
std::optional<qint64> tripBound(const KernelView &kernel, const LoopInfo &loop)
{
    if (const std::optional<qint64> trips = constantTripCount(kernel, loop))
        return trips;
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (args.size() != 2 || (loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range")))
        return std::nullopt;
    const std::optional<qint64> stop = kernel.constValue(args[1].toObject());
    return stop ? std::optional<qint64>(std::max<qint64>(*stop, 0)) : std::nullopt;
}

// Bytes one pass reads from `base` per program: its trip bound times the load's tile (the
// product of the arange extents its pointer depends on); -1 without a compile-time bound.
double passFootprint(const KernelView &kernel, const Pass &pass, const QString &base)
{
    const std::optional<qint64> trips = tripBound(kernel, *pass.loop);
    if (!trips)
        return -1;
    double elements = 1;
    for (qint64 extent : kernel.arangeExtents(argument(pass.load.node, 0, "pointer")))
        elements *= double(extent);
    return double(*trips) * elements * pointeeBytes(kernel.param(base));
}

// What the passes after the first can re-read is at most their own footprint. When every pass
// but the largest has a compile-time bound and together they read at most a program's share of
// L1 (256 KB per SM over 8 resident programs), the re-read is served from L1 / L2: the fact is
// present, its cost small. Returns that footprint in bytes, or -1 when the re-read may be large.
constexpr double kCacheResidentPassBytes = 32 * 1024;

double boundedRereadBytes(const KernelView &kernel, const QVector<Pass> &passes, const QString &base)
{
    QVector<double> footprints;
    for (const Pass &pass : passes)
        footprints.append(passFootprint(kernel, pass, base));
    const auto largest = std::max_element(footprints.cbegin(), footprints.cend(), [](double a, double b) {
        return (a < 0 ? 1e300 : a) < (b < 0 ? 1e300 : b);
    });
    double others = 0;
    for (auto it = footprints.cbegin(); it != footprints.cend(); ++it) {
        if (it == largest)
            continue;
        if (*it < 0)
            return -1;
        others += *it;
    }
    return others <= kCacheResidentPassBytes ? others : -1;
}

} // namespace

// The statements of `loop` that use what `load` loaded: a load's latency is paid where its value
// is first used (the warp stalls on its scoreboard there), so a profile samples those lines, not
// the load's own. Each becomes span evidence, and so part of the finding's measured cost.
void noteLoadUses(Finding &finding, const KernelView &kernel, const LocatedNode &load, const LoopInfo &loop)
{
    const QStringList assigned = namesAssignedAround(load.ancestors);
    if (assigned.isEmpty())
        return;
    const int loadLine = lineOf(load.node);
    walk(loop.node, [&](const Node &node, const QVector<Node> &) {
        if (!isType(node, "Assign") && !isType(node, "AugAssign") && !isType(node, "Expr"))
            return;
        if (lineOf(node) == loadLine)
            return;
        const QSet<QString> read = namesRead(child(node, "value"));
        if (std::any_of(assigned.cbegin(), assigned.cend(), [&](const QString &name) { return read.contains(name); }))
            finding.evidence.append(Evidence::span(kernel.span(node), QStringLiteral("where its data is used (the load's wait is sampled there)")));
    });
}

// The names the statement holding a node assigns (empty when it is not an assignment).
QStringList namesAssignedAround(const QVector<Node> &ancestors)
{
    for (auto it = ancestors.crbegin(); it != ancestors.crend(); ++it) {
        if (isType(*it, "Assign") || isType(*it, "AugAssign") || isType(*it, "AnnAssign"))
            return namesAssignedBy(*it);
    }
    return {};
}

const LoopInfo *walkingLoop(const KernelView &kernel, const LocatedNode &load, const QSet<QString> &deps)
{
    const QVector<const LoopInfo *> loops = kernel.enclosingLoops(load.ancestors);
    for (const LoopInfo *loop : loops) {
        const bool walks = std::any_of(loop->inductionNames.cbegin(), loop->inductionNames.cend(),
                                       [&](const QString &name) { return deps.contains(name); });
        if (walks)
            return loop;
    }
    return nullptr;
}


// A load in a loop that walks data chosen by some program ids but not by others: every program
// along a grid axis the address ignores reads the same rows again (a 2-D grid where each column
// block re-reads its whole row to get a row statistic). Data no program id selects (weights, a
// bias) is the same for all programs and stays in cache; dot operands are left out by design.
QVector<Finding> crossProgramReread(const KernelView &kernel)
{
    const QVector<qint64> &grid = kernel.grid();
    QVector<Finding> findings;
    for (const LocatedNode &load : kernel.callsOf("load")) {
        const Node pointer = argument(load.node, 0, "pointer");
        const QSet<int> axes = kernel.programAxes(pointer);
        const LoopInfo *loop = grid.size() < 2 || axes.isEmpty() ? nullptr : walkingLoop(kernel, load, kernel.dependencies(pointer));
        if (!loop || feedsDot(kernel, load))
            continue;
        qint64 readers = 1;
        QStringList ignored;
        for (int axis = 0; axis < grid.size(); ++axis) {
            if (grid[axis] > 1 && !axes.contains(axis)) {
                readers *= grid[axis];
                ignored << QStringLiteral("axis %1 (%2 programs)").arg(axis).arg(grid[axis]);
            }
        }
        if (readers <= 1)
            continue;
        const QString base = basePointers(kernel, pointer).join(QStringLiteral(", "));
        Finding finding = makeFinding(kernel, QStringLiteral("L1.cross-program-reread"),
                                      QStringLiteral("%1 re-read by %2 programs each").arg(base.isEmpty() ? QStringLiteral("data") : base).arg(readers),
                                      Severity::High, 0.75, load.node,
                                      QStringLiteral("This load walks data picked by program id axis %1, but not by %2: every "
                                                     "program along that axis loops over the same data again, about %3x its "
                                                     "minimal traffic unless it stays in L2. Compute once per row (one program "
                                                     "per row, looping over the column blocks), or store the statistic in a "
                                                     "first pass and read it in the second.")
                                          .arg(axisList(axes))
                                          .arg(ignored.join(QStringLiteral(", "))).arg(readers),
                                      {QStringLiteral("one-program-per-row"), QStringLiteral("two-pass-statistics")});
        finding.evidence.append(Evidence::metric(QStringLiteral("programs_reading_the_same_data"), double(readers), QString(),
                                                 QStringLiteral("grid of the captured launch")));
        finding.gapShare = GapShare{double(readers - 1) / readers, true};
        noteLoadUses(finding, kernel, load, *loop);  // the re-read's waits are sampled where it is used
        findings.append(finding);
    }
    return findings;
}

// A kernel that walks the same input in two or more separate loops (max, then sum, then
// normalise) moves that input from HBM once per pass unless it stays in L2: the traffic is a
// multiple of the minimum. One pass with the row in registers (or an online update) removes it.
QVector<Finding> multiPassReread(const KernelView &kernel)
{
    QMap<QString, QVector<Pass>> passesByBase;
    for (const LocatedNode &load : kernel.callsOf("load")) {
        const Node pointer = argument(load.node, 0, "pointer");
        const QSet<QString> deps = kernel.dependencies(pointer);
        const LoopInfo *loop = walkingLoop(kernel, load, deps);
        if (!loop || !kernel.isPerElement(pointer))
            continue;  // a scalar read again per pass (a length, an offset) costs no traffic
        for (const QString &base : basePointers(kernel, pointer)) {
            QVector<Pass> &passes = passesByBase[base];
            const bool sameOrNested = std::any_of(passes.cbegin(), passes.cend(), [&](const Pass &pass) {
                return pass.loop->node == loop->node || nested(*pass.loop, *loop) || nested(*loop, *pass.loop)
                    || continuesWalk(*pass.loop, *loop) || continuesWalk(*loop, *pass.loop);
            });
            if (!sameOrNested)
                passes.append({loop, load});
        }
    }
    QVector<Finding> findings;
    for (auto it = passesByBase.cbegin(); it != passesByBase.cend(); ++it) {
        const QVector<Pass> &passes = it.value();
        if (passes.size() < 2)
            continue;
        const int count = passes.size();
        Finding finding = makeFinding(kernel, QStringLiteral("L1.multi-pass-reread"),
                                      QStringLiteral("%1 read in %2 separate passes").arg(it.key()).arg(count),
                                      Severity::High, 0.8, passes[1].load.node,
                                      QStringLiteral("%1 is walked by %2 separate loops, so each pass reads it from memory "
                                                     "again: about %2x its minimal traffic (less only if it stays in L2). "
                                                     "Keep the data in registers for one pass, or fuse the passes with an "
                                                     "online update (running max and rescaled sum, Welford).")
                                          .arg(it.key()).arg(count),
                                      {QStringLiteral("single-pass-rows"), QStringLiteral("online-softmax")});
        for (int i = 0; i < count; ++i) {
            SourceSpan header = kernel.span(passes[i].loop->node);
            header.endLine = header.line;
            header.endColumn = 0;
            finding.evidence.append(Evidence::span(header, QStringLiteral("pass %1 over the data").arg(i + 1)));
            finding.evidence.append(Evidence::span(kernel.span(passes[i].load.node), QStringLiteral("its load")));
            noteLoadUses(finding, kernel, passes[i].load, *passes[i].loop);
        }
        finding.evidence.append(Evidence::metric(QStringLiteral("passes"), count, QString()));
        // Every pass after the first is excess traffic on this tensor.
        finding.gapShare = GapShare{double(count - 1) / count, true};
        if (const double bytes = boundedRereadBytes(kernel, passes, it.key()); bytes >= 0) {
            finding.severity = Severity::Low;
            finding.gapShare = GapShare{0.05, true};
            finding.cause = QStringLiteral("Present, not the cause (estimated: the passes besides the largest read at most "
                                           "%1 KB per program, with compile-time trip counts, which L1 / L2 serve again): ")
                                .arg(std::ceil(bytes / 1024)) + finding.cause;
            finding.evidence.append(Evidence::metric(QStringLiteral("bounded_reread_bytes"), bytes, QStringLiteral("bytes"),
                                                     QStringLiteral("trip bound x tile x element size of the smaller passes")));
        }
        findings.append(finding);
    }
    return findings;
}

} // namespace strata::diagnosis::rules
