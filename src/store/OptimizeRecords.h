#pragma once
// What the store keeps of optimization runs: one row per run of the loop on a task, one row per
// candidate it tried, updated as the candidate moves through compile check, verify and timing.
// See Store::beginOptimizeRun and friends (StoreOptimize.cpp).
#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace strata {

struct OptimizeRunRecord {
    qint64 id = 0;
    QString suite;             // folder name, empty for a single optimize
    QString taskPath;
    QString taskName;          // file stem
    QString taskSha256;        // of the initial task file
    QString host;
    QJsonObject config;        // budgets and options the run started with
    QString status;            // "running", "finished", "failed", "cancelled"
    QJsonObject outcome;       // the TaskOutcome JSON (without candidates) once finished
    QDateTime created, finished;
};

struct CandidateRow {
    qint64 id = 0;
    qint64 runId = 0;
    qint64 parentId = 0;       // 0: none (the initial kernel)
    int iteration = 0;
    QString provider;          // "initial", "recipe", "openai", "anthropic", "manual"
    QString recipe;
    QString title;
    QString path;              // the candidate's task file
    QString sourceText;
    QString sourceSha256;
    QStringList findings;      // rule ids it acts on
    QJsonObject expected;      // {"facts": [...]} the IR facts it promised to change
    QString state;             // see optimize::CandidateRecord::state
    QString detail;
    std::optional<double> medianMs;
    std::optional<double> speedupVsParent;
    QJsonObject evidence;      // {"diagnosis": .., "verdict": .., "timing": .., "fact_check": ..}
    qint64 tokensIn = 0, tokensOut = 0;
    QString review;            // "", "accepted", "rejected"
    QDateTime created, updated;

    // Finished: its outcome is known and a resumed run must not try it again. A candidate that
    // passed verify but was not yet judged by timing ("verified", "faster") is not finished.
    bool isFinished() const
    {
        return state != QLatin1String("proposed") && state != QLatin1String("verified") && state != QLatin1String("faster");
    }
};

// One round of the loop: the diagnosis it ranked on the best candidate of that moment. A row of
// its own, so that recording a round never rewrites a finished candidate.
struct RoundRow {
    qint64 id = 0;
    qint64 runId = 0;
    int iteration = 0;
    qint64 candidateId = 0;    // the candidate diagnosed
    QJsonObject round;         // optimize::RoundDiagnosis (RoundDiagnosisJson.h)
    QJsonObject ladder;        // the ladder's whole result for that kernel
    QDateTime created;
};

} // namespace strata
