#include "optimize/ProviderSet.h"

#include "rewrite/FolderProvider.h"
#include "rewrite/llm/LlmProvider.h"
#include "rewrite/llm/ManualProvider.h"
#include "rewrite/recipes/RecipeProvider.h"

namespace strata::optimize {

ProviderFactory providerFactory(const ProviderSet &set)
{
    std::function<std::unique_ptr<rewrite::llm::ManualProvider>()> manual;
    if (!set.manualRoot.isEmpty())
        manual = rewrite::llm::manualProviderMaker(set.manualRoot, set.cancel);
    return [set, manual] {
        std::vector<std::unique_ptr<rewrite::RewriteProvider>> providers;
        if (!set.proposalsDir.isEmpty())
            providers.push_back(std::make_unique<rewrite::FolderProvider>(set.proposalsDir));
        if (set.recipes)
            providers.push_back(std::make_unique<rewrite::recipes::RecipeProvider>());
        if (set.llm)
            providers.push_back(rewrite::llm::makeHttpProvider(*set.llm));
        if (manual)
            providers.push_back(manual());
        return providers;
    };
}

} // namespace strata::optimize
