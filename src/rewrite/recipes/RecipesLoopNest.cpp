// Recipe flatten-dot-loop-nest: a dot loop nested inside loops over other axes (an implicit GEMM's
// 3 x 3 tap loops around its channel loop, a weight gradient's loops over a feature map's rows
// and columns around its batch loop) becomes one loop over every (outer, inner) pair. It answers L1.unpipelined-dot-loop's "it holds an inner loop".
//
// Why: a compiler software-pipelines the innermost loop only. Nested, the pipeline fills and
// drains once per outer trip (9 times per tile for a 3 x 3 window, once per pixel for a loop over
// a feature map), and the accumulator and the
// pipeline's buffers stay live across the inner loop's boundary: the assembler gave the nested conv3x3
// 254 registers at 128 x 256 on 8 warps, 161 at 128 x 128, where one loop needs 202 and 121
// (sm_90, triton 3.6, 2026-12-07). One loop keeps one pipeline running; the outer indices are
// recomputed from the trip number, which is cheap next to a dot tile. The register count is the
// promised fact. Not every tile gains: at 128 x 256 on 8 warps the assembler serializes the one
// loop's matrix instructions (sm_90), so timing decides, and a tile recipe can be joined with this one.
//
// Exact by construction: every trip runs the same inner body in the same order with the same
// outer and inner index values. The outer bodies may only assign values that depend on what is
// defined before the nest and on earlier values of the same trip (no loads, stores or dots, nothing
// carried from trip to trip); the inner loop's bounds read nothing the nest assigns. Anything else
// keeps the recipe silent.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "diagnosis/l1_triage/TriageRules.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

// The flattened loop's own names all start with this prefix (a kernel that has one keeps it silent).
const QString kPrefix = QStringLiteral("_nest_");
const QString kTrip = QStringLiteral("_nest_t");
const QString kInnerTrips = QStringLiteral("_nest_k");
// Above this many inner trips the refills are a small part of the loop.
constexpr qint64 kFewInnerTrips = 16;

struct OuterLevel {
    const diagnosis::LoopInfo *loop = nullptr;
    QString var;
    QString startText;  // "0" when range(N)
    qint64 count = 0;   // 0: a run-time extent, `countText` at the launch
    QString countText;  // the trip count as written into the flattened loop (a literal, or a local)
    std::optional<qint64> launchCount;  // the run-time extent's value at the captured launch
};

struct LoopNest {
    QVector<OuterLevel> outer;  // outermost first
    const diagnosis::LoopInfo *inner = nullptr;
    QString innerVar, startText, stopText, stepText;  // step empty when 1
    Node innerCall;
};

// Memory traffic or a side effect: what an outer body may not repeat on every trip of one loop.
bool touchesMemory(const Node &statement)
{
    for (const char *function : {"load", "store", "dot", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
                                 "atomic_xor", "atomic_xchg", "atomic_cas", "device_print", "device_assert"}) {
        if (containsCall(statement, function))
            return true;
    }
    return false;
}

// The single name a `for` binds, or empty (tuple targets are not flattened).
QString singleTarget(const diagnosis::LoopInfo &loop)
{
    return loop.inductionNames.size() == 1 ? loop.inductionNames.first() : QString();
}

// An outer level: range(N) / range(A, B) / tl.static_range(...), no step, no else, its body some
// assignments then the next loop as its last statement. Constant bounds give a literal count; a
// run-time extent (a feature map's height) a local `_nest_n<depth>` clamped at 0, since a product
// of two negative extents would otherwise run trips the nest never ran.
std::optional<OuterLevel> outerLevel(const RecipeContext &context, const diagnosis::LoopInfo &loop, const Node &next, int depth)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QJsonArray args = children(loop.iteratorCall, "args");
    const QJsonArray body = children(loop.node, "body");
    const bool rangeLike = loop.iterator == QLatin1String("tl.range") || loop.iterator == QLatin1String("tl.static_range");
    if (!rangeLike || args.isEmpty() || args.size() > 2 || !children(loop.iteratorCall, "keywords").isEmpty()
        || !children(loop.node, "orelse").isEmpty() || singleTarget(loop).isEmpty() || body.isEmpty()
        || body.last().toObject() != next || lineOf(body.at(0).toObject()) <= endLineOf(loop.iteratorCall))
        return std::nullopt;  // a body on its header's line has no lines of its own to move
    for (qsizetype i = 0; i + 1 < body.size(); ++i) {
        const Node statement = body.at(i).toObject();
        if (!isType(statement, "Assign") || touchesMemory(statement))
            return std::nullopt;
    }
    OuterLevel level{&loop, singleTarget(loop), QStringLiteral("0"), 0, {}, std::nullopt};
    if (args.size() == 2)
        level.startText = context.source().slice(args.at(0).toObject());
    const std::optional<qint64> first = args.size() == 2 ? kernel.constValue(args.at(0).toObject()) : std::optional<qint64>(0);
    const std::optional<qint64> last = kernel.constValue(args.last().toObject());
    if (first && last) {
        if (*last - *first < 2)
            return std::nullopt;  // one trip or none: nothing to flatten
        level.count = *last - *first;
        level.countText = QString::number(level.count);
        return level;
    }
    if (loop.iterator == QLatin1String("tl.static_range"))
        return std::nullopt;
    level.countText = QStringLiteral("_nest_n%1").arg(depth);
    level.launchCount = diagnosis::rules::launchTripCount(kernel, loop);
    return level;
}

// Every name a statement of the flattened body reads that the nest assigns (`nestAssigned`) must
// already be assigned earlier in the same trip (or be an accumulator of the inner body, which is
// carried there exactly as before), and the inner body may not reassign what the outer bodies
// computed for the trip: nothing else may be carried from one trip to the next.
bool nothingCarriedAcrossOuterTrips(const LoopNest &nest, const QSet<QString> &nestAssigned)
{
    QSet<QString> defined;
    for (const OuterLevel &level : nest.outer)
        defined.insert(level.var);
    defined.insert(nest.innerVar);
    const QSet<QString> innerAssigned = namesAssignedWithin(nest.inner->node);
    for (const OuterLevel &level : nest.outer) {
        const QJsonArray body = children(level.loop->node, "body");
        for (qsizetype i = 0; i + 1 < body.size(); ++i) {
            const Node statement = body.at(i).toObject();
            for (const QString &name : namesRead(child(statement, "value"))) {
                if (nestAssigned.contains(name) && !defined.contains(name))
                    return false;
            }
            for (const QString &name : namesAssignedBy(statement)) {
                if (innerAssigned.contains(name))
                    return false;
                defined.insert(name);
            }
        }
    }
    return true;
}

// The nest around the dot `dot`: the innermost loop holding it and the outer loops that directly
// enclose it (outerLevel's kind).
std::optional<LoopNest> nestAround(const RecipeContext &context, const diagnosis::LocatedNode &dot)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QVector<const diagnosis::LoopInfo *> loops = kernel.enclosingLoops(dot.ancestors);
    if (loops.size() < 2)
        return std::nullopt;
    LoopNest nest;
    nest.inner = loops.last();
    nest.innerCall = nest.inner->iteratorCall;
    nest.innerVar = singleTarget(*nest.inner);
    const QJsonArray args = children(nest.innerCall, "args");
    if (nest.inner->iterator != QLatin1String("tl.range") || args.isEmpty() || args.size() > 3 || nest.innerVar.isEmpty()
        || !children(nest.inner->node, "orelse").isEmpty() || containsType(nest.inner->node, "Break")
        || containsType(nest.inner->node, "Continue") || containsType(nest.inner->node, "Return")
        || lineOf(children(nest.inner->node, "body").at(0).toObject()) <= endLineOf(nest.innerCall))
        return std::nullopt;
    const SourceText &source = context.source();
    nest.startText = args.size() >= 2 ? source.slice(args.at(0).toObject()) : QStringLiteral("0");
    nest.stopText = source.slice(args.at(args.size() >= 2 ? 1 : 0).toObject());
    if (args.size() == 3) {
        const std::optional<qint64> step = kernel.constValue(args.at(2).toObject());
        if (!step || *step <= 0)
            return std::nullopt;  // a negative or run-time step would need another trip formula
        nest.stepText = *step == 1 ? QString() : source.slice(args.at(2).toObject());
    }
    for (qsizetype i = loops.size() - 2; i >= 0; --i) {
        const std::optional<OuterLevel> level = outerLevel(context, *loops.at(i), loops.at(i + 1)->node, int(i));
        if (!level)
            break;
        nest.outer.prepend(*level);
    }
    if (nest.outer.isEmpty())
        return std::nullopt;
    const QSet<QString> nestAssigned = namesAssignedWithin(nest.outer.first().loop->node);
    for (const QJsonValue &arg : args) {
        if (namesRead(arg.toObject()).intersects(nestAssigned))
            return std::nullopt;  // a triangular nest: the inner bounds move with the outer trip
    }
    for (const OuterLevel &level : nest.outer) {
        for (const QJsonValue &arg : children(level.loop->iteratorCall, "args"))
            if (namesRead(arg.toObject()).intersects(nestAssigned))
                return std::nullopt;  // an outer extent that moves with another outer trip
    }
    if (!nothingCarriedAcrossOuterTrips(nest, nestAssigned))
        return std::nullopt;
    return nest;
}

// Lines [first, last] of the source, each with `strip` leading whitespace characters removed
// where it has them (a continuation line indented less keeps its own).
QString reindented(const SourceText &source, int first, int last, int strip)
{
    QString out;
    for (int line = first; line <= last; ++line) {
        QString text = source.line(line);
        int cut = 0;
        while (cut < strip && cut < text.size() && (text.at(cut) == u' ' || text.at(cut) == u'\t'))
            ++cut;
        out += text.mid(cut) + u'\n';
    }
    return out;
}

// The flattened loop's text, replacing the nest's lines.
QString flattenedText(const RecipeContext &context, const LoopNest &nest)
{
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const int firstLine = lineOf(nest.outer.first().loop->node);
    const QString indent = source.indentOf(firstLine);
    const int bodyLine0 = lineOf(children(nest.outer.first().loop->node, "body").at(0).toObject());
    const QString bodyIndent = source.indentOf(bodyLine0);

    const QString span = nest.startText == QLatin1String("0") ? nest.stopText
                                                              : QStringLiteral("%1 - (%2)").arg(nest.stopText, nest.startText);
    QString text = nest.stepText.isEmpty()
                       ? QStringLiteral("%1%2 = %3\n").arg(indent, kInnerTrips, span)
                       : QStringLiteral("%1%2 = %3.cdiv(%4, %5)\n").arg(indent, kInnerTrips, tl, span, nest.stepText);
    QStringList factors;
    qint64 constantFactor = 1;
    for (const OuterLevel &level : nest.outer) {
        if (level.count > 0) {
            constantFactor *= level.count;
            continue;
        }
        const QJsonArray bounds = children(level.loop->iteratorCall, "args");
        const QString stop = source.slice(bounds.last().toObject());
        const QString extent = bounds.size() == 2 ? QStringLiteral("%1 - (%2)").arg(stop, level.startText) : stop;
        text += QStringLiteral("%1%2 = %3.maximum(%4, 0)\n").arg(indent, level.countText, tl, extent);
        factors.append(level.countText);
    }
    if (constantFactor > 1 || factors.isEmpty())
        factors.prepend(QString::number(constantFactor));
    // The inner loop's own callee and keywords (tl.range(..., num_stages=...)) carry over.
    const QString callee = source.slice(child(nest.innerCall, "func"));
    QString keywords;
    for (const QJsonValue &keyword : children(nest.innerCall, "keywords"))
        keywords += QStringLiteral(", ") + source.slice(keyword.toObject());
    text += QStringLiteral("%1for %2 in %3(0, %4 * %5%6):\n").arg(indent, kTrip, callee, factors.join(QLatin1String(" * ")), kInnerTrips, keywords);
    QStringList below;  // trip counts of the levels inside the current one, inner loop excluded
    QStringList indexLines;
    for (qsizetype i = nest.outer.size() - 1; i >= 0; --i) {
        const OuterLevel &level = nest.outer.at(i);
        const QString divisor = below.isEmpty() ? kInnerTrips : QStringLiteral("(%1 * %2)").arg(below.join(QLatin1String(" * ")), kInnerTrips);
        QString index = QStringLiteral("%1 // %2").arg(kTrip, divisor);
        if (i > 0)
            index = QStringLiteral("(%1) % %2").arg(index, level.countText);
        if (level.startText != QLatin1String("0"))
            index = QStringLiteral("%1 + %2").arg(level.startText, index);
        indexLines.prepend(QStringLiteral("%1%2 = %3\n").arg(bodyIndent, level.var, index));
        below.prepend(level.countText);
    }
    for (const QString &line : indexLines)
        text += line;
    QString innerIndex = QStringLiteral("%1 % %2").arg(kTrip, kInnerTrips);
    if (!nest.stepText.isEmpty())
        innerIndex = QStringLiteral("(%1) * %2").arg(innerIndex, nest.stepText);
    if (nest.startText != QLatin1String("0"))
        innerIndex = QStringLiteral("%1 + %2").arg(nest.startText, innerIndex);
    text += QStringLiteral("%1%2 = %3\n").arg(bodyIndent, nest.innerVar, innerIndex);

    // Each level's body lines (after its header, before the next loop), then the inner body.
    for (qsizetype i = 0; i < nest.outer.size(); ++i) {
        const diagnosis::LoopInfo *loop = nest.outer.at(i).loop;
        const diagnosis::LoopInfo *next = i + 1 < nest.outer.size() ? nest.outer.at(i + 1).loop : nest.inner;
        const int first = endLineOf(loop->iteratorCall) + 1, last = lineOf(next->node) - 1;
        const int strip = int(source.indentOf(lineOf(children(loop->node, "body").at(0).toObject())).size() - bodyIndent.size());
        text += reindented(source, first, last, strip);
    }
    const int innerBodyLine = lineOf(children(nest.inner->node, "body").at(0).toObject());
    const int strip = int(source.indentOf(innerBodyLine).size() - bodyIndent.size());
    text += reindented(source, endLineOf(nest.innerCall) + 1, endLineOf(nest.inner->node), strip);
    return text;
}

} // namespace

QVector<RecipeCandidate> proposeFlattenDotLoopNest(const RecipeContext &context)
{
    const SourceText &source = context.source();
    if (source.text().contains(QRegularExpression(QStringLiteral("\\b%1").arg(kPrefix))))
        return {};
    for (const diagnosis::LocatedNode &dot : context.kernel().callsOf("dot")) {
        const std::optional<LoopNest> nest = nestAround(context, dot);
        if (!nest)
            continue;
        const int firstLine = lineOf(nest->outer.first().loop->node);
        const int lastLine = endLineOf(nest->outer.first().loop->node);
        // What names the nest's cost: L1's unpipelined dot loop on one of the outer loops (it holds
        // an inner loop), and the backend's findings that the accumulator is under pressure there.
        QVector<diagnosis::Finding> evidence;
        for (const diagnosis::Finding &finding : context.findingsFor(
                 QStringList{QStringLiteral("L1.unpipelined-dot-loop")} + context.accumulatorPressureRules())) {
            if (finding.span.line >= firstLine && finding.span.line <= lastLine)
                evidence.append(finding);
        }
        // Unknown or many inner trips (the refills a small part of the loop) keep it silent.
        const std::optional<qint64> trips = diagnosis::rules::launchTripCount(context.kernel(), *nest->inner);
        if (evidence.isEmpty() || !trips || *trips > kFewInnerTrips)
            continue;
        std::optional<qint64> outerTrips = 1;
        QStringList levels;
        for (const OuterLevel &level : nest->outer) {
            const std::optional<qint64> count = level.count > 0 ? std::optional<qint64>(level.count) : level.launchCount;
            outerTrips = outerTrips && count ? std::optional<qint64>(*outerTrips * *count) : std::nullopt;
            levels.append(QStringLiteral("%1 (%2)").arg(level.var, count ? QString::number(*count) : QStringLiteral("run-time")));
        }
        const int end = lastLine < source.lineCount() ? source.lineStart(lastLine + 1) : int(source.text().size());
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("flatten-dot-loop-nest");
        candidate.title = QStringLiteral("one loop over the dot loop on line %1 and its outer loops %2")
                              .arg(lineOf(nest->inner->node)).arg(levels.join(QLatin1String(", ")));
        candidate.rationale =
            QStringLiteral("The dot's loop runs %1 trips inside %2 outer trips, and only the innermost loop is software-"
                           "pipelined: the pipeline fills and drains %2 times per tile, and the accumulator and the "
                           "pipeline's buffers stay live across the inner loop's boundary (%3). One loop over all %4 "
                           "trips keeps one pipeline running with fewer live registers; the outer indices are "
                           "recomputed from the trip number.")
                .arg(*trips)
                .arg(outerTrips ? QString::number(*outerTrips) : QStringLiteral("several"))
                .arg(evidence.first().title)
                .arg(outerTrips ? QString::number(*trips * *outerTrips) : QStringLiteral("the"));
        candidate.findingRuleIds = context.ruleIdsOf(evidence);
        candidate.edits = {{source.lineStart(firstLine), end, flattenedText(context, *nest)}};
        candidate.expected = {{QStringLiteral("registers"), 0, {}}};
        candidate.value = 0.55;
        candidate.sets = {QStringLiteral("kernel:loop-nest")};
        return {candidate};
    }
    return {};
}

} // namespace strata::rewrite::recipes
