#include "optimize/FactCheck.h"

#include <algorithm>
#include <functional>

namespace strata::optimize {

using diagnosis::KernelIrFacts;
using diagnosis::SourceLineFacts;

namespace {

// Sums or maximises a per-line quantity over one line (line > 0) or the whole kernel. Recipes
// may move code between lines (a hint inserted above a load), so a line that no longer has the
// fact falls back to the whole kernel.
int overLines(const KernelIrFacts &facts, int line, const std::function<int(const SourceLineFacts &)> &quantity,
              bool takeMax)
{
    if (line > 0) {
        if (const SourceLineFacts *lineFacts = facts.line(line))
            return quantity(*lineFacts);
    }
    int result = 0;
    for (const SourceLineFacts &lineFacts : facts.lines)
        result = takeMax ? std::max(result, quantity(lineFacts)) : result + quantity(lineFacts);
    return result;
}

// What the dot on `line` (the kernel's last dot when 0, or when the line has none) shows.
QString dotFactOn(const KernelIrFacts &facts, int line, const std::function<QString(const SourceLineFacts &)> &fact)
{
    QString found;
    for (const SourceLineFacts &lineFacts : facts.lines) {
        if ((line > 0 && lineFacts.line != line) || lineFacts.dotKind == diagnosis::DotKind::None)
            continue;
        found = fact(lineFacts);
    }
    if (found.isEmpty() && line > 0)
        return dotFactOn(facts, 0, fact);
    return found.isEmpty() ? QStringLiteral("none") : found;
}

QString dotKindOn(const KernelIrFacts &facts, int line)
{
    return dotFactOn(facts, line, [](const SourceLineFacts &l) { return diagnosis::dotLabel(l); });
}

QString dotOperandTypeOn(const KernelIrFacts &facts, int line)
{
    return dotFactOn(facts, line, [](const SourceLineFacts &l) { return l.dotOperandType; });
}

// A fact the backend cannot read: neither changed nor unchanged, with why.
FactOutcome unavailableOutcome(const rewrite::ExpectedFact &fact, const QString &why)
{
    return FactOutcome{fact, false, {}, {}, why};
}

FactOutcome compare(const rewrite::ExpectedFact &fact, const KernelIrFacts &before, const KernelIrFacts &after,
                    const diagnosis::BackendIrRules &rules)
{
    FactOutcome outcome{fact, false, {}, {}, {}};
    auto numeric = [&](int beforeValue, int afterValue, bool wantIncrease, const QString &unit) {
        outcome.before = QStringLiteral("%1%2").arg(beforeValue).arg(unit);
        outcome.after = QStringLiteral("%1%2").arg(afterValue).arg(unit);
        outcome.changed = wantIncrease ? afterValue > beforeValue : afterValue < beforeValue;
    };
    const QString &name = fact.fact;
    const bool isStore = name == QLatin1String("max_store_bits");
    if (name == QLatin1String("max_load_bits") || isStore) {
        const QString stage = rules.accessWidthStage();
        if (stage.isEmpty())
            return unavailableOutcome(fact, QStringLiteral("the backend reads no global access widths"));
        auto widest = [isStore, &stage](const SourceLineFacts &l) { return l.maxAccessBits(stage, isStore); };
        numeric(overLines(before, fact.line, widest, true), overLines(after, fact.line, widest, true), true,
                QStringLiteral(" bits"));
    } else if (name == QLatin1String("async_copies")) {
        auto copies = [](const SourceLineFacts &l) { return l.asyncCopies + l.asyncCopyInstructions + l.bulkTensorCopies + l.bulkTensorInstructions; };
        numeric(overLines(before, fact.line, copies, false), overLines(after, fact.line, copies, false), true, QString());
    } else if (name == QLatin1String("tma_copies")) {
        auto tma = [](const SourceLineFacts &l) { return l.bulkTensorCopies + l.bulkTensorInstructions; };
        numeric(overLines(before, fact.line, tma, false), overLines(after, fact.line, tma, false), true, QString());
    } else if (name == QLatin1String("global_loads")) {
        auto loads = [](const SourceLineFacts &l) { return l.ttgirLoads + l.asyncCopies + l.bulkTensorCopies; };
        numeric(overLines(before, fact.line, loads, false), overLines(after, fact.line, loads, false), false, QString());
    } else if (name == QLatin1String("int_divisions")) {
        if (!rules.countsIntegerDivisions())
            return unavailableOutcome(fact, QStringLiteral("the backend counts no integer divisions"));
        auto divisions = [](const SourceLineFacts &l) { return l.integerDivisions; };
        numeric(overLines(before, fact.line, divisions, false), overLines(after, fact.line, divisions, false), false, QString());
    } else if (name == QLatin1String("spill_bytes")) {
        numeric(before.spillStoreBytes + before.spillLoadBytes, after.spillStoreBytes + after.spillLoadBytes, false,
                QStringLiteral(" bytes"));
    } else if (name == QLatin1String("dot_kind") || name == QLatin1String("dot_operand_type")) {
        const auto on = name == QLatin1String("dot_kind") ? dotKindOn : dotOperandTypeOn;
        outcome.before = on(before, fact.line);
        outcome.after = on(after, fact.line);
        outcome.changed = fact.want.isEmpty() ? outcome.after != outcome.before : outcome.after == fact.want
                                                                                      && outcome.before != fact.want;
    } else {
        auto whole = [&name](const KernelIrFacts &facts) {
            if (name == QLatin1String("num_warps"))
                return facts.numWarps;
            if (name == QLatin1String("num_stages"))
                return facts.numStages;
            if (name == QLatin1String("registers"))
                return facts.registers;
            return -1;
        };
        outcome.before = QString::number(whole(before));
        outcome.after = QString::number(whole(after));
        outcome.changed = whole(before) >= 0 && whole(before) != whole(after);
    }
    return outcome;
}

} // namespace

bool FactCheckResult::passed() const
{
    if (!newAssemblerWarnings.isEmpty())
        return false;
    // Each recipe of a combined candidate keeps its own promise: a part whose promise did not
    // change (a pairing the compiler found unaligned) is not carried by its partner's.
    QStringList promisers;
    for (const FactOutcome &outcome : outcomes)
        if (!promisers.contains(outcome.fact.promisedBy))
            promisers.append(outcome.fact.promisedBy);
    return std::all_of(promisers.begin(), promisers.end(), [this](const QString &promiser) {
        bool anyChanged = false, allUnavailable = true;
        for (const FactOutcome &outcome : outcomes) {
            if (outcome.fact.promisedBy != promiser)
                continue;
            anyChanged = anyChanged || outcome.changed;
            allUnavailable = allUnavailable && !outcome.unavailable.isEmpty();
        }
        return anyChanged || allUnavailable;
    });
}

QString FactCheckResult::summary() const
{
    QStringList parts;
    for (const QString &warning : newAssemblerWarnings)
        parts.append(QStringLiteral("new assembler warning (the parent has none such): %1").arg(warning.left(200)));
    if (outcomes.isEmpty()) {
        parts.append(QStringLiteral("no IR fact declared"));
        return parts.join(QStringLiteral("; "));
    }
    for (const FactOutcome &outcome : outcomes) {
        if (!outcome.unavailable.isEmpty())
            parts.append(QStringLiteral("%1: not available on this backend (%2)").arg(outcome.fact.describe(), outcome.unavailable));
        else
            parts.append(QStringLiteral("%1: %2 -> %3%4").arg(outcome.fact.describe(), outcome.before, outcome.after,
                                                               outcome.changed ? QString() : QStringLiteral(" (unchanged)")));
    }
    return parts.join(QStringLiteral("; "));
}

FactCheckResult checkFacts(const QVector<rewrite::ExpectedFact> &expected, const KernelIrFacts &before,
                           const KernelIrFacts &after, const diagnosis::BackendIrRules *rules)
{
    FactCheckResult result;
    for (const rewrite::ExpectedFact &fact : expected) {
        if (fact.fact.isEmpty())
            continue;
        result.outcomes.append(rules ? compare(fact, before, after, *rules)
                                     : unavailableOutcome(fact, QStringLiteral("the core reads no IR facts of this backend's compiles")));
    }
    for (const QString &warning : after.assemblerWarnings)
        if (!before.assemblerWarnings.contains(warning) && !result.newAssemblerWarnings.contains(warning))
            result.newAssemblerWarnings.append(warning);
    return result;
}

} // namespace strata::optimize
