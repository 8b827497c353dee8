#pragma once
// `strata-cli bench SUITE --slurm`: plans the run folder (SlurmPlan.h), then submits one array job
// for the elements with unfinished tasks and a merge job that waits for it (afterany: it merges
// whatever the elements stored, also after a cancel or a time limit). Submitting the same command
// again resumes: elements whose tasks all finished are not run again, the others resume from
// their stores. Everything Slurm does is Slurm's (sbatch, its array and dependency); nothing here
// schedules.
#include "cluster/SlurmPlan.h"
#include "core/Expected.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace strata::cluster {

struct SubmitRequest {
    QString suiteDir;
    QStringList only;         // task stems (empty: the whole suite)
    QString runDir;
    QString cli;              // the strata-cli the nodes run
    QString workingDir;       // where the jobs start
    QStringList benchArgs;    // bench options each element runs with
    QString resultsCopy;      // the merge also writes this file (--json)
    SlurmResources resources;
    int arrayMax = 0;         // at most this many array elements (0: one per task); first plan only
};

struct Submission {
    qint64 arrayJob = 0;      // 0: nothing was left to run
    qint64 mergeJob = 0;
    QList<int> elements;      // array indices submitted
    int finishedTasks = 0;    // kept from earlier submissions
    SlurmPlan plan;
};

// "0-3,5,7-9" for sbatch --array.
QString arraySpec(const QList<int> &indices);

// Plans (or re-reads) the run folder and submits what is left. With nothing left it submits
// nothing (the caller merges). Errors name the command that failed, or say why the folder
// cannot be resumed (planned for other tasks; its jobs still in the queue).
Expected<Submission> submitRun(const SubmitRequest &request);

} // namespace strata::cluster
