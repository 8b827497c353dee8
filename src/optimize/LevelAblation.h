#pragma once
// What each level of the diagnosis ladder is worth: the same suite run with the ladder capped at
// L1, L2, L3 and L4 (same tasks, recipes, budgets; each cap in its own store and work folder so
// no run resumes another's), and per cap the geomean, what it adds over the cap below, the wall
// time and LLM tokens it took, and which level's findings the winning rewrites acted on.
// `strata-cli bench --ablate-levels` writes it as JSON (schema "strata.bench-ablation" v1):
// {"schema":"strata.bench-ablation","version":1,"suite":"hopper-core","device":..,"commit":..,
//  "levels":[{"max_level":1,"geomean_speedup":..,"marginal_geomean":..,"geomean_vs_best_baseline":..,
//             "wall_s":..,"tokens":..,"improved":..,"failures":..,"results":"<that cap's strata.bench file>",
//             "tasks":[{"task":..,"speedup":..,"best_from_level":3,"winning_findings":[..]}]}]}
#include "core/Expected.h"
#include "diagnosis/model/Finding.h"
#include "optimize/Outcome.h"
#include "optimize/SuiteBench.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace strata::optimize {

inline constexpr char kAblationSchema[] = "strata.bench-ablation";
inline constexpr int kAblationVersion = 1;

// The level whose diagnosis a finding id comes from: "L3.fma-dot" -> L3; the recipes' own
// triggers read the source or the launch (L1 triage) or a timing (L2); nullopt for the rest.
std::optional<diagnosis::Level> levelOfFinding(const QString &ruleId);
// The deepest level any winning rewrite of the task acted on; nullopt when none won or none
// names a level.
std::optional<diagnosis::Level> bestFromLevel(const TaskOutcome &task);

struct LevelRun {
    diagnosis::Level maxLevel = diagnosis::Level::L1;
    SuiteOutcome suite;
    double wallSeconds = 0;
    QString resultsPath;  // the cap's own results file (empty when not written)
};

struct Ablation {
    QVector<LevelRun> runs;  // L1 first
    // Run `index`'s geomean over the cap below it; nullopt for the first (or a zero geomean below).
    std::optional<double> marginalGeomean(int index) const;
    QJsonObject toJson() const;
    QString table() const;   // the figures as printed by the CLI
};

// A file of one cap (its store, its results): "bench.db" -> "bench-L2.db"; its work folder:
// "out/optimize" -> "out/optimize/L2".
QString pathForLevel(const QString &path, diagnosis::Level level);
QString workDirForLevel(const QString &workDir, diagnosis::Level level);

// Runs the suite once per cap, L1 to L4 (up to setup.options.maxLevel). `finished` is called after
// each cap (to write its results). Stops early when setup.cancel is set; the runs so far are kept.
Expected<Ablation> runLevelAblation(const BenchSetup &setup,
                                    const std::function<void(LevelRun &run)> &finished = {});

} // namespace strata::optimize
