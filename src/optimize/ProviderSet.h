#pragma once
// The rewrite providers of a run, in the order they are asked: hand-written proposals, the
// built-in recipes, an LLM, then a person. One place for that order, for strata-cli and the app.
#include "optimize/SuiteBench.h"
#include "rewrite/llm/ProviderConfig.h"
#include "rewrite/recipes/BackendRecipes.h"

#include <QString>
#include <atomic>
#include <optional>

namespace strata::optimize {

struct ProviderSet {
    QString proposalsDir;                            // non-empty: every *.py in it is proposed
    bool recipes = true;
    // The loaded backends: the recipes add those of each request's backend (BackendPlugin::recipes,
    // the plugin of the target its kernel was compiled for). Null: the core's recipes only.
    const PluginRegistry *plugins = nullptr;
    std::optional<rewrite::llm::ProviderConfig> llm;  // checked (its key found) by the caller
    QString saveAnswersDir;                          // non-empty: the LLM's raw answers are kept there
    QString manualRoot;                              // non-empty: a person answers prompts written under it
    const std::atomic<bool> *cancel = nullptr;       // a waiting person-provider stops on it
};

// The recipes of the backend a target belongs to, from `plugins` (null: none), for RecipeProvider.
rewrite::recipes::BackendRecipesLookup backendRecipesOf(const PluginRegistry *plugins);

// Each call of the factory (one per worker) makes that worker's own providers.
ProviderFactory providerFactory(const ProviderSet &set);

} // namespace strata::optimize
