// Recipe linear-recurrence-scan: a first-order linear recurrence walked one step per trip
// (`h = a_t * h + b_t`, the scan of a linear RNN or a diagonal state-space layer) rewritten as a
// loop over chunks of SCAN_CHUNK steps, each scanned with tl.associative_scan.
//
// Each trip of the serial loop waits on the previous one (h is loop-carried), so a program has
// one step's loads in flight. Composing steps is associative: (a1, b1) then (a2, b2) is
// (a2 * a1, a2 * b1 + b2). Scanning a chunk of steps with that combine gives every step's
// (a, b) relative to the chunk's start, so h after each step is `a * h_start + b`: a whole
// chunk of loads per trip and a log-depth chain inside it. Rows past the end get the identity
// (a = 1, b = 0), so the chunk's last row is the carry. Only elementwise code is understood:
// anything else in the loop (reductions, branches, another carried value, an exclusive store
// of the state before its update) keeps the recipe silent.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

const QString kChunk = QStringLiteral("SCAN_CHUNK");
const QString kCombine = QStringLiteral("_linear_recurrence_combine");

bool storeIsElementwise(const Node &store)
{
    for (const QJsonValue &arg : children(store, "args")) {
        if (!elementwise(arg.toObject(), true))
            return false;
    }
    for (const QJsonValue &item : children(store, "keywords")) {
        if (!elementwise(child(item.toObject(), "value"), true))
            return false;
    }
    return true;
}

struct Recurrence {
    const diagnosis::LoopInfo *loop = nullptr;
    QString induction, state;
    Node bound;               // N of range(N) / range(0, N)
    Node update;              // `h = A * h + B`
    Node a, b;                // A and B
    QString stateShape, stateDtype;  // of h's tl.zeros/tl.full start, text
    QVector<Node> loads, stores;
    QVector<Node> stateReads; // reads of h after the update
};

// `A * h + B` in any order of the sum and the product; A and B do not read h.
bool readLinear(Recurrence &out, const Node &value)
{
    if (!isBinOp(value, "Add"))
        return false;
    for (const auto &[product, rest] : {std::pair{child(value, "left"), child(value, "right")}, std::pair{child(value, "right"), child(value, "left")}}) {
        if (!isBinOp(product, "Mult") || namesRead(rest).contains(out.state))
            continue;
        const Node left = child(product, "left"), right = child(product, "right");
        const Node a = nameOf(right) == out.state ? left : nameOf(left) == out.state ? right : Node();
        if (!a.isEmpty() && !namesRead(a).contains(out.state)) {
            out.a = a;
            out.b = rest;
            return true;
        }
    }
    return false;
}

// h starts as a 1-D tl.zeros / tl.full before the loop, and is assigned nowhere else.
bool readStateStart(const RecipeContext &context, Recurrence &out)
{
    const QVector<Node> values = context.kernel().assignmentsOf(out.state);
    if (values.size() != 2 || values.at(1) != child(out.update, "value"))
        return false;
    const Node start = values.first();
    const QJsonArray dims = children(argument(start, 0, "shape"), "elts");
    const Node dtype = keyword(start, "dtype");
    if (!(isTritonCall(start, "zeros") || isTritonCall(start, "full")) || dims.size() != 1 || dtype.isEmpty())
        return false;
    out.stateShape = context.source().slice(dims.at(0).toObject());
    out.stateDtype = context.source().slice(dtype);
    return true;
}

// The body: plain assignments of one name, the update, stores. Every name assigned in the loop is
// assigned before it is read in a trip (h only by the update), and none but h is read after it.
bool readBody(const RecipeContext &context, Recurrence &out)
{
    const QJsonArray body = children(out.loop->node, "body");
    QSet<QString> assigned{out.induction};
    QSet<QString> assignedLater;
    for (const QJsonValue &item : body) {
        for (const QString &name : namesAssignedBy(item.toObject()))
            assignedLater.insert(name);
    }
    bool updated = false;
    for (const QJsonValue &item : body) {
        const Node statement = item.toObject();
        const Node value = child(statement, "value");
        const QSet<QString> reads = namesRead(statement);
        for (const QString &name : reads) {
            if (assignedLater.contains(name) && !assigned.contains(name) && !(name == out.state && !updated && isType(statement, "Assign")))
                return false;  // a value carried from the previous trip
        }
        if (reads.contains(out.state) && !updated && !(isType(statement, "Assign") && targetNames(children(statement, "targets").at(0).toObject()) == QStringList{out.state}))
            return false;  // the state read before its update (an exclusive scan): not handled
        if (isType(statement, "Expr") && isTritonCall(value, "store") && children(value, "args").size() == 2 && storeIsElementwise(value)) {
            out.stores.append(value);
        } else if (isType(statement, "Assign") && children(statement, "targets").size() == 1 && !nameOf(children(statement, "targets").at(0).toObject()).isEmpty()) {
            const QString target = nameOf(children(statement, "targets").at(0).toObject());
            if (target == out.state) {
                // no load inside: the update is rewritten whole, a load's mask edit would overlap it
                if (updated || !readLinear(out, value) || !elementwise(value, false))
                    return false;
                out.update = statement;
                updated = true;
            } else if (!elementwise(value, true)) {
                return false;
            }
            assigned.insert(target);
        } else {
            return false;
        }
    }
    if (!updated)
        return false;
    bool positionalMask = false;  // tl.load(p, m): the bound could not go in as a keyword
    walk(out.loop->node, [&](const Node &node, const QVector<Node> &) {
        if (isTritonCall(node, "load")) {
            positionalMask = positionalMask || children(node, "args").size() > 1;
            out.loads.append(node);
        }
    });
    if (positionalMask)
        return false;
    walk(out.loop->node, [&](const Node &node, const QVector<Node> &ancestors) {
        if (nameOf(node) == out.state && child(node, "ctx").value(QLatin1String("_type")) == QLatin1String("Load")
            && !ancestors.contains(child(out.update, "value")))
            out.stateReads.append(node);
    });
    // Nothing assigned in the loop but h is read after it (the last trip's values would change).
    bool after = false;
    for (const QJsonValue &item : children(context.kernel().function(), "body")) {
        QSet<QString> later = namesRead(item.toObject());
        later.remove(out.state);
        if (after && later.intersects(assigned))
            return false;
        after = after || item.toObject() == out.loop->node;
    }
    return after;
}

std::optional<Recurrence> readRecurrence(const RecipeContext &context, const diagnosis::LoopInfo &loop)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (loop.iterator != QLatin1String("tl.range") || loop.inductionNames.size() != 1 || !isType(child(loop.node, "target"), "Name")
        || args.isEmpty() || args.size() > 3 || (args.size() >= 2 && kernel.constValue(args.at(0).toObject()) != 0)
        || (args.size() == 3 && kernel.constValue(args.at(2).toObject()) != 1) || !children(loop.iteratorCall, "keywords").isEmpty()
        || !children(loop.node, "orelse").isEmpty())
        return std::nullopt;
    Recurrence out;
    out.loop = &loop;
    out.induction = loop.inductionNames.first();
    out.bound = args.at(args.size() >= 2 ? 1 : 0).toObject();
    // The state: the one name the loop assigns that it also reads before (or in) its assignment.
    for (const QJsonValue &item : children(loop.node, "body")) {
        const Node statement = item.toObject();
        const QStringList targets = namesAssignedBy(statement);
        if (isType(statement, "Assign") && targets.size() == 1 && namesRead(child(statement, "value")).contains(targets.first())) {
            if (!out.state.isEmpty())
                return std::nullopt;
            out.state = targets.first();
            out.update = statement;
        }
    }
    if (out.state.isEmpty() || !readBody(context, out) || !readStateStart(context, out) || out.stores.isEmpty())
        return std::nullopt;
    return out;
}

// `mask=(m) & (t < N)` on a load or store, or `, mask=t < N` when it has none.
TextEdit maskToBound(const RecipeContext &context, const Node &call, const QString &inBounds)
{
    const SourceText &source = context.source();
    const Node mask = keyword(call, "mask");
    if (mask.isEmpty()) {
        const int end = context.afterLastArgument(call);
        return {end, end, QStringLiteral(", mask=%1").arg(inBounds)};
    }
    return {source.startOf(mask), source.endOf(mask), QStringLiteral("(%1) & (%2)").arg(source.slice(mask), inBounds)};
}

QString combineFunction()
{
    return QStringLiteral("@triton.jit\n"
                          "def %1(a_left, b_left, a_right, b_right):\n"
                          "    # step (a_left, b_left) then (a_right, b_right): h -> a_right * (a_left * h + b_left) + b_right\n"
                          "    return a_right * a_left, a_right * b_left + b_right\n\n\n").arg(kCombine);
}

// The edits of the kernel and the file (not the launch): chunked loop, masks, the scan, the carry.
QVector<TextEdit> chunkEdits(const RecipeContext &context, const Recurrence &r)
{
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const QString bound = source.slice(r.bound);
    const QString inBounds = QStringLiteral("%1 < %2").arg(r.induction, bound);
    const Node loop = r.loop->node;
    const Node first = children(loop, "body").at(0).toObject();
    const QString indent = source.indentOf(lineOf(first));
    QVector<TextEdit> edits;
    edits.append({source.startOf(child(loop, "target")), source.endOf(child(loop, "target")), QStringLiteral("_chunk_start")});
    edits.append({source.startOf(r.loop->iteratorCall), source.endOf(r.loop->iteratorCall),
                  QStringLiteral("range(0, %1, %2)").arg(bound, kChunk)});
    edits.append({source.lineStart(lineOf(first)), source.lineStart(lineOf(first)),
                  QStringLiteral("%1%2 = _chunk_start + %3.arange(0, %4)[:, None]  # %4 steps per trip\n").arg(indent, r.induction, tl, kChunk)});
    for (const Node &call : r.loads + r.stores)
        edits.append(maskToBound(context, call, inBounds));
    const QString tile = QStringLiteral("%1.zeros((%2, %3), dtype=%4)").arg(tl, kChunk, r.stateShape, r.stateDtype);
    const QStringList scan = {
        QStringLiteral("_scan_a = %1.where(%2, (%3) + %4, 1.0)  # steps past the end: the identity").arg(tl, inBounds, source.slice(r.a), tile),
        QStringLiteral("_scan_b = %1.where(%2, (%3) + %4, 0.0)").arg(tl, inBounds, source.slice(r.b), tile),
        QStringLiteral("_scan_a, _scan_b = %1.associative_scan((_scan_a, _scan_b), 0, %2)").arg(tl, kCombine),
        QStringLiteral("_scan_h = _scan_a * %1[None, :] + _scan_b  # the state after each step").arg(r.state),
        QStringLiteral("%1 = %2.sum(%2.where(%2.arange(0, %3)[:, None] == %3 - 1, _scan_h, 0.0), axis=0)  # the carry: the last step's")
            .arg(r.state, tl, kChunk)};
    edits.append({source.startOf(r.update), source.endOf(r.update), scan.join(u'\n' + indent)});
    for (const Node &read : r.stateReads)
        edits.append({source.startOf(read), source.endOf(read), QStringLiteral("_scan_h")});
    const QJsonArray decorators = children(context.kernel().function(), "decorator_list");
    const int defLine = decorators.isEmpty() ? lineOf(context.kernel().function()) : lineOf(decorators.at(0).toObject());
    edits.append({source.lineStart(defLine), source.lineStart(defLine), combineFunction()});
    const QJsonArray params = children(child(context.kernel().function(), "args"), "args");
    const int signatureEnd = source.endOf(params.last().toObject());
    edits.append({signatureEnd, signatureEnd, QStringLiteral(", %1: %2").arg(kChunk, constexprAnnotation(context))});
    return edits;
}

bool importsTriton(const SourceText &source)
{
    static const QRegularExpression import(QStringLiteral("^import triton\\s*$"), QRegularExpression::MultilineOption);
    return import.match(source.text()).hasMatch();
}

} // namespace

QVector<RecipeCandidate> proposeLinearRecurrenceScan(const RecipeContext &context)
{
    const Node arguments = child(context.kernel().function(), "args");
    if (hasDot(context) || !context.hasLaunchSite() || children(arguments, "args").isEmpty()
        || !children(arguments, "defaults").isEmpty() || !importsTriton(context.source()))
        return {};
    for (const QString &name : {kChunk, kCombine, QStringLiteral("_chunk_start"), QStringLiteral("_scan_a"), QStringLiteral("_scan_b"), QStringLiteral("_scan_h")}) {
        if (context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};
    }
    std::optional<Recurrence> recurrence;
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        if ((recurrence = readRecurrence(context, loop)))
            break;
    }
    const int launchEnd = context.afterLastArgument(context.launchSite());
    if (!recurrence || launchEnd < 0)
        return {};
    const QVector<TextEdit> edits = chunkEdits(context, *recurrence);
    const int line = lineOf(recurrence->loop->node);
    QVector<RecipeCandidate> out;
    for (const int steps : {32, 16}) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("linear-recurrence-scan");
        candidate.title = QStringLiteral("linear recurrence on line %1 scanned in chunks of %2 steps (tl.associative_scan)").arg(line).arg(steps);
        candidate.rationale = QStringLiteral("The loop on line %1 updates %2 = a * %2 + b once per trip, so each trip waits on the "
                                             "previous one and a program has one step's loads in flight. Steps compose "
                                             "associatively ((a1, b1) then (a2, b2) is (a2*a1, a2*b1 + b2)): a %3-step chunk "
                                             "loaded as a tile and scanned with tl.associative_scan gives every step's state "
                                             "from the chunk's start, with the carry between chunks.")
                                  .arg(line).arg(recurrence->state).arg(steps);
        candidate.findingRuleIds = QStringList{QStringLiteral("source: serial linear recurrence")}
                                   + context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.memory-bound"), QStringLiteral("L2.latency-bound")}));
        candidate.edits = edits;
        candidate.edits.append({launchEnd, launchEnd, QStringLiteral(", %1=%2").arg(kChunk).arg(steps)});
        // The trip count and the chain's depth are not IR facts the checker reads: timing decides.
        candidate.value = 0.6 - 0.05 * out.size();
        candidate.sets = {QStringLiteral("kernel:scan"), QStringLiteral("constexpr:") + kChunk};
        candidate.combinable = false;  // it rewrites the loop other recipes edit
        out.append(candidate);
    }
    return out;
}

} // namespace strata::rewrite::recipes
