// Recipe attention-tile: the query tile, key tile, warps and stages of a kernel whose loop runs
// two dots back to back (scores = Q K^T, then acc += P V: flash attention and its kin), set to
// Hopper shapes. hopper-dot-tile cannot: its N is the head dimension (the accumulator's second
// axis), a shape the task decides, and its K is the key tile the second dot reduces over.
//
// Why a larger query tile: Hopper's wgmma runs a warp group over 64 rows, so a 64-row query block
// on 4 warps is one warp group that alternates its MMA with the softmax between the two dots, and
// every K and V tile staged in shared memory feeds only 64 query rows. A 128-row block on 8 warps
// has two warp groups (one's softmax overlaps the other's MMA) and reads each K/V tile once for
// twice the rows. A kernel at fewer than 3 stages is first offered its own tile at 3. The limits: shared memory (the Q tile plus each stage's K and V tiles) and the
// registers a thread holds for the accumulator, the score tile and its 16-bit copy.
#include "NvidiaRecipes.h"
#include "NvidiaTargets.h"

#include "diagnosis/l1_triage/PyAst.h"
#include "rewrite/recipes/AstNames.h"

namespace strata::nvidia {

using namespace diagnosis::pyast;
using namespace rewrite::recipes;
using diagnosis::Finding;

namespace {

const QString kShapeTrigger = QStringLiteral("source: back-to-back dots over a one-warp-group query tile");

struct AttentionRoles {
    QString queryBlock, keyBlock, headDim;  // constexpr parameters
    qint64 m = 0, n = 0, d = 0;             // their launch values
    int loopLine = 0;
};

int dotsIn(const Node &loop)
{
    int dots = 0;
    walk(loop, [&](const Node &node, const QVector<Node> &) { dots += isTritonCall(node, "dot"); });
    return dots;
}

// The key tile: the constexpr step of every loop holding two dots (a split loop has two such).
std::optional<AttentionRoles> readLoops(const RecipeContext &context)
{
    AttentionRoles roles;
    for (const diagnosis::LoopInfo &loop : context.kernel().loops()) {
        if (dotsIn(loop.node) < 2)
            continue;
        const QJsonArray args = children(loop.iteratorCall, "args");
        const QString step = args.size() == 3 ? nameOf(args.at(2).toObject()) : QString();
        if (step.isEmpty() || !isConstexprParam(context, step) || (!roles.keyBlock.isEmpty() && roles.keyBlock != step))
            return std::nullopt;
        roles.keyBlock = step;
        if (roles.loopLine == 0)
            roles.loopLine = lineOf(loop.node);
    }
    if (roles.keyBlock.isEmpty())
        return std::nullopt;
    return roles;
}

// The query tile and head dimension: the accumulator `tl.zeros((Q, D))`, both constexprs, neither the key tile.
std::optional<AttentionRoles> attentionRoles(const RecipeContext &context)
{
    std::optional<AttentionRoles> roles = readLoops(context);
    if (!roles)
        return std::nullopt;
    const std::optional<QPair<QString, QString>> shape = constexprAccumulatorShape(context, roles->keyBlock);
    if (!shape)
        return std::nullopt;
    roles->queryBlock = shape->first;
    roles->headDim = shape->second;
    roles->m = context.constexprValue(roles->queryBlock).value_or(0);
    roles->n = context.constexprValue(roles->keyBlock).value_or(0);
    roles->d = context.constexprValue(roles->headDim).value_or(0);
    if (roles->m == 0 || roles->n == 0 || roles->d == 0)
        return std::nullopt;
    return roles;
}

// Bytes per element of the kernel's narrowest pointer (the dot operands' type in these kernels).
int operandBytes(const RecipeContext &context)
{
    int bytes = 0;
    for (const diagnosis::KernelParam &param : context.kernel().params()) {
        const int size = elementBytesOf(context.pointerType(param.name));
        if (size > 0 && (bytes == 0 || size < bytes))
            bytes = size;
    }
    return bytes;
}

struct AttentionTileConfig {
    qint64 bm, bn;
    int warps, stages;
};

// Shared memory: the Q tile once, a K and a V tile per stage.
qint64 attentionSharedBytes(const AttentionTileConfig &tile, qint64 d, int bytes)
{
    return (tile.bm * d + qint64(tile.stages) * 2 * tile.bn * d) * bytes;
}

// Registers per thread: the fp32 accumulator and score tile, and the score tile's 16-bit copy.
qint64 attentionRegisters(const AttentionTileConfig &tile, qint64 d)
{
    const qint64 threads = 32LL * tile.warps;
    return (tile.bm * d + tile.bm * tile.bn + tile.bm * tile.bn / 2) / threads;
}

// Two warp groups over 128 query rows with 3 stages. Timed on an H100 (bench/results/
// recipes-untimed-2026-12-07c, head dimension 128): 128 x 64 keys won 4% on flash attention after
// masked-block-split and lost on causal attention; every 2-stage tile lost on both (128 x 128 at 2
// stages the worst, 0.71x-0.78x), so none is offered. 128 x 128 at 3 stages fits only smaller heads.
const QVector<AttentionTileConfig> kHopperAttentionTiles = {{128, 64, 8, 3}, {128, 128, 8, 3}};

// A thread may hold 255 registers; past ~160 for these tiles ptxas spills (the score tile and the
// accumulator live across the whole loop body).
constexpr qint64 kRegisterBudget = 160;

QString rationaleOf(const RecipeContext &context, const AttentionRoles &roles, const AttentionTileConfig &tile, qint64 shared,
                    qint64 registers)
{
    if (tile.bm == roles.m && tile.bn == roles.n)
        return QStringLiteral("The loop on line %1 streams its K and V tiles through %2 pipeline stages: a third keeps one "
                              "more tile pair in flight while both dots and the softmax run on the current one (%3 KiB of "
                              "shared memory).")
            .arg(roles.loopLine).arg(context.numStages()).arg(shared / 1024);
    return QStringLiteral("The loop on line %1 runs two dots back to back over a %2-row query tile on %3 warps: one warp "
                          "group that alternates its wgmma with the softmax, and every %4-key K/V tile feeds only %2 rows. "
                          "%5 rows on %6 warps: two warp groups, each K/V tile read once for all of them; %7 KiB of shared "
                          "memory, about %8 registers per thread for the accumulator and scores (head dimension %9).")
        .arg(roles.loopLine).arg(roles.m).arg(context.numWarps()).arg(roles.n).arg(tile.bm)
        .arg(tile.warps).arg(shared / 1024).arg(registers).arg(roles.d);
}

} // namespace

QVector<RecipeCandidate> proposeAttentionTile(const RecipeContext &context)
{
    const std::optional<AttentionRoles> roles = attentionRoles(context);
    if (!roles || operandBytes(context) != 2 || !isHopperTarget(context.target())
        || context.kernel().decorators().join(u' ').contains(QLatin1String("autotune")))
        return {};
    const QVector<Finding> findings = context.findingsFor(
        {QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L2.latency-bound"),
         QStringLiteral("L2.compute-bound"), QStringLiteral("L3.wgmma-serialized"), QStringLiteral("L3.register-spill")});
    const bool spills = !context.findingsFor({QStringLiteral("L3.register-spill"), QStringLiteral("L3.wgmma-serialized")}).isEmpty();
    const qint64 sharedLimit = nvidiaTargetLimits(context.target()).sharedBytesPerProgram;
    // The current tile with a third stage first: on causal attention at 2 stages it was the larger
    // lever (exp2 alone 1.05x, exp2 with 3 stages 1.22x, bench/results/mechanism-probes-2026-12-07).
    QVector<AttentionTileConfig> tiles;
    if (context.numStages() < 3)
        tiles.append({roles->m, roles->n, context.numWarps(), 3});
    // Already two or more warp groups over 128+ rows: no larger tile to offer.
    if (roles->m < 128 || context.numWarps() < 8)
        tiles += kHopperAttentionTiles;
    QVector<RecipeCandidate> out;
    int rank = 0;
    for (const AttentionTileConfig &tile : tiles) {
        const qint64 shared = attentionSharedBytes(tile, roles->d, 2);
        const qint64 registers = attentionRegisters(tile, roles->d);
        const bool same = tile.bm == roles->m && tile.bn == roles->n && tile.warps == context.numWarps() && tile.stages == context.numStages();
        if (same || shared > sharedLimit || registers > kRegisterBudget || (spills && registers > attentionRegisters({roles->m, roles->n, context.numWarps(), 1}, roles->d)))
            continue;
        const bool sameBlocks = tile.bm == roles->m && tile.bn == roles->n;
        const std::optional<QVector<TextEdit>> blocks = sameBlocks ? std::optional<QVector<TextEdit>>(QVector<TextEdit>{})
                                                                   : context.setLaunchConstexprs({{roles->queryBlock, tile.bm}, {roles->keyBlock, tile.bn}});
        const std::optional<QVector<TextEdit>> warps = context.setLaunchOption(QStringLiteral("num_warps"), tile.warps);
        const std::optional<QVector<TextEdit>> stages = context.setLaunchOption(QStringLiteral("num_stages"), tile.stages);
        if (!blocks || !warps || !stages)
            continue;
        ++rank;
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("attention-tile");
        candidate.title = QStringLiteral("attention tile %1 queries x %2 keys, %3 warps, %4 stages").arg(tile.bm).arg(tile.bn).arg(tile.warps).arg(tile.stages);
        candidate.rationale = rationaleOf(context, *roles, tile, shared, registers);
        candidate.findingRuleIds = QStringList{kShapeTrigger} + context.ruleIdsOf(findings);
        candidate.edits = *blocks + *warps + *stages;
        if (tile.warps != context.numWarps())
            candidate.expected.append({QStringLiteral("num_warps"), 0, QString::number(tile.warps)});
        if (tile.stages != context.numStages())
            candidate.expected.append({QStringLiteral("num_stages"), 0, QString::number(tile.stages)});
        // Below masked-block-split (0.5-0.7): measured, the tile is the smaller lever (see the table).
        candidate.value = (sameBlocks ? 0.6 : 0.45) - 0.05 * rank;
        candidate.sets = {QStringLiteral("launch:num_warps"), QStringLiteral("launch:num_stages")};
        if (!sameBlocks)
            candidate.sets += {QStringLiteral("constexpr:") + roles->queryBlock, QStringLiteral("constexpr:") + roles->keyBlock};
        out.append(candidate);
    }
    return out;
}

} // namespace strata::nvidia
