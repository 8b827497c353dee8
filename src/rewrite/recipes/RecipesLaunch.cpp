// Recipes on launch parameters: software pipelining stages, warps, block sizes.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <algorithm>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

qint64 nextPowerOfTwo(qint64 value)
{
    qint64 power = 1;
    while (power < value)
        power *= 2;
    return power;
}

namespace {

// Warps for an element-wise tile: about 16 elements per thread, 1..16 warps.
int warpsForTile(qint64 elements)
{
    return int(std::clamp<qint64>(nextPowerOfTwo(std::max<qint64>(1, elements / (32 * 16))), 1, 16));
}

// The one constexpr parameter that sizes the kernel's 1-D tile (a tl.arange extent) and that the
// launch passes by keyword; empty when there is none or more than one.
QString singleBlockParam(const RecipeContext &context)
{
    QStringList found;
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("arange")) {
        const QString extent = argument(call.node, 1, "end").value(QLatin1String("id")).toString();
        const diagnosis::KernelParam *param = context.kernel().param(extent);
        if (param && param->isConstexpr && !found.contains(extent))
            found.append(extent);
    }
    return found.size() == 1 && !context.launchKeyword(found.first()).isEmpty() ? found.first() : QString();
}

bool memoryBoundOrUnmeasured(const RecipeContext &context)
{
    const QJsonObject timing = context.request().timing;
    if (timing.isEmpty() || !timing.contains(QLatin1String("bound")))
        return true;
    return timing.value(QLatin1String("bound")).toString() == QLatin1String("memory")
           && timing.value(QLatin1String("roofline_pct")).toDouble(0) < 92;
}

// The measured occupancy findings whose binding limit is the registers: fewer CTAs fit by
// registers than by shared memory or by warps (the L2.low-occupancy evidence).
QVector<Finding> registerBoundOccupancy(const RecipeContext &context)
{
    QVector<Finding> bound;
    for (const Finding &finding : context.findingsFor({QStringLiteral("L2.low-occupancy")})) {
        const double registers = diagnosis::metricValue(finding, "blocks_by_registers", -1);
        const double shared = diagnosis::metricValue(finding, "blocks_by_shared_memory", -1);
        const double warps = diagnosis::metricValue(finding, "blocks_by_warps", -1);
        if (registers >= 0 && (shared < 0 || registers < shared) && (warps < 0 || registers < warps))
            bound.append(finding);
    }
    return bound;
}

// A kernel without a dot whose measured occupancy the registers bind (its warps wait on memory
// with too few of them resident): the same tile over twice the warps holds half the elements per
// thread, so about half the registers, and twice the CTAs fit. A dot's accumulator is another
// matter (the path above).
std::optional<RecipeCandidate> moreWarpsForRegisterBoundOccupancy(const RecipeContext &context)
{
    const QVector<Finding> findings = registerBoundOccupancy(context);
    const int current = context.numWarps(), wanted = current * 2;
    const qint64 tile = context.kernel().largestTile().elements;
    if (findings.isEmpty() || hasDot(context) || wanted > 16 || tile < qint64(wanted) * 32)
        return std::nullopt;  // fewer than one element per thread at the new count
    const std::optional<QVector<TextEdit>> edits = context.setLaunchOption(QStringLiteral("num_warps"), wanted);
    if (!edits)
        return std::nullopt;
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("retune-num-warps");
    candidate.title = QStringLiteral("num_warps %1 -> %2 (registers bind the occupancy)").arg(current).arg(wanted);
    candidate.rationale = QStringLiteral("The measured occupancy is bound by registers (%1 CTAs fit by registers): the %2-element "
                                         "tile holds %3 elements per thread at %4 warps and %5 at %6, so each thread needs fewer "
                                         "registers and more warps stay resident to wait on memory.")
                              .arg(diagnosis::metricValue(findings.first(), "blocks_by_registers", -1)).arg(tile)
                              .arg(double(tile) / (current * 32), 0, 'g', 3).arg(current)
                              .arg(double(tile) / (wanted * 32), 0, 'g', 3).arg(wanted);
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.edits = *edits;
    candidate.expected = {{QStringLiteral("num_warps"), 0, QString::number(wanted)}};
    candidate.value = 0.35;
    candidate.sets = {QStringLiteral("launch:num_warps")};
    return candidate;
}

} // namespace

QVector<RecipeCandidate> proposeLoopStages(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.unpipelined-dot-loop"),
                                                           QStringLiteral("L3.unpipelined-loop-load")});
    if (findings.isEmpty())
        return {};
    QVector<ExpectedFact> expected;
    for (const Finding &finding : findings) {
        if (finding.ruleId.startsWith(QLatin1String("L3")) || finding.ruleId.startsWith(QLatin1String("L4")))
            expected.append({QStringLiteral("async_copies"), finding.span.line, {}});
    }
    if (expected.isEmpty())
        expected.append({QStringLiteral("async_copies"), 0, {}});
    QVector<RecipeCandidate> out;
    const auto make = [&](QVector<TextEdit> edits, int stages, const QString &where) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("tl-range-num-stages");
        candidate.title = QStringLiteral("pipeline the dot loop: %1 stages (%2)").arg(stages).arg(where);
        candidate.rationale = QStringLiteral("The loop that feeds the dot loads synchronously (num_stages <= 1): with %1 "
                                             "stages the loads become cp.async / TMA copies that overlap the tensor-core work.")
                                  .arg(stages);
        candidate.findingRuleIds = context.ruleIdsOf(findings);
        candidate.edits = std::move(edits);
        candidate.expected = expected;
        candidate.value = stages == 3 ? 0.7 : 0.6;
        candidate.sets = {QStringLiteral("launch:num_stages")};
        out.append(candidate);
    };
    // A tl.range(..., num_stages=N <= 1) on the loop decides for that loop.
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        const Node stages = keyword(loop.iteratorCall, "num_stages");
        const std::optional<qint64> value = context.kernel().constValue(stages);
        if (!stages.isEmpty() && value && *value <= 1) {
            for (int wanted : {3, 4})
                make({{context.source().startOf(stages), context.source().endOf(stages), QString::number(wanted)}}, wanted,
                     QStringLiteral("tl.range on line %1").arg(lineOf(loop.node)));
            return out;
        }
    }
    if (context.numStages() > 1)
        return {};  // pipelining was asked for and did not happen: strides or copy sizes are the cause
    for (int wanted : {3, 4}) {
        if (const std::optional<QVector<TextEdit>> edits = context.setLaunchOption(QStringLiteral("num_stages"), wanted))
            make(*edits, wanted, context.decorators().autotuned() ? QStringLiteral("autotune configs") : QStringLiteral("launch"));
    }
    return out;
}

QVector<RecipeCandidate> proposeNumWarps(const RecipeContext &context)
{
    // Register pressure: spills, and the backend's rules that say the accumulator is too big for the warps.
    const QStringList pressure = QStringList{QStringLiteral("L3.register-spill")} + context.accumulatorPressureRules();
    const QVector<Finding> findings = context.findingsFor(QStringList{QStringLiteral("L1.num-warps-mismatch")} + pressure);
    if (findings.isEmpty()) {
        const std::optional<RecipeCandidate> occupancy = moreWarpsForRegisterBoundOccupancy(context);
        return occupancy ? QVector<RecipeCandidate>{*occupancy} : QVector<RecipeCandidate>{};
    }
    const int current = context.numWarps();
    int wanted = current;
    QString why;
    const MatmulRoles roles = matmulRoles(context);
    if (roles.valid() && roles.m > 0 && roles.n > 0) {
        wanted = 4;
        while (wanted < 8 && accumulatorRegisters(roles.m, roles.n, wanted) > 128)
            wanted *= 2;
        if (!context.findingsFor(pressure).isEmpty())
            wanted = std::max(wanted, std::min(current * 2, 8));
        why = QStringLiteral("a %1x%2 fp32 accumulator is %3 registers per thread at %4 warps and %5 at %6")
                  .arg(roles.m).arg(roles.n).arg(accumulatorRegisters(roles.m, roles.n, current)).arg(current)
                  .arg(accumulatorRegisters(roles.m, roles.n, wanted)).arg(wanted);
    } else {
        const qint64 tile = context.kernel().largestTile().elements;
        if (tile <= 0)
            return {};
        wanted = warpsForTile(tile);
        why = QStringLiteral("a %1-element tile gives %2 elements per thread at %3 warps and %4 at %5")
                  .arg(tile).arg(double(tile) / (current * 32), 0, 'g', 3).arg(current)
                  .arg(double(tile) / (wanted * 32), 0, 'g', 3).arg(wanted);
    }
    const std::optional<QVector<TextEdit>> edits = context.setLaunchOption(QStringLiteral("num_warps"), wanted);
    if (wanted == current || !edits)
        return {};
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("retune-num-warps");
    candidate.title = QStringLiteral("num_warps %1 -> %2").arg(current).arg(wanted);
    candidate.rationale = QStringLiteral("Warps do not fit the tile: %1.").arg(why);
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.edits = *edits;
    candidate.expected = {{QStringLiteral("num_warps"), 0, QString::number(wanted)}};
    if (!context.findingsFor({QStringLiteral("L3.register-spill")}).isEmpty())
        candidate.expected.append({QStringLiteral("spill_bytes"), 0, {}});
    candidate.value = 0.35;
    candidate.sets = {QStringLiteral("launch:num_warps")};
    return {candidate};
}

QVector<RecipeCandidate> proposeBlockSize(const RecipeContext &context)
{
    // Element-wise and row kernels (dot kernels get whole tiles from a backend's tile recipe).
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.tiny-block"), QStringLiteral("L1.num-warps-mismatch")});
    const QString block = singleBlockParam(context);
    const std::optional<qint64> current = context.constexprValue(block);
    if (hasDot(context) || block.isEmpty() || !current || *current <= 0 || (*current & (*current - 1)) != 0
        || (findings.isEmpty() && !memoryBoundOrUnmeasured(context))
        || (!context.gridDependsOn(block) && context.kernel().loops().isEmpty()))
        return {};
    QVector<RecipeCandidate> out;
    for (const qint64 factor : {4, 2, 8}) {
        const qint64 wanted = std::min<qint64>(*current * factor, 16384);
        if (wanted == *current || wanted < 1024 / factor)
            continue;
        std::optional<QVector<TextEdit>> edits = context.setLaunchConstexpr(block, wanted);
        // Never fewer warps than the launch has: a larger block refitted to 4 warps undid the
        // previous round's register-bound 8 (maxpool2d, H100 2026-12-08: 7 such candidates, all
        // 0.36x-0.76x).
        const int warps = std::max({warpsForTile(wanted), 4, context.numWarps()});
        const std::optional<QVector<TextEdit>> warpEdits = context.setLaunchOption(QStringLiteral("num_warps"), warps);
        if (!edits || !warpEdits)
            return out;
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("grow-block");
        candidate.title = QStringLiteral("%1 %2 -> %3 with %4 warps").arg(block).arg(*current).arg(wanted).arg(warps);
        candidate.rationale = QStringLiteral("Each program moves only %1 elements: larger blocks cut the per-program "
                                             "overhead and keep more bytes in flight per SM, which is what a "
                                             "memory-bound kernel on an H200 needs.").arg(*current);
        candidate.findingRuleIds = context.ruleIdsOf(findings);
        candidate.edits = *edits;
        if (warps != context.numWarps())
            candidate.edits += *warpEdits;
        candidate.value = (findings.isEmpty() ? 0.25 : 0.55) - 0.05 * out.size();
        candidate.sets = {QStringLiteral("constexpr:") + block, QStringLiteral("launch:num_warps")};
        out.append(candidate);
    }
    return out;
}

// thin-block: the other way to give each thread fewer elements when the registers bind a
// kernel's measured occupancy (no dot): the block halved at the same warps, the grid following it.
// On maxpool2d with paired window loads (125 registers at a 1024-element block on 4 warps) it was
// the faster of the two (H100, 2026-12-08: 0.1944 ms against 0.2079 ms for 8 warps), since the
// twice-as-many programs also spread the tail. The promised fact is the register count.
QVector<RecipeCandidate> proposeThinBlock(const RecipeContext &context)
{
    const QVector<Finding> findings = registerBoundOccupancy(context);
    const QString block = singleBlockParam(context);
    const std::optional<qint64> current = block.isEmpty() ? std::nullopt : context.constexprValue(block);
    const qint64 wanted = current ? *current / 2 : 0;
    if (findings.isEmpty() || hasDot(context) || !current || !isPowerOfTwo(*current) || wanted < qint64(context.numWarps()) * 32
        || (!context.gridDependsOn(block) && context.kernel().loops().isEmpty()))
        return {};
    const std::optional<QVector<TextEdit>> edits = context.setLaunchConstexpr(block, wanted);
    if (!edits)
        return {};
    RecipeCandidate candidate;
    candidate.recipeId = QStringLiteral("thin-block");
    candidate.title = QStringLiteral("%1 %2 -> %3 at %4 warps (registers bind the occupancy)").arg(block).arg(*current).arg(wanted)
                          .arg(context.numWarps());
    candidate.rationale = QStringLiteral("The measured occupancy is bound by registers (%1 CTAs fit by registers): half the block "
                                         "at the same %2 warps holds half the elements per thread, so each thread needs fewer "
                                         "registers and more warps stay resident to wait on memory.")
                              .arg(diagnosis::metricValue(findings.first(), "blocks_by_registers", -1)).arg(context.numWarps());
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.edits = *edits;
    candidate.expected = {{QStringLiteral("registers"), 0, {}}};
    candidate.value = 0.35;
    candidate.sets = {QStringLiteral("constexpr:") + block};
    return {candidate};
}

} // namespace strata::rewrite::recipes
