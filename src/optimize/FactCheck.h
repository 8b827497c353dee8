#pragma once
// The compile check of a recipe: did the recompiled candidate change the IR fact the recipe
// promised to change? Compared on the L3 facts of the parent and of the candidate, so a recipe
// that compiles to the same code is dropped before any GPU time is spent on it. Which stage holds
// the access widths is the backend's answer (BackendIrRules::accessWidthStage); a backend whose
// compile the core cannot read facts from says so instead of being compared on another's facts.
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "rewrite/RewriteProvider.h"

#include <QVector>

namespace strata::optimize {

struct FactOutcome {
    rewrite::ExpectedFact fact;
    bool changed = false;
    QString before, after;  // the quantity on each side, printed ("64 bits", "fma")
    QString unavailable;    // non-empty: the backend cannot read this fact, and why
};

struct FactCheckResult {
    QVector<FactOutcome> outcomes;
    // What the backend's assembler warned about in the candidate and not in its parent (matrix
    // instructions serialized): a promised fact that changed does not make up for a hazard the
    // rewrite brought in (a flattened conv loop at 128 x 256 lost 20% to one on H100, 2026-12-08).
    QStringList newAssemblerWarnings;
    // True when no new assembler warning appeared and either no fact was declared, or for each
    // recipe that promised facts (ExpectedFact::promisedBy) at least one changed as promised or
    // none of them can be read on the backend (the check cannot reject what it cannot see:
    // verification and timing still judge the candidate).
    bool passed() const;
    QString summary() const;  // "widest global load on line 12 grows: 32 -> 128 bits"
};

// `rules`: the rules of the backend both compiles are for (BackendPlugin::irRules()); null when the
// backend has none (the core read no facts), which makes every declared fact unavailable.
FactCheckResult checkFacts(const QVector<rewrite::ExpectedFact> &expected, const diagnosis::KernelIrFacts &before,
                           const diagnosis::KernelIrFacts &after, const diagnosis::BackendIrRules *rules);

} // namespace strata::optimize
