#pragma once
// One results file from the stores of a Slurm run's elements (`strata-cli merge RUN`, the
// dependent job of every submission), and each task's progress as those stores hold it
// (`bench --slurm --status`, and which elements a resubmission runs again).
#include "cluster/SlurmPlan.h"
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QVector>

namespace strata::cluster {

struct TaskProgress {
    QString task;       // file stem
    int index = 0;      // its array element
    // "pending" (no run in the store yet), "running" (a run that has not ended: it runs, or its
    // element was cut hard), "interrupted" (stopped by a cancel or time limit), or the finished
    // run's outcome: "improved", "no_gain", "failed".
    QString state;
    int candidates = 0; // candidate rows so far
};

// Finished: a resubmission keeps it, the merge reports it as it stands.
bool isFinished(const TaskProgress &task);

// Every task of the plan, in suite order. A store that does not exist yet is "pending" for all
// its tasks (it is never created by reading); one that cannot be read is an error naming it.
Expected<QVector<TaskProgress>> storeProgress(const SlurmPlan &plan);

// The suite's results from the elements' stores: each task's newest run, in suite order; a task
// no element has started is "pending". The header (device, versions) comes from the first
// element's results file that can be read. Coverage "merged" when every task finished, else "part".
Expected<optimize::SuiteOutcome> mergeRun(const SlurmPlan &plan);

} // namespace strata::cluster
