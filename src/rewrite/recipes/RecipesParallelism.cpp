// Recipes on how work is split across programs: a grid too small to fill the GPU.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

// Names assigned straight from tl.program_id(...) (`pid = tl.program_id(0)`).
QSet<QString> programIdNames(const diagnosis::KernelView &kernel)
{
    QSet<QString> names;
    walk(kernel.function(), [&names](const Node &node, const QVector<Node> &) {
        if (!isType(node, "Assign") || !isTritonCall(child(node, "value"), "program_id"))
            return;
        for (const QJsonValue &target : children(node, "targets"))
            for (const QString &name : targetNames(target.toObject()))
                names.insert(name);
    });
    return names;
}

bool readsProgramId(const Node &expr, const QSet<QString> &programIds)
{
    if (isTritonCall(expr, "program_id"))
        return true;
    bool found = false;
    walk(expr, [&found](const Node &node, const QVector<Node> &) { found = found || isTritonCall(node, "program_id"); });
    return found || namesRead(expr).intersects(programIds);
}

// Constexpr parameters that scale a program id (`pid * BLOCK`): each program's share of an axis
// the grid covers.
QStringList programBlockParams(const diagnosis::KernelView &kernel)
{
    const QSet<QString> programIds = programIdNames(kernel);
    QStringList blocks;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &) {
        if (!isType(node, "BinOp") || !isType(child(node, "op"), "Mult"))
            return;
        for (const auto &[side, other] : {std::pair{"left", "right"}, std::pair{"right", "left"}}) {
            const QString name = child(node, side).value(QLatin1String("id")).toString();
            const diagnosis::KernelParam *param = kernel.param(name);
            if (param && param->isConstexpr && !blocks.contains(name) && readsProgramId(child(node, other), programIds))
                blocks.append(name);
        }
    });
    return blocks;
}

// Constexpr steps of the kernel's `range(start, end, STEP)` loops: the tile a program walks.
QStringList loopStepParams(const diagnosis::KernelView &kernel)
{
    QStringList steps;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        const QJsonArray args = children(loop.iteratorCall, "args");
        if (args.size() < 3)
            continue;
        const QString step = args.at(2).toObject().value(QLatin1String("id")).toString();
        const diagnosis::KernelParam *param = kernel.param(step);
        if (param && param->isConstexpr && !steps.contains(step))
            steps.append(step);
    }
    return steps;
}

// Bytes of the elements the kernel's first pointer parameter points to (4 when unknown).
int firstPointerElementBytes(const RecipeContext &context)
{
    for (const diagnosis::KernelParam &param : context.kernel().params()) {
        const QString type = context.pointerType(param.name);
        if (type.isEmpty())
            continue;
        bool ok = false;
        const int bits = QStringView(type).mid(type.indexOf(QRegularExpression(QStringLiteral("\\d")))).toInt(&ok);
        return ok && bits >= 8 ? bits / 8 : 4;
    }
    return 4;
}

} // namespace

QVector<RecipeCandidate> proposeMorePrograms(const RecipeContext &context)
{
    // A program that walks a long axis in a loop while the grid covers the other axis in blocks:
    // when that grid has fewer than two programs per SM, most SMs idle (col sums, column
    // maxima, per-channel scans). Smaller blocks on the gridded axis give more programs; the loop
    // step grows by the same factor so each program still moves as many bytes per iteration.
    const QVector<qint64> grid = context.grid();
    if (grid.isEmpty() || hasDot(context) || !context.isHopper())
        return {};
    qint64 programs = 1;
    for (const qint64 dim : grid)
        programs *= std::max<qint64>(dim, 1);
    if (programs >= 2 * kHopperSmCount)
        return {};
    const QStringList steps = loopStepParams(context.kernel());
    QString block;
    for (const QString &candidate : programBlockParams(context.kernel())) {
        if (!steps.contains(candidate) && context.gridDependsOn(candidate))
            block = candidate;
    }
    if (block.isEmpty() || steps.size() != 1)
        return {};
    const QString step = steps.first();
    const std::optional<qint64> blockValue = context.constexprValue(block);
    const std::optional<qint64> stepValue = context.constexprValue(step);
    if (!blockValue || !stepValue || !isPowerOfTwo(*blockValue) || !isPowerOfTwo(*stepValue))
        return {};
    // At least one 32-byte sector per row of the gridded axis, so loads stay sector-efficient.
    const qint64 minBlock = std::max<qint64>(1, 32 / firstPointerElementBytes(context));
    qint64 needed = 2;
    while (programs * needed < 2 * kHopperSmCount)
        needed *= 2;
    // The factor that reaches two programs per SM, half and twice that; when the sector limit
    // allows none of them, the largest it allows.
    const qint64 largest = *blockValue / minBlock;
    QVector<qint64> factors;
    for (const qint64 factor : {needed, needed / 2, needed * 2}) {
        if (factor >= 2 && factor <= largest && programs * factor > kHopperSmCount)
            factors.append(factor);
    }
    if (factors.isEmpty() && largest >= 2)
        factors.append(std::min(largest, needed));
    QVector<RecipeCandidate> out;
    for (const qint64 factor : factors) {
        const qint64 newBlock = *blockValue / factor;
        const std::optional<QVector<TextEdit>> edits =
            context.setLaunchConstexprs({{block, newBlock}, {step, *stepValue * factor}}, {step});
        if (!edits)
            return out;
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("more-programs");
        candidate.title = QStringLiteral("%1 %2 -> %3, %4 %5 -> %6: %7 -> %8 programs")
                              .arg(block).arg(*blockValue).arg(newBlock).arg(step).arg(*stepValue).arg(*stepValue * factor)
                              .arg(programs).arg(programs * factor);
        candidate.rationale = QStringLiteral("The grid launches %1 programs for %2 SMs and each walks its loop alone: "
                                             "%3 idle SMs cap the bandwidth. %4 blocks of %5 give %6 programs; the "
                                             "loop step %7 grows to %8 so each iteration still loads a %9-element tile.")
                                  .arg(programs).arg(kHopperSmCount).arg(std::max<qint64>(0, kHopperSmCount - programs))
                                  .arg(block).arg(newBlock).arg(programs * factor).arg(step).arg(*stepValue * factor)
                                  .arg(*blockValue * *stepValue);
        // The evidence is the captured launch grid (run_task), which no ladder level owns.
        candidate.findingRuleIds = context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.low-occupancy")}));
        candidate.findingRuleIds.prepend(QStringLiteral("launch: fewer than 2 programs per SM"));
        // The grid is a launch fact, not an IR one: nothing to check before timing.
        candidate.edits = *edits;
        candidate.value = 0.65 - 0.05 * out.size();
        candidate.sets = {QStringLiteral("constexpr:") + block, QStringLiteral("constexpr:") + step};
        out.append(candidate);
    }
    return out;
}

} // namespace strata::rewrite::recipes
