#pragma once
// The compile check of a recipe: did the recompiled candidate change the IR fact the recipe
// promised to change? Compared on the L3 facts of the parent and of the candidate, so a recipe
// that compiles to the same code is dropped before any GPU time is spent on it.
#include "diagnosis/l3_ir/IrFacts.h"
#include "rewrite/RewriteProvider.h"

#include <QVector>

namespace strata::optimize {

struct FactOutcome {
    rewrite::ExpectedFact fact;
    bool changed = false;
    QString before, after;  // the quantity on each side, printed ("64 bits", "fma")
};

struct FactCheckResult {
    QVector<FactOutcome> outcomes;
    // True when no fact was declared, or at least one declared fact changed as promised.
    bool passed() const;
    QString summary() const;  // "widest global load on line 12 grows: 32 -> 128 bits"
};

FactCheckResult checkFacts(const QVector<rewrite::ExpectedFact> &expected, const diagnosis::KernelIrFacts &before,
                           const diagnosis::KernelIrFacts &after);

} // namespace strata::optimize
