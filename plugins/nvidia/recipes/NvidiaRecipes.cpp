#include "NvidiaRecipes.h"
#include "NvidiaTargets.h"

namespace strata::nvidia {

using rewrite::recipes::RecipeContext;
using rewrite::recipes::RecipeInfo;

const QVector<RecipeInfo> &NvidiaRecipes::recipes() const
{
    // `before`: the place each had in the core's list before it moved here, so that candidates
    // worth the same are offered in the same order as then.
    static const QVector<RecipeInfo> recipes = {
        {QStringLiteral("hopper-dot-tile"),
         {QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"),
          QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L3.fma-dot"), QStringLiteral("L3.wgmma-serialized"),
          QStringLiteral("L3.register-spill"), QStringLiteral("L3.unpipelined-loop-load"), QStringLiteral("L3.dot-loop-feed")},
         proposeHopperDotTile, QStringLiteral("grow-block")},
        {QStringLiteral("tma-descriptors"), {QStringLiteral("source: dot operands loaded through pointer tiles"), QStringLiteral("L1.no-autotune")},
         proposeTmaDescriptors, QStringLiteral("single-pass-rows")},
        {QStringLiteral("relaxed-atomics"), {QStringLiteral("source: acquire-release atomics used as plain accumulation")},
         proposeRelaxedAtomics, QStringLiteral("evict-first-streaming")},
        {QStringLiteral("attention-tile"),
         {QStringLiteral("source: back-to-back dots over a one-warp-group query tile"), QStringLiteral("L1.small-dot-tile"),
          QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L2.latency-bound"), QStringLiteral("L2.compute-bound"),
          QStringLiteral("L3.wgmma-serialized"), QStringLiteral("L3.register-spill")},
         proposeAttentionTile, QStringLiteral("causal-block-skip")},
        {QStringLiteral("exp2-softmax"), {QStringLiteral("source: online softmax with tl.exp of scaled scores")}, proposeExp2Softmax,
         QStringLiteral("causal-block-skip")},
    };
    return recipes;
}

QString NvidiaRecipes::matrixDotKind(const RecipeContext &context, qint64 tileM, int warps) const
{
    // wgmma runs a warp group (4 warps) over 64 rows at a time; anything else is mma.sync.
    return isHopperTarget(context.target()) && tileM >= 64 && warps % 4 == 0 ? QStringLiteral("wgmma") : QStringLiteral("mma_v2");
}

QStringList NvidiaRecipes::accumulatorPressureRules() const
{
    return {QStringLiteral("L3.wgmma-serialized")};
}

NvidiaRecipes::FastFp32Dot NvidiaRecipes::fastFp32Dot() const
{
    // The verifier's relative tolerance for tf32 products (agent/strata_agent/verify.py).
    return {QStringLiteral("tf32"), 5e-4, {QStringLiteral("ieee"), QStringLiteral("tf32x3")}};
}

const NvidiaRecipes &nvidiaRecipes()
{
    static const NvidiaRecipes recipes;
    return recipes;
}

} // namespace strata::nvidia
