// Recipe: the dot loop's 2-D tile loads as TMA tensor-descriptor loads (Hopper's bulk copy engine),
// row-major tiles, tiles of a transposed operand and tiles at a per-program base offset.
#include "NvidiaRecipes.h"
#include "NvidiaTargets.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "rewrite/recipes/AstNames.h"

#include <QRegularExpression>

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;
using diagnosis::Finding;

namespace {

// One tile load `base + ROWS[:, None] * s0 + COLS[None, :] * s1` (terms in any order) with the
// pieces a descriptor needs.
struct TileLoad {
    Node call;
    QString base, rowStride, colStride;
    Node rows, cols;        // the index expressions inside the subscripts
    QString pointerParam;   // the pointer parameter the base is, or is offset from
    QStringList offsetStrides;  // kernel int parameters each term of a local base's offset multiplies
};

// `X[:, None]` -> (X, 0), `X[None, :]` -> (X, 1); axis -1 for anything else.
std::pair<Node, int> broadcastIndex(const Node &node)
{
    if (!isType(node, "Subscript"))
        return {{}, -1};
    const QJsonArray elements = children(child(node, "slice"), "elts");
    if (elements.size() != 2)
        return {{}, -1};
    const auto isNone = [](const Node &n) { return isType(n, "Constant") && n.value(QLatin1String("value")).isNull(); };
    const Node first = elements.at(0).toObject(), second = elements.at(1).toObject();
    if (isType(first, "Slice") && isNone(second))
        return {child(node, "value"), 0};
    if (isNone(first) && isType(second, "Slice"))
        return {child(node, "value"), 1};
    return {{}, -1};
}

void addFactors(const Node &expr, QVector<Node> &factors)
{
    if (isType(expr, "BinOp") && isType(child(expr, "op"), "Mult")) {
        addFactors(child(expr, "left"), factors);
        addFactors(child(expr, "right"), factors);
    } else {
        factors.append(expr);
    }
}

void addTerms(const Node &expr, QVector<Node> &terms)
{
    if (isType(expr, "BinOp") && isType(child(expr, "op"), "Add")) {
        addTerms(child(expr, "left"), terms);
        addTerms(child(expr, "right"), terms);
    } else {
        terms.append(expr);
    }
}

bool isPointerParam(const RecipeContext &context, const QString &name)
{
    const diagnosis::KernelParam *param = context.kernel().param(name);
    return param && context.pointerType(param->name).startsWith(u'*');
}

// A base that is a local assigned once, `P + OFFSET` (a batched matmul's `a_ptr + batch *
// stride_ab`): P a pointer parameter, OFFSET the same for every element, each of its terms a
// product with a run-time int parameter (a stride): the descriptor starts at the offset base, which
// is 16-byte aligned when P is and each such stride is a multiple of 16 bytes (checked at launch).
bool readOffsetBase(const RecipeContext &context, const QString &local, TileLoad &load)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QVector<Node> values = kernel.assignmentsOf(local);
    if (values.size() != 1 || !isType(values.first(), "BinOp") || !isType(child(values.first(), "op"), "Add"))
        return false;
    const Node value = values.first();
    Node pointer = child(value, "left"), offset = child(value, "right");
    if (!isPointerParam(context, nameOf(pointer)))
        std::swap(pointer, offset);
    if (!isPointerParam(context, nameOf(pointer)) || kernel.isPerElement(offset))
        return false;
    QVector<Node> terms;
    addTerms(offset, terms);
    QStringList strides;
    for (const Node &term : terms) {
        QVector<Node> factors;
        addFactors(term, factors);
        QString stride;
        for (const Node &factor : factors) {
            const diagnosis::KernelParam *param = kernel.param(nameOf(factor));
            if (param && !param->isConstexpr && !isPointerParam(context, param->name)
                && !context.launchArgumentText(param->name).isEmpty())
                stride = param->name;
        }
        if (stride.isEmpty())
            return false;
        strides.append(stride);
    }
    load.base = local;
    load.pointerParam = nameOf(pointer);
    load.offsetStrides = strides;
    return true;
}

std::optional<TileLoad> readTileLoad(const RecipeContext &context, const Node &call)
{
    QVector<Node> terms;
    addTerms(argument(call, 0, "pointer"), terms);
    if (terms.size() != 3)
        return std::nullopt;
    TileLoad load{call, {}, {}, {}, {}, {}};
    for (const Node &term : terms) {
        if (isType(term, "Name")) {
            const QString name = nameOf(term);
            if (!load.base.isEmpty())
                return std::nullopt;
            if (isPointerParam(context, name)) {
                load.base = load.pointerParam = name;
                continue;
            }
            if (!readOffsetBase(context, name, load))
                return std::nullopt;
            continue;
        }
        if (!isType(term, "BinOp") || !isType(child(term, "op"), "Mult"))
            return std::nullopt;
        auto [index, axis] = broadcastIndex(child(term, "left"));
        Node stride = child(term, "right");
        if (axis < 0) {
            std::tie(index, axis) = broadcastIndex(child(term, "right"));
            stride = child(term, "left");
        }
        if (axis < 0 || !isType(stride, "Name"))
            return std::nullopt;
        (axis == 0 ? load.rows : load.cols) = index;
        (axis == 0 ? load.rowStride : load.colStride) = stride.value(QLatin1String("id")).toString();
    }
    if (load.base.isEmpty() || load.rows.isEmpty() || load.cols.isEmpty())
        return std::nullopt;
    return load;
}

// The first element of a per-element index (`pid_m * BLOCK_M + tl.arange(0, BLOCK_M)` ->
// `pid_m * BLOCK_M`) and the arange extent that sizes the tile, through names assigned once.
// Empty when the index is anything but a scalar plus one tl.arange (a `% M` wrap, a gather).
struct IndexStart {
    QString start, block;
};
std::optional<IndexStart> indexStart(const RecipeContext &context, const Node &expr)
{
    const diagnosis::KernelView &kernel = context.kernel();
    if (!kernel.isPerElement(expr))
        return IndexStart{context.source().slice(expr), {}};
    if (isType(expr, "Name")) {
        const QVector<Node> values = kernel.assignmentsOf(expr.value(QLatin1String("id")).toString());
        return values.size() == 1 ? indexStart(context, values.first()) : std::nullopt;
    }
    if (isTritonCall(expr, "arange")) {
        const Node start = argument(expr, 0, "start");
        if (kernel.constValue(start) != 0)
            return std::nullopt;
        return IndexStart{QStringLiteral("0"), context.source().slice(argument(expr, 1, "end"))};
    }
    if (isType(expr, "BinOp") && isType(child(expr, "op"), "Add")) {
        const std::optional<IndexStart> left = indexStart(context, child(expr, "left"));
        const std::optional<IndexStart> right = indexStart(context, child(expr, "right"));
        if (!left || !right || (left->block.isEmpty() == right->block.isEmpty()))
            return std::nullopt;  // exactly one side carries the arange
        const QString block = left->block.isEmpty() ? right->block : left->block;
        if (left->start == QLatin1String("0"))
            return IndexStart{right->start, block};
        if (right->start == QLatin1String("0"))
            return IndexStart{left->start, block};
        return IndexStart{left->start + QStringLiteral(" + ") + right->start, block};
    }
    return std::nullopt;
}

// The bound of `index` in the load's mask (`index[:, None] < BOUND`), or empty.
QString maskBound(const RecipeContext &context, const Node &mask, const Node &index)
{
    QString bound;
    const QString wanted = canonicalText(index);
    walk(mask, [&](const Node &node, const QVector<Node> &) {
        if (!bound.isEmpty() || !isType(node, "Compare") || children(node, "ops").size() != 1
            || !isType(children(node, "ops").at(0).toObject(), "Lt"))
            return;
        const auto [compared, axis] = broadcastIndex(child(node, "left"));
        if (axis >= 0 && canonicalText(compared) == wanted)
            bound = context.source().slice(children(node, "comparators").at(0).toObject());
    });
    return bound;
}

bool strideIsOne(const RecipeContext &context, const QString &stride)
{
    const diagnosis::KernelParam *param = context.kernel().param(stride);
    return (param && (param->equalToOne || param->value == 1)) || context.launchIntValue(stride) == 1;
}

bool loadsZeroOrNothing(const Node &call)
{
    const Node other = keyword(call, "other");
    return other.isEmpty() || (isType(other, "Constant") && other.value(QLatin1String("value")).toDouble(1) == 0);
}

// A local base is read where the descriptors are made (just before the dot loop): it must be
// assigned before the loop, at the loop's level or an outer one.
bool baseVisibleAt(const RecipeContext &context, const TileLoad &tile, const Node &loop)
{
    if (tile.base == tile.pointerParam)
        return true;
    const QVector<Node> values = context.kernel().assignmentsOf(tile.base);
    const int line = values.isEmpty() ? 0 : lineOf(values.first());
    return line > 0 && line < lineOf(loop)
           && context.source().indentOf(line).size() <= context.source().indentOf(lineOf(loop)).size();
}

// `a_ptr` -> `a_desc` (`a_desc2`, ... when the file or an earlier descriptor has the name).
QString descriptorName(const RecipeContext &context, const QString &base, QStringList &taken)
{
    const QString stem = base.endsWith(QLatin1String("_ptr")) ? base.chopped(4) : base;
    QString name = stem + QStringLiteral("_desc");
    for (int i = 2; taken.contains(name) || context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))); ++i)
        name = stem + QStringLiteral("_desc%1").arg(i);
    taken.append(name);
    return name;
}

// Module-level allocator: device-side descriptors live in global scratch memory that Triton
// asks `triton.set_allocator` for; inserted after the `import triton.language` line.
std::optional<TextEdit> allocatorEdit(const RecipeContext &context)
{
    const QString &text = context.source().text();
    if (text.contains(QLatin1String("set_allocator")))
        return TextEdit{0, 0, QString()};
    const qsizetype at = text.indexOf(QRegularExpression(QStringLiteral("^import triton\\.language.*$"),
                                                         QRegularExpression::MultilineOption));
    if (at < 0)
        return std::nullopt;
    const qsizetype lineEnd = text.indexOf(u'\n', at);
    const int insertAt = lineEnd < 0 ? int(text.size()) : int(lineEnd + 1);
    return TextEdit{insertAt, insertAt,
                    QStringLiteral("\n\n# Device-side TMA descriptors need global scratch memory, which Triton asks this for.\n"
                                   "def _strata_tma_scratch(size, alignment, stream):\n"
                                   "    return torch.empty(size, device=\"cuda\" if torch.cuda.is_available() else \"cpu\", "
                                   "dtype=torch.int8)\n\n\ntriton.set_allocator(_strata_tma_scratch)\n")};
}

} // namespace

QVector<RecipeCandidate> proposeTmaDescriptors(const RecipeContext &context)
{
    // The dot operands arrive through pointer tiles: every thread computes addresses, masks and
    // issues cp.async. On Hopper a tensor descriptor hands the whole tile to the TMA engine
    // (cp.async.bulk.tensor): no address math, edges zero-filled by the hardware, and the
    // pipeliner overlaps the copies with wgmma through mbarriers. TMA needs 16-byte aligned bases
    // and row strides, which odd shapes do not have: the launch decides USE_TMA per call and the
    // original pointer loads stay as the other branch of a compile-time `if`.
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.no-autotune"), QStringLiteral("L1.small-dot-tile"),
                                                           QStringLiteral("L3.unpipelined-loop-load")});
    const diagnosis::KernelView &kernel = context.kernel();
    const Node arguments = child(kernel.function(), "args");
    const QJsonArray params = children(arguments, "args");
    const QString flag = QStringLiteral("USE_TMA");
    if (!isHopperTarget(context.target()) || !hasDot(context) || !context.source().text().contains(QLatin1String("import torch"))
        || !context.hasLaunchSite() || params.isEmpty() || !children(arguments, "defaults").isEmpty()
        || context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(flag))))
        return {};
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    QVector<TextEdit> edits;
    QStringList converted, names, alignment;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        if (!containsCall(loop.node, "dot"))
            continue;
        const QString indent = source.indentOf(lineOf(loop.node));
        QStringList descriptors;
        for (const diagnosis::LocatedNode &load : kernel.callsOf("load")) {
            if (lineOf(load.node) <= lineOf(loop.node) || lineOf(load.node) > loop.node.value(QLatin1String("end_lineno")).toInt()
                || load.ancestors.isEmpty())
                continue;
            // `name = tl.load(...)` as a statement of its own: it becomes a compile-time if/else.
            const Node statement = load.ancestors.last();
            if (!isType(statement, "Assign") || child(statement, "value") != load.node || children(statement, "targets").size() != 1
                || !isType(children(statement, "targets").at(0).toObject(), "Name"))
                continue;
            const std::optional<TileLoad> tile = readTileLoad(context, load.node);
            if (!tile || !loadsZeroOrNothing(load.node) || !baseVisibleAt(context, *tile, loop.node))
                continue;
            // A tile whose rows run along memory (unit row stride: `W[n, k]` read as the (k, n)
            // tile of W^T) is the transpose of a row-major tile: the descriptor describes memory
            // as it is, and the loaded tile is transposed back, in shared memory, where wgmma
            // reads either order of a 16-bit operand.
            const bool transposed = !strideIsOne(context, tile->colStride);
            if (transposed && !strideIsOne(context, tile->rowStride))
                continue;
            std::optional<IndexStart> rows = indexStart(context, tile->rows);
            std::optional<IndexStart> cols = indexStart(context, tile->cols);
            const Node mask = keyword(load.node, "mask");
            QString rowBound = maskBound(context, mask, tile->rows), colBound = maskBound(context, mask, tile->cols);
            QString rowStride = tile->rowStride, colStride = tile->colStride;
            if (transposed) {
                std::swap(rows, cols);
                std::swap(rowBound, colBound);
                std::swap(rowStride, colStride);
            }
            const QString baseArg = context.launchArgumentText(tile->pointerParam), strideArg = context.launchArgumentText(rowStride);
            const int bytes = elementBytesOf(context.pointerType(tile->pointerParam));
            if (!rows || !cols || rows->block.isEmpty() || cols->block.isEmpty() || rowBound.isEmpty() || colBound.isEmpty()
                || baseArg.isEmpty() || strideArg.isEmpty() || bytes == 0)
                continue;
            const QString name = descriptorName(context, tile->base, names);
            descriptors.append(QStringLiteral("%1    %2 = %3.make_tensor_descriptor(%4, shape=[%5, %6], strides=[%7, %8], "
                                              "block_shape=[%9, %10])\n")
                                   .arg(indent, name, tl, tile->base, rowBound, colBound, rowStride, colStride)
                                   .arg(rows->block, cols->block));
            const QString target = source.slice(children(statement, "targets").at(0).toObject());
            const QString inner = source.indentOf(lineOf(statement));
            const QString descriptorLoad = QStringLiteral("%1.load([%2, %3])").arg(name, rows->start, cols->start);
            edits.append({source.startOf(statement), source.endOf(statement),
                          QStringLiteral("if %1:\n%2    %3 = %4\n%2else:\n%2    %5")
                              .arg(flag, inner, target,
                                   transposed ? QStringLiteral("%1.trans(%2)").arg(tl, descriptorLoad) : descriptorLoad,
                                   source.slice(statement))});
            alignment.append(QStringLiteral("%1.data_ptr() % 16 == 0").arg(baseArg));
            alignment.append(QStringLiteral("(%1) * %2 % 16 == 0").arg(strideArg).arg(bytes));
            // The descriptor's last stride must be 1: the captured launch showed it, a
            // non-contiguous view at another call would not.
            const QString unitArg = context.launchArgumentText(colStride).trimmed();
            if (!unitArg.isEmpty() && unitArg != QLatin1String("1"))
                alignment.append(QStringLiteral("(%1) == 1").arg(unitArg));
            for (const QString &offsetStride : tile->offsetStrides)
                alignment.append(QStringLiteral("(%1) * %2 % 16 == 0").arg(context.launchArgumentText(offsetStride)).arg(bytes));
            converted.append(QStringLiteral("line %1 (%2%3)").arg(lineOf(load.node)).arg(tile->base,
                                                                                           transposed ? QStringLiteral(", transposed") : QString()));
        }
        if (!descriptors.isEmpty())
            edits.append({source.lineStart(lineOf(loop.node)), source.lineStart(lineOf(loop.node)),
                          QStringLiteral("%1if %2:\n%3").arg(indent, flag, descriptors.join(QString()))});
    }
    const std::optional<TextEdit> allocator = allocatorEdit(context);
    const int launchEnd = context.afterLastArgument(context.launchSite());
    if (converted.isEmpty() || !allocator || launchEnd < 0)
        return {};
    if (!allocator->replacement.isEmpty())
        edits.append(*allocator);
    const int signatureEnd = source.endOf(params.last().toObject());
    edits.append({signatureEnd, signatureEnd, QStringLiteral(", %1: %2").arg(flag, constexprAnnotation(context))});
    alignment.removeDuplicates();
    edits.append({launchEnd, launchEnd, QStringLiteral(", %1=(%2)").arg(flag, alignment.join(QLatin1String(" and ")))});
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("tma-descriptors");
    candidate.title = QStringLiteral("TMA tensor descriptors for the dot loads on %1").arg(converted.join(QLatin1String(", ")));
    candidate.rationale = QStringLiteral("The dot's tiles are loaded through per-thread pointers and masks; on Hopper a tensor "
                                         "descriptor moves each tile with one bulk copy (cp.async.bulk.tensor), the hardware "
                                         "zero-fills the edges, and the pipeliner overlaps the copies with wgmma. Launches "
                                         "whose bases or row strides are not 16-byte aligned keep the pointer loads. A tile read "
                                         "along its rows (a transposed operand) is described as stored and transposed in "
                                         "shared memory; a base offset per program (a batch) starts the descriptor there.");
    candidate.findingRuleIds = QStringList{QStringLiteral("source: dot operands loaded through pointer tiles")} + context.ruleIdsOf(findings);
    candidate.edits = edits;
    candidate.expected = {{QStringLiteral("tma_copies"), 0, {}}};
    candidate.value = 0.45;
    candidate.sets = {QStringLiteral("kernel:dot-loads")};
    return {candidate};
}

} // namespace strata::nvidia
