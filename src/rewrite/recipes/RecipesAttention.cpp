// Recipes on a flash-attention-style key/value loop: `for n in range(0, END, BLOCK_N)` holding a
// dot, whose scores are masked with `tl.where(mask, scores, -inf)` in every block.
//
// causal-block-skip: the mask holds `q >= k` (query offsets `BASE + arange(BLOCK_M)`, key
//   offsets `n + arange(BLOCK_N)`). A block whose keys all lie past the block's last query is
//   masked out entirely; when the masked scores reach only a row max and an exp of a difference
//   (online softmax) such a block changes nothing, so the loop stops at `BASE + BLOCK_M`.
// masked-block-split: blocks whose keys all lie below the first query (and below a loop-invariant
//   key bound `k < B`) have an all-true mask. The loop splits at the first block where that stops
//   being true: the blocks before it run a copy of the body without the mask (no compare, no
//   select on the BLOCK_M x BLOCK_N tile), the rest run the body as written. The same blocks run
//   in the same order, so this half is exact for any body.
// Heaviest first: when the trip count grows with the program id, programs are dispatched in
//   reverse order of that axis so the longest start first and the shortest fill the tail.
//
// The promised fact is none of KernelIrFacts: what changes is how many blocks a program runs (a
// launch-time trip count) and how many mask ops each runs; the static IR has as many dots or more
// (two loops). Only timing can show it.
#include "rewrite/recipes/RecipesAttention.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using attention::MaskedLoop;

namespace {

QString compact(QString text) { return text.remove(QRegularExpression(QStringLiteral("\\s"))).replace(u'\'', u'"'); }

// `-float("inf")`, `float("-inf")`, `-math.inf`: the fill that makes exp() of the score 0.
bool isMinusInfinity(const SourceText &source, const Node &node)
{
    static const QStringList forms = {QStringLiteral("-float(\"inf\")"), QStringLiteral("float(\"-inf\")"), QStringLiteral("-math.inf")};
    return forms.contains(compact(source.slice(node)));
}

// `tl.arange(0, X)` with X a compile-time constant: X's value.
std::optional<qint64> arangeExtent(const diagnosis::KernelView &kernel, const Node &node)
{
    if (!isTritonCall(node, "arange") || children(node, "args").size() != 2 || kernel.constValue(argument(node, 0, "start")) != 0)
        return std::nullopt;
    return kernel.constValue(argument(node, 1, "end"));
}

// The one value a name is assigned in the kernel (nullopt when assigned more than once).
std::optional<Node> onlyValue(const diagnosis::KernelView &kernel, const QString &name)
{
    const QVector<Node> values = kernel.assignmentsOf(name);
    if (name.isEmpty() || values.size() != 1)
        return std::nullopt;
    return values.first();
}

// `name[<slice>]` whose slice reads `slice` once whitespace is dropped (":,None", "None,:").
QString subscriptedName(const SourceText &source, const Node &node, const char *slice)
{
    if (!isType(node, "Subscript") || compact(source.slice(child(node, "slice"))) != QLatin1String(slice))
        return QString();
    return nameOf(child(node, "value"));
}

// The loop body's top-level statements.
struct LoopBody {
    QJsonArray statements;
    int indexOf(const Node &statement) const
    {
        for (int i = 0; i < statements.size(); ++i) {
            if (statements.at(i).toObject() == statement)
                return i;
        }
        return -1;
    }
};

class MaskedLoopReader {
public:
    MaskedLoopReader(const RecipeContext &context, const diagnosis::LoopInfo &loop) : m_context(context), m_loop(loop) {}
    std::optional<MaskedLoop> read();

private:
    bool readHeader();
    bool findMaskedWhere();
    bool classifyTerms(const Node &mask);
    bool isKeyOffsets(const Node &node) const;      // `offs_n[None, :]` or `n + arange[None, :]`
    // BASE and BLOCK_M of `offs_m[:, None]` with offs_m = BASE + tl.arange(0, BLOCK_M); nullopt otherwise.
    struct QueryOffsets {
        Node base;
        QString baseText, block;
    };
    std::optional<QueryOffsets> queryOffsets(const Node &node) const;
    bool loopInvariant(const Node &node) const;

    const RecipeContext &m_context;
    const diagnosis::LoopInfo &m_loop;
    MaskedLoop m_out;
    LoopBody m_body;
};

bool MaskedLoopReader::readHeader()
{
    const diagnosis::KernelView &kernel = m_context.kernel();
    const QJsonArray args = children(m_loop.iteratorCall, "args");
    if ((m_loop.iterator != QLatin1String("range") && m_loop.iterator != QLatin1String("tl.range")) || args.size() != 3
        || m_loop.inductionNames.size() != 1 || !isType(child(m_loop.node, "target"), "Name")
        || !children(m_loop.node, "orelse").isEmpty() || kernel.constValue(args.at(0).toObject()) != 0)
        return false;
    bool topLevel = false;  // a loop nested in another would need the outer loop's reads checked too
    for (const QJsonValue &item : children(kernel.function(), "body"))
        topLevel = topLevel || item.toObject() == m_loop.node;
    if (!topLevel)
        return false;
    for (const char *type : {"Break", "Continue", "Return", "While", "If"}) {
        if (containsType(m_loop.node, type))
            return false;
    }
    bool stores = false;
    walk(m_loop.node, [&](const Node &node, const QVector<Node> &) { stores = stores || isTritonCall(node, "store") || diagnosis::isAtomicCall(node); });
    const diagnosis::KernelParam *step = kernel.param(nameOf(args.at(2).toObject()));
    if (stores || !containsCall(m_loop.node, "dot") || !step || !step->isConstexpr || !kernel.constValue(args.at(2).toObject()))
        return false;
    m_out.loop = &m_loop;
    m_out.induction = m_loop.inductionNames.first();
    m_out.start = args.at(0).toObject();
    m_out.end = args.at(1).toObject();
    m_out.step = step->name;
    m_out.stepValue = *kernel.constValue(args.at(2).toObject());
    m_body.statements = children(m_loop.node, "body");
    return true;
}

bool MaskedLoopReader::loopInvariant(const Node &node) const
{
    if (m_context.kernel().isPerElement(node))
        return false;
    QSet<QString> assignedInLoop{m_out.induction};
    for (const QJsonValue &item : m_body.statements) {
        for (const QString &name : namesAssignedBy(item.toObject()))
            assignedInLoop.insert(name);
    }
    return !namesRead(node).intersects(assignedInLoop);
}

bool MaskedLoopReader::isKeyOffsets(const Node &node) const
{
    const diagnosis::KernelView &kernel = m_context.kernel();
    const auto blockArange = [&](const Node &value) { return arangeExtent(kernel, value) == m_out.stepValue; };
    const auto inductionPlus = [&](const Node &sum, const std::function<bool(const Node &)> &rest) {
        if (!isBinOp(sum, "Add"))
            return false;
        const Node left = child(sum, "left"), right = child(sum, "right");
        return (nameOf(left) == m_out.induction && rest(right)) || (nameOf(right) == m_out.induction && rest(left));
    };
    // offs_n[None, :] with offs_n = n + tl.arange(0, BLOCK_N) assigned in the loop
    const QString keys = subscriptedName(m_context.source(), node, "None,:");
    if (!keys.isEmpty()) {
        const std::optional<Node> value = onlyValue(kernel, keys);
        return value && inductionPlus(*value, blockArange);
    }
    // n + base[None, :] with base = tl.arange(0, BLOCK_N)
    return inductionPlus(node, [&](const Node &rest) {
        const std::optional<Node> value = onlyValue(kernel, subscriptedName(m_context.source(), rest, "None,:"));
        return value && blockArange(*value);
    });
}

std::optional<MaskedLoopReader::QueryOffsets> MaskedLoopReader::queryOffsets(const Node &node) const
{
    const diagnosis::KernelView &kernel = m_context.kernel();
    const std::optional<Node> value = onlyValue(kernel, subscriptedName(m_context.source(), node, ":,None"));
    if (!value || !isBinOp(*value, "Add"))
        return std::nullopt;
    const Node left = child(*value, "left"), right = child(*value, "right");
    for (const auto &[base, range] : {std::pair{left, right}, std::pair{right, left}}) {
        if (arangeExtent(kernel, range) && !kernel.isPerElement(base) && loopInvariant(base))
            return QueryOffsets{base, m_context.source().slice(base), m_context.source().slice(argument(range, 1, "end"))};
    }
    return std::nullopt;
}

// The terms of the mask (`a & b & c`): the causal compare, key bounds `k < B`, and others kept.
bool MaskedLoopReader::classifyTerms(const Node &mask)
{
    if (isBinOp(mask, "BitAnd"))
        return classifyTerms(child(mask, "left")) && classifyTerms(child(mask, "right"));
    const QJsonArray ops = children(mask, "ops"), comparators = children(mask, "comparators");
    if (isType(mask, "Compare") && ops.size() == 1) {
        const Node left = child(mask, "left"), right = comparators.at(0).toObject(), op = ops.at(0).toObject();
        const bool greater = isType(op, "GtE") || isType(op, "Gt"), less = isType(op, "LtE") || isType(op, "Lt");
        const Node query = greater ? left : right, key = greater ? right : left;
        if ((greater || less) && isKeyOffsets(key) && m_out.queryBase.isEmpty()) {
            if (const std::optional<QueryOffsets> offsets = queryOffsets(query)) {
                m_out.queryBase = offsets->baseText;
                m_out.queryBaseNode = offsets->base;
                m_out.queryBlock = offsets->block;
                m_out.causalTerm = mask;
                return true;
            }
        }
        // k < B (or B > k) with B loop-invariant: blocks below B // BLOCK_N * BLOCK_N pass it.
        const bool keyLeft = isType(op, "Lt") && isKeyOffsets(left), keyRight = isType(op, "Gt") && isKeyOffsets(right);
        if ((keyLeft || keyRight) && loopInvariant(keyLeft ? right : left)) {
            m_out.keyBounds.append(m_context.source().slice(keyLeft ? right : left));
            m_out.boundTerms.append(mask);
            return true;
        }
    }
    m_out.keptTerms.append(mask);
    return true;
}

// The one `S = tl.where(mask, X, -inf)` of the body (mask inline or a name assigned in the body
// and read only there).
bool MaskedLoopReader::findMaskedWhere()
{
    const SourceText &source = m_context.source();
    for (const QJsonValue &item : m_body.statements) {
        const Node statement = item.toObject();
        const Node value = child(statement, "value");
        if (!isType(statement, "Assign") || !isTritonCall(value, "where") || children(value, "args").size() != 3
            || !isMinusInfinity(source, children(value, "args").at(2).toObject()))
            continue;
        if (!m_out.where.isEmpty())
            return false;  // two masked wheres: not the shape this recipe knows
        m_out.whereStatement = statement;
        m_out.where = value;
        m_out.masked = targetNames(children(statement, "targets").at(0).toObject()).value(0);
    }
    if (m_out.where.isEmpty() || m_out.masked.isEmpty())
        return false;
    Node mask = children(m_out.where, "args").at(0).toObject();
    if (const QString maskName = nameOf(mask); !maskName.isEmpty()) {
        const std::optional<Node> value = onlyValue(m_context.kernel(), maskName);
        int uses = 0;  // its assignment's target and the where's read, nothing else
        walk(m_context.kernel().function(), [&](const Node &node, const QVector<Node> &) { uses += nameOf(node) == maskName; });
        for (const QJsonValue &item : m_body.statements) {
            if (value && child(item.toObject(), "value") == *value && m_body.indexOf(item.toObject()) < m_body.indexOf(m_out.whereStatement))
                m_out.maskStatement = item.toObject();
        }
        if (m_out.maskStatement.isEmpty() || uses != 2)
            return false;
        mask = *value;
    }
    return classifyTerms(mask) && (!m_out.queryBase.isEmpty() || !m_out.keyBounds.isEmpty());
}

std::optional<MaskedLoop> MaskedLoopReader::read()
{
    if (!readHeader() || !findMaskedWhere())
        return std::nullopt;
    m_out.endFollowsProgram = !m_context.kernel().programAxes(m_out.end).isEmpty();
    m_out.skippableBlocksAreNoOps = attention::maskedScoresVanish(m_context, m_out);
    return m_out;
}

} // namespace

std::optional<MaskedLoop> attention::readMaskedLoop(const RecipeContext &context)
{
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        if (std::optional<MaskedLoop> found = MaskedLoopReader(context, loop).read())
            return found;
    }
    return std::nullopt;
}

} // namespace strata::rewrite::recipes
