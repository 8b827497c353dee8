// Recipes for dot kernels: input precision and grouped program order (a backend's tile shapes are
// its own recipes: plugins/<id>/recipes).
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/BackendRecipes.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

// The findings a dot kernel's tile and program order respond to; with the backend's rules that say
// the accumulator is too big for the warps (RecipeContext::accumulatorPressureRules).
QStringList tileTriggers(const RecipeContext &context)
{
    return QStringList{QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"),
                       QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L3.fma-dot"),
                       QStringLiteral("L3.register-spill"), QStringLiteral("L3.unpipelined-loop-load")}
           + context.accumulatorPressureRules();
}

int bytesOfType(const QString &pointerType)
{
    if (pointerType.contains(QLatin1String("fp8")))
        return 1;
    if (pointerType.endsWith(QLatin1String("16")))
        return 2;
    if (pointerType.endsWith(QLatin1String("32")))
        return 4;
    if (pointerType.endsWith(QLatin1String("64")))
        return 8;
    return 0;
}

} // namespace

QVector<Node> dotCalls(const RecipeContext &context)
{
    QVector<Node> dots;
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("dot"))
        dots.append(call.node);
    return dots;
}

bool hasDot(const RecipeContext &context)
{
    return !dotCalls(context).isEmpty();
}

qint64 tileSharedBytes(qint64 bm, qint64 bn, qint64 bk, int bytes, int stages)
{
    return (bm * bk + bk * bn) * bytes * stages;
}

qint64 accumulatorRegisters(qint64 bm, qint64 bn, int warps)
{
    return bm * bn / (qint64(warps) * 32);
}

int firstLine(const QVector<Finding> &findings)
{
    return findings.isEmpty() ? 0 : findings.first().span.line;
}

bool isConstexprParam(const RecipeContext &context, const QString &name)
{
    const diagnosis::KernelParam *param = context.kernel().param(name);
    return param && param->isConstexpr;
}

std::optional<QPair<QString, QString>> constexprAccumulatorShape(const RecipeContext &context, const QString &excluded)
{
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("zeros")) {
        const QJsonArray shape = children(argument(call.node, 0, "shape"), "elts");
        if (shape.size() != 2)
            continue;
        const QString rows = shape[0].toObject().value(QLatin1String("id")).toString();
        const QString cols = shape[1].toObject().value(QLatin1String("id")).toString();
        if (isConstexprParam(context, rows) && isConstexprParam(context, cols) && (excluded.isEmpty() || (rows != excluded && cols != excluded)))
            return QPair<QString, QString>{rows, cols};
    }
    return std::nullopt;
}

MatmulRoles matmulRoles(const RecipeContext &context)
{
    MatmulRoles roles;
    if (!hasDot(context))
        return roles;
    if (const std::optional<QPair<QString, QString>> shape = constexprAccumulatorShape(context)) {
        roles.blockM = shape->first;
        roles.blockN = shape->second;
    }
    // K: the constexpr arange extent that is neither M nor N (the loop's reduction tile).
    QStringList kCandidates;
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("arange")) {
        const QString extent = argument(call.node, 1, "end").value(QLatin1String("id")).toString();
        if (isConstexprParam(context, extent) && extent != roles.blockM && extent != roles.blockN
            && !kCandidates.contains(extent))
            kCandidates.append(extent);
    }
    if (kCandidates.size() == 1)
        roles.blockK = kCandidates.first();
    int bytes = 0;
    for (const diagnosis::KernelParam &param : context.kernel().params()) {
        const int size = bytesOfType(context.pointerType(param.name));
        if (size > 0 && (bytes == 0 || size < bytes))
            bytes = size;
    }
    roles.elementBytes = bytes > 0 ? bytes : 2;
    roles.m = context.constexprValue(roles.blockM).value_or(0);
    roles.n = context.constexprValue(roles.blockN).value_or(0);
    roles.k = context.constexprValue(roles.blockK).value_or(0);
    return roles;
}

namespace {

// The relative error the verifier allows 16-bit outputs (agent/strata_agent/verify.py), which
// bf16 operands (7-bit mantissa) need.
constexpr double kBf16Tolerance = 1e-2;

// Deletes keyword `keywordNode` of `call` with the comma before it.
std::optional<TextEdit> removeCallKeyword(const SourceText &source, const Node &call, const Node &keywordNode)
{
    int previousEnd = -1;
    for (const char *field : {"args", "keywords"}) {
        for (const QJsonValue &item : children(call, field)) {
            const Node node = item.toObject();
            if (node == keywordNode)
                return previousEnd < 0 ? std::nullopt : std::optional<TextEdit>(TextEdit{previousEnd, source.endOf(node), QString()});
            previousEnd = source.endOf(node);
        }
    }
    return std::nullopt;
}

} // namespace

QVector<RecipeCandidate> proposeDotTf32(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("L3.fma-dot")});
    const double tolerance = context.request().outputTolerance;
    // The backend's faster fp32 input (NVIDIA: tf32, 10-bit mantissa, ~5e-4): none, no recipe.
    const BackendRecipes::FastFp32Dot fast = context.backend() ? context.backend()->fastFp32Dot() : BackendRecipes::FastFp32Dot{};
    if (findings.isEmpty() || fast.precision.isEmpty() || (tolerance > 0 && tolerance < fast.tolerance))
        return {};  // its products would not verify within the task's tolerance
    const QString quoted = QStringLiteral("\"%1\"").arg(fast.precision);
    const SourceText &source = context.source();
    RecipeCandidate candidate;
    for (const Node &dot : dotCalls(context)) {
        for (const QJsonValue &item : children(dot, "keywords")) {
            const Node keywordNode = item.toObject();
            const QString name = keywordNode.value(QLatin1String("arg")).toString();
            const Node value = child(keywordNode, "value");
            const QJsonValue constant = value.value(QLatin1String("value"));
            if (name == QLatin1String("input_precision") && isType(value, "Constant") && fast.replaces.contains(constant.toString()))
                candidate.edits.append({source.startOf(value), source.endOf(value), quoted});
            else if (name == QLatin1String("allow_tf32") && isType(value, "Constant") && constant.isBool() && !constant.toBool())
                candidate.edits.append({source.startOf(keywordNode), source.endOf(keywordNode), QStringLiteral("input_precision=") + quoted});
        }
        if (!candidate.edits.isEmpty() && candidate.expected.isEmpty()) {
            // The matrix-unit dot this one becomes, as the backend's facts name it (none: no promise).
            const MatmulRoles roles = matmulRoles(context);
            if (const QString kind = context.matrixDotKind(roles.m, context.numWarps()); !kind.isEmpty())
                candidate.expected.append({QStringLiteral("dot_kind"), lineOf(dot), kind});
        }
    }
    if (candidate.edits.isEmpty())
        return {};  // a dot without input_precision already runs at the backend's default
    candidate.recipeId = QStringLiteral("dot-tf32");
    candidate.title = QStringLiteral("fp32 dot inputs as %1 (matrix unit)").arg(fast.precision);
    candidate.rationale = QStringLiteral("The dot asks for slower fp32 products (%1), which do not run at the matrix "
                                         "unit's rate: %2 does and needs a tolerance of about %3; %4.")
                              .arg(fast.replaces.join(QLatin1String(" / ")), fast.precision)
                              .arg(fast.tolerance, 0, 'g', 2)
                              .arg(tolerance > 0 ? QStringLiteral("the task allows %1").arg(tolerance, 0, 'g', 3)
                                                 : QStringLiteral("the task's tolerance is not known, verification decides"));
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.value = 0.85;
    candidate.sets = {QStringLiteral("dot:precision")};
    return {candidate};
}

QVector<RecipeCandidate> proposeDotBf16(const RecipeContext &context)
{
    // fp32 operands as bf16 only when the task's tolerance is known to allow it. A dot whose
    // operands are upcast from 16 bits wants them as they were (dot-native-operands), not rounded.
    const double tolerance = context.request().outputTolerance;
    if (tolerance < kBf16Tolerance)
        return {};
    QVector<Finding> findings;
    for (const Finding &finding : context.findingsFor({QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("L3.fma-dot")})) {
        if (!finding.recipes.contains(QLatin1String("dot-native-operands")))
            findings.append(finding);
    }
    if (findings.isEmpty())
        return {};
    const SourceText &source = context.source();
    RecipeCandidate candidate;
    for (const Node &dot : dotCalls(context)) {
        const Node a = argument(dot, 0, "input"), b = argument(dot, 1, "other");
        if (a.isEmpty() || b.isEmpty() || !isType(a, "Name") || !isType(b, "Name"))
            continue;  // a computed operand would need parentheses and its own dtype reasoning
        for (const Node &operand : {a, b})
            candidate.edits.append({source.endOf(operand), source.endOf(operand), QStringLiteral(".to(tl.bfloat16)")});
        for (const char *name : {"input_precision", "allow_tf32"}) {
            for (const QJsonValue &item : children(dot, "keywords")) {
                if (item.toObject().value(QLatin1String("arg")).toString() != QLatin1String(name))
                    continue;
                const std::optional<TextEdit> removal = removeCallKeyword(source, dot, item.toObject());
                if (!removal)
                    return {};
                candidate.edits.append(*removal);
            }
        }
        candidate.expected.append({QStringLiteral("dot_operand_type"), lineOf(dot), QStringLiteral("bf16")});
    }
    if (candidate.edits.isEmpty())
        return {};
    candidate.recipeId = QStringLiteral("dot-bf16");
    candidate.title = QStringLiteral("fp32 dot operands as bf16 (tolerance %1)").arg(tolerance, 0, 'g', 3);
    candidate.rationale = QStringLiteral("The task allows a relative error of %1, which bf16 operands (8-bit mantissa, fp32 "
                                         "accumulation) meet: the dot runs at the 16-bit tensor-core rate (twice tf32 on "
                                         "Hopper, far above FMA) and its operand tiles take half the shared memory.")
                              .arg(tolerance, 0, 'g', 3);
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.value = 0.8;
    candidate.sets = {QStringLiteral("dot:precision")};
    return {candidate};
}

QVector<RecipeCandidate> proposeGroupSwizzle(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor(tileTriggers(context));
    const QVector<qint64> grid = context.grid();
    if (findings.isEmpty() || !hasDot(context) || (grid.size() >= 2 && grid[1] <= 1))
        return {};
    // Two top-level statements `a = tl.program_id(0)` and `b = tl.program_id(1)`.
    Node first, second;
    QString firstName, secondName;
    for (const QJsonValue &item : children(context.kernel().function(), "body")) {
        const Node statement = item.toObject();
        const QJsonArray targets = children(statement, "targets");
        const Node value = child(statement, "value");
        if (!isType(statement, "Assign") || targets.size() != 1 || !isType(targets[0].toObject(), "Name")
            || !isTritonCall(value, "program_id"))
            continue;
        const std::optional<qint64> axis = context.kernel().constValue(argument(value, 0, "axis"));
        const QString name = targets[0].toObject().value(QLatin1String("id")).toString();
        if (axis == 0 && firstName.isEmpty()) {
            first = statement;
            firstName = name;
        } else if (axis == 1 && secondName.isEmpty()) {
            second = statement;
            secondName = name;
        }
    }
    if (firstName.isEmpty() || secondName.isEmpty() || lineOf(second) <= lineOf(first)
        || context.source().text().contains(QLatin1String("num_programs")))
        return {};
    const SourceText &source = context.source();
    const QString indent = source.indentOf(lineOf(first));
    const QStringList lines = {
        QStringLiteral("# Grouped program order: 8 row blocks share each column block of B while it is in L2."),
        QStringLiteral("group_num_m = tl.num_programs(0)"),
        QStringLiteral("group_num_n = tl.num_programs(1)"),
        QStringLiteral("group_pid = tl.program_id(1) * group_num_m + tl.program_id(0)"),
        QStringLiteral("group_width = 8 * group_num_n"),
        QStringLiteral("group_first_m = (group_pid // group_width) * 8"),
        QStringLiteral("group_size_m = tl.minimum(group_num_m - group_first_m, 8)"),
        QStringLiteral("%1 = group_first_m + (group_pid % group_width) % group_size_m").arg(firstName),
        QStringLiteral("%1 = (group_pid % group_width) // group_size_m").arg(secondName)};
    RecipeCandidate candidate;
    candidate.edits.append({source.startOf(first), source.endOf(first), lines.join(QLatin1String("\n") + indent)});
    // Drop the second statement with its line (it is reassigned in the block above).
    const int secondLine = lineOf(second);
    const bool aloneOnLine = source.line(secondLine).trimmed() == source.slice(second).trimmed();
    if (aloneOnLine)
        candidate.edits.append({source.lineStart(secondLine), source.lineStart(secondLine + 1) < 0 ? int(source.text().size())
                                                                                              : source.lineStart(secondLine + 1), QString()});
    else
        candidate.edits.append({source.startOf(second), source.endOf(second), QStringLiteral("pass")});
    candidate.recipeId = QStringLiteral("group-m-swizzle");
    candidate.title = QStringLiteral("grouped program order (GROUP_M = 8)");
    candidate.rationale = QStringLiteral("Programs walk the output tiles column after column, so each B column block is "
                                         "reloaded from DRAM for every row; grouping 8 row blocks keeps A and B tiles in L2.");
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.value = 0.2;
    candidate.sets = {QStringLiteral("kernel:program-order")};
    return {candidate};
}

} // namespace strata::rewrite::recipes
