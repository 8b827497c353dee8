#pragma once
// The rewrite providers of a run, in the order they are asked: hand-written proposals, the
// built-in recipes, an LLM, then a person. One place for that order, for strata-cli and the app.
#include "optimize/SuiteBench.h"
#include "rewrite/llm/ProviderConfig.h"

#include <QString>
#include <atomic>
#include <optional>

namespace strata::optimize {

struct ProviderSet {
    QString proposalsDir;                            // non-empty: every *.py in it is proposed
    bool recipes = true;
    std::optional<rewrite::llm::ProviderConfig> llm;  // checked (its key found) by the caller
    QString saveAnswersDir;                          // non-empty: the LLM's raw answers are kept there
    QString manualRoot;                              // non-empty: a person answers prompts written under it
    const std::atomic<bool> *cancel = nullptr;       // a waiting person-provider stops on it
};

// Each call of the factory (one per worker) makes that worker's own providers.
ProviderFactory providerFactory(const ProviderSet &set);

} // namespace strata::optimize
