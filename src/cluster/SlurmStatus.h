#pragma once
// What Slurm says of a run's jobs: squeue for jobs it still holds (pending, running, and finished
// ones for a few minutes), sacct for the history when the cluster keeps accounting. Read with the
// tools' parsable formats; a cluster without accounting is a note, not an error.
#include "cluster/ResultsMerge.h"
#include "cluster/SlurmPlan.h"
#include "core/Expected.h"

#include <QString>
#include <QStringList>
#include <QVector>
#include <optional>

namespace strata::cluster {

struct ElementState {
    qint64 job = 0;     // the array job (or a plain job's id)
    int index = -1;     // array index; -1 for a job that is not an array element
    QString state;      // PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, TIMEOUT, ...
    QString reason;     // squeue's reason or node list; sacct's exit code
};

// `squeue -h -r -t all -o %F|%K|%T|%R`: one element per line.
QVector<ElementState> parseSqueue(const QString &text);
// `sacct -n -P -X -o JobID,State,ExitCode`: "12_3|COMPLETED|0:0"; steps and still-compacted
// ranges ("12_[4-7]") are skipped, "CANCELLED by 0" reads as CANCELLED.
QVector<ElementState> parseSacct(const QString &text);

// Whether Slurm still runs or will run a job in this state.
bool isLive(const QString &state);

struct QueueView {
    QVector<ElementState> queued;    // squeue
    QVector<ElementState> accounted; // sacct
    QStringList notes;               // what could not be read, and why

    // What Slurm knows of array element `index`, from the newest of `jobs` that has it.
    std::optional<ElementState> element(const QVector<qint64> &jobs, int index) const;
    std::optional<ElementState> job(qint64 id) const;  // a plain job (the merge)
    bool anyLive(const QVector<qint64> &jobs) const;
};

// Runs squeue (its failure is an error naming the command) and sacct (a failure becomes a note).
Expected<QueueView> readQueue(const QVector<qint64> &jobs);

// The text `strata-cli bench --slurm --status` prints: one line per element (Slurm's state, each
// task's state from its store), the merge job, and where the results are.
QString statusText(const SlurmPlan &plan, const QueueView &queue, const QVector<TaskProgress> &tasks);

} // namespace strata::cluster
