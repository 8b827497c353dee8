// Recipe exp2-softmax: an online softmax in a dot loop (scores `S = tl.dot(..) * scale`, a running
// max, `tl.exp(S - max)`) computed in base 2: the scale times log2(e), every such `tl.exp` a
// `tl.exp2`. On NVIDIA GPUs tl.exp lowers to a multiply by log2(e) and ex2.approx, so each score
// element loses a multiply (the folded constant is one multiply per program).
//
// Exact in exact arithmetic: every value in score units (the scores, the running max, anything
// built from them by max, maximum, minimum, sums, differences, broadcasts and a where with an
// infinite fill) scales by log2(e) > 0, which all of these commute with, and those values reach the
// output only through exp(x) = exp2(x'). The recipe checks that: a score-unit value read anywhere
// else (a row sum of raw scores, a threshold compare, a log-sum-exp stored after the loop) leaves it
// silent.
// Timed before it was written (bench/results/mechanism-probes-2026-12-07, H100): 1.05x on causal
// attention, 1.16x on flash attention over their bests.
#include "NvidiaRecipes.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "rewrite/recipes/AstNames.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;

namespace {

constexpr const char *kLog2E = "1.4426950408889634";

bool isInfinity(const SourceText &source, const Node &node)
{
    static const QRegularExpression infinity(QStringLiteral("^-?(float\\([\"'](-|\\+)?inf[\"']\\)|math\\.inf)$"));
    return infinity.match(source.slice(node).remove(QRegularExpression(QStringLiteral("\\s")))).hasMatch();
}

class ScoreUnits {
public:
    // `loops`: every loop of the kernel that holds a dot and an exp (a split key loop is two).
    ScoreUnits(const RecipeContext &context, const QVector<Node> &loops) : m_context(context), m_loops(loops) {}
    std::optional<QVector<TextEdit>> edits();
    int exps() const { return m_exps; }

private:
    bool composable(const Node &expr) const;
    bool isScaleSite(const Node &statement, Node *scalar) const;
    bool loopInvariant(const Node &expr) const;
    bool readsAreAllowed(const QSet<QString> &units) const;
    bool grounded(const QVector<Node> &statements, const QSet<QString> &scores) const;
    QVector<Node> loopStatements() const;

    const RecipeContext &m_context;
    const QVector<Node> m_loops;
    QSet<QString> m_units;
    QSet<QString> m_assignedInLoop;
    int m_exps = 0;
};

QVector<Node> ScoreUnits::loopStatements() const
{
    QVector<Node> statements;
    for (const Node &loop : m_loops) {
        walk(loop, [&](const Node &node, const QVector<Node> &) {
            if (isType(node, "Assign") || isType(node, "AugAssign") || isType(node, "AnnAssign"))
                statements.append(node);
        });
    }
    return statements;
}

bool ScoreUnits::loopInvariant(const Node &expr) const
{
    return !m_context.kernel().isPerElement(expr) && !namesRead(expr).intersects(m_assignedInLoop) && !containsType(expr, "Call");
}

// A value in score units given m_units: names in it, and what scales with them: max / maximum /
// minimum, sums and differences of two such values, a negation, broadcasts, and a where whose other
// branch is infinite or also in score units and whose condition reads no score-unit value (a
// threshold compared with a score would not scale with it).
bool ScoreUnits::composable(const Node &expr) const
{
    if (!nameOf(expr).isEmpty())
        return m_units.contains(nameOf(expr));
    if (isType(expr, "Subscript"))
        return composable(child(expr, "value"));
    if (isBinOp(expr, "Sub") || isBinOp(expr, "Add"))
        return composable(child(expr, "left")) && composable(child(expr, "right"));
    if (isType(expr, "UnaryOp") && isType(child(expr, "op"), "USub"))
        return composable(child(expr, "operand"));
    const QJsonArray args = children(expr, "args");
    if ((isTritonCall(expr, "max") || isTritonCall(expr, "min")) && !args.isEmpty())
        return composable(args.at(0).toObject());
    if ((isTritonCall(expr, "maximum") || isTritonCall(expr, "minimum")) && args.size() == 2)
        return composable(args.at(0).toObject()) && composable(args.at(1).toObject());
    if (isTritonCall(expr, "where") && args.size() == 3) {
        const auto branch = [&](const Node &node) { return composable(node) || isInfinity(m_context.source(), node); };
        const Node a = args.at(1).toObject(), b = args.at(2).toObject();
        return branch(a) && branch(b) && (composable(a) || composable(b)) && !namesRead(args.at(0).toObject()).intersects(m_units);
    }
    return false;
}

// `S = tl.dot(..) * scale` (either order) or `S *= scale`, scale loop-invariant: the one place the
// scores get their units.
bool ScoreUnits::isScaleSite(const Node &statement, Node *scalar) const
{
    const Node value = child(statement, "value");
    if (isType(statement, "AugAssign") && isType(child(statement, "op"), "Mult") && loopInvariant(value)) {
        *scalar = value;
        return true;
    }
    if (!isType(statement, "Assign") || !isBinOp(value, "Mult"))
        return false;
    const Node left = child(value, "left"), right = child(value, "right");
    for (const auto &[scores, scale] : {std::pair{left, right}, std::pair{right, left}}) {
        if (containsCall(scores, "dot") && loopInvariant(scale)) {
            *scalar = scale;
            return true;
        }
    }
    return false;
}

// Every score-unit name derives from the scores (the fixpoint above also keeps names that only
// feed each other, which never took the scale and would be mixed unscaled with scaled values).
bool ScoreUnits::grounded(const QVector<Node> &statements, const QSet<QString> &scores) const
{
    QSet<QString> reached = scores;
    for (bool grew = true; grew;) {
        grew = false;
        for (const Node &statement : statements) {
            const QString target = namesAssignedBy(statement).value(0);
            if (m_units.contains(target) && !reached.contains(target) && namesRead(child(statement, "value")).intersects(reached)) {
                reached.insert(target);
                grew = true;
            }
        }
    }
    return reached == m_units;
}

// Every read of a score-unit name: in a score-unit assignment, or in `tl.exp(X)` with X in score
// units (exp(x) = exp2(x * log2(e)) for any such x, a difference or not); nothing after the loop.
bool ScoreUnits::readsAreAllowed(const QSet<QString> &units) const
{
    bool allowed = true;
    walk(m_context.kernel().function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (!allowed || !units.contains(nameOf(node)) || !isType(child(node, "ctx"), "Load"))
            return;
        if (std::none_of(m_loops.cbegin(), m_loops.cend(), [&](const Node &loop) { return ancestors.contains(loop); })) {
            allowed = false;  // read outside the loops (a stored log-sum-exp)
            return;
        }
        for (auto it = ancestors.crbegin(); it != ancestors.crend(); ++it) {
            if (isTritonCall(*it, "exp")) {
                allowed = composable(children(*it, "args").at(0).toObject());
                return;
            }
            const QStringList targets = namesAssignedBy(*it);
            if (!targets.isEmpty()) {
                allowed = units.contains(targets.value(0));
                return;
            }
        }
        allowed = false;
    });
    return allowed;
}

std::optional<QVector<TextEdit>> ScoreUnits::edits()
{
    const QVector<Node> statements = loopStatements();
    for (const Node &statement : statements) {
        for (const QString &name : namesAssignedBy(statement))
            m_assignedInLoop.insert(name);
    }
    // The scores: the name assigned at each loop's one scale site.
    QSet<QString> scores;
    QVector<Node> scalars;
    for (const Node &statement : statements) {
        Node found;
        if (isScaleSite(statement, &found)) {
            scores.insert(namesAssignedBy(statement).value(0));
            scalars.append(found);
        }
    }
    if (scalars.size() != m_loops.size())
        return std::nullopt;
    // Largest set of loop names whose every assignment is composable (the scale site aside),
    // shrunk until it holds.
    m_units = m_assignedInLoop;
    for (bool changed = true; changed;) {
        changed = false;
        for (const Node &statement : statements) {
            const QString target = namesAssignedBy(statement).value(0);
            Node ignored;
            if (!m_units.contains(target) || (scores.contains(target) && isScaleSite(statement, &ignored)))
                continue;
            if (isType(statement, "AugAssign") || namesAssignedBy(statement).size() != 1 || !composable(child(statement, "value"))) {
                m_units.remove(target);
                changed = true;
            }
        }
    }
    if (!m_units.contains(scores) || !grounded(statements, scores) || !readsAreAllowed(m_units))
        return std::nullopt;
    const SourceText &source = m_context.source();
    QVector<TextEdit> edits;
    for (const Node &scalar : scalars)
        edits.append({source.startOf(scalar), source.endOf(scalar), QStringLiteral("(%1 * %2)").arg(source.slice(scalar), QLatin1String(kLog2E))});
    m_exps = 0;
    for (const Node &loop : m_loops) {
        walk(loop, [&](const Node &node, const QVector<Node> &) {
            if (!isTritonCall(node, "exp") || !composable(children(node, "args").at(0).toObject()))
                return;
            const Node function = child(node, "func");
            edits.append({source.endOf(function), source.endOf(function), QStringLiteral("2")});
            ++m_exps;
        });
    }
    if (m_exps == 0)
        return std::nullopt;
    return edits;
}

} // namespace

QVector<RecipeCandidate> proposeExp2Softmax(const RecipeContext &context)
{
    QVector<Node> loops;
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        if (containsCall(loop.node, "dot") && containsCall(loop.node, "exp"))
            loops.append(loop.node);
    }
    if (loops.isEmpty())
        return {};
    ScoreUnits units(context, loops);
    const std::optional<QVector<TextEdit>> edits = units.edits();
    if (!edits)
        return {};
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("exp2-softmax");
    candidate.title = QStringLiteral("online softmax of the loop on line %1 in base 2 (%2 exp -> exp2)").arg(lineOf(loops.first())).arg(units.exps());
    candidate.rationale = QStringLiteral("tl.exp compiles to a multiply by log2(e) and ex2.approx on every score element; with "
                                         "log2(e) folded into the score scale the exponentials are tl.exp2 of the same "
                                         "differences (the running max scales with the scores), one multiply per element less.");
    candidate.findingRuleIds = {QStringLiteral("source: online softmax with tl.exp of scaled scores")};
    candidate.findingRuleIds += context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.compute-bound"), QStringLiteral("L2.latency-bound")}));
    candidate.edits = *edits;
    // Measured 1.05x-1.16x on attention (see the header); beside masked-block-split (0.5-0.7).
    candidate.value = 0.6;
    // Also the key loop's text, which masked-block-split copies: joined in one candidate, the split's
    // copy of the body would keep tl.exp beside the base-2 scores (verify failed, 2026-12-07).
    // Across rounds they compose: the split of an exp2 loop copies exp2.
    candidate.sets = {QStringLiteral("kernel:softmax-base"), QStringLiteral("kernel:kv-loop")};
    return {candidate};
}

} // namespace strata::nvidia
