// Recipes for global memory access: unit strides as constexpr, contiguity hints, eviction.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

// True when `name` is an operand of a multiplication somewhere in the kernel.
bool isMultiplied(const RecipeContext &context, const QString &name)
{
    bool found = false;
    walk(context.kernel().function(), [&](const Node &node, const QVector<Node> &) {
        if (found || !isType(node, "BinOp") || typeOf(child(node, "op")) != QLatin1String("Mult"))
            return;
        for (const char *side : {"left", "right"}) {
            const Node operand = child(node, side);
            if (isType(operand, "Name") && operand.value(QLatin1String("id")).toString() == name)
                found = true;
        }
    });
    return found;
}

ExpectedFact factFor(const Finding &finding)
{
    if (finding.ruleId.contains(QLatin1String("unpipelined")) || finding.title.contains(QLatin1String("pipelined")))
        return {QStringLiteral("async_copies"), finding.span.line, {}};
    if (finding.title.contains(QLatin1String("store")))
        return {QStringLiteral("max_store_bits"), finding.span.line, {}};
    return {QStringLiteral("max_load_bits"), finding.span.line, {}};
}

bool isWrappedInHint(const QVector<Node> &ancestors)
{
    for (const Node &ancestor : ancestors) {
        if (isTritonCall(ancestor, "multiple_of") || isTritonCall(ancestor, "max_contiguous"))
            return true;
    }
    return false;
}

Node kernelArgument(const RecipeContext &context, const QString &name)
{
    for (const QJsonValue &item : children(child(context.kernel().function(), "args"), "args")) {
        if (item.toObject().value(QLatin1String("arg")).toString() == name)
            return item.toObject();
    }
    return {};
}

} // namespace

QString tritonLanguage(const RecipeContext &context)
{
    return context.source().text().contains(QLatin1String("import triton.language as tl")) ? QStringLiteral("tl")
                                                                                            : QStringLiteral("triton.language");
}

QString constexprAnnotation(const RecipeContext &context)
{
    return tritonLanguage(context) + QStringLiteral(".constexpr");
}

std::optional<TextEdit> constexprParameterEdit(const RecipeContext &context, const QString &name)
{
    const Node arg = kernelArgument(context, name);
    if (arg.isEmpty())
        return std::nullopt;
    return TextEdit{context.source().startOf(arg), context.source().endOf(arg),
                    QStringLiteral("%1: %2").arg(name, constexprAnnotation(context))};
}

bool addConstexprParameter(const RecipeContext &context, const QString &name, RecipeCandidate &candidate)
{
    const std::optional<TextEdit> edit = constexprParameterEdit(context, name);
    if (!edit)
        return false;
    candidate.edits.append(*edit);
    candidate.sets.append(QStringLiteral("param:") + name);
    return true;
}

QVector<RecipeCandidate> proposeConstexprUnitStride(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.runtime-unit-stride"),
                                                           QStringLiteral("L3.scalar-global-access"),
                                                           QStringLiteral("L3.unpipelined-loop-load")});
    if (findings.isEmpty())
        return {};
    RecipeCandidate candidate;
    QStringList strides;
    for (const diagnosis::KernelParam &param : context.kernel().params()) {
        if (param.isRuntimeInteger() && context.launchIntValue(param.name) == 1 && isMultiplied(context, param.name)
            && addConstexprParameter(context, param.name, candidate))
            strides.append(param.name);
    }
    if (strides.isEmpty())
        return {};
    candidate.recipeId = QStringLiteral("constexpr-unit-stride");
    candidate.title = QStringLiteral("unit strides as constexpr: %1").arg(strides.join(QLatin1String(", ")));
    candidate.rationale = QStringLiteral("%1 %2 1 at the launch, but as run-time ints the compiler cannot prove the "
                                         "innermost axis contiguous (Triton 3.6 no longer specializes ints equal to 1), so "
                                         "loads stay scalar and cp.async cannot be used; as tl.constexpr the value 1 is "
                                         "folded (another value just compiles another variant).")
                              .arg(strides.join(QLatin1String(", ")), strides.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"));
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    for (const Finding &finding : findings) {
        const ExpectedFact fact = factFor(finding);
        if (finding.span.line > 0 && finding.ruleId != QLatin1String("L1.runtime-unit-stride"))
            candidate.expected.append(fact);
    }
    if (candidate.expected.isEmpty())
        candidate.expected.append({QStringLiteral("max_load_bits"), firstLine(findings), {}});
    candidate.value = 0.88;
    return {candidate};
}

QVector<RecipeCandidate> proposeDivisibilityHints(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L3.scalar-global-access"),
                                                           QStringLiteral("L1.runtime-unit-stride")});
    if (findings.isEmpty())
        return {};
    // Offsets `(start + tl.arange(0, B)) % n` lose contiguity through the modulo; the values stay
    // B-contiguous and B-aligned except where they wrap, which masks/rows out of range absorb.
    RecipeCandidate candidate;
    QStringList hinted;
    const SourceText &source = context.source();
    walk(context.kernel().function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (!isType(node, "Assign") || children(node, "targets").size() != 1)
            return;
        const Node target = children(node, "targets")[0].toObject();
        const Node value = child(node, "value");
        if (!isType(target, "Name") || !isType(value, "BinOp") || typeOf(child(value, "op")) != QLatin1String("Mod")
            || isWrappedInHint(ancestors))
            return;
        Node arange;
        walk(value, [&arange](const Node &inner, const QVector<Node> &) {
            if (arange.isEmpty() && isTritonCall(inner, "arange"))
                arange = inner;
        });
        const Node extent = argument(arange, 1, "end");
        if (arange.isEmpty() || extent.isEmpty() || context.kernel().arangeExtents(value).size() != 1)
            return;
        const QString extentText = source.slice(extent);
        candidate.edits.append({source.startOf(value), source.endOf(value),
                                QStringLiteral("tl.max_contiguous(tl.multiple_of(%1, %2), %2)").arg(source.slice(value), extentText)});
        hinted.append(target.value(QLatin1String("id")).toString());
    });
    if (hinted.isEmpty())
        return {};
    candidate.recipeId = QStringLiteral("divisibility-hints");
    candidate.title = QStringLiteral("contiguity hints on %1").arg(hinted.join(QLatin1String(", ")));
    candidate.rationale = QStringLiteral("The modulo that wraps %1 hides that each block of offsets is contiguous and "
                                         "aligned; tl.multiple_of / tl.max_contiguous restore it so loads can be vectorized.")
                              .arg(hinted.join(QLatin1String(", ")));
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    for (const Finding &finding : findings) {
        if (finding.ruleId != QLatin1String("L1.runtime-unit-stride"))
            candidate.expected.append(factFor(finding));
    }
    if (candidate.expected.isEmpty())
        candidate.expected.append({QStringLiteral("max_load_bits"), 0, {}});
    candidate.value = 0.45;
    candidate.sets = {QStringLiteral("kernel:contiguity-hints")};
    return {candidate};
}

QVector<RecipeCandidate> proposeEvictFirst(const RecipeContext &context)
{
    // Evidence: the kernel is measured memory-bound; structure: loads that run once per program
    // (no loop, no dot), so nothing they bring into L2 is read again.
    const QJsonObject timing = context.request().timing;
    if (timing.value(QLatin1String("bound")).toString() != QLatin1String("memory") || hasDot(context)
        || !context.kernel().loops().isEmpty())
        return {};
    RecipeCandidate candidate;
    for (const diagnosis::LocatedNode &load : context.kernel().callsOf("load")) {
        if (!keyword(load.node, "eviction_policy").isEmpty() || !keyword(load.node, "cache_modifier").isEmpty())
            continue;
        const int at = context.afterLastArgument(load.node);
        if (at >= 0)
            candidate.edits.append({at, at, QStringLiteral(", eviction_policy=\"evict_first\"")});
    }
    if (candidate.edits.isEmpty())
        return {};
    candidate.recipeId = QStringLiteral("evict-first-streaming");
    candidate.title = QStringLiteral("streaming loads marked evict_first");
    candidate.rationale = QStringLiteral("The kernel is memory-bound (%1% of roofline) and reads each input once: "
                                         "evict_first keeps streamed data from displacing reusable lines in L2.")
                              .arg(timing.value(QLatin1String("roofline_pct")).toDouble(), 0, 'f', 0);
    candidate.value = 0.08;
    // The measured bound is L2's finding; the recipe acts on it even when the ladder ran static.
    candidate.findingRuleIds = {QStringLiteral("L2.memory-bound")};
    candidate.sets = {QStringLiteral("kernel:eviction")};
    return {candidate};
}

} // namespace strata::rewrite::recipes
