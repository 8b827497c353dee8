// Recipe split-reduction: a sum over a long axis whose grid has too few programs to fill the GPU
// (few outputs, or few blocks of outputs) split over a second grid axis; each program adds its
// partial sum into the output with tl.atomic_add.
//
// For a block of outputs per program more-programs offers the other way (shrink the block); the
// split keeps the block whole, so each row segment a program loads stays as wide as written (a
// column sum shrunk to 8 fp32 columns reads 32 bytes per row). It is exact in real arithmetic only when what is stored is linear in the
// accumulators (sums, scaled by loop-invariant values), and atomics reorder fp32 additions, so
// only fp32 outputs qualify. Anything else (a max, a sqrt of the sum, a store in the loop,
// another carried value) keeps it silent.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

const QString kSplits = QStringLiteral("SPLITS");

struct SumLoop {
    const diagnosis::LoopInfo *loop = nullptr;
    Node start, end;
    QString step;
    QSet<QString> accumulators;
    QVector<Node> stores;  // after the loop, each storing a value linear in the accumulators
};

// `acc += E` / `acc = acc + E` (E not reading acc); the accumulator's name, or empty.
QString sumUpdate(const Node &statement)
{
    if (isType(statement, "AugAssign") && isType(child(statement, "op"), "Add")) {
        const QString target = nameOf(child(statement, "target"));
        return namesRead(child(statement, "value")).contains(target) ? QString() : target;
    }
    const QJsonArray targets = children(statement, "targets");
    const Node value = child(statement, "value");
    if (!isType(statement, "Assign") || targets.size() != 1 || !isBinOp(value, "Add"))
        return QString();
    const QString target = nameOf(targets.at(0).toObject());
    const Node left = child(value, "left"), right = child(value, "right");
    if (nameOf(left) == target && !namesRead(right).contains(target))
        return target;
    if (nameOf(right) == target && !namesRead(left).contains(target))
        return target;
    return QString();
}

// True when `expr` is linear in `linear` (a name of it, tl.sum of such, sums and differences of
// such, products and quotients by values that read none of them).
bool isLinear(const Node &expr, const QSet<QString> &linear)
{
    if (linear.contains(nameOf(expr)))
        return true;
    if (isTritonCall(expr, "sum"))
        return isLinear(argument(expr, 0, "input"), linear);
    const Node left = child(expr, "left"), right = child(expr, "right");
    if (isBinOp(expr, "Add") || isBinOp(expr, "Sub"))
        return isLinear(left, linear) && isLinear(right, linear);
    const auto free = [&](const Node &node) { return !namesRead(node).intersects(linear); };
    if (isBinOp(expr, "Mult"))
        return (isLinear(left, linear) && free(right)) || (free(left) && isLinear(right, linear));
    if (isBinOp(expr, "Div"))
        return isLinear(left, linear) && free(right);
    return false;
}

// The loop body: plain assignments, sum updates of accumulators started as tl.zeros before the
// loop, nothing carried otherwise, no store or atomic.
bool readLoopBody(const RecipeContext &context, SumLoop &out)
{
    QSet<QString> assignedInLoop, assigned;
    const QJsonArray body = children(out.loop->node, "body");
    for (const QJsonValue &item : body) {
        for (const QString &name : namesAssignedBy(item.toObject()))
            assignedInLoop.insert(name);
    }
    bool memoryWrites = false;
    walk(out.loop->node, [&](const Node &node, const QVector<Node> &) {
        memoryWrites = memoryWrites || isTritonCall(node, "store") || diagnosis::isAtomicCall(node);
    });
    if (memoryWrites)
        return false;
    for (const QJsonValue &item : body) {
        const Node statement = item.toObject();
        const QString accumulator = sumUpdate(statement);
        const QStringList targets = namesAssignedBy(statement);
        if (accumulator.isEmpty() && (!isType(statement, "Assign") || targets.size() != 1))
            return false;  // branches, inner loops, anything but plain assignments
        for (const QString &name : namesRead(statement)) {
            if (name != accumulator && assignedInLoop.contains(name) && !assigned.contains(name))
                return false;  // a value carried from the previous trip (another accumulator included)
        }
        if (!accumulator.isEmpty()) {
            const QVector<Node> starts = context.kernel().assignmentsOf(accumulator);
            if (starts.size() != 2 || !isTritonCall(starts.first(), "zeros") || out.accumulators.contains(accumulator))
                return false;  // started otherwise, or updated twice a trip
            out.accumulators.insert(accumulator);
            continue;
        }
        assigned.insert(targets.first());
    }
    return !out.accumulators.isEmpty();
}

// After the loop: assignments (linear ones extend the set) and stores of linear values to an
// fp32 pointer with no keyword but mask.
bool readEpilogue(const RecipeContext &context, SumLoop &out)
{
    QSet<QString> linear = out.accumulators;
    bool after = false;
    for (const QJsonValue &item : children(context.kernel().function(), "body")) {
        const Node statement = item.toObject();
        if (!after) {
            after = statement == out.loop->node;
            continue;
        }
        const Node value = child(statement, "value");
        if (isType(statement, "Expr") && isTritonCall(value, "store")) {
            const Node stored = argument(value, 1, "value");
            if (!namesRead(stored).intersects(linear))
                return false;  // a store the split would repeat per slice: keep it simple
            bool onlyMask = true;
            for (const QJsonValue &keywordItem : children(value, "keywords"))
                onlyMask = onlyMask && keywordItem.toObject().value(QLatin1String("arg")).toString() == QLatin1String("mask");
            if (!isLinear(stored, linear) || !onlyMask || children(value, "args").size() > 2)
                return false;
            for (const QString &name : context.kernel().dependencies(argument(value, 0, "pointer"))) {
                const QString type = context.pointerType(name);
                if (!type.isEmpty() && type != QLatin1String("*fp32"))
                    return false;  // atomics round each partial to a narrower type
            }
            out.stores.append(value);
            continue;
        }
        const QStringList targets = namesAssignedBy(statement);
        if (!isType(statement, "Assign") || targets.size() != 1)
            return false;
        if (namesRead(value).intersects(linear)) {
            if (!isLinear(value, linear))
                return false;
            linear.insert(targets.first());
        }
    }
    return !out.stores.isEmpty();
}

std::optional<SumLoop> readSumLoop(const RecipeContext &context)
{
    const diagnosis::KernelView &kernel = context.kernel();
    std::optional<SumLoop> found;
    for (const QJsonValue &item : children(kernel.function(), "body")) {
        const Node statement = item.toObject();
        if (!isType(statement, "For"))
            continue;
        if (found)
            return std::nullopt;  // two top-level loops: which one to split is not clear
        for (const diagnosis::LoopInfo &loop : kernel.loops()) {
            const QJsonArray args = children(loop.iteratorCall, "args");
            const diagnosis::KernelParam *step = args.size() == 3 ? kernel.param(nameOf(args.at(2).toObject())) : nullptr;
            if (loop.node != statement || loop.iterator != QLatin1String("tl.range") || !step || !step->isConstexpr
                || kernel.constValue(args.at(0).toObject()) != 0 || !children(loop.iteratorCall, "keywords").isEmpty()
                || !children(loop.node, "orelse").isEmpty() || kernel.isPerElement(args.at(1).toObject()))
                continue;
            found = SumLoop{&loop, args.at(0).toObject(), args.at(1).toObject(), step->name, {}, {}};
        }
        if (!found)
            return std::nullopt;
    }
    if (!found || !readLoopBody(context, *found) || !readEpilogue(context, *found))
        return std::nullopt;
    return found;
}

// The forward's allocation of the tensor the kernel stores into, `NAME = torch.empty(...)` or
// `torch.empty_like(...)`: the span of `empty` to become `zeros` (the partial sums add into it).
std::optional<TextEdit> zeroedOutput(const RecipeContext &context, const SumLoop &loop)
{
    QSet<QString> params;
    for (const Node &store : loop.stores) {
        for (const QString &name : context.kernel().dependencies(argument(store, 0, "pointer"))) {
            if (!context.pointerType(name).isEmpty())
                params.insert(name);
        }
    }
    if (params.size() != 1)
        return std::nullopt;
    const QString argumentText = context.launchArgumentText(*params.begin()).trimmed();
    if (!QRegularExpression(QStringLiteral("^\\w+$")).match(argumentText).hasMatch())
        return std::nullopt;
    const QRegularExpression allocation(QStringLiteral("^[ \\t]*%1\\s*=\\s*torch\\.(empty)(_like)?\\(").arg(argumentText),
                                        QRegularExpression::MultilineOption);
    QRegularExpressionMatchIterator matches = allocation.globalMatch(context.source().text());
    if (!matches.hasNext())
        return std::nullopt;
    const QRegularExpressionMatch match = matches.next();
    if (matches.hasNext())
        return std::nullopt;  // allocated twice: which one the launch sees is not clear
    return TextEdit{int(match.capturedStart(1)), int(match.capturedEnd(1)), QStringLiteral("zeros")};
}

// Splits so the grid reaches two programs per compute unit, halved until each split keeps >= 4 trips.
qint64 splitsFor(qint64 programs, qint64 trips, qint64 units)
{
    qint64 splits = 2;
    while (programs * splits < 2 * units)
        splits *= 2;
    while (splits > 1 && trips < 4 * splits)
        splits /= 2;
    return splits;
}

} // namespace

QVector<RecipeCandidate> proposeSplitReduction(const RecipeContext &context)
{
    const QVector<qint64> grid = context.grid();
    const diagnosis::KernelView &kernel = context.kernel();
    const Node arguments = child(kernel.function(), "args");
    qint64 programs = 1;
    for (const qint64 dim : grid)
        programs *= std::max<qint64>(dim, 1);
    const qint64 units = context.limits().computeUnits;
    if (grid.isEmpty() || units <= 0 || programs >= 2 * units || hasDot(context) || !context.hasLaunchSite()
        || !children(arguments, "defaults").isEmpty() || children(arguments, "args").isEmpty())
        return {};
    for (const diagnosis::LocatedNode &call : kernel.callsOf("program_id")) {
        if (kernel.constValue(argument(call.node, 0, "axis")) != 0)
            return {};  // the second axis is taken
    }
    for (const QString &name : {kSplits, QStringLiteral("_split_len"), QStringLiteral("_split_lo")}) {
        if (context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};
    }
    const std::optional<SumLoop> loop = readSumLoop(context);
    const std::optional<GridElement> gridElement = oneDimensionalGrid(context);
    const std::optional<TextEdit> zeroed = loop ? zeroedOutput(context, *loop) : std::nullopt;
    const int launchEnd = context.afterLastArgument(context.launchSite());
    const QString endName = loop ? nameOf(loop->end) : QString();
    const std::optional<qint64> extent = context.launchIntValue(endName);
    const std::optional<qint64> step = loop ? context.constexprValue(loop->step) : std::nullopt;
    if (!loop || !gridElement || !zeroed || launchEnd < 0 || !extent || !step || *step <= 0)
        return {};
    const qint64 trips = (*extent + *step - 1) / *step;
    const qint64 splits = splitsFor(programs, trips, units);
    if (splits < 2)
        return {};

    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const int line = lineOf(loop->loop->node);
    const QString indent = source.indentOf(line);
    RecipeCandidate candidate;
    candidate.edits.append({source.lineStart(line), source.lineStart(line),
                            QStringLiteral("%1_split_len = %2.cdiv(%2.cdiv(%3, %4), %5) * %4  # axis 1 splits the loop into %5 slices\n"
                                           "%1_split_lo = %2.program_id(1) * _split_len\n")
                                .arg(indent, tl, endName, loop->step, kSplits)});
    candidate.edits.append({source.startOf(loop->start), source.endOf(loop->start), QStringLiteral("_split_lo")});
    candidate.edits.append({source.startOf(loop->end), source.endOf(loop->end),
                            QStringLiteral("%1.minimum(%2, _split_lo + _split_len)").arg(tl, endName)});
    for (const Node &store : loop->stores) {
        const Node func = child(store, "func");
        candidate.edits.append({source.startOf(func), source.endOf(func), QStringLiteral("%1.atomic_add").arg(tl)});
    }
    const int signatureEnd = source.endOf(children(arguments, "args").last().toObject());
    candidate.edits.append({signatureEnd, signatureEnd, QStringLiteral(", %1: %2").arg(kSplits, constexprAnnotation(context))});
    candidate.edits.append(*zeroed);
    candidate.edits.append({source.startOf(gridElement->node), source.endOf(gridElement->node),
                            QStringLiteral("(%1, %2)").arg(gridElement->element).arg(splits)});
    candidate.edits.append({launchEnd, launchEnd, QStringLiteral(", %1=%2").arg(kSplits).arg(splits)});
    candidate.recipeId = QStringLiteral("split-reduction");
    candidate.title = QStringLiteral("sum loop on line %1 split over %2 programs per output (atomic_add)").arg(line).arg(splits);
    candidate.rationale = QStringLiteral("The grid launches %1 programs for %2 compute units, each reducing %3 blocks alone. A second grid "
                                         "axis of %4 splits each loop into slices of whole blocks; every slice's partial sum is "
                                         "added into the zeroed output with tl.atomic_add (what is stored is linear in the sums, "
                                         "fp32), so %5 programs share the work.")
                              .arg(programs).arg(units).arg(trips).arg(splits).arg(programs * splits);
    candidate.findingRuleIds = QStringList{QStringLiteral("launch: fewer than 2 programs per SM")}
                               + context.ruleIdsOf(context.findingsFor({QStringLiteral("L1.under-filled-grid"), QStringLiteral("L2.low-occupancy")}));
    // The grid is a launch fact, not an IR one: nothing to check before timing.
    candidate.value = 0.65;
    candidate.sets = {QStringLiteral("launch:grid"), QStringLiteral("kernel:split-reduction")};
    candidate.combinable = false;
    return {candidate};
}

} // namespace strata::rewrite::recipes
