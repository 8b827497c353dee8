#pragma once
// The folder of a suite run on Slurm (`strata-cli bench SUITE --slurm`): which tasks each array
// element runs, the scripts sbatch is given, and where each element keeps its store and results.
//
//   RUN/plan.json          this plan: suite, batches, bench options, the jobs submitted so far
//   RUN/element.sh         the array job: element i runs `strata-cli bench` on batch i
//   RUN/merge.sh           the dependent job: `strata-cli merge RUN`
//   RUN/stores/<i>.db      element i's store (the loop resumes from it when i runs again)
//   RUN/parts/<i>.json     element i's results file, as bench writes it
//   RUN/work/<i>/          element i's candidate files and compiles
//   RUN/logs/              each job's output
//   RUN/results.json       the merged results of the whole suite
//
// The batches are fixed when the folder is first planned, so that a resubmission finds every
// task in the store that ran it.
#include "core/Expected.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::cluster {

// What sbatch is asked for, beyond the array itself.
struct SlurmResources {
    QString partition;        // --partition
    QString gres;             // --gres (gpu:1); the merge job asks for none
    QString time;             // --time, per element
    QStringList sbatchArgs;   // anything else (--account=.., --qos=..), given to both jobs
};

struct SlurmPlan {
    QString runDir;           // absolute
    QString suiteDir;         // absolute
    QString cli;              // the strata-cli the nodes run (a shared file system is assumed)
    QString workingDir;       // where the jobs start (the submitting shell's folder)
    QVector<QStringList> batches;  // task stems of each array index
    QStringList benchArgs;    // the bench options every element runs with
    QString resultsCopy;      // --json FILE given to the submission: the merge writes it too
    SlurmResources resources;
    QVector<qint64> arrayJobs;  // every array job submitted for this folder, oldest first
    QVector<qint64> mergeJobs;

    QString suiteName() const;
    QString planPath() const;
    QString elementScriptPath() const;
    QString mergeScriptPath() const;
    QString storePath(int index) const;
    QString partPath(int index) const;
    QString workDir(int index) const;
    QString logDir() const;
    QString resultsPath() const;
    int indexOfTask(const QString &stem) const;  // -1: not in the plan

    QJsonObject toJson() const;
};

// Splits the task stems (in suite order) into at most `arrayMax` contiguous batches whose sizes
// differ by one at most; arrayMax <= 0: one task per batch.
QVector<QStringList> splitIntoBatches(const QStringList &stems, int arrayMax);

Expected<SlurmPlan> planFromJson(const QJsonObject &json, const QString &origin);
// RUN/plan.json, or an error naming it (missing: "no Slurm run in RUN").
Expected<SlurmPlan> readPlan(const QString &runDir);
// Writes plan.json and both scripts; empty on success, else why.
QString writePlan(const SlurmPlan &plan);

// The scripts sbatch runs (bash; every path quoted for the shell).
QString elementScript(const SlurmPlan &plan);
QString mergeScript(const SlurmPlan &plan);
QString shellQuote(const QString &text);

} // namespace strata::cluster
