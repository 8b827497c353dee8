#pragma once
// The escalation controller: runs the diagnosis levels in order and climbs only while the top
// findings are unconfirmed. L1 reads the AST, L3 the compile, L4 confirms L3 causes with pass
// attribution and counterfactual compiles; L2 (measurements) needs a GPU host and is skipped
// with a logged reason until one is connected. Every step and every stop is in the log.
#include "compile/LoadedCompile.h"
#include "diagnosis/l2_profile/MeasurementAnalysis.h"
#include "diagnosis/l4_compiler/CounterfactualRunner.h"
#include "diagnosis/model/Finding.h"
#include "host/BackendPlugin.h"

#include <QJsonObject>
#include <optional>

namespace strata::diagnosis {

struct LadderInputs {
    QString kernel;
    QString sourcePath;
    std::optional<QJsonObject> astReply;   // the agent's `ast` result; absent: L1 cannot run
    QString astMissingReason;              // why it is absent, for the log
    QJsonObject spec;                      // the launch spec (the compile's, when there is one)
    const LoadedCompile *compile = nullptr;  // absent: L3 and L4 cannot run
    CounterfactualRunner *runner = nullptr;  // absent: L4 attributes passes but compiles nothing
    bool gpuHostConnected = false;         // a GPU host could measure (for the log when nothing was measured)
    const Measurements *measurements = nullptr;  // saved or fresh `time` / `profile` / `ceilings` replies
    // The compile's backend plugin. Null, or one whose usesCoreIrRules(): the core's L3/L4 rules.
    // Otherwise L3 is the backend's own irFindings() and L4 does not run (issue #16 guard).
    const BackendPlugin *backend = nullptr;
};

struct LadderOptions {
    Level maxLevel = Level::L4;
    int topFindings = 5;         // how many L3 findings, by severity, must be confirmed to stop
    int maxCounterfactuals = 8;  // compiles L4 may run
};

// How far a finding got: statusName(finding.status): "confirmed" (a counterfactual flipped its
// fact), "unconfirmed" (counterfactuals ran, none flipped it), "untested" (none could run),
// "not_examined" (below L4). `examines`: the L3 rule an L4 finding examines.
struct RankedFinding {
    Finding finding;
    QString status;
    QString examines;
};

struct LadderResult {
    Diagnosis diagnosis;
    QVector<RankedFinding> ranking;  // most important first
    bool rankingIsEstimate = true;   // true without per-line measured costs
    QString rankingBasis;            // one sentence: how the ranking was made
    std::optional<L2Analysis> measured;  // L2's numbers when measurements were given
};

LadderResult runLadder(const LadderInputs &inputs, const LadderOptions &options = {});

// The diagnosis JSON (schema strata.diagnosis) plus "ranking": [{rank, status, rule, examines,
// confirmed_by, level, line, gap_share}], "ranking_estimate", "ranking_basis" and, with
// measurements, "measured" {bound, duration_us, gap_to_roofline, occupancy, lines} (fields
// readers of the diagnosis ignore).
QJsonObject toJson(const LadderResult &result);

} // namespace strata::diagnosis
