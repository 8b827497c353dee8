#pragma once
// Runs an external tool (sbatch, squeue, sacct) and waits for it. Every way it can fail (not on
// PATH, crashed, hung, non-zero exit) comes back as an error that names the command line and
// carries the tool's own words, so a missing Slurm is a sentence, never a crash.
#include "core/Expected.h"

#include <QString>
#include <QStringList>

namespace strata::cluster {

// The tool's stdout when it exits 0.
Expected<QString> runTool(const QString &program, const QStringList &arguments, int timeoutMs = 60 * 1000);

// "sbatch --parsable --array=0-3 job.sh": for messages.
QString commandLine(const QString &program, const QStringList &arguments);

} // namespace strata::cluster
