#pragma once
// The built-in recipes as a RewriteProvider: every recipe whose trigger findings are present
// proposes its edit; compatible candidates are also offered combined (the loop accepts one
// winner per iteration); proposals come ordered by expected value, texts already tried skipped.
#include "rewrite/RewriteProvider.h"
#include "rewrite/recipes/Recipe.h"

namespace strata::rewrite::recipes {

class RecipeProvider : public RewriteProvider {
public:
    QString id() const override { return QStringLiteral("recipes"); }
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;
};

// Every candidate of every recipe for the request, before combination and de-duplication
// (tests use it to check one recipe at a time).
Expected<QVector<RecipeCandidate>> recipeCandidates(const RewriteRequest &request);
// Hex sha256 of a task text, as RewriteRequest::alreadyTried holds them.
QString taskTextSha256(const QString &text);

} // namespace strata::rewrite::recipes
