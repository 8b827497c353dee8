#pragma once
// One recipe: a deterministic source edit that findings trigger. A recipe looks at the context
// and returns zero or more candidates; the provider combines, ranks and de-duplicates them.
#include "rewrite/recipes/RecipeContext.h"

namespace strata::rewrite::recipes {

struct RecipeCandidate {
    QString recipeId;
    QString title;
    QString rationale;
    QStringList findingRuleIds;
    QVector<ExpectedFact> expected;
    QVector<TextEdit> edits;
    double value = 0;   // expected value, 0..1: the order proposals are offered in
    QStringList sets;   // what it decides ("launch:num_warps", "constexpr:BLOCK_M"): combinations
                        // never join two candidates that decide the same thing
    bool combinable = true;
};

struct RecipeInfo {
    QString id;
    QStringList triggers;  // finding rule ids (L1/L3; L4 findings count as the rule they examine)
    QVector<RecipeCandidate> (*propose)(const RecipeContext &context);
    // A backend's recipe (BackendRecipes): the core recipe its candidates come before when two
    // candidates are worth the same (the provider's sort is stable). Empty: after every core recipe.
    QString before;
};

// The core's recipes, offered for every backend, in the order ties of value keep (the provider
// ranks by value; RecipeProvider.cpp places a backend's own recipes among them).
const QVector<RecipeInfo> &coreRecipes();

// Recipes (one function each; RecipesMemory.cpp, RecipesMatmul.cpp, RecipesLaunch.cpp).
QVector<RecipeCandidate> proposeConstexprUnitStride(const RecipeContext &context);
QVector<RecipeCandidate> proposeDivisibilityHints(const RecipeContext &context);
QVector<RecipeCandidate> proposeEvictFirst(const RecipeContext &context);
QVector<RecipeCandidate> proposeDotTf32(const RecipeContext &context);
// convert-operand-once (RecipesConvertOnce.cpp): a dot operand converted by every program of another axis, converted once.
QVector<RecipeCandidate> proposeConvertOperandOnce(const RecipeContext &context);
QVector<RecipeCandidate> proposeDotBf16(const RecipeContext &context);
QVector<RecipeCandidate> proposeGroupSwizzle(const RecipeContext &context);
QVector<RecipeCandidate> proposeLoopStages(const RecipeContext &context);
QVector<RecipeCandidate> proposeNumWarps(const RecipeContext &context);
QVector<RecipeCandidate> proposeBlockSize(const RecipeContext &context);
QVector<RecipeCandidate> proposeThinBlock(const RecipeContext &context);
QVector<RecipeCandidate> proposeAutotune(const RecipeContext &context);
// RecipesParallelism.cpp
QVector<RecipeCandidate> proposeMorePrograms(const RecipeContext &context);
QVector<RecipeCandidate> proposeRowsPerProgram(const RecipeContext &context);
QVector<RecipeCandidate> proposeUnrollConstantLoops(const RecipeContext &context);
QVector<RecipeCandidate> proposeChunkedScan(const RecipeContext &context);     // RecipesScan.cpp
QVector<RecipeCandidate> proposeSinglePassRows(const RecipeContext &context);  // RecipesStructure.cpp
QVector<RecipeCandidate> proposeTiledTranspose(const RecipeContext &context);  // RecipesTranspose.cpp
// causal-block-skip and masked-block-split (RecipesAttention.cpp, RecipesAttentionEdits.cpp)
QVector<RecipeCandidate> proposeAttentionBlocks(const RecipeContext &context);
QVector<RecipeCandidate> proposeLinearRecurrenceScan(const RecipeContext &context);  // RecipesRecurrence.cpp
QVector<RecipeCandidate> proposeSplitReduction(const RecipeContext &context);        // RecipesSplitReduction.cpp
QVector<RecipeCandidate> proposePersistentGrid(const RecipeContext &context);        // RecipesPersistent.cpp
QVector<RecipeCandidate> proposeConstexprDivisors(const RecipeContext &context);     // RecipesIndexMath.cpp
QVector<RecipeCandidate> proposeFlattenDotLoopNest(const RecipeContext &context);    // RecipesLoopNest.cpp
QVector<RecipeCandidate> proposeLoadContiguousAxis(const RecipeContext &context);    // RecipesWindowLoads.cpp
QVector<RecipeCandidate> proposeConstexprWindow(const RecipeContext &context);       // RecipesWindowLoads.cpp

// Shared helpers.
struct MatmulRoles {
    QString blockM, blockN, blockK;  // constexpr parameters (empty when not found)
    int elementBytes = 2;             // of the dot inputs (2: fp16/bf16, 4: fp32 / tf32)
    qint64 m = 0, n = 0, k = 0;       // current values (launch constexprs), 0 when unknown
    bool valid() const { return !blockM.isEmpty() && !blockN.isEmpty() && !blockK.isEmpty(); }
};
// The tile parameters of a dot kernel: M and N from the accumulator's tl.zeros shape, K from the
// dot loop's step or the arange the loop's loads use. Keyed on structure, not names.
MatmulRoles matmulRoles(const RecipeContext &context);
bool hasDot(const RecipeContext &context);
// True when `name` is a tl.constexpr parameter of the kernel (RecipesMatmul.cpp).
bool isConstexprParam(const RecipeContext &context, const QString &name);
// The first `tl.zeros((R, C), ...)` whose R and C are both constexpr parameters, neither of them
// `excluded` (an accumulator's tile: matmulRoles' M x N, attention's query x head dimension).
std::optional<QPair<QString, QString>> constexprAccumulatorShape(const RecipeContext &context, const QString &excluded = {});
// The kernel's tl.dot calls, in source order (RecipesMatmul.cpp).
QVector<QJsonObject> dotCalls(const RecipeContext &context);
// Shared memory of a pipelined dot tile: (BM*BK + BK*BN) * bytes * stages.
qint64 tileSharedBytes(qint64 bm, qint64 bn, qint64 bk, int bytes, int stages);
// Accumulator registers per thread of a BMxBN fp32 tile over `warps` warps.
qint64 accumulatorRegisters(qint64 bm, qint64 bn, int warps);
// "tl" when the file imports triton.language as tl, else "triton.language"; the annotation
// of a new constexpr parameter written that way (RecipesMemory.cpp).
QString tritonLanguage(const RecipeContext &context);
QString constexprAnnotation(const RecipeContext &context);
// The edit that makes kernel parameter `name` a constexpr (`name: tl.constexpr` over its `def`
// argument, an annotation it had included); nullopt when the signature has no such argument.
std::optional<TextEdit> constexprParameterEdit(const RecipeContext &context, const QString &name);
// Adds that edit to `candidate` with what it decides (`param:<name>`); false, adding nothing,
// when the signature has no such argument.
bool addConstexprParameter(const RecipeContext &context, const QString &name, RecipeCandidate &candidate);
// The smallest power of two >= value (1 for value <= 1) (RecipesLaunch.cpp).
qint64 nextPowerOfTwo(qint64 value);
// The one element E of a 1-D grid written `(E,)`, with where it sits (the launch's grid or the
// local it is assigned from); nullopt for anything else (RecipesParallelism.cpp).
struct GridElement {
    QJsonObject node;   // the tuple expression's span
    QString element;    // E's text
};
std::optional<GridElement> oneDimensionalGrid(const RecipeContext &context);
// The line of the first finding (0 when none).
int firstLine(const QVector<diagnosis::Finding> &findings);

} // namespace strata::rewrite::recipes
