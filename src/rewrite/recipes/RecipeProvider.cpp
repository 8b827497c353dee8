#include "rewrite/recipes/RecipeProvider.h"

#include <QCryptographicHash>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

namespace strata::rewrite::recipes {

const QVector<RecipeInfo> &coreRecipes()
{
    static const QVector<RecipeInfo> recipes = {
        {QStringLiteral("constexpr-unit-stride"),
         {QStringLiteral("L1.runtime-unit-stride"), QStringLiteral("L3.scalar-global-access"), QStringLiteral("L3.unpipelined-loop-load")},
         proposeConstexprUnitStride},
        {QStringLiteral("constexpr-divisors"),
         {QStringLiteral("L1.per-element-divmod"), QStringLiteral("source: per-element // or % by a run-time int")},
         proposeConstexprDivisors},
        {QStringLiteral("divisibility-hints"), {QStringLiteral("L3.scalar-global-access"), QStringLiteral("L1.runtime-unit-stride")},
         proposeDivisibilityHints},
        {QStringLiteral("dot-tf32"), {QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("L3.fma-dot")}, proposeDotTf32},
        {QStringLiteral("dot-bf16"), {QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("L3.fma-dot"), QStringLiteral("task: tolerance >= 1e-2")},
         proposeDotBf16},
        {QStringLiteral("convert-operand-once"), {QStringLiteral("source: a dot operand converted by every program of another grid axis")},
         proposeConvertOperandOnce},
        {QStringLiteral("tl-range-num-stages"), {QStringLiteral("L1.unpipelined-dot-loop"), QStringLiteral("L3.unpipelined-loop-load")},
         proposeLoopStages},
        // flatten-dot-loop-nest, retune-num-warps and group-m-swizzle also answer the backend's
        // BackendRecipes::accumulatorPressureRules.
        {QStringLiteral("flatten-dot-loop-nest"), {QStringLiteral("L1.unpipelined-dot-loop")},
         proposeFlattenDotLoopNest},
        {QStringLiteral("retune-num-warps"), {QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L3.register-spill"), QStringLiteral("L2.low-occupancy")},
         proposeNumWarps},
        {QStringLiteral("thin-block"), {QStringLiteral("L2.low-occupancy")}, proposeThinBlock},
        {QStringLiteral("grow-block"), {QStringLiteral("L1.tiny-block"), QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("timing: memory-bound")},
         proposeBlockSize},
        {QStringLiteral("group-m-swizzle"),
         {QStringLiteral("L1.small-dot-tile"), QStringLiteral("L1.no-autotune"), QStringLiteral("L3.unpipelined-loop-load")},
         proposeGroupSwizzle},
        {QStringLiteral("autotune-blocks"),
         {QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"), QStringLiteral("L1.num-warps-mismatch"),
          QStringLiteral("L1.small-dot-tile"), QStringLiteral("L3.dot-loop-feed"), QStringLiteral("timing: memory-bound")},
         proposeAutotune},
        {QStringLiteral("more-programs"), {QStringLiteral("launch: fewer than 2 programs per SM"), QStringLiteral("L2.low-occupancy")},
         proposeMorePrograms},
        {QStringLiteral("split-reduction"), {QStringLiteral("launch: fewer than 2 programs per SM"), QStringLiteral("L1.under-filled-grid")},
         proposeSplitReduction},
        {QStringLiteral("rows-per-program"), {QStringLiteral("launch: many programs of one small tile"), QStringLiteral("L1.tiny-block")},
         proposeRowsPerProgram},
        {QStringLiteral("persistent-grid"),
         {QStringLiteral("launch: many programs per compute unit"), QStringLiteral("L3.wave-tail"), QStringLiteral("L3.dot-loop-feed")},
         proposePersistentGrid},
        {QStringLiteral("single-pass-rows"), {QStringLiteral("L1.multi-pass-reread")}, proposeSinglePassRows},
        {QStringLiteral("tiled-transpose"), {QStringLiteral("source: permutation copy through a decoded flat index")}, proposeTiledTranspose},
        // One entry proposes both ids: the split is the skip's second half.
        {QStringLiteral("causal-block-skip"),
         {QStringLiteral("source: causal mask on every key block"), QStringLiteral("source: key-bound mask on every key block")},
         proposeAttentionBlocks},
        {QStringLiteral("linear-recurrence-scan"), {QStringLiteral("source: serial linear recurrence")}, proposeLinearRecurrenceScan},
        {QStringLiteral("chunked-scan"), {QStringLiteral("source: serial running-sum loop")}, proposeChunkedScan},
        {QStringLiteral("constexpr-window"), {QStringLiteral("source: window loop over run-time bounds"), QStringLiteral("L1.strided-access")},
         proposeConstexprWindow},
        {QStringLiteral("load-contiguous-axis"), {QStringLiteral("L1.strided-access"), QStringLiteral("L3.scalar-global-access")},
         proposeLoadContiguousAxis},
        {QStringLiteral("unroll-constant-loops"), {QStringLiteral("source: short constant-trip loop")}, proposeUnrollConstantLoops},
        {QStringLiteral("evict-first-streaming"), {QStringLiteral("timing: memory-bound")}, proposeEvictFirst},
    };
    return recipes;
}

QString taskTextSha256(const QString &text)
{
    return QString::fromLatin1(QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString requestTarget(const RewriteRequest &request)
{
    return request.launch.value(QLatin1String("spec")).toObject().value(QLatin1String("target")).toString();
}

QVector<RecipeInfo> recipesWith(const BackendRecipes *backend)
{
    QVector<RecipeInfo> recipes = coreRecipes();
    if (!backend)
        return recipes;
    // Each before the core recipe it names: candidates worth the same keep this order, and a
    // backend's recipes keep the place they had when they were the core's.
    for (const RecipeInfo &own : backend->recipes()) {
        qsizetype at = recipes.size();
        for (qsizetype i = 0; i < recipes.size() && !own.before.isEmpty(); ++i) {
            if (recipes.at(i).id == own.before) {
                at = i;
                break;
            }
        }
        recipes.insert(at, own);
    }
    return recipes;
}

Expected<QVector<RecipeCandidate>> recipeCandidates(const RewriteRequest &request, const BackendRecipes *backend)
{
    Expected<RecipeContext> context = RecipeContext::build(request, backend);
    if (!context)
        return context.error();
    QVector<RecipeCandidate> all;
    for (const RecipeInfo &recipe : recipesWith(backend))
        all += recipe.propose(*context);
    return all;
}

namespace {

// Recipes edit the task text at the spans of the kernel's AST, which are those of the file that
// defines the kernel. A kernel imported from a library (flag_gems/ops/embedding.py) has its spans
// in that file: applied to the task they wrote `def forward(self, a, b):, eviction_policy=...`
// (H200, tuned-libs, 2026-12-04).
bool kernelDefinedInTask(const RewriteRequest &request)
{
    const QString kernelFile = request.ast.value(QLatin1String("source_path")).toString();
    if (kernelFile.isEmpty() || request.taskPath.isEmpty())
        return true;  // nothing says otherwise (tests that build a request by hand)
    const QFileInfo kernel(kernelFile), task(request.taskPath);
    const QString kernelPath = kernel.canonicalFilePath().isEmpty() ? kernel.absoluteFilePath() : kernel.canonicalFilePath();
    const QString taskPath = task.canonicalFilePath().isEmpty() ? task.absoluteFilePath() : task.canonicalFilePath();
    return kernelPath == taskPath;
}

double severityBoost(const RewriteRequest &request, const RecipeCandidate &candidate)
{
    // Findings the ladder ranked first make their recipes worth more.
    int best = 1000;
    for (const QString &rule : candidate.findingRuleIds) {
        const int rank = int(request.rankedRuleIds.indexOf(rule));
        if (rank >= 0)
            best = std::min(best, rank);
    }
    return best == 1000 ? 1.0 : 1.0 + 0.05 * std::max(0, 3 - best);
}

bool compatible(const RecipeCandidate &a, const RecipeCandidate &b)
{
    for (const QString &decided : a.sets) {
        if (b.sets.contains(decided))
            return false;
    }
    return editsCompatible(a.edits, b.edits);
}

RecipeCandidate combine(const QVector<RecipeCandidate> &parts)
{
    RecipeCandidate combined;
    QStringList ids, titles, rationales;
    double miss = 1;
    for (const RecipeCandidate &part : parts) {
        ids.append(part.recipeId);
        titles.append(part.title);
        rationales.append(part.rationale);
        combined.edits += part.edits;
        combined.sets += part.sets;
        for (ExpectedFact fact : part.expected) {
            if (fact.promisedBy.isEmpty())
                fact.promisedBy = part.recipeId;
            combined.expected.append(fact);
        }
        for (const QString &rule : part.findingRuleIds) {
            if (!combined.findingRuleIds.contains(rule))
                combined.findingRuleIds.append(rule);
        }
        miss *= 1 - part.value;
    }
    combined.recipeId = ids.join(u'+');
    combined.title = titles.join(QLatin1String("; "));
    combined.rationale = rationales.join(u' ');
    combined.value = 1 - miss;
    return combined;
}

// The greedy combination of every compatible candidate worth >= 0.15, best first, and the
// best candidate paired with each compatible one.
QVector<RecipeCandidate> combinations(const QVector<RecipeCandidate> &sorted)
{
    QVector<RecipeCandidate> out;
    QVector<RecipeCandidate> chosen;
    for (const RecipeCandidate &candidate : sorted) {
        if (!candidate.combinable || candidate.value < 0.15)
            continue;
        bool fits = true;
        for (const RecipeCandidate &taken : chosen)
            fits = fits && compatible(taken, candidate);
        if (fits)
            chosen.append(candidate);
    }
    if (chosen.size() >= 2)
        out.append(combine(chosen));
    for (int i = 1; i < sorted.size() && !sorted.isEmpty(); ++i) {
        if (sorted.first().combinable && sorted.at(i).combinable && compatible(sorted.first(), sorted.at(i)))
            out.append(combine({sorted.first(), sorted.at(i)}));
    }
    return out;
}

// The best candidate's pairings outrank every single candidate, so a round of a few proposals can
// be all one choice: conv3x3's five were all the 128 x 128 tile (H100, 2026-12-08), and the
// 128 x 256 tile that had been the best of the run before was never timed. The best single
// candidate that decides what the best one decides, differently (a rival tile, another warp
// count), takes the last place of the round when it would fall outside it.
void keepARival(const QVector<RecipeCandidate> &sorted, int maxProposals, QVector<RecipeCandidate> &all)
{
    if (sorted.size() < 2 || maxProposals < 3 || all.size() <= maxProposals)
        return;
    const RecipeCandidate &best = sorted.first();
    for (qsizetype i = 1; i < sorted.size(); ++i) {
        const RecipeCandidate &other = sorted.at(i);
        const bool rival = std::any_of(other.sets.begin(), other.sets.end(),
                                       [&best](const QString &decided) { return best.sets.contains(decided); });
        if (!rival)
            continue;
        const auto at = std::find_if(all.begin(), all.end(), [&other](const RecipeCandidate &candidate) {
            return candidate.recipeId == other.recipeId && candidate.title == other.title;
        });
        if (at - all.begin() >= maxProposals - 1) {
            const RecipeCandidate moved = *at;
            all.erase(at);
            all.insert(maxProposals - 1, moved);
        }
        return;
    }
}

} // namespace

Expected<QVector<RewriteProposal>> RecipeProvider::propose(const RewriteRequest &request)
{
    if (request.ast.value(QLatin1String("ast")).toObject().isEmpty())
        return QVector<RewriteProposal>{};  // no AST of the kernel: recipes have nothing to key on
    if (!kernelDefinedInTask(request))
        return QVector<RewriteProposal>{};  // the edits' spans are the kernel file's: they would corrupt the task text
    const BackendRecipes *backend = m_backendOf ? m_backendOf(requestTarget(request)) : nullptr;
    Expected<QVector<RecipeCandidate>> candidates = recipeCandidates(request, backend);
    if (!candidates)
        return candidates.error();
    QVector<RecipeCandidate> sorted = *candidates;
    for (RecipeCandidate &candidate : sorted)
        candidate.value = std::min(0.99, candidate.value * severityBoost(request, candidate));
    const auto byValue = [](const RecipeCandidate &a, const RecipeCandidate &b) { return a.value > b.value; };
    std::stable_sort(sorted.begin(), sorted.end(), byValue);
    QVector<RecipeCandidate> all = sorted + combinations(sorted);
    std::stable_sort(all.begin(), all.end(), byValue);
    keepARival(sorted, request.maxProposals, all);

    QVector<RewriteProposal> proposals;
    QSet<QString> seen(request.alreadyTried.begin(), request.alreadyTried.end());
    seen.insert(taskTextSha256(request.taskText));
    for (const RecipeCandidate &candidate : all) {
        if (proposals.size() >= request.maxProposals)
            break;
        const Expected<QString> text = applyEdits(request.taskText, candidate.edits);
        if (!text)
            continue;  // overlapping edits of a combination: its parts are offered on their own
        const QString sha = taskTextSha256(*text);
        if (seen.contains(sha))
            continue;
        seen.insert(sha);
        RewriteProposal proposal;
        proposal.provider = QStringLiteral("recipe");
        proposal.recipeId = candidate.recipeId;
        proposal.title = candidate.title;
        proposal.rationale = candidate.rationale;
        proposal.newText = *text;
        proposal.findingRuleIds = candidate.findingRuleIds;
        proposal.expected = candidate.expected;
        proposals.append(proposal);
    }
    return proposals;
}

} // namespace strata::rewrite::recipes
