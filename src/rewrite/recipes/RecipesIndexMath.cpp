// Recipe constexpr-divisors: per-element integer `//` and `%` by run-time ints, made constexpr.
//
// A kernel that decodes a flat index (`ow = offs % out_w`, `plane = offs // (out_w * out_h)`)
// divides every element by values the compiler does not know: each division or remainder is a
// sequence of tens of integer instructions (the backend counts them in its machine code). With the
// divisor a tl.constexpr the compiler replaces it by a multiply-high and shifts. Whether that
// matters depends on the integer work per byte the kernel moves, which only a timing tells: the
// candidate promises the IR fact (fewer run-time divisions) and the loop times it.
#include "rewrite/recipes/AstNames.h"
#include "rewrite/recipes/Recipe.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;
using diagnosis::KernelParam;

namespace {

struct DivisorSites {
    QStringList params;  // run-time int parameters found in divisors, first use first
    int sites = 0;       // per-element divisions / remainders by them
    int inLoop = 0;      // of which inside a loop
};

bool isDivision(const Node &node)
{
    return isBinOp(node, "Mod") || isBinOp(node, "FloorDiv");
}

// The run-time int parameters a divisor expression reads, each with a launch value (a constexpr
// needs one to compile; a parameter the launch passes as a tensor has none).
QStringList runtimeIntsIn(const RecipeContext &context, const Node &divisor)
{
    QStringList names;
    walk(divisor, [&](const Node &node, const QVector<Node> &) {
        const QString name = nameOf(node);
        if (name.isEmpty())
            return;
        const KernelParam *param = context.kernel().param(name);
        const std::optional<qint64> value = context.launchIntValue(name);
        if (param && param->isRuntimeInteger() && value && *value > 0 && !names.contains(name))
            names.append(name);
    });
    return names;
}

// Divisions of a per-element index (one that holds a tl.arange) whose result reaches a pointer:
// the ones every element pays for. A division of the program id alone runs once per program.
DivisorSites findDivisorSites(const RecipeContext &context)
{
    const diagnosis::KernelView &kernel = context.kernel();
    DivisorSites found;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (!isDivision(node) || !kernel.isPerElement(child(node, "left")) || !kernel.flowsIntoPointer(ancestors))
            return;
        const QStringList names = runtimeIntsIn(context, child(node, "right"));
        if (names.isEmpty())
            return;
        ++found.sites;
        found.inLoop += kernel.enclosingLoops(ancestors).isEmpty() ? 0 : 1;
        for (const QString &name : names) {
            if (!found.params.contains(name))
                found.params.append(name);
        }
    });
    return found;
}

} // namespace

QVector<RecipeCandidate> proposeConstexprDivisors(const RecipeContext &context)
{
    const DivisorSites sites = findDivisorSites(context);
    if (sites.params.isEmpty())
        return {};
    RecipeCandidate candidate;
    QStringList values;
    for (const QString &name : sites.params) {
        if (!addConstexprParameter(context, name, candidate))
            return {};  // a parameter the AST does not show as an argument: leave the kernel alone
        values.append(QStringLiteral("%1=%2").arg(name).arg(*context.launchIntValue(name)));
    }
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.per-element-divmod")});
    candidate.recipeId = QStringLiteral("constexpr-divisors");
    candidate.title = QStringLiteral("divisors as constexpr: %1").arg(sites.params.join(QLatin1String(", ")));
    candidate.rationale =
        QStringLiteral("%1 per-element integer division%2 or remainder%2 (%3 inside a loop) divide%4 by run-time ints "
                       "(%5 at this launch): each compiles to a divide sequence of tens of instructions per element. As "
                       "tl.constexpr the compiler turns them into a multiply-high and shifts; another value compiles "
                       "another variant.")
            .arg(sites.sites)
            .arg(sites.sites == 1 ? QString() : QStringLiteral("s"))
            .arg(sites.inLoop)
            .arg(sites.sites == 1 ? QStringLiteral("s") : QString())
            .arg(values.join(QLatin1String(", ")));
    candidate.findingRuleIds = QStringList{QStringLiteral("source: per-element // or % by a run-time int")} + context.ruleIdsOf(findings);
    candidate.expected.append({QStringLiteral("int_divisions"), 0, {}});
    // Worth more when the divisions repeat in a loop; a timing decides either way.
    candidate.value = sites.inLoop > 0 ? 0.7 : 0.55;
    return {candidate};
}

} // namespace strata::rewrite::recipes
