#include "optimize/ProviderSet.h"

#include "host/BackendPlugin.h"
#include "host/PluginRegistry.h"

#include "rewrite/llm/FolderProvider.h"
#include "rewrite/llm/LlmProvider.h"
#include "rewrite/llm/ManualProvider.h"
#include "rewrite/recipes/RecipeProvider.h"

namespace strata::optimize {

rewrite::recipes::BackendRecipesLookup backendRecipesOf(const PluginRegistry *plugins)
{
    return [plugins](const QString &target) -> const rewrite::recipes::BackendRecipes * {
        const BackendPlugin *backend = plugins ? plugins->backendForTarget(target) : nullptr;
        return backend ? backend->recipes() : nullptr;
    };
}

ProviderFactory providerFactory(const ProviderSet &set)
{
    std::function<std::unique_ptr<rewrite::llm::ManualProvider>()> manual;
    if (!set.manualRoot.isEmpty())
        manual = rewrite::llm::manualProviderMaker(set.manualRoot, set.cancel);
    return [set, manual] {
        std::vector<std::unique_ptr<rewrite::RewriteProvider>> providers;
        if (!set.proposalsDir.isEmpty())
            providers.push_back(std::make_unique<rewrite::llm::FolderProvider>(set.proposalsDir));
        if (set.recipes)
            providers.push_back(std::make_unique<rewrite::recipes::RecipeProvider>(backendRecipesOf(set.plugins)));
        if (set.llm) {
            std::unique_ptr<rewrite::llm::HttpLlmProvider> llm = rewrite::llm::makeHttpProvider(*set.llm);
            llm->setAnswersDir(set.saveAnswersDir);
            providers.push_back(std::move(llm));
        }
        if (manual)
            providers.push_back(manual());
        return providers;
    };
}

} // namespace strata::optimize
