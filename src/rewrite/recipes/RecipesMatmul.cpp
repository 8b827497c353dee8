// Recipes for dot kernels: input precision, Hopper tile shapes, grouped program order.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

const QStringList kTileTriggers = {
    QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"),
    QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L3.fma-dot"), QStringLiteral("L3.wgmma-serialized"),
    QStringLiteral("L3.register-spill"), QStringLiteral("L3.unpipelined-loop-load")};

QVector<Node> dotCalls(const RecipeContext &context)
{
    QVector<Node> dots;
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("dot"))
        dots.append(call.node);
    return dots;
}

bool isConstexprParam(const RecipeContext &context, const QString &name)
{
    const diagnosis::KernelParam *param = context.kernel().param(name);
    return param && param->isConstexpr;
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

struct TileConfig {
    qint64 bm, bn, bk;
    int warps, stages;
};

// Hopper tiles that keep wgmma busy: M tile >= 64 per warp group, 8 warps for 128x128 and up,
// 3-4 stages within 227 KiB of shared memory.
QVector<TileConfig> hopperTiles(int bytes)
{
    if (bytes <= 1)
        return {{128, 256, 128, 8, 3}, {128, 128, 128, 8, 4}};
    if (bytes == 2)
        return {{128, 128, 64, 8, 3}, {128, 256, 64, 8, 3}, {128, 128, 64, 8, 4}, {256, 128, 64, 8, 3}, {128, 256, 64, 8, 4}};
    return {{128, 128, 32, 8, 3}, {128, 256, 32, 8, 3}, {128, 64, 32, 4, 4}};
}

QString dotKindWanted(const RecipeContext &context, qint64 bm, int warps)
{
    return context.isHopper() && bm >= 64 && warps % 4 == 0 ? QStringLiteral("wgmma") : QStringLiteral("mma_v2");
}

} // namespace

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

MatmulRoles matmulRoles(const RecipeContext &context)
{
    MatmulRoles roles;
    if (!hasDot(context))
        return roles;
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("zeros")) {
        const QJsonArray shape = children(argument(call.node, 0, "shape"), "elts");
        if (shape.size() != 2)
            continue;
        const QString m = shape[0].toObject().value(QLatin1String("id")).toString();
        const QString n = shape[1].toObject().value(QLatin1String("id")).toString();
        if (isConstexprParam(context, m) && isConstexprParam(context, n)) {
            roles.blockM = m;
            roles.blockN = n;
            break;
        }
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

// The relative errors the verifier allows (agent/strata_agent/verify.py): tf32 operands (10-bit
// mantissa) need 5e-4, bf16 operands (7-bit) the 1e-2 it allows 16-bit outputs.
constexpr double kTf32Tolerance = 5e-4;
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
    if (findings.isEmpty() || (tolerance > 0 && tolerance < kTf32Tolerance))
        return {};  // tf32 products would not verify within the task's tolerance
    const SourceText &source = context.source();
    RecipeCandidate candidate;
    for (const Node &dot : dotCalls(context)) {
        for (const QJsonValue &item : children(dot, "keywords")) {
            const Node keywordNode = item.toObject();
            const QString name = keywordNode.value(QLatin1String("arg")).toString();
            const Node value = child(keywordNode, "value");
            const QJsonValue constant = value.value(QLatin1String("value"));
            if (name == QLatin1String("input_precision") && isType(value, "Constant")
                && (constant.toString() == QLatin1String("ieee") || constant.toString() == QLatin1String("tf32x3")))
                candidate.edits.append({source.startOf(value), source.endOf(value), QStringLiteral("\"tf32\"")});
            else if (name == QLatin1String("allow_tf32") && isType(value, "Constant") && constant.isBool() && !constant.toBool())
                candidate.edits.append({source.startOf(keywordNode), source.endOf(keywordNode), QStringLiteral("input_precision=\"tf32\"")});
        }
        if (!candidate.edits.isEmpty() && candidate.expected.isEmpty()) {
            const MatmulRoles roles = matmulRoles(context);
            candidate.expected.append({QStringLiteral("dot_kind"), lineOf(dot), dotKindWanted(context, roles.m, context.numWarps())});
        }
    }
    if (candidate.edits.isEmpty())
        return {};  // a dot without input_precision already runs as tf32 (Triton's default)
    candidate.recipeId = QStringLiteral("dot-tf32");
    candidate.title = QStringLiteral("fp32 dot inputs as tf32 (tensor cores)");
    candidate.rationale = QStringLiteral("The dot asks for IEEE fp32 products, which Triton lowers to FMA (or 3xTF32): "
                                         "tf32 runs on tensor cores (wgmma on Hopper) and needs a tolerance of about 5e-4; %1.")
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

QVector<RecipeCandidate> proposeMatmulTile(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor(kTileTriggers);
    const MatmulRoles roles = matmulRoles(context);
    if (findings.isEmpty() || !roles.valid() || roles.m == 0 || roles.n == 0 || roles.k == 0
        || context.kernel().decorators().join(u' ').contains(QLatin1String("autotune")))
        return {};
    const bool spills = !context.findingsFor({QStringLiteral("L3.register-spill"), QStringLiteral("L3.wgmma-serialized")}).isEmpty();
    const bool notWgmmaYet = !context.findingsFor({QStringLiteral("L3.fma-dot"), QStringLiteral("L3.mma-sync-dot")}).isEmpty()
                             || !context.isHopper();
    QVector<RecipeCandidate> out;
    int rank = 0;
    for (const TileConfig &tile : hopperTiles(roles.elementBytes)) {
        ++rank;
        const bool same = tile.bm == roles.m && tile.bn == roles.n && tile.bk == roles.k
                          && tile.warps == context.numWarps() && tile.stages == context.numStages();
        const bool larger = tile.bm * tile.bn > roles.m * roles.n;
        if (same || (spills && larger) || tileSharedBytes(tile.bm, tile.bn, tile.bk, roles.elementBytes, tile.stages) > kMaxSharedBytes
            || accumulatorRegisters(tile.bm, tile.bn, tile.warps) > 128)
            continue;
        std::optional<QVector<TextEdit>> edits = context.setLaunchConstexprs(
            {{roles.blockM, tile.bm}, {roles.blockN, tile.bn}, {roles.blockK, tile.bk}});
        const std::optional<QVector<TextEdit>> warps = context.setLaunchOption(QStringLiteral("num_warps"), tile.warps);
        const std::optional<QVector<TextEdit>> stages = context.setLaunchOption(QStringLiteral("num_stages"), tile.stages);
        if (!edits || !warps || !stages)
            continue;
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("hopper-dot-tile");
        candidate.title = QStringLiteral("dot tile %1x%2x%3, %4 warps, %5 stages").arg(tile.bm).arg(tile.bn).arg(tile.bk).arg(tile.warps).arg(tile.stages);
        candidate.rationale = QStringLiteral("The %1x%2x%3 tile with %4 warps is too small to keep Hopper's tensor cores busy "
                                             "(wgmma wants an M tile of 64+ per warp group and 128x128+ per block); "
                                             "%5 KiB of pipelined shared memory, %6 accumulator registers per thread.")
                                  .arg(roles.m).arg(roles.n).arg(roles.k).arg(context.numWarps())
                                  .arg(tileSharedBytes(tile.bm, tile.bn, tile.bk, roles.elementBytes, tile.stages) / 1024)
                                  .arg(accumulatorRegisters(tile.bm, tile.bn, tile.warps));
        if (spills)
            candidate.rationale = QStringLiteral("Register spills / serialized wgmma at %1x%2: a smaller accumulator per thread. ")
                                      .arg(roles.m).arg(roles.n) + candidate.rationale;
        candidate.findingRuleIds = context.ruleIdsOf(findings);
        candidate.edits = *edits;
        candidate.edits += *warps;
        candidate.edits += *stages;
        // The dot's kind is promised only where a finding says it is not wgmma yet: a kernel
        // already on wgmma (any 16-bit dot with a 64+ row tile and whole warp groups) cannot
        // change it, and promising it rejected every retile of a wgmma kernel unless the warps
        // changed too (the H100 run of 2026-12-06: 128x256 never timed after round 1). A retile
        // at the same warps and stages promises no IR fact: the tile is a launch shape.
        const QVector<Node> dots = dotCalls(context);
        if (notWgmmaYet)
            candidate.expected.append({QStringLiteral("dot_kind"), dots.isEmpty() ? 0 : lineOf(dots.first()),
                                       dotKindWanted(context, tile.bm, tile.warps)});
        if (tile.warps != context.numWarps())
            candidate.expected.append({QStringLiteral("num_warps"), 0, QString::number(tile.warps)});
        if (tile.stages != context.numStages())
            candidate.expected.append({QStringLiteral("num_stages"), 0, QString::number(tile.stages)});
        if (!notWgmmaYet && tile.warps == context.numWarps() && tile.stages == context.numStages())
            candidate.expected.clear();
        const bool grows = tile.bm * tile.bn > roles.m * roles.n;
        candidate.value = (grows && roles.m * roles.n < 128 * 128 ? 0.92 : 0.5) - 0.05 * rank;
        candidate.sets = {QStringLiteral("constexpr:") + roles.blockM, QStringLiteral("constexpr:") + roles.blockN,
                          QStringLiteral("constexpr:") + roles.blockK, QStringLiteral("launch:num_warps"),
                          QStringLiteral("launch:num_stages")};
        out.append(candidate);
    }
    return out;
}

QVector<RecipeCandidate> proposeGroupSwizzle(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor(kTileTriggers);
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
