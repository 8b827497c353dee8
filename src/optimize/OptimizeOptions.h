#pragma once
// Budgets and switches of one optimization run (strata-cli optimize / bench, the explorer's run
// control). Stored with the run, so a resumed run knows what it was started with.
#include "diagnosis/model/Finding.h"

#include <QJsonObject>
#include <QString>

namespace strata::optimize {

struct OptimizeOptions {
    int maxIterations = 4;               // accepted-or-not rounds of diagnose -> propose -> check
    int maxCandidatesPerIteration = 6;   // proposals checked per round (the rest wait for the next)
    double wallSeconds = 1800;           // per task
    qint64 tokenBudget = 200000;         // LLM tokens per task (input + output)
    double stopAtRooflinePct = 90;       // good enough: stop
    double minGain = 0.02;               // a win is >= 2% faster, beyond both medians' CI
    diagnosis::Level maxLevel = diagnosis::Level::L3;  // diagnosis depth inside the loop
    double timeCapSeconds = 2;           // per `time` call
    double targetCi = 0.005;
    bool baselines = true;               // time eager and torch.compile with the initial kernel
    bool timing = true;                  // false: checks only (no GPU, --interpret): nothing is accepted
    bool finalCheck = true;              // re-time initial vs best together at the end
    bool profileRounds = true;           // with timing: profile each new best (ncu) for L2's line costs
    int callTimeoutSeconds = 300;        // each agent call
    QString target;                      // GPU target for captures; empty: the host GPU's
    QString workDir;                     // candidate files and compiles go under it
    bool resume = true;                  // continue an unfinished run on the same task content

    QJsonObject toJson() const;
};

} // namespace strata::optimize
