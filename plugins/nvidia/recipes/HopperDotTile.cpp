// Recipe hopper-dot-tile: the dot tile, warps and stages of a matmul-shaped kernel (M and N from
// its accumulator, K from its loop: rewrite::recipes::matmulRoles) set to shapes that keep Hopper's
// wgmma busy, within the shared memory and registers a block may use.
#include "NvidiaRecipes.h"
#include "NvidiaTargets.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;
using diagnosis::Finding;

namespace {

const QStringList kTileTriggers = {
    QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"),
    QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L3.fma-dot"), QStringLiteral("L3.wgmma-serialized"),
    QStringLiteral("L3.register-spill"), QStringLiteral("L3.unpipelined-loop-load")};

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

} // namespace

QVector<RecipeCandidate> proposeHopperDotTile(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor(kTileTriggers);
    const MatmulRoles roles = matmulRoles(context);
    if (findings.isEmpty() || !roles.valid() || roles.m == 0 || roles.n == 0 || roles.k == 0
        || context.kernel().decorators().join(u' ').contains(QLatin1String("autotune")))
        return {};
    const bool spills = !context.findingsFor({QStringLiteral("L3.register-spill"), QStringLiteral("L3.wgmma-serialized")}).isEmpty();
    const bool notWgmmaYet = !context.findingsFor({QStringLiteral("L3.fma-dot"), QStringLiteral("L3.mma-sync-dot")}).isEmpty()
                             || !isHopperTarget(context.target());
    QVector<RecipeCandidate> out;
    int rank = 0;
    for (const TileConfig &tile : hopperTiles(roles.elementBytes)) {
        ++rank;
        const bool same = tile.bm == roles.m && tile.bn == roles.n && tile.bk == roles.k
                          && tile.warps == context.numWarps() && tile.stages == context.numStages();
        const bool larger = tile.bm * tile.bn > roles.m * roles.n;
        if (same || (spills && larger) || tileSharedBytes(tile.bm, tile.bn, tile.bk, roles.elementBytes, tile.stages) > nvidiaTargetLimits(context.target()).sharedBytesPerProgram
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
                                       nvidiaRecipes().matrixDotKind(context, tile.bm, tile.warps)});
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

} // namespace strata::nvidia
