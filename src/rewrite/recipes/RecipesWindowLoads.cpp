// Recipe load-contiguous-axis: a window walked one column at a time by a short constant loop (a
// 3 x 3 pooling window's `for kw in range(3)`), where the lanes of each load sit several
// elements apart, loads adjacent columns together as one tile whose first axis is the window's:
// `kw = _win_kw + tl.arange(0, 2)[:, None]` makes every value of the loop's body a (2, BLOCK)
// tile, and the body's combine (`acc = tl.maximum(acc, x)`, `acc += x`) reduces that axis first.
// It answers L1.strided-access and L3.scalar-global-access on a line of the loop.
//
// Why: lanes 2 elements apart (a stride-2 window) each load one 4-byte word, so a 3 x 3 window
// issues 9 scalar loads per output and the load unit, not DRAM, is the limit (H100, 2026-12-08:
// maxpool2d 64 x 128 x 112 x 112 at 0.27 ms, 93% of the memory pipes' throughput, 2.0 TB/s of DRAM). Adjacent
// columns of one window are adjacent in memory: as one tile axis they become one vector load
// (`ld.global.v2`), 2 words per instruction. The same kernel with the pair (2*ow, 2*ow+1) as one
// load ran 1.19x, and 1.47x at a 512-element block (the tile costs registers; a block or warps
// recipe joins it). The vector needs an aligned first column, which the source does not say: the
// recipe offers the pairs from the window's first column and from its second, and the promised
// fact (a wider load on the load's line) lets the compile check keep the one that vectorizes.
//
// Exact for max and min (the same values combined in another order); a sum adds the pair first
// (a rounding difference within any task's tolerance). The body must be elementwise (loads,
// arithmetic, tl.where, casts: no reductions, dots, stores, subscripts or helper calls), combine
// into one accumulator with its last statement, and keep its other names to itself; the kernel must
// be one-dimensional (no `None` axes, no 2-D tl.zeros / tl.full), so one leading axis broadcasts
// against every value of the body. Anything else keeps the recipe silent.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

const QString kPrefix = QStringLiteral("_win_");
// A window of more columns is a loop over a row, not a window: its loads are unrolled into
// static_range loops here, which only pays for a few.
constexpr qint64 kFewColumns = 8;

struct Combine {
    QString accumulator;
    QString reduction;  // "max", "min", "sum": what reduces the window axis
    Node combined;      // the value combined into the accumulator
};

struct WindowLoop {
    const diagnosis::LoopInfo *loop = nullptr;
    QString var;
    qint64 first = 0, last = 0;  // the window's columns [first, last)
    Node load;
    Combine combine;
};

// `acc = tl.maximum(acc, E)` / `tl.minimum`, `acc = acc + E`, `acc += E` (either operand order):
// the combine the last statement of the body makes, E not reading the accumulator.
std::optional<Combine> combineOf(const Node &statement)
{
    Combine combine;
    Node left, right;
    if (isType(statement, "AugAssign") && isType(child(statement, "op"), "Add")) {
        combine.accumulator = nameOf(child(statement, "target"));
        combine.reduction = QStringLiteral("sum");
        combine.combined = child(statement, "value");
    } else if (isType(statement, "Assign") && children(statement, "targets").size() == 1) {
        combine.accumulator = nameOf(children(statement, "targets").at(0).toObject());
        const Node value = child(statement, "value");
        if (isBinOp(value, "Add")) {
            left = child(value, "left");
            right = child(value, "right");
            combine.reduction = QStringLiteral("sum");
        } else if ((isTritonCall(value, "maximum") || isTritonCall(value, "minimum")) && children(value, "args").size() == 2
                   && children(value, "keywords").isEmpty()) {
            left = children(value, "args").at(0).toObject();
            right = children(value, "args").at(1).toObject();
            combine.reduction = isTritonCall(value, "maximum") ? QStringLiteral("max") : QStringLiteral("min");
        }
        if (nameOf(left) == combine.accumulator)
            combine.combined = right;
        else if (nameOf(right) == combine.accumulator)
            combine.combined = left;
    }
    if (combine.accumulator.isEmpty() || combine.combined.isEmpty() || namesRead(combine.combined).contains(combine.accumulator))
        return std::nullopt;
    return combine;
}

// Every statement of the body keeps its meaning when its values gain the window's axis: loads,
// arithmetic, Triton's elementwise functions, casts and Python scalars (`float("inf")`), no
// reductions, dots, stores, subscripts or helpers of the user's.
bool elementwiseBody(const QJsonArray &body)
{
    return std::all_of(body.begin(), body.end(), [](const QJsonValue &statement) {
        return elementwise(statement.toObject(), true, true);
    });
}

// Whether `name` appears in the kernel's text outside lines [first, last].
bool readOutside(const SourceText &source, const Node &function, int first, int last, const QString &name)
{
    const QRegularExpression word(QStringLiteral("\\b%1\\b").arg(QRegularExpression::escape(name)));
    for (int line = lineOf(function); line <= endLineOf(function); ++line) {
        if (line >= first && line <= last)
            continue;
        if (word.match(source.line(line)).hasMatch())
            return true;
    }
    return false;
}

// A kernel whose values have more than one axis: the window axis would not broadcast in front.
bool multiDimensional(const SourceText &source, const Node &function)
{
    static const QRegularExpression noneAxis(QStringLiteral("\\bNone\\b"));
    static const QRegularExpression tileOf2D(QStringLiteral("\\.(zeros|full)\\(\\s*[\\(\\[][^,\\)\\]]+,\\s*[^\\s\\)\\]]"));
    for (int line = lineOf(function); line <= endLineOf(function); ++line) {
        const QString text = source.line(line);
        if (noneAxis.match(text).hasMatch() || tileOf2D.match(text).hasMatch())
            return true;
    }
    return false;
}

std::optional<WindowLoop> windowLoop(const RecipeContext &context, const diagnosis::LoopInfo &loop)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QJsonArray args = children(loop.iteratorCall, "args");
    const QJsonArray body = children(loop.node, "body");
    const bool rangeLike = loop.iterator == QLatin1String("range") || loop.iterator == QLatin1String("tl.range")
                           || loop.iterator == QLatin1String("tl.static_range");
    if (!rangeLike || args.isEmpty() || args.size() > 2
        || !children(loop.iteratorCall, "keywords").isEmpty() || loop.inductionNames.size() != 1
        || !children(loop.node, "orelse").isEmpty() || body.isEmpty() || lineOf(loop.node) != endLineOf(loop.iteratorCall)
        || lineOf(body.at(0).toObject()) <= lineOf(loop.node) || !elementwiseBody(body))
        return std::nullopt;
    WindowLoop window{&loop, loop.inductionNames.first(), 0, 0, {}, {}};
    const std::optional<qint64> first = args.size() == 2 ? kernel.constValue(args.at(0).toObject()) : std::optional<qint64>(0);
    const std::optional<qint64> last = kernel.constValue(args.last().toObject());
    if (!first || !last || *last - *first < 2 || *last - *first > kFewColumns)
        return std::nullopt;
    window.first = *first;
    window.last = *last;
    // Assignments only, the window's column reaching one load's address, and the last statement
    // combining into an accumulator nothing else in the body touches.
    QSet<QString> fromColumn{window.var};
    QVector<Node> loads;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const Node statement = body.at(i).toObject();
        if (!isType(statement, "Assign") && !isType(statement, "AugAssign"))
            return std::nullopt;
        walk(statement, [&](const Node &node, const QVector<Node> &) {
            if (isTritonCall(node, "load"))
                loads.append(node);
        });
        if (namesRead(child(statement, "value")).intersects(fromColumn))
            for (const QString &name : namesAssignedBy(statement))
                fromColumn.insert(name);
    }
    const std::optional<Combine> combine = combineOf(body.last().toObject());
    if (loads.size() != 1 || !combine || !namesRead(argument(loads.first(), 0, "pointer")).intersects(fromColumn))
        return std::nullopt;
    window.load = loads.first();
    window.combine = *combine;
    QSet<QString> assigned;  // by the body (the loop's own target aside)
    for (const QJsonValue &statement : body)
        assigned.unite(namesAssignedWithin(statement.toObject()));
    if (assigned.contains(window.var))
        return std::nullopt;
    const SourceText &source = context.source();
    for (qsizetype i = 0; i + 1 < body.size(); ++i)
        if (namesRead(body.at(i).toObject()).contains(combine->accumulator)
            || namesAssignedBy(body.at(i).toObject()).contains(combine->accumulator))
            return std::nullopt;
    for (const QString &name : assigned) {
        if (name != combine->accumulator && readOutside(source, kernel.function(), lineOf(loop.node), endLineOf(loop.node), name))
            return std::nullopt;  // a body value read elsewhere would change shape there
    }
    return window;
}

// One term of a sum, with its sign.
struct Term {
    Node node;
    int sign = 1;
};

// The terms of the sum `node` heads, along its left spine (`a * 2 - 1 + kw` -> a * 2, -1, kw);
// a parenthesised sum on the right is one term.
void sumTerms(const Node &node, int sign, QVector<Term> &terms)
{
    if (isBinOp(node, "Add") || isBinOp(node, "Sub")) {
        sumTerms(child(node, "left"), sign, terms);
        terms.append({child(node, "right"), isBinOp(node, "Sub") ? -sign : sign});
        return;
    }
    terms.append({node, sign});
}

// An integer literal (`1`, `-1`); nullopt for anything else.
std::optional<qint64> intLiteral(const Node &node)
{
    if (isType(node, "UnaryOp") && isType(child(node, "op"), "USub")) {
        const std::optional<qint64> value = intLiteral(child(node, "operand"));
        return value ? std::optional<qint64>(-*value) : std::nullopt;
    }
    const QJsonValue value = node.value(QLatin1String("value"));
    if (!isType(node, "Constant") || !value.isDouble() || value.toDouble() != double(qint64(value.toDouble())))
        return std::nullopt;
    return qint64(value.toDouble());
}

// A sum that adds the window's column to other terms is rewritten with its constants (integer
// literals, and constexpr parameters by name: a padding) folded into the column's start:
// `ow * 2 - 1 + kw` becomes `ow * 2 + _win_lane + (_win_kw - 1)`. The
// compiler's alignment analysis does not reassociate, so `(ow * 2 - 1) + (1 + lane)` reads as odd
// and unaligned; `ow * 2 + lane + 0` shows the even start a vector load needs.
// A sum inside one already rewritten, or overlapping `keep` (the combined value, which is
// reduced as written), is left alone.
QVector<TextEdit> foldedColumnSums(const RecipeContext &context, const WindowLoop &window, const QString &tileVar,
                                   const QString &laneVar, const TextEdit &keep)
{
    const SourceText &source = context.source();
    QVector<TextEdit> edits;
    for (const QJsonValue &statement : children(window.loop->node, "body")) {
        walk(statement.toObject(), [&](const Node &node, const QVector<Node> &ancestors) {
            if (!isBinOp(node, "Add") && !isBinOp(node, "Sub"))
                return;
            const Node parent = ancestors.isEmpty() ? Node() : ancestors.last();
            if ((isBinOp(parent, "Add") || isBinOp(parent, "Sub")) && child(parent, "left") == node)
                return;  // not the head of its sum
            const int from = source.startOf(node), to = source.endOf(node);
            const auto overlaps = [from, to](const TextEdit &edit) { return from < edit.end && edit.start < to; };
            if (overlaps(keep) || std::any_of(edits.begin(), edits.end(), overlaps))
                return;
            QVector<Term> terms;
            sumTerms(node, 1, terms);
            qint64 constant = 0;
            QString constexprTerms;
            int columns = 0;
            QStringList others;
            for (const Term &term : terms) {
                if (nameOf(term.node) == window.var) {
                    columns += term.sign;
                    continue;
                }
                if (const std::optional<qint64> value = intLiteral(term.node)) {
                    constant += term.sign * *value;
                    continue;
                }
                const diagnosis::KernelParam *param = context.kernel().param(nameOf(term.node));
                if (param && (param->isConstexpr || param->equalToOne)) {  // a padding: compile-time, kept by name
                    constexprTerms += (term.sign > 0 ? QStringLiteral(" + ") : QStringLiteral(" - ")) + nameOf(term.node);
                    continue;
                }
                const bool simple = isType(term.node, "Name") || isType(term.node, "Constant") || isType(term.node, "Call")
                                    || isType(term.node, "Attribute") || isBinOp(term.node, "Mult");
                const QString text = simple ? source.slice(term.node) : QStringLiteral("(%1)").arg(source.slice(term.node));
                others.append(others.isEmpty() ? (term.sign > 0 ? text : QStringLiteral("-") + text)
                                               : (term.sign > 0 ? QStringLiteral("+ ") : QStringLiteral("- ")) + text);
            }
            if (columns != 1)
                return;  // no column, or one that cancels: leave the sum as written
            QString start = tileVar + constexprTerms;
            if (constant != 0)
                start += QStringLiteral(" %1 %2").arg(constant > 0 ? QStringLiteral("+") : QStringLiteral("-")).arg(std::abs(constant));
            QString text = others.join(u' ');
            text += (text.isEmpty() ? QString() : QStringLiteral(" + ")) + QStringLiteral("%1 + (%2)").arg(laneVar, start);
            edits.append({from, to, text});
        });
    }
    return edits;
}

// The loop's body text [first body line, last line], with `edits` (offsets in the task text)
// applied; nullopt when two overlap.
std::optional<QString> bodyText(const RecipeContext &context, const WindowLoop &window, QVector<TextEdit> edits)
{
    const SourceText &source = context.source();
    const int firstLine = lineOf(children(window.loop->node, "body").at(0).toObject());
    const int lastLine = endLineOf(window.loop->node);
    const int start = source.lineStart(firstLine);
    const int end = lastLine < source.lineCount() ? source.lineStart(lastLine + 1) : int(source.text().size());
    for (TextEdit &edit : edits) {
        edit.start -= start;
        edit.end -= start;
    }
    Expected<QString> text = applyEdits(source.text().mid(start, end - start), edits);
    if (!text)
        return std::nullopt;
    return text->endsWith(u'\n') ? *text : *text + u'\n';
}

// The loop rewritten with the columns [from, from + width * chunks) as `chunks` tiles of `width`
// columns, then the columns left on either side as the original loop. The tile loop comes first
// and its first line carries the column's definition, so every line of its body keeps its number
// (the fact check compares the load's line before and after).
std::optional<QString> windowedText(const RecipeContext &context, const WindowLoop &window, qint64 from, qint64 width)
{
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const int headerLine = lineOf(window.loop->node);
    const QString indent = source.indentOf(headerLine);
    const qint64 chunks = (window.last - from) / width;
    const qint64 to = from + chunks * width;
    const QString tileVar = kPrefix + window.var, laneVar = kPrefix + QStringLiteral("lane");
    // The combined value reduced over the window axis, and the column's sums folded.
    const Node combined = window.combine.combined;
    const TextEdit reduced{source.startOf(combined), source.endOf(combined),
                           QStringLiteral("%1.%2(%3, axis=0)").arg(tl, window.combine.reduction, source.slice(combined))};
    std::optional<QString> body =
        bodyText(context, window, foldedColumnSums(context, window, tileVar, laneVar, reduced) + QVector<TextEdit>{reduced});
    const std::optional<QString> plain = bodyText(context, window, {});
    if (!body || !plain)
        return std::nullopt;
    const QString bodyIndent = source.indentOf(lineOf(children(window.loop->node, "body").at(0).toObject()));
    body->insert(bodyIndent.size(), QStringLiteral("%1 = %2.arange(0, %3)[:, None]; %4 = %5 + %1; ")
                                       .arg(laneVar, tl).arg(width).arg(window.var, tileVar));
    QString text = QStringLiteral("%1for %2 in %3.static_range(%4, %5, %6):\n").arg(indent, tileVar, tl).arg(from).arg(to).arg(width) + *body;
    for (const auto &[lo, hi] : {std::pair{window.first, from}, std::pair{to, window.last}}) {
        if (hi > lo)
            text += QStringLiteral("%1for %2 in %3.static_range(%4, %5):\n").arg(indent, window.var, tl).arg(lo).arg(hi) + *plain;
    }
    return text;
}

} // namespace

QVector<RecipeCandidate> proposeLoadContiguousAxis(const RecipeContext &context)
{
    const SourceText &source = context.source();
    const diagnosis::KernelView &kernel = context.kernel();
    if (source.text().contains(QRegularExpression(QStringLiteral("\\b%1").arg(kPrefix)))
        || multiDimensional(source, kernel.function()))
        return {};
    const QVector<diagnosis::Finding> strided =
        context.findingsFor({QStringLiteral("L1.strided-access"), QStringLiteral("L3.scalar-global-access")});
    QVector<RecipeCandidate> candidates;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        const std::optional<WindowLoop> window = windowLoop(context, loop);
        if (!window)
            continue;
        const int firstLine = lineOf(loop.node), lastLine = endLineOf(loop.node);
        QVector<diagnosis::Finding> evidence;
        for (const diagnosis::Finding &finding : strided)
            if (finding.span.line >= firstLine && finding.span.line <= lastLine)
                evidence.append(finding);
        if (evidence.isEmpty())
            continue;
        const qint64 columns = window->last - window->first;
        const int end = lastLine < source.lineCount() ? source.lineStart(lastLine + 1) : int(source.text().size());
        // Tiles of 4 columns where the window has them, and of 2; each from the window's first
        // column and from its second: which start is aligned is the compiler's to say.
        QVector<QPair<qint64, qint64>> layouts;  // (width, from)
        for (const qint64 width : {qint64(4), qint64(2)})
            for (qint64 from = window->first; from <= window->first + 1 && from + width <= window->last; ++from)
                layouts.append({width, from});
        for (const auto &[width, from] : layouts) {
            const std::optional<QString> windowed = windowedText(context, *window, from, width);
            if (!windowed)
                continue;
            RecipeCandidate candidate;
            candidate.recipeId = QStringLiteral("load-contiguous-axis");
            candidate.title = QStringLiteral("columns %1 = %2..%3 of the window on line %4 as tiles of %5, one vector load each")
                                  .arg(window->var).arg(from).arg(from + (window->last - from) / width * width - 1)
                                  .arg(firstLine).arg(width);
            candidate.rationale =
                QStringLiteral("The loop on line %1 walks %2 adjacent columns of a window one load at a time, and the lanes "
                               "of each load are apart (%3): every load instruction moves one element per lane and the "
                               "load unit, not DRAM, sets the pace. Adjacent columns are adjacent in memory: loaded as one "
                               "(%4, BLOCK) tile they become one vector load, reduced over the window axis (%5) before "
                               "the combine.")
                    .arg(firstLine).arg(columns).arg(evidence.first().title).arg(width).arg(window->combine.reduction);
            candidate.findingRuleIds = context.ruleIdsOf(evidence);
            candidate.edits = {{source.lineStart(firstLine), end, *windowed}};
            candidate.expected = {{QStringLiteral("max_load_bits"), lineOf(window->load), {}}};
            candidate.value = 0.5;
            candidate.sets = {QStringLiteral("kernel:window-loads")};
            candidates.append(candidate);
        }
        if (!candidates.isEmpty())
            return candidates;
    }
    return candidates;
}

// constexpr-window: a window loop written for any window (`for kw in range(W_kernel)`, its
// stride and padding run-time ints too, as public pooling kernels are) gets those ints as
// tl.constexpr: the ints a short loop's bounds and body read whose values at the captured launch
// are small (a window of at most kFewColumns, a stride or padding of at most that). The loop then
// has constant trips and the column's address a constant stride, which is what
// load-contiguous-axis and unroll-constant-loops need in the next round; another window compiles
// another variant. No IR fact is promised: timing decides this step.
QVector<RecipeCandidate> proposeConstexprWindow(const RecipeContext &context)
{
    const diagnosis::KernelView &kernel = context.kernel();
    QStringList params, values;
    int loops = 0;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        const bool rangeLike = loop.iterator == QLatin1String("range") || loop.iterator == QLatin1String("tl.range");
        const QJsonArray args = children(loop.iteratorCall, "args");
        if (!rangeLike || args.isEmpty() || args.size() > 2 || !containsCall(loop.node, "load"))
            continue;
        const QString bound = nameOf(args.last().toObject());
        const diagnosis::KernelParam *param = kernel.param(bound);
        const std::optional<qint64> trips = param && param->isRuntimeInteger() ? context.launchIntValue(bound) : std::nullopt;
        if (!trips || *trips < 2 || *trips > kFewColumns)
            continue;
        ++loops;
        QStringList read{bound};
        for (const QJsonValue &statement : children(loop.node, "body"))
            read += namesRead(statement.toObject()).values();
        for (const QString &name : read) {
            const diagnosis::KernelParam *used = kernel.param(name);
            const std::optional<qint64> value = used && used->isRuntimeInteger() ? context.launchIntValue(name) : std::nullopt;
            if (!value || std::abs(*value) > kFewColumns || params.contains(name))
                continue;
            params.append(name);
            values.append(QStringLiteral("%1=%2").arg(name).arg(*value));
        }
    }
    if (params.isEmpty())
        return {};
    RecipeCandidate candidate;
    for (const QString &name : params) {
        if (!addConstexprParameter(context, name, candidate))
            return {};
    }
    candidate.recipeId = QStringLiteral("constexpr-window");
    candidate.title = QStringLiteral("window sizes and steps as constexpr: %1").arg(values.join(QLatin1String(", ")));
    candidate.rationale =
        QStringLiteral("%1 loop%2 over a window run%3 a run-time number of trips with run-time steps (%4 at this launch): "
                       "the compiler can neither unroll the window nor see that its columns are adjacent. As tl.constexpr "
                       "the trips and strides are compile-time, which the window's vector loads and unrolling need; "
                       "another window compiles another variant.")
            .arg(loops).arg(loops == 1 ? QString() : QStringLiteral("s")).arg(loops == 1 ? QStringLiteral("s") : QString())
            .arg(values.join(QLatin1String(", ")));
    candidate.findingRuleIds = QStringList{QStringLiteral("source: window loop over run-time bounds")}
                               + context.ruleIdsOf(context.findingsFor({QStringLiteral("L1.strided-access")}));
    candidate.value = 0.5;
    return {candidate};
}

} // namespace strata::rewrite::recipes
