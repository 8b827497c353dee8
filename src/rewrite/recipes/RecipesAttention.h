#pragma once
// The key/value loop of a flash-attention-style kernel as the attention recipes read it
// (RecipesAttention.cpp reads it, RecipesAttentionEdits.cpp rewrites it).
#include "rewrite/recipes/RecipeContext.h"

namespace strata::rewrite::recipes::attention {

using Node = QJsonObject;

// `for n in range(0, END, BLOCK_N)` (or tl.range, keywords kept) with a dot inside, no store or
// atomic, no branch or early exit, and one `S = tl.where(MASK, X, -inf)` whose MASK is a `&` of
// terms: the causal compare of query and key offsets, key bounds `k < B`, and others.
struct MaskedLoop {
    const diagnosis::LoopInfo *loop = nullptr;
    QString induction;
    Node start, end;           // the range's first two arguments (start is 0)
    QString step;              // the BLOCK_N constexpr parameter
    qint64 stepValue = 0;
    Node whereStatement, where;
    QString masked;            // S
    Node maskStatement;        // `mask = ...` in the body when the where reads a name (else empty)
    Node causalTerm;           // `q[:, None] >= k[None, :]` (empty when the mask has none)
    QString queryBase;         // the first query offset of the program (BASE), text
    Node queryBaseNode;
    QString queryBlock;        // BLOCK_M, text
    QVector<Node> boundTerms;  // `k < B` terms
    QStringList keyBounds;     // their B, text
    QVector<Node> keptTerms;   // every other term
    bool endFollowsProgram = false;       // END depends on a program id (already stops near the diagonal)
    bool skippableBlocksAreNoOps = false; // S reaches only a row max and exp(S - m): a fully masked block changes nothing

    bool causal() const { return !causalTerm.isEmpty(); }
};

std::optional<MaskedLoop> readMaskedLoop(const RecipeContext &context);
// True when every use of S after the where is a row max (`tl.max(S, ...)`) or an exp of S minus
// something (scaled), directly or through names assigned such a difference, and S is not read
// after the loop: then a block with every score -inf adds exp(-inf) = 0 everywhere and leaves the
// running max alone, whatever the rest of the online softmax does with them.
bool maskedScoresVanish(const RecipeContext &context, const MaskedLoop &loop);

} // namespace strata::rewrite::recipes::attention
