#pragma once
// strata-cli bench SUITE --slurm [--status] and strata-cli merge RUN_DIR (ClusterCommand.cpp):
// the suite as a Slurm array job, its progress, and its elements' stores merged into one
// results file. docs/cluster.md.
#include "cluster/SlurmPlan.h"

#include <QString>
#include <QStringList>

namespace strata::cli {

struct SlurmCommand {
    bool status = false;             // --status: print the run's progress, submit nothing
    QString suiteDir;
    QStringList only;
    QString runDir;                  // --slurm-dir (default out/slurm/<suite>)
    QStringList benchArgs;           // the options each element's bench runs with
    QString resultsCopy;             // --json FILE: the merge writes it too
    cluster::SlurmResources resources;
    int arrayMax = 0;
};

int runSlurmCommand(const SlurmCommand &command);
int runMergeCommand(const QStringList &args);

} // namespace strata::cli
