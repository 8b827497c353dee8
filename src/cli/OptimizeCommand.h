#pragma once
// strata-cli optimize / bench (OptimizeCommand.cpp) and the rewrite providers they use
// (OptimizeProviders.cpp: the built-in recipes, a proposals folder, an LLM when configured).
#include "optimize/SuiteBench.h"

#include <QStringList>

namespace strata::cli {

struct ProviderChoice {
    bool recipes = true;
    QString proposalsDir;   // --proposals DIR
    QString llmConfigPath;  // --llm FILE: a ProviderConfig as JSON
};

// Builds the provider factory (each worker gets its own providers); sets *error for a bad
// configuration (an LLM named in the environment without its key, say).
optimize::ProviderFactory makeProviders(const ProviderChoice &choice, QString *error);

int runOptimizeCommand(const QString &command, const QStringList &args);

} // namespace strata::cli
