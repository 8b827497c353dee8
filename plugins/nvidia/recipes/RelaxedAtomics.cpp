// Recipe relaxed-atomics: accumulating atomics without Triton's default acquire-release ordering.
//
// `tl.atomic_add(ptr, v)` orders as `sem="acq_rel"` unless told otherwise; on sm_90 ptxas wraps
// every such atomic in a `MEMBAR.ALL.GPU` and an L1 invalidate (`CCTL.IVALL`) and keeps it an
// `ATOMG` that returns a value, where a relaxed one whose result is unused is a fire-and-forget
// `REDG`. The ordering matters only when another memory access depends on the atomic: a lock, a
// ticket counter, a flag, a value read back. When every atomic of the kernel is a commutative
// accumulation (add, max, min) whose result nobody reads, into outputs the kernel never loads or
// stores otherwise, and nothing else synchronizes through memory (no cas, no xchg), the final
// values are the same under either ordering (the order of fp32 additions was never fixed).
#include "NvidiaRecipes.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "rewrite/recipes/AstNames.h"

#include <QSet>

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;

namespace {

const char *const kAccumulatingAtomics[] = {"atomic_add", "atomic_max", "atomic_min"};

bool isAccumulatingAtomic(const Node &call)
{
    for (const char *name : kAccumulatingAtomics)
        if (isTritonCall(call, name))
            return true;
    return false;
}

// The pointer parameters an address expression is based on, through locals assigned from them;
// values loaded on the way (an index read from memory) are offsets, not bases.
void collectPointerParams(const RecipeContext &context, const Node &expr, QSet<QString> &params, QSet<QString> &visited)
{
    const diagnosis::KernelView &kernel = context.kernel();
    for (const QString &name : namesReadOutsideLoads(expr)) {
        if (visited.contains(name))
            continue;
        visited.insert(name);
        const diagnosis::KernelParam *param = kernel.param(name);
        if (param) {
            if (context.pointerType(name).startsWith(u'*'))
                params.insert(name);
            continue;
        }
        for (const Node &value : kernel.assignmentsOf(name))
            collectPointerParams(context, value, params, visited);
    }
}

QSet<QString> pointerParamsOf(const RecipeContext &context, const Node &expr)
{
    QSet<QString> params, visited;
    collectPointerParams(context, expr, params, visited);
    return params;
}

// An atomic this recipe relaxes: a statement of its own (its old value unused), with no `sem`
// keyword or a constant one other than "relaxed".
struct RelaxableAtomic {
    Node call;
    Node semValue;  // the existing `sem=` value to replace; empty: append the keyword
};

} // namespace

QVector<RecipeCandidate> proposeRelaxedAtomics(const RecipeContext &context)
{
    const diagnosis::KernelView &kernel = context.kernel();
    QVector<RelaxableAtomic> atomics;
    QSet<QString> targets;
    bool blocked = false;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (blocked || !isType(node, "Call") || !diagnosis::isAtomicCall(node))
            return;
        // cas / xchg build locks and flags; an atomic whose old value is read is a ticket.
        const bool statement = !ancestors.isEmpty() && isType(ancestors.last(), "Expr");
        if (!isAccumulatingAtomic(node) || !statement) {
            blocked = true;
            return;
        }
        const Node sem = keyword(node, "sem");
        if (!sem.isEmpty() && !isType(sem, "Constant")) {
            blocked = true;
            return;
        }
        if (!sem.isEmpty() && sem.value(QLatin1String("value")).toString() == QLatin1String("relaxed"))
            return;
        atomics.append({node, sem});
        targets.unite(pointerParamsOf(context, argument(node, 0, "pointer")));
    });
    if (blocked || atomics.isEmpty() || targets.isEmpty())
        return {};
    // An output the kernel also loads or stores plainly could depend on the atomics' ordering.
    for (const char *access : {"load", "store"}) {
        for (const diagnosis::LocatedNode &call : kernel.callsOf(access)) {
            if (pointerParamsOf(context, argument(call.node, 0, "pointer")).intersects(targets))
                return {};
        }
    }
    const SourceText &source = context.source();
    RecipeCandidate candidate;
    QStringList lines;
    for (const RelaxableAtomic &atomic : atomics) {
        if (!atomic.semValue.isEmpty()) {
            candidate.edits.append({source.startOf(atomic.semValue), source.endOf(atomic.semValue), QStringLiteral("\"relaxed\"")});
        } else {
            const int end = source.afterLastArgument(atomic.call);
            if (end < 0)
                return {};
            candidate.edits.append({end, end, QStringLiteral(", sem=\"relaxed\"")});
        }
        lines.append(QString::number(lineOf(atomic.call)));
    }
    QStringList targetList = targets.values();
    targetList.sort();
    candidate.recipeId = QStringLiteral("relaxed-atomics");
    candidate.title = QStringLiteral("relaxed accumulating atomics on line %1").arg(lines.join(QLatin1String(", ")));
    candidate.rationale = QStringLiteral("The atomics into %1 only accumulate (their old values are unused, nothing else in the "
                                         "kernel reads or writes those outputs, no lock or flag), yet they run with Triton's "
                                         "default acquire-release order: on sm_90 each one becomes a returning ATOMG between a "
                                         "GPU-wide memory barrier and an L1 invalidate. Relaxed, they are fire-and-forget REDG "
                                         "reductions with the same final values.")
                              .arg(targetList.join(QLatin1String(", ")));
    candidate.findingRuleIds = {QStringLiteral("source: acquire-release atomics used as plain accumulation")};
    // No KernelIrFacts quantity counts atomics or barriers: the change is in the SASS (MEMBAR,
    // CCTL, ATOMG -> REDG), so the recipe declares none and the timing decides.
    candidate.value = 0.6;
    candidate.sets = {QStringLiteral("kernel:atomic-order")};
    return {candidate};
}

} // namespace strata::nvidia
