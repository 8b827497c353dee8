// Recipes on how much independent work each program has in flight: a grid too small to fill
// the GPU, programs too small to keep loads in flight, short loops that serialize their loads.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

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
        if (!type.isEmpty())
            return elementBytesOf(type) > 0 ? elementBytesOf(type) : 4;
    }
    return 4;
}

// Pointer parameters the pointer argument of each `function` call (load/store) depends on.
QSet<QString> pointerParamsOf(const diagnosis::KernelView &kernel, const char *function)
{
    QSet<QString> params;
    for (const diagnosis::LocatedNode &call : kernel.callsOf(function)) {
        for (const QString &name : kernel.dependencies(argument(call.node, 0, "pointer"))) {
            const diagnosis::KernelParam *param = kernel.param(name);
            if (param && (param->isPointer() || name.endsWith(QLatin1String("_ptr"))))
                params.insert(name);
        }
    }
    return params;
}

// The top-level statement `NAME = tl.program_id(0)` when it is the kernel's only program id.
Node soleProgramIdStatement(const diagnosis::KernelView &kernel)
{
    if (kernel.callsOf("program_id").size() != 1)
        return {};
    for (const QJsonValue &item : children(kernel.function(), "body")) {
        const Node statement = item.toObject();
        const Node value = child(statement, "value");
        if (isType(statement, "Assign") && isTritonCall(value, "program_id") && children(statement, "targets").size() == 1
            && isType(children(statement, "targets").at(0).toObject(), "Name")
            && kernel.constValue(argument(value, 0, "axis")) == 0
            && statement.value(QLatin1String("lineno")) == statement.value(QLatin1String("end_lineno")))
            return statement;
    }
    return {};
}

} // namespace

namespace {

// True when `text` has a comma outside every bracket: two elements, not one.
bool hasTopLevelComma(const QString &text)
{
    int depth = 0;
    for (const QChar c : text) {
        if (c == u'(' || c == u'[' || c == u'{')
            ++depth;
        else if (c == u')' || c == u']' || c == u'}')
            --depth;
        else if (c == u',' && depth == 0)
            return true;
    }
    return false;
}

} // namespace

// The one element E of a 1-D grid written `(E,)`, with where it sits (the launch's grid or the
// local it is assigned from); nullopt for anything else.
std::optional<GridElement> oneDimensionalGrid(const RecipeContext &context)
{
    QJsonObject grid = context.launchSite().value(QLatin1String("grid")).toObject();
    const QJsonObject definition = grid.value(QLatin1String("definition")).toObject();
    if (!definition.isEmpty())
        grid = definition.value(QLatin1String("value")).toObject();
    static const QRegularExpression oneTuple(QStringLiteral("^\\(\\s*(.+?)\\s*,\\s*\\)$"),
                                             QRegularExpression::DotMatchesEverythingOption);
    const QRegularExpressionMatch match = oneTuple.match(grid.value(QLatin1String("text")).toString().trimmed());
    if (!match.hasMatch() || hasTopLevelComma(match.captured(1)))
        return std::nullopt;  // a comma inside a call (`triton.cdiv(n, 64)`) is part of the one element
    return GridElement{grid, match.captured(1)};
}

QVector<RecipeCandidate> proposeMorePrograms(const RecipeContext &context)
{
    // A program that walks a long axis in a loop while the grid covers the other axis in blocks:
    // when that grid has fewer than two programs per SM, most SMs idle (col sums, column
    // maxima, per-channel scans). Smaller blocks on the gridded axis give more programs; the loop
    // step grows by the same factor so each program still moves as many bytes per iteration.
    const QVector<qint64> grid = context.grid();
    const qint64 units = context.limits().computeUnits;
    if (grid.isEmpty() || hasDot(context) || units <= 0)
        return {};
    qint64 programs = 1;
    for (const qint64 dim : grid)
        programs *= std::max<qint64>(dim, 1);
    if (programs >= 2 * units)
        return {};
    const QStringList steps = loopStepParams(context.kernel());
    QStringList blocks;  // the gridded axis's block: exactly one, or the recipe cannot tell which
    for (const QString &candidate : context.programBlocks().keys()) {
        if (!steps.contains(candidate) && context.gridDependsOn(candidate))
            blocks.append(candidate);
    }
    if (blocks.size() != 1 || steps.size() != 1)
        return {};
    const QString block = blocks.first();
    const QString step = steps.first();
    const std::optional<qint64> blockValue = context.constexprValue(block);
    const std::optional<qint64> stepValue = context.constexprValue(step);
    if (!blockValue || !stepValue || !isPowerOfTwo(*blockValue) || !isPowerOfTwo(*stepValue))
        return {};
    // At least one 32-byte sector per row of the gridded axis, so loads stay sector-efficient.
    const qint64 minBlock = std::max<qint64>(1, 32 / firstPointerElementBytes(context));
    qint64 needed = 2;
    while (programs * needed < 2 * units)
        needed *= 2;
    // The factor that reaches two programs per SM, half and twice that; when the sector limit
    // allows none of them, the largest it allows.
    const qint64 largest = *blockValue / minBlock;
    QVector<qint64> factors;
    for (const qint64 factor : {needed, needed / 2, needed * 2}) {
        if (factor >= 2 && factor <= largest && programs * factor > units)
            factors.append(factor);
    }
    if (factors.isEmpty() && largest >= 2)
        factors.append(std::min(largest, needed));
    QVector<RecipeCandidate> out;
    for (const qint64 factor : factors) {
        const qint64 newBlock = *blockValue / factor;
        const std::optional<QVector<TextEdit>> edits =
            context.setLaunchConstexprs({{block, newBlock}, {step, *stepValue * factor}});
        if (!edits)
            return out;
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("more-programs");
        candidate.title = QStringLiteral("%1 %2 -> %3, %4 %5 -> %6: %7 -> %8 programs")
                              .arg(block).arg(*blockValue).arg(newBlock).arg(step).arg(*stepValue).arg(*stepValue * factor)
                              .arg(programs).arg(programs * factor);
        candidate.rationale = QStringLiteral("The grid launches %1 programs for %2 compute units and each walks its loop alone: "
                                             "%3 idle units cap the bandwidth. %4 blocks of %5 give %6 programs; the "
                                             "loop step %7 grows to %8 so each iteration still loads a %9-element tile.")
                                  .arg(programs).arg(units).arg(std::max<qint64>(0, units - programs))
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

QVector<RecipeCandidate> proposeRowsPerProgram(const RecipeContext &context)
{
    // The opposite shape: a huge 1-D grid of programs that each move one short row (RoPE on one
    // head, a pooling row). Each program issues a few small loads and exits, so too few bytes
    // are in flight per SM. Wrapping the body in a static loop over R consecutive rows gives each
    // program R independent rows to overlap. Rows past the end are clamped to the last row: they
    // redo it and store the same values, which is harmless only when no output is also read or
    // accumulated (checked: no atomics, no pointer both loaded and stored).
    const diagnosis::KernelView &kernel = context.kernel();
    const QVector<qint64> grid = context.grid();
    qint64 programs = 1;
    for (const qint64 dim : grid)
        programs *= std::max<qint64>(dim, 1);
    const qint64 tile = kernel.largestTile().elements;
    const qint64 units = context.limits().computeUnits;
    if (grid.isEmpty() || units <= 0 || programs < 64 * units || tile <= 0 || tile > 1024 || hasDot(context)
        || !kernel.loops().isEmpty() || !context.hasLaunchSite())
        return {};
    for (const char *atomic : {"atomic_add", "atomic_max", "atomic_min", "atomic_cas", "atomic_xchg", "atomic_and", "atomic_or"}) {
        if (!kernel.callsOf(atomic).isEmpty())
            return {};
    }
    if (pointerParamsOf(kernel, "load").intersects(pointerParamsOf(kernel, "store")))
        return {};
    const Node pidStatement = soleProgramIdStatement(kernel);
    const Node arguments = child(kernel.function(), "args");
    const QJsonArray params = children(arguments, "args");
    const std::optional<GridElement> gridElement = oneDimensionalGrid(context);
    if (pidStatement.isEmpty() || containsType(kernel.function(), "Return") || params.isEmpty()
        || !children(arguments, "defaults").isEmpty() || !children(arguments, "kwonlyargs").isEmpty()
        || !child(arguments, "vararg").isEmpty() || !gridElement)
        return {};
    const QString rows = QStringLiteral("ROWS_PER_PROGRAM"), total = QStringLiteral("n_programs"),
                  index = QStringLiteral("_row");
    for (const QString &name : {rows, total, index}) {
        if (context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};  // the file already uses the name
    }

    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const int pidLine = lineOf(pidStatement);
    const int lastLine = kernel.function().value(QLatin1String("end_lineno")).toInt();
    const QString indent = source.indentOf(pidLine);
    const QString pidName = children(pidStatement, "targets").at(0).toObject().value(QLatin1String("id")).toString();
    const int launchEnd = context.afterLastArgument(context.launchSite());
    if (launchEnd < 0 || lastLine <= pidLine)
        return {};

    QVector<TextEdit> kernelEdits;
    const int signatureEnd = source.endOf(params.last().toObject());
    kernelEdits.append({signatureEnd, signatureEnd, QStringLiteral(", %1, %2: %3").arg(total, rows, constexprAnnotation(context))});
    kernelEdits.append({source.startOf(pidStatement), source.endOf(pidStatement),
                        QStringLiteral("for %1 in %2.static_range(%3):\n%4    %5 = %2.minimum(%2.program_id(0) * %3 + %1, %6 - 1)")
                            .arg(index, tl, rows, indent, pidName, total)});
    for (int line = pidLine + 1; line <= lastLine; ++line) {
        if (!source.line(line).trimmed().isEmpty())
            kernelEdits.append({source.lineStart(line), source.lineStart(line), QStringLiteral("    ")});
    }
    QVector<RecipeCandidate> out;
    for (const int perProgram : {4, 8}) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("rows-per-program");
        candidate.title = QStringLiteral("%1 rows per program: %2 -> %3 programs").arg(perProgram).arg(programs)
                              .arg((programs + perProgram - 1) / perProgram);
        candidate.rationale = QStringLiteral("The grid launches %1 programs that each move one %2-element tile and exit, "
                                             "so each SM has only a few small loads in flight. A static loop over %3 "
                                             "consecutive rows (%4 clamped to the last row) gives every program %3 "
                                             "independent rows whose loads overlap.")
                                  .arg(programs).arg(tile).arg(perProgram).arg(pidName);
        const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.tiny-block"), QStringLiteral("L1.num-warps-mismatch")});
        candidate.findingRuleIds = QStringList{QStringLiteral("launch: many programs of one small tile")} + context.ruleIdsOf(findings);
        candidate.edits = kernelEdits;
        const QJsonObject gridNode = gridElement->node;
        candidate.edits.append({source.startOf(gridNode), source.endOf(gridNode),
                                QStringLiteral("(triton.cdiv(%1, %2),)").arg(gridElement->element).arg(perProgram)});
        candidate.edits.append({launchEnd, launchEnd, QStringLiteral(", %1=%2, %3=%4").arg(total, gridElement->element, rows).arg(perProgram)});
        // The grid is a launch fact, not an IR one: nothing to check before timing.
        candidate.value = 0.5 - 0.05 * out.size();
        candidate.sets = {QStringLiteral("kernel:program-rows"), QStringLiteral("launch:grid")};
        out.append(candidate);
    }
    return out;
}

QVector<RecipeCandidate> proposeUnrollConstantLoops(const RecipeContext &context)
{
    // A `range(3)` window loop (pooling, stencils) becomes an scf.for: each trip's loads wait for
    // the previous trip's. tl.static_range unrolls it at trace time, so all the window's loads
    // are independent instructions the scheduler can issue together. Dot loops are left to
    // pipelining, and a loop holding a loop of unknown trip count is not unrolled around it.
    const diagnosis::KernelView &kernel = context.kernel();
    QVector<TextEdit> edits;
    QStringList where;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        const QJsonArray args = children(loop.iteratorCall, "args");
        // Python's range and tl.range both trace to scf.for (KernelView reports both as tl.range).
        if (loop.iterator != QLatin1String("tl.range") || args.isEmpty() || args.size() > 2
            || !children(loop.iteratorCall, "keywords").isEmpty())
            continue;
        const std::optional<qint64> first = args.size() == 2 ? kernel.constValue(args.at(0).toObject()) : std::optional<qint64>(0);
        const std::optional<qint64> last = kernel.constValue(args.last().toObject());
        bool dynamicInner = false;
        for (const diagnosis::LoopInfo &inner : kernel.loops()) {
            const bool nested = &inner != &loop && lineOf(inner.node) > lineOf(loop.node)
                                && lineOf(inner.node) <= loop.node.value(QLatin1String("end_lineno")).toInt();
            dynamicInner = dynamicInner || (nested && inner.iterator != QLatin1String("tl.static_range")
                                                        && !kernel.constValue(children(inner.iteratorCall, "args").last().toObject()));
        }
        if (!first || !last || *last - *first < 2 || *last - *first > 16 || !containsCall(loop.node, "load")
            || containsCall(loop.node, "dot") || dynamicInner)
            continue;
        const Node callee = child(loop.iteratorCall, "func");
        edits.append({context.source().startOf(callee), context.source().endOf(callee), tritonLanguage(context) + QStringLiteral(".static_range")});
        where.append(QStringLiteral("line %1 (%2 trips)").arg(lineOf(loop.node)).arg(*last - *first));
    }
    if (edits.isEmpty())
        return {};
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("unroll-constant-loops");
    candidate.title = QStringLiteral("tl.static_range for the constant loop%1 on %2").arg(where.size() > 1 ? QStringLiteral("s") : QString(), where.join(QLatin1String(", ")));
    candidate.rationale = QStringLiteral("A short loop of constant trip count runs as a loop, so each trip's loads wait for "
                                         "the previous trip; unrolled, all of them are in flight together.");
    candidate.findingRuleIds = QStringList{QStringLiteral("source: short constant-trip loop")}
                               + context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.memory-bound"), QStringLiteral("L2.latency-bound")}));
    candidate.edits = edits;
    // Unrolling is visible in TTIR (the scf.for disappears), which the fact checker does not
    // read: nothing to check before timing.
    candidate.value = 0.3;
    candidate.sets = {QStringLiteral("kernel:unroll")};
    return {candidate};
}

} // namespace strata::rewrite::recipes
