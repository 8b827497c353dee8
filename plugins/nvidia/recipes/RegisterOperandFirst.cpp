// Recipe register-operand-first: `acc += tl.dot(a, b)` in a loop, where `b` is computed in
// registers (a converted int8 weight tile, a scaled tile) and `a` is a plain load, becomes
// `acc += tl.dot(tl.trans(b), tl.trans(a))` with the accumulator transposed (Y^T = B^T A^T) and
// read as `tl.trans(acc)` after the loop.
//
// Why: Hopper's wgmma reads its second operand only from shared memory, so Triton copies a
// computed second operand back to shared memory on every trip (a ttg.local_alloc of a register
// tensor, the L3.register-operand-copy finding) and fences before the wgmma; its first operand
// may come from registers. Triton 3.6 keeps `tl.trans` of the computed tile in registers as the
// first operand and turns `tl.trans` of the loaded tile into a shared-memory view
// (ttg.memdesc_trans), so the copy goes. Promised fact: fewer register-to-shared copies.
#include "NvidiaRecipes.h"
#include "NvidiaTargets.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "rewrite/recipes/AstNames.h"

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;
using diagnosis::Finding;

namespace {

// The accumulating dot of a loop: `acc += tl.dot(a, b)` (two positional operands, keywords kept).
struct AccumulatingDot {
    Node statement, call, a, b;
    QString accumulator;
};

bool isLoad(const Node &node)
{
    return isTritonCall(node, "load") || isMethodCall(node, "load");
}

// A value straight from memory: a load, or a name every assignment of which in `loop` is a load.
bool isLoadedTile(const Node &value, const Node &loop)
{
    if (isLoad(value))
        return true;
    const QString name = nameOf(value);
    if (name.isEmpty())
        return false;
    int loads = 0, assignments = 0;
    walk(loop, [&](const Node &node, const QVector<Node> &) {
        if (!namesAssignedBy(node).contains(name))
            return;
        ++assignments;
        loads += isLoad(child(node, "value"));
    });
    return assignments > 0 && loads == assignments;  // one load, or one per branch (TMA or pointers)
}

std::optional<AccumulatingDot> accumulatingDot(const Node &loop)
{
    std::optional<AccumulatingDot> found;
    int dots = 0;
    walk(loop, [&](const Node &node, const QVector<Node> &) {
        dots += isTritonCall(node, "dot");
        const Node value = child(node, "value");
        if (!isType(node, "AugAssign") || !isType(child(node, "op"), "Add") || !isTritonCall(value, "dot")
            || children(value, "args").size() != 2 || nameOf(child(node, "target")).isEmpty())
            return;
        found = AccumulatingDot{node, value, children(value, "args").at(0).toObject(), children(value, "args").at(1).toObject(),
                                nameOf(child(node, "target"))};
    });
    if (dots != 1)
        return std::nullopt;  // several dots (attention's two): the order of each is another question
    return found;
}

// Name nodes of `name` read anywhere under `root`.
QVector<Node> readsOf(const Node &root, const QString &name)
{
    QVector<Node> reads;
    walk(root, [&](const Node &node, const QVector<Node> &) {
        if (nameOf(node) == name && isType(child(node, "ctx"), "Load"))
            reads.append(node);
    });
    return reads;
}

int mentionsOf(const Node &root, const QString &name)
{
    int mentions = 0;
    walk(root, [&](const Node &node, const QVector<Node> &) { mentions += nameOf(node) == name; });
    return mentions;
}

class OperandSwap {
public:
    OperandSwap(const RecipeContext &context, const Node &loop, const AccumulatingDot &dot)
        : m_context(context), m_loop(loop), m_dot(dot), m_tl(tritonLanguage(context)) {}
    std::optional<QVector<TextEdit>> edits();

private:
    bool transposeInitialShape(const QJsonArray &body, int loopIndex);
    bool transposeReadsAfter(const QJsonArray &body, int loopIndex);

    const RecipeContext &m_context;
    const Node &m_loop;
    const AccumulatingDot &m_dot;
    const QString m_tl;
    QVector<TextEdit> m_edits;
};

// `acc = tl.zeros((X, Y), ...)`, the accumulator's one assignment before the loop: (Y, X).
bool OperandSwap::transposeInitialShape(const QJsonArray &body, int loopIndex)
{
    const SourceText &source = m_context.source();
    int initialisations = 0;
    for (int i = 0; i < loopIndex; ++i) {
        const Node statement = body.at(i).toObject();
        if (!namesAssignedBy(statement).contains(m_dot.accumulator))
            continue;
        ++initialisations;
        const QJsonArray shape = children(argument(child(statement, "value"), 0, "shape"), "elts");
        if (!isType(statement, "Assign") || !isTritonCall(child(statement, "value"), "zeros") || shape.size() != 2)
            return false;
        const Node rows = shape.at(0).toObject(), cols = shape.at(1).toObject();
        m_edits.append({source.startOf(rows), source.endOf(cols), source.slice(cols) + QStringLiteral(", ") + source.slice(rows)});
    }
    return initialisations == 1;
}

// Every read of the accumulator after the loop reads it transposed back, up to and including the
// statement that assigns it anew (after that it holds something else). An assignment nested in
// a branch or loop leaves it unclear which reads see which value: no edit.
bool OperandSwap::transposeReadsAfter(const QJsonArray &body, int loopIndex)
{
    const SourceText &source = m_context.source();
    for (int i = loopIndex + 1; i < body.size(); ++i) {
        const Node statement = body.at(i).toObject();
        const bool reassigns = namesAssignedBy(statement).contains(m_dot.accumulator);
        if (!reassigns && mentionsOf(statement, m_dot.accumulator) != readsOf(statement, m_dot.accumulator).size())
            return false;  // written inside a nested block
        for (const Node &read : readsOf(statement, m_dot.accumulator))
            m_edits.append({source.startOf(read), source.endOf(read), QStringLiteral("%1.trans(%2)").arg(m_tl, m_dot.accumulator)});
        if (reassigns)
            return isType(statement, "Assign") || isType(statement, "AnnAssign");
    }
    return true;
}

std::optional<QVector<TextEdit>> OperandSwap::edits()
{
    const QJsonArray body = children(m_context.kernel().function(), "body");
    int loopIndex = -1;
    for (int i = 0; i < body.size(); ++i)
        loopIndex = body.at(i).toObject() == m_loop ? i : loopIndex;
    // In the loop the accumulator is only the dot's target: any other use would see it transposed.
    if (loopIndex < 0 || mentionsOf(m_loop, m_dot.accumulator) != 1)
        return std::nullopt;
    if (!transposeInitialShape(body, loopIndex) || !transposeReadsAfter(body, loopIndex))
        return std::nullopt;
    const SourceText &source = m_context.source();
    m_edits.append({source.startOf(m_dot.a), source.endOf(m_dot.b),
                    QStringLiteral("%1.trans(%2), %1.trans(%3)").arg(m_tl, source.slice(m_dot.b), source.slice(m_dot.a))});
    return m_edits;
}

} // namespace

QVector<RecipeCandidate> proposeRegisterOperandFirst(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L3.register-operand-copy")});
    if (findings.isEmpty() || !isHopperTarget(context.target()))
        return {};
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        const std::optional<AccumulatingDot> dot = accumulatingDot(loop.node);
        // The second operand computed, the first straight from memory: swapping makes the computed
        // one the register operand and the loaded one a shared-memory view.
        if (!dot || isLoadedTile(dot->b, loop.node) || !isLoadedTile(dot->a, loop.node))
            continue;
        OperandSwap swap(context, loop.node, *dot);
        const std::optional<QVector<TextEdit>> edits = swap.edits();
        if (!edits)
            continue;
        const SourceText &source = context.source();
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("register-operand-first");
        candidate.title = QStringLiteral("dot on line %1 as %2^T = (%3)^T (%4)^T: the computed tile first")
                              .arg(lineOf(dot->call)).arg(dot->accumulator, source.slice(dot->b), source.slice(dot->a));
        candidate.rationale = QStringLiteral("`%1` is computed in registers and is the dot's second operand, which wgmma reads only "
                                             "from shared memory: the compiler copies it there on every trip of the loop on line %2 "
                                             "(line %3's finding). As the first operand it stays in registers; `%4` becomes a "
                                             "transposed view of the shared tile it is already loaded into.")
                                  .arg(source.slice(dot->b)).arg(lineOf(loop.node)).arg(firstLine(findings)).arg(source.slice(dot->a));
        candidate.findingRuleIds = context.ruleIdsOf(findings);
        candidate.edits = *edits;
        candidate.expected.append({QStringLiteral("register_to_shared_copies"), 0, {}});
        candidate.value = 0.7;
        candidate.sets = {QStringLiteral("kernel:dot-operand-order")};
        return {candidate};
    }
    return {};
}

} // namespace strata::nvidia
