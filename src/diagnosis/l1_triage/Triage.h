#pragma once
// L1 pattern triage: rules over the kernel's Python AST and its launch spec, before any compile.
// Each rule keys on code structure (what feeds a pointer, what is per-element, where loops are)
// and on the spec's facts (constexpr values, equal_to_1, num_warps), never on variable names.
#include "core/Expected.h"
#include "diagnosis/l1_triage/KernelView.h"
#include "diagnosis/model/Finding.h"

#include <functional>

namespace strata::diagnosis {

// The note of a span item naming a load / store / atomic whose pointer the finding's code feeds:
// a compiler fact on that line may be this cause's effect (the ladder joins them).
inline constexpr char kFedAccessNote[] = "an access this code feeds";

struct TriageRule {
    QString id;       // "L1.runtime-unit-stride"
    QString summary;  // what it looks for, one line (docs, --list-rules)
    std::function<QVector<Finding>(const KernelView &)> check;
};

// Every L1 rule, in a stable order.
const QVector<TriageRule> &triageRules();

// Runs every rule; findings come in rule order, each rule's in source order.
QVector<Finding> runTriage(const KernelView &kernel);

// From the agent's `ast` reply and the launch spec (either may name the file in errors).
Expected<QVector<Finding>> runTriage(const QJsonObject &astResult, const QJsonObject &spec);

// A loop of the kernel source and the iterations it runs at the captured launch, when its bounds
// are constants or run-time ints the launch recorded (nullopt otherwise). The static cost step
// weighs a line in a loop by these instead of an assumed count.
struct LoopAtLaunch {
    int firstLine = 0;  // the loop header
    int lastLine = 0;   // the last line of its body
    std::optional<qint64> trips;
};
QVector<LoopAtLaunch> loopsAtLaunch(const KernelView &kernel);
Expected<QVector<LoopAtLaunch>> loopsAtLaunch(const QJsonObject &astResult, const QJsonObject &spec);

} // namespace strata::diagnosis
