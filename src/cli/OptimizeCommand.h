#pragma once
// strata-cli optimize / bench (OptimizeCommand.cpp) and the rewrite providers they use
// (OptimizeProviders.cpp: the built-in recipes, a proposals folder, an LLM when configured).
#include "optimize/SuiteBench.h"

#include <atomic>

#include <QStringList>

namespace strata::cli {

struct ProviderChoice {
    bool recipes = true;
    QString proposalsDir;   // --proposals DIR
    QString llmConfigPath;  // --llm FILE: a ProviderConfig as JSON
    QString saveAnswersDir; // --save-answers DIR: the LLM's raw answers, replayable with --proposals DIR
    bool manual = false;    // --manual: a person answers prompts written under manualRoot
    QString manualRoot;     // <work dir>: prompts go to <work dir>/manual-N/llm-prompt.md
    const std::atomic<bool> *cancel = nullptr;  // a waiting manual provider stops on it
    const PluginRegistry *plugins = nullptr;    // the loaded backends: each adds its own recipes
};

// Builds the provider factory (each worker gets its own providers); sets *error for a bad
// configuration (an LLM named in the environment without its key, say).
optimize::ProviderFactory makeProviders(const ProviderChoice &choice, QString *error);

int runOptimizeCommand(const QString &command, const QStringList &args);

} // namespace strata::cli
