#pragma once
// The NVIDIA backend's part of the built-in recipes (rewrite/recipes/BackendRecipes.h): the recipes
// that rest on what NVIDIA's hardware and compiler do (Hopper's wgmma tile shapes, TMA tensor
// descriptors, what ptxas makes of acquire-release atomics), the dot kinds its L3 facts name, and
// its L3 rule of a serialized wgmma. A static library (strata_nvidia_recipes): the plugin hands it
// out (BackendPlugin::recipes), tests may link it without loading the plugin.
#include "rewrite/recipes/BackendRecipes.h"

namespace strata::nvidia {

class NvidiaRecipes : public rewrite::recipes::BackendRecipes {
public:
    const QVector<rewrite::recipes::RecipeInfo> &recipes() const override;
    // "wgmma" for a Hopper dot of 64+ rows over whole warp groups, else "mma_v2" (mma.sync).
    QString matrixDotKind(const rewrite::recipes::RecipeContext &context, qint64 tileM, int warps) const override;
    // L3.wgmma-serialized: the accumulator does not fit the warps' registers, so wgmma waits.
    QStringList accumulatorPressureRules() const override;
    // tf32 (10-bit mantissa: ~5e-4 relative error) in place of "ieee" or "tf32x3".
    FastFp32Dot fastFp32Dot() const override;
};

const NvidiaRecipes &nvidiaRecipes();

// The recipes, one function each.
// hopper-dot-tile (HopperDotTile.cpp): dot tiles, warps and stages that keep wgmma busy.
QVector<rewrite::recipes::RecipeCandidate> proposeHopperDotTile(const rewrite::recipes::RecipeContext &context);
// tma-descriptors (TmaDescriptors.cpp): the dot loop's tile loads through TMA tensor descriptors.
QVector<rewrite::recipes::RecipeCandidate> proposeTmaDescriptors(const rewrite::recipes::RecipeContext &context);
// relaxed-atomics (RelaxedAtomics.cpp): accumulating atomics without acquire-release order.
QVector<rewrite::recipes::RecipeCandidate> proposeRelaxedAtomics(const rewrite::recipes::RecipeContext &context);

// attention-tile (AttentionTile.cpp): query/key tiles, warps and stages of a loop of back-to-back dots.
QVector<rewrite::recipes::RecipeCandidate> proposeAttentionTile(const rewrite::recipes::RecipeContext &context);


// exp2-softmax (Exp2Softmax.cpp): an online softmax in base 2, log2(e) folded into the score scale.
QVector<rewrite::recipes::RecipeCandidate> proposeExp2Softmax(const rewrite::recipes::RecipeContext &context);

} // namespace strata::nvidia
