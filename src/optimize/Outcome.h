#pragma once
// What an optimization run produced, as the reports and the explorer read it: one TaskOutcome
// per task (initial vs best, baselines, roofline, what produced the win or why none did), and the
// candidates tried. Filled from the store (optimize runs) or from a bench results JSON.
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata::optimize {

struct CandidateRecord {
    qint64 id = 0;
    qint64 parentId = 0;         // 0: the initial kernel
    int iteration = 0;
    QString provider;            // "initial", "recipe", "openai", "anthropic", "manual"
    QString recipeId;
    QString title;
    QString taskPath;            // the candidate's task file
    QString sourceText;          // its full text
    QStringList findingRuleIds;  // findings it acts on
    QString state;               // "proposed", "compile_failed", "fact_unchanged", "verify_failed",
                                 // "slower", "not_significant", "accepted", "error"
    QString detail;              // why (verify reason, timing comparison, error message)
    std::optional<double> medianMs;
    std::optional<double> speedupVsParent;
    QString reviewState;         // "", "accepted", "rejected" (a person's review in the explorer)
};

// What the loop's diagnosis of the current best said in one round: the ranking the proposals
// followed, so that a user can see why the loop did what it did. Compact on purpose (no evidence):
// the full diagnosis of each round stays in the store, on the diagnosed candidate's row.
struct RoundFinding {
    QString ruleId;
    QString title;
    QString severity;            // "critical", "high", "medium", "low", "info"
    int line = 0;                // in the diagnosed candidate's source; 0: kernel-level
    std::optional<double> share; // of the gap to the bound, 0..1
    bool shareMeasured = false;  // from measured line costs, not estimated from IR facts
    QString status;              // "confirmed", "unconfirmed", "untested", "not_examined"
};

struct RoundDiagnosis {
    int iteration = 0;
    qint64 candidateId = 0;      // the best candidate diagnosed in this round
    QString kernel;
    QStringList measured;        // what the ladder was given: "timing", "profile"; empty: static
    bool rankingIsEstimate = true;
    QVector<RoundFinding> findings;  // ranked, most important first
    QStringList warnings;            // degraded inputs
    QStringList escalation;          // "L1 triage: ..." steps
};

struct TaskOutcome {
    QString taskId;              // file stem: "softmax_online"
    QString taskPath;
    QString category;            // STRATA_TASK category
    QString status;              // "improved", "no_gain", "failed", "interrupted", "running", "pending"
    QString failure;             // why, when failed / no gain
    std::optional<double> initialMs, bestMs, eagerMs, compileMs;  // compile: torch.compile
    std::optional<double> rooflinePct;     // best candidate's % of roofline
    QString bound;               // "memory", "compute", "latency", "launch"
    QStringList winningRecipes;  // "provider:recipe" ids on the path initial -> best
    QStringList winningFindings; // rule ids those acted on
    qint64 tokens = 0;           // LLM tokens (in + out) its candidates cost
    std::optional<double> wallSeconds;  // of the run that finished it (a resumed run: its last part)
    QMap<QString, double> agentSeconds; // that run's agent calls per method and GPU gate phases
    QVector<CandidateRecord> candidates;
    QVector<RoundDiagnosis> rounds;  // one per round and diagnosed kernel, in order
    // Set in files merged from several runs (bench/gpu/merge_results.py): where this task was
    // measured ({"file", "commit", "date"}) and whether a deadline cut that run after a win.
    QJsonObject measuredIn;
    bool partial = false;

    // "a6dc46c 2026-12-02" for a merged task, empty otherwise.
    QString measuredInText() const;
    std::optional<double> speedup() const;            // initial / best
    std::optional<double> speedupVsEager() const;     // eager / best
    std::optional<double> speedupVsCompile() const;   // torch.compile / best
    std::optional<double> speedupVsBestBaseline() const;  // min(eager, compile) / best
};

// How much of its suite a results file covers. A field of the file, written by the run that made
// it, so that the app and the scripts never guess completeness from a file name.
enum class Coverage {
    Unknown,  // written before the field existed
    Whole,    // every task of the suite, none cut short by a cancel
    Part,     // a subset (--only) or a run cancelled before every task ran
    Merged,   // assembled from several runs (bench/gpu/merge_results.py)
};
QString coverageName(Coverage coverage);                  // "whole", "part", "merged", "unknown"
std::optional<Coverage> coverageFromName(const QString &name);
inline bool isComplete(Coverage coverage) { return coverage == Coverage::Whole || coverage == Coverage::Merged; }

struct SuiteOutcome {
    QString suite;               // folder name
    QString device, driver, triton, torch, commit;
    // The backend and target the figures belong to ("nvidia", "sm_90"; "ascend", "ascend910_95").
    // Empty in files written before the fields existed.
    QString backend, target;
    QDateTime date;
    QVector<TaskOutcome> tasks;
    QJsonArray mergedFrom;  // the runs a merged file was made from ({"file", "commit", "date", "tasks"})
    Coverage coverage = Coverage::Unknown;

    // Over tasks with both times (failures count as 1.0x in geomean/median and are listed).
    double geomeanSpeedup() const;
    double medianSpeedup() const;
    double geomeanVsBestBaseline() const;
    int countOver(double factor) const;
    int failures() const;
    int interrupted() const;  // tasks a cancel or deadline stopped before they finished
    // "nvidia, target sm_90"; "not recorded" for a file written before the fields existed.
    QString backendText() const;
};

} // namespace strata::optimize
