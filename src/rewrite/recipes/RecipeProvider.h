#pragma once
// The built-in recipes as a RewriteProvider: every recipe whose trigger findings are present
// proposes its edit; compatible candidates are also offered combined (the loop accepts one
// winner per iteration); proposals come ordered by expected value, texts already tried skipped.
// The recipes are the core's (src/rewrite/recipes) and those of the request's backend: the
// plugin of the target its launch was compiled for (BackendRecipes.h).
#include "rewrite/RewriteProvider.h"
#include "rewrite/recipes/BackendRecipes.h"

namespace strata::rewrite::recipes {

class RecipeProvider : public RewriteProvider {
public:
    // `backendOf` finds the recipes of a request's target (optimize::backendRecipesOf asks the
    // loaded plugins); an empty one, or a null answer, leaves the core's recipes alone.
    explicit RecipeProvider(BackendRecipesLookup backendOf) : m_backendOf(std::move(backendOf)) {}
    QString id() const override { return QStringLiteral("recipes"); }
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;

private:
    BackendRecipesLookup m_backendOf;
};

// The target a request's launch was compiled for (its spec's "target"); empty when not captured.
QString requestTarget(const RewriteRequest &request);
// The core's recipes with `backend`'s own (null: none) placed among them (RecipeInfo::before).
QVector<RecipeInfo> recipesWith(const BackendRecipes *backend);
// Every candidate of every recipe for the request, before combination and de-duplication
// (tests use it to check one recipe at a time).
Expected<QVector<RecipeCandidate>> recipeCandidates(const RewriteRequest &request, const BackendRecipes *backend);
// Hex sha256 of a task text, as RewriteRequest::alreadyTried holds them.
QString taskTextSha256(const QString &text);

} // namespace strata::rewrite::recipes
