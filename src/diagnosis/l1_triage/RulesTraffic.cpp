// L1 rules on memory traffic that no single load shows: a tensor read again in a later pass over
// the same data, or by every program along a grid axis it does not depend on.
#include "diagnosis/l1_triage/TriageRules.h"

#include <QJsonArray>
#include <QMap>

#include <algorithm>

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
                return pass.loop->node == loop->node || nested(*pass.loop, *loop) || nested(*loop, *pass.loop);
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
        findings.append(finding);
    }
    return findings;
}

} // namespace strata::diagnosis::rules
