// The split of the built-in recipes between the core and a backend (issue #16): the core lists no
// backend's recipe, the NVIDIA plugin hands out its own (BackendPlugin::recipes), and together
// they keep the order the recipes had when all of them were the core's, so that candidates worth
// the same are offered as before. No agent needed.
#include "host/BackendPlugin.h"
#include "host/PluginRegistry.h"
#include "optimize/ProviderSet.h"
#include "recipes/NvidiaRecipes.h"
#include "rewrite/recipes/RecipeProvider.h"

#include <QTest>

using namespace strata;
using namespace strata::rewrite::recipes;

class TestBackendRecipes : public QObject {
    Q_OBJECT
private slots:
    void coreListsNoBackendRecipe();
    void nvidiaRecipesKeepTheirPlace();
    void nvidiaFactsAnswerTheCoreRecipes();
    void pluginOfTheTargetHandsOutItsRecipes();
    void providerWithoutBackendRunsTheCoreRecipes();
};

namespace {

QStringList idsOf(const QVector<RecipeInfo> &recipes)
{
    QStringList ids;
    for (const RecipeInfo &recipe : recipes)
        ids.append(recipe.id);
    return ids;
}

} // namespace

void TestBackendRecipes::coreListsNoBackendRecipe()
{
    const QStringList core = idsOf(coreRecipes());
    for (const char *own : {"hopper-dot-tile", "tma-descriptors", "relaxed-atomics"})
        QVERIFY2(!core.contains(QLatin1String(own)), own);
    QCOMPARE(idsOf(recipesWith(nullptr)), core);
    // Every core recipe proposes something of its own; no trigger names an NVIDIA rule.
    for (const RecipeInfo &recipe : coreRecipes()) {
        QVERIFY(recipe.propose);
        QVERIFY(recipe.before.isEmpty());
        for (const QString &trigger : recipe.triggers)
            QVERIFY2(!trigger.contains(QLatin1String("wgmma")), qPrintable(recipe.id + u' ' + trigger));
    }
}

void TestBackendRecipes::nvidiaRecipesKeepTheirPlace()
{
    // The order of the one list before the move (RecipeProvider.cpp at 91b5a8b), with the core's
    // persistent-grid, constexpr-divisors, convert-operand-once and flatten-dot-loop-nest added after it
    // (2026-12-07), constexpr-window, load-contiguous-axis and thin-block (2026-12-08), and the NVIDIA attention-tile and exp2-softmax.
    const QStringList before = {
        QStringLiteral("constexpr-unit-stride"), QStringLiteral("constexpr-divisors"), QStringLiteral("divisibility-hints"), QStringLiteral("dot-tf32"),
        QStringLiteral("dot-bf16"), QStringLiteral("convert-operand-once"), QStringLiteral("tl-range-num-stages"), QStringLiteral("flatten-dot-loop-nest"),
        QStringLiteral("retune-num-warps"), QStringLiteral("thin-block"), QStringLiteral("hopper-dot-tile"), QStringLiteral("grow-block"), QStringLiteral("group-m-swizzle"),
        QStringLiteral("autotune-blocks"), QStringLiteral("more-programs"), QStringLiteral("split-reduction"),
        QStringLiteral("rows-per-program"), QStringLiteral("persistent-grid"), QStringLiteral("tma-descriptors"), QStringLiteral("single-pass-rows"),
        QStringLiteral("tiled-transpose"), QStringLiteral("attention-tile"), QStringLiteral("exp2-softmax"), QStringLiteral("causal-block-skip"), QStringLiteral("linear-recurrence-scan"),
        QStringLiteral("chunked-scan"), QStringLiteral("constexpr-window"), QStringLiteral("load-contiguous-axis"), QStringLiteral("unroll-constant-loops"), QStringLiteral("relaxed-atomics"),
        QStringLiteral("evict-first-streaming")};
    QCOMPARE(idsOf(recipesWith(&nvidia::nvidiaRecipes())), before);
    const QStringList core = idsOf(coreRecipes());
    for (const RecipeInfo &own : nvidia::nvidiaRecipes().recipes()) {
        QVERIFY2(core.contains(own.before), qPrintable(own.id + QStringLiteral(" before ") + own.before));
        QVERIFY(own.propose);
    }
}

void TestBackendRecipes::nvidiaFactsAnswerTheCoreRecipes()
{
    // The retune-num-warps, group-m-swizzle and flatten-dot-loop-nest recipes respond to a serialized wgmma.
    QCOMPARE(nvidia::nvidiaRecipes().accumulatorPressureRules(), QStringList{QStringLiteral("L3.wgmma-serialized")});
}

void TestBackendRecipes::pluginOfTheTargetHandsOutItsRecipes()
{
    PluginRegistry plugins;
    QVERIFY(plugins.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR)) >= 1);
    const BackendRecipesLookup lookup = optimize::backendRecipesOf(&plugins);
    const BackendRecipes *nvidia = lookup(QStringLiteral("sm_90"));
    QVERIFY(nvidia);
    QCOMPARE(idsOf(nvidia->recipes()),
             (QStringList{QStringLiteral("hopper-dot-tile"), QStringLiteral("tma-descriptors"), QStringLiteral("relaxed-atomics"), QStringLiteral("attention-tile"), QStringLiteral("exp2-softmax")}));
    QVERIFY(!lookup(QString()));             // no target captured: the core's recipes only
    QVERIFY(!lookup(QStringLiteral("no_such_target")));
    if (plugins.backendForTarget(QStringLiteral("ascend910_95")))
        QVERIFY(!lookup(QStringLiteral("ascend910_95")));  // Ascend has no recipes of its own (yet)
    QVERIFY(!optimize::backendRecipesOf(nullptr)(QStringLiteral("sm_90")));
}

void TestBackendRecipes::providerWithoutBackendRunsTheCoreRecipes()
{
    // A request without the kernel's AST: nothing to key on, with or without a backend.
    RecipeProvider provider({});
    rewrite::RewriteRequest request;
    request.taskText = QStringLiteral("import torch\n");
    const Expected<QVector<rewrite::RewriteProposal>> proposals = provider.propose(request);
    QVERIFY(proposals.hasValue());
    QVERIFY(proposals->isEmpty());
    QVERIFY(requestTarget(request).isEmpty());
    request.launch.insert(QStringLiteral("spec"), QJsonObject{{QStringLiteral("target"), QStringLiteral("sm_90")}});
    QCOMPARE(requestTarget(request), QStringLiteral("sm_90"));
}

QTEST_GUILESS_MAIN(TestBackendRecipes)
#include "tst_backend_recipes.moc"
