// The attention recipes' edits (what they do and why: RecipesAttention.cpp): the loop bound at the
// diagonal, the loop split at the first masked block, programs dispatched heaviest first.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"
#include "rewrite/recipes/RecipesAttention.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

#include <functional>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using attention::MaskedLoop;

namespace {

bool isExpCall(const Node &node)
{
    const QString callee = dottedName(child(node, "func"));
    return isType(node, "Call") && (callee.endsWith(QLatin1String(".exp")) || callee.endsWith(QLatin1String(".exp2")))
        && (callee.startsWith(QLatin1String("tl.")) || callee.startsWith(QLatin1String("triton.language.")));
}

// The path from `top` down to the read keeps -inf at -inf: the read is the left side of `-`
// and `/`, either side of `*` (a positive scale).
bool keepsMinusInfinity(const QVector<Node> &path, const Node &read)
{
    for (int i = 0; i < path.size(); ++i) {
        const Node &next = i + 1 < path.size() ? path.at(i + 1) : read;
        const Node &node = path.at(i);
        if (isBinOp(node, "Mult"))
            continue;
        if ((isBinOp(node, "Sub") || isBinOp(node, "Div")) && child(node, "left") == next)
            continue;
        return false;
    }
    return true;
}

class VanishCheck {
public:
    VanishCheck(const RecipeContext &context, const MaskedLoop &loop) : m_context(context), m_body(children(loop.loop->node, "body")) {}

    // Every read of `name` in the statements from `from` on (until it is assigned again) is a
    // row max or an exp of a difference, directly or through a name assigned such a difference.
    bool vanishes(const QString &name, int from, int depth)
    {
        m_names.insert(name);
        if (depth > 4)
            return false;
        for (int i = from; i < m_body.size(); ++i) {
            const Node statement = m_body.at(i).toObject();
            bool ok = true;
            walk(statement, [&](const Node &node, const QVector<Node> &ancestors) {
                if (ok && nameOf(node) == name && child(node, "ctx").value(QLatin1String("_type")) == QLatin1String("Load"))
                    ok = readVanishes(statement, i, node, ancestors, depth);
            });
            if (!ok)
                return false;
            if (namesAssignedBy(statement).contains(name))
                return true;  // later reads see another value
        }
        return true;
    }
    const QSet<QString> &names() const { return m_names; }

private:
    bool readVanishes(const Node &statement, int index, const Node &read, const QVector<Node> &ancestors, int depth)
    {
        for (int i = int(ancestors.size()) - 1; i >= 0; --i) {
            const Node &node = ancestors.at(i);
            if (!isType(node, "Call"))
                continue;
            if (isTritonCall(node, "max") && children(node, "args").at(0).toObject() == read && i == ancestors.size() - 1)
                return true;
            return isExpCall(node) && keepsMinusInfinity(ancestors.mid(i + 1), read);
        }
        // No call around it: `T = S * scale - m` hands the -inf on to T.
        const QJsonArray targets = children(statement, "targets");
        const QString target = targets.size() == 1 ? nameOf(targets.at(0).toObject()) : QString();
        const Node value = child(statement, "value");
        const int valueAt = int(ancestors.indexOf(value));
        if (!isType(statement, "Assign") || target.isEmpty() || (value != read && valueAt < 0))
            return false;
        if (value != read && !keepsMinusInfinity(ancestors.mid(valueAt), read))
            return false;
        return vanishes(target, index + 1, depth + 1);
    }

    const RecipeContext &m_context;
    QJsonArray m_body;
    QSet<QString> m_names;
};

// True when no statement of the kernel after the loop (a top-level statement) reads one of `names`.
bool unreadAfterLoop(const RecipeContext &context, const MaskedLoop &loop, const QSet<QString> &names)
{
    bool after = false;
    for (const QJsonValue &item : children(context.kernel().function(), "body")) {
        const Node statement = item.toObject();
        if (after && namesRead(statement).intersects(names))
            return false;
        after = after || statement == loop.loop->node;
    }
    return after;
}

// `text` as an operand of `//` and `*`: parenthesized unless it is a name or a product of names.
QString operand(const QString &text)
{
    static const QRegularExpression simple(QStringLiteral("^[\\w.]+(\\s*\\*\\s*[\\w.]+)*$"));
    return simple.match(text).hasMatch() ? text : QStringLiteral("(%1)").arg(text);
}

// The statement's whole lines, when nothing else shares them (a trailing comment may).
std::optional<TextEdit> removeLines(const SourceText &source, const Node &statement)
{
    const int first = lineOf(statement), last = statement.value(QLatin1String("end_lineno")).toInt();
    const QString before = source.text().mid(source.lineStart(first), source.startOf(statement) - source.lineStart(first));
    const QString after = source.line(last).mid(source.endOf(statement) - source.lineStart(last)).trimmed();
    if (!before.trimmed().isEmpty() || (!after.isEmpty() && !after.startsWith(u'#')) || last >= source.lineCount())
        return std::nullopt;
    return TextEdit{source.lineStart(first), source.lineStart(last + 1), QString()};
}

// Edits, inside the loop, that drop the terms true in every block below the split: the where
// becomes its value when no term is left (its statement goes when it assigns S to itself).
QVector<TextEdit> unmaskedBody(const RecipeContext &context, const MaskedLoop &loop)
{
    const SourceText &source = context.source();
    QVector<TextEdit> edits;
    const Node value = children(loop.where, "args").at(1).toObject();
    if (loop.keptTerms.isEmpty()) {
        if (!loop.maskStatement.isEmpty()) {
            if (const std::optional<TextEdit> gone = removeLines(source, loop.maskStatement))
                edits.append(*gone);  // else left as dead code, which the compiler drops
        }
        const std::optional<TextEdit> gone = nameOf(value) == loop.masked ? removeLines(source, loop.whereStatement) : std::nullopt;
        edits.append(gone ? *gone : TextEdit{source.startOf(loop.where), source.endOf(loop.where), source.slice(value)});
        return edits;
    }
    QStringList kept;
    for (const Node &term : loop.keptTerms)
        kept.append(QStringLiteral("(%1)").arg(source.slice(term)));
    const Node mask = loop.maskStatement.isEmpty() ? children(loop.where, "args").at(0).toObject() : child(loop.maskStatement, "value");
    edits.append({source.startOf(mask), source.endOf(mask), kept.join(QStringLiteral(" & "))});
    return edits;
}

// The loop's text (whole lines) with `edits` (inside it) applied.
QString editedLoop(const SourceText &source, const MaskedLoop &loop, QVector<TextEdit> edits)
{
    const int from = source.lineStart(lineOf(loop.loop->node));
    const int to = source.lineStart(loop.loop->node.value(QLatin1String("end_lineno")).toInt() + 1);
    for (TextEdit &edit : edits) {
        edit.start -= from;
        edit.end -= from;
    }
    const Expected<QString> text = applyEdits(source.text().mid(from, to - from), edits);
    return text ? *text : QString();
}

// `(tl.num_programs(a) - 1 - tl.program_id(a))` for the one program_id call of the axis BASE
// follows; nullopt when BASE follows several axes, the axis is read twice, or programs share
// memory through atomics (their order could matter).
std::optional<TextEdit> heaviestFirst(const RecipeContext &context, const MaskedLoop &loop)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QSet<int> axes = kernel.programAxes(loop.queryBaseNode);
    if (axes.size() != 1)
        return std::nullopt;
    bool atomics = false;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &) { atomics = atomics || diagnosis::isAtomicCall(node); });
    const int axis = *axes.begin();
    QVector<Node> calls;
    for (const diagnosis::LocatedNode &call : kernel.callsOf("program_id")) {
        if (kernel.constValue(argument(call.node, 0, "axis")) == axis)
            calls.append(call.node);
    }
    if (atomics || calls.size() != 1 || axis < 0 || axis > 2)
        return std::nullopt;
    const QString tl = tritonLanguage(context);
    return TextEdit{context.source().startOf(calls.first()), context.source().endOf(calls.first()),
                    QStringLiteral("(%1.num_programs(%2) - 1 - %1.program_id(%2))").arg(tl).arg(axis)};
}

} // namespace

bool attention::maskedScoresVanish(const RecipeContext &context, const MaskedLoop &loop)
{
    const QJsonArray body = children(loop.loop->node, "body");
    int whereAt = -1;
    for (int i = 0; i < body.size(); ++i) {
        if (body.at(i).toObject() == loop.whereStatement)
            whereAt = i;
    }
    if (whereAt < 0)
        return false;
    // S is computed afresh in each trip: the first statement that names it assigns it without
    // reading it (else a skipped block would change what the next one reads).
    bool fresh = false;
    for (int i = 0; i < whereAt && !fresh; ++i) {
        const Node statement = body.at(i).toObject();
        if (namesRead(statement).contains(loop.masked))
            return false;
        fresh = namesAssignedBy(statement).contains(loop.masked);
    }
    if (!fresh && namesRead(loop.where).contains(loop.masked))
        return false;
    VanishCheck check(context, loop);
    return check.vanishes(loop.masked, whereAt + 1, 0) && unreadAfterLoop(context, loop, check.names());
}

namespace {

struct Plan {
    bool skip = false, split = false, reverse = false;
};

RecipeCandidate candidateFor(const RecipeContext &context, const MaskedLoop &loop, const Plan &plan)
{
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const QString end = source.slice(loop.end);
    const QString diagonal = QStringLiteral("%1 + %2").arg(loop.queryBase, loop.queryBlock);
    const QString newEnd = plan.skip ? QStringLiteral("%1.minimum(%2, %3)").arg(tl, end, diagonal) : end;
    const int line = lineOf(loop.loop->node);
    RecipeCandidate candidate;
    QStringList what, why;
    if (plan.skip) {
        candidate.edits.append({source.startOf(loop.end), source.endOf(loop.end), newEnd});
        what.append(QStringLiteral("stop at the diagonal block"));
        why.append(QStringLiteral("Every block past the program's last query (%1) is masked out entirely by the causal term, and "
                                  "the masked scores reach only a row max and exp(score - max): such a block adds 0 and leaves "
                                  "the running max alone, so the loop on line %2 stops at %1 (about half the blocks of a causal "
                                  "attention).").arg(diagonal).arg(line));
    }
    if (plan.split) {
        QStringList bounds;
        if (loop.causal())
            bounds.append(QStringLiteral("%1 // %2 * %2").arg(operand(loop.queryBase), loop.step));
        for (const QString &bound : loop.keyBounds)
            bounds.append(QStringLiteral("%1 // %2 * %2").arg(operand(bound), loop.step));
        QString lo = newEnd;
        for (const QString &bound : bounds)
            lo = QStringLiteral("%1.minimum(%2, %3)").arg(tl, lo, bound);
        const QString indent = source.indentOf(line);
        QVector<TextEdit> inner = unmaskedBody(context, loop);
        inner.append({source.startOf(loop.end), source.endOf(loop.end), QStringLiteral("_kv_lo")});
        const int at = source.lineStart(line);
        candidate.edits.append({at, at, QStringLiteral("%1_kv_lo = %2  # the blocks below it need no mask\n").arg(indent, lo)
                                            + editedLoop(source, loop, inner)});
        candidate.edits.append({source.startOf(loop.start), source.endOf(loop.start), QStringLiteral("_kv_lo")});
        what.append(QStringLiteral("unmasked blocks split off"));
        why.append(QStringLiteral("In the blocks below %1 every key lies %2, so the mask is true everywhere there: they run a copy "
                                  "of the loop without it (no compare and select on each BLOCK_M x %3 tile), the rest run it as "
                                  "written, in the same order.")
                       .arg(QStringLiteral("_kv_lo"),
                            loop.causal() ? QStringLiteral("before the program's first query") : QStringLiteral("inside the bound"),
                            loop.step));
    }
    if (plan.reverse) {
        candidate.edits.append(*heaviestFirst(context, loop));
        what.append(QStringLiteral("heaviest programs first"));
        why.append(QStringLiteral("A program's trip count grows with its query block, so the launch order puts the longest "
                                  "programs last, into the tail; reversed, they start first and the short ones fill the tail."));
    }
    candidate.recipeId = plan.skip ? QStringLiteral("causal-block-skip") : QStringLiteral("masked-block-split");
    candidate.title = QStringLiteral("key/value loop on line %1: %2").arg(line).arg(what.join(QStringLiteral(", ")));
    candidate.rationale = why.join(u' ');
    candidate.findingRuleIds = {loop.causal() ? QStringLiteral("source: causal mask on every key block")
                                              : QStringLiteral("source: key-bound mask on every key block")};
    candidate.findingRuleIds += context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.compute-bound"), QStringLiteral("L2.latency-bound")}));
    // No IR fact: the blocks a program runs are a launch-time trip count, and the split loop has
    // two copies of the dots in the IR. Timing decides.
    candidate.value = plan.skip ? 0.7 : 0.5;
    candidate.sets = {QStringLiteral("kernel:kv-loop")};
    if (plan.reverse)
        candidate.sets.append(QStringLiteral("kernel:program-order"));
    return candidate;
}

} // namespace

QVector<RecipeCandidate> proposeAttentionBlocks(const RecipeContext &context)
{
    for (const QString &name : {QStringLiteral("_kv_lo")}) {
        if (context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};
    }
    const std::optional<MaskedLoop> loop = attention::readMaskedLoop(context);
    if (!loop)
        return {};
    // Skipping needs a causal term, a loop that runs past the diagonal, and blocks that are no-ops when masked.
    const bool skip = loop->causal() && !loop->endFollowsProgram && loop->skippableBlocksAreNoOps;
    // Reversing the order pays only when the work grows with the query block.
    const bool reverse = loop->causal() && (skip || loop->endFollowsProgram) && heaviestFirst(context, *loop).has_value();
    QVector<Plan> plans;
    if (skip)
        plans += {Plan{true, true, false}, Plan{true, false, false}};
    else
        plans.append(Plan{false, true, false});
    if (reverse)
        plans.append(Plan{skip, true, true});
    QVector<RecipeCandidate> out;
    for (const Plan &plan : plans) {
        out.append(candidateFor(context, *loop, plan));
        out.last().value -= 0.05 * (out.size() - 1);
    }
    return out;
}

} // namespace strata::rewrite::recipes
