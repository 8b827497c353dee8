#include "cluster/SlurmSubmitter.h"

#include "cluster/ResultsMerge.h"
#include "cluster/SlurmStatus.h"
#include "cluster/ToolRun.h"
#include "optimize/SuiteBench.h"

#include <QDir>
#include <QFileInfo>

namespace strata::cluster {

namespace {

QStringList flatten(const QVector<QStringList> &batches)
{
    QStringList all;
    for (const QStringList &batch : batches)
        all += batch;
    return all;
}

// The plan already in the folder (its batches kept), or a new one.
Expected<SlurmPlan> planFor(const SubmitRequest &request)
{
    Expected<QStringList> paths = optimize::suiteTasks(request.suiteDir, request.only);
    if (!paths)
        return paths.error();
    QStringList stems;
    for (const QString &path : *paths)
        stems.append(QFileInfo(path).completeBaseName());
    SlurmPlan plan;
    if (Expected<SlurmPlan> existing = readPlan(request.runDir)) {
        plan = *existing;
        if (QFileInfo(plan.suiteDir).absoluteFilePath() != QFileInfo(request.suiteDir).absoluteFilePath() || flatten(plan.batches) != stems)
            return ReadError{plan.planPath(), 0, 0,
                             QStringLiteral("this run folder was planned for other tasks (%1 of %2); give another --slurm-dir or remove it")
                                 .arg(flatten(plan.batches).join(u','), plan.suiteDir)};
    } else if (existing.error().kind != ProblemKind::Missing) {
        return existing.error();
    } else {
        plan.runDir = QFileInfo(request.runDir).absoluteFilePath();
        plan.suiteDir = QFileInfo(request.suiteDir).absoluteFilePath();
        plan.batches = splitIntoBatches(stems, request.arrayMax);
    }
    // What may change between submissions: the options, the binary, the resources.
    plan.cli = request.cli;
    plan.workingDir = request.workingDir;
    plan.benchArgs = request.benchArgs;
    plan.resultsCopy = request.resultsCopy;
    plan.resources = request.resources;
    return plan;
}

QStringList resourceArgs(const SlurmResources &resources, bool withGres)
{
    QStringList args;
    if (!resources.partition.isEmpty())
        args.append(QStringLiteral("--partition=") + resources.partition);
    if (withGres && !resources.gres.isEmpty())
        args.append(QStringLiteral("--gres=") + resources.gres);
    if (withGres && !resources.time.isEmpty())
        args.append(QStringLiteral("--time=") + resources.time);
    return args + resources.sbatchArgs;
}

// sbatch --parsable prints "ID" or "ID;CLUSTER".
Expected<qint64> sbatch(const QStringList &args)
{
    Expected<QString> printed = runTool(QStringLiteral("sbatch"), args);
    if (!printed)
        return printed.error();
    bool isNumber = false;
    const qint64 id = printed->trimmed().section(u';', 0, 0).toLongLong(&isNumber);
    if (!isNumber)
        return ReadError{commandLine(QStringLiteral("sbatch"), args), 0, 0,
                         QStringLiteral("sbatch printed no job id: \"%1\"").arg(printed->trimmed().left(200))};
    return id;
}

} // namespace

QString arraySpec(const QList<int> &indices)
{
    QStringList ranges;
    for (int i = 0; i < indices.size();) {
        int last = i;
        while (last + 1 < indices.size() && indices[last + 1] == indices[last] + 1)
            ++last;
        ranges.append(last == i ? QString::number(indices[i]) : QStringLiteral("%1-%2").arg(indices[i]).arg(indices[last]));
        i = last + 1;
    }
    return ranges.join(u',');
}

Expected<Submission> submitRun(const SubmitRequest &request)
{
    Expected<SlurmPlan> planned = planFor(request);
    if (!planned)
        return planned.error();
    Submission submission;
    SlurmPlan &plan = submission.plan;
    plan = *planned;
    // Two elements on one store would run the same tasks twice: the old jobs must be gone.
    Expected<QueueView> queue = readQueue(plan.arrayJobs);
    if (!queue)
        return queue.error();
    if (queue->anyLive(plan.arrayJobs))
        return ReadError{plan.runDir, 0, 0,
                         QStringLiteral("job %1 of this run is still queued or running (squeue): wait for it to end, or "
                                        "cancel it (scancel %1), then submit again")
                             .arg(plan.arrayJobs.last())};
    Expected<QVector<TaskProgress>> progress = storeProgress(plan);
    if (!progress)
        return progress.error();
    for (const TaskProgress &task : *progress) {
        if (isFinished(task))
            ++submission.finishedTasks;
        else if (!submission.elements.contains(task.index))
            submission.elements.append(task.index);
    }
    if (const QString why = writePlan(plan); !why.isEmpty())
        return ReadError{plan.runDir, 0, 0, why};
    if (submission.elements.isEmpty())
        return submission;
    const QString jobName = QStringLiteral("strata-") + plan.suiteName();
    Expected<qint64> array = sbatch(QStringList{QStringLiteral("--parsable"), QStringLiteral("--job-name=") + jobName,
                                                QStringLiteral("--array=") + arraySpec(submission.elements),
                                                QStringLiteral("--output=") + plan.logDir() + QStringLiteral("/element-%a-job%A.out")}
                                    + resourceArgs(plan.resources, true) + QStringList{plan.elementScriptPath()});
    if (!array)
        return array.error();
    submission.arrayJob = *array;
    plan.arrayJobs.append(*array);
    Expected<qint64> merge = sbatch(QStringList{QStringLiteral("--parsable"), QStringLiteral("--job-name=") + jobName + QStringLiteral("-merge"),
                                                QStringLiteral("--dependency=afterany:%1").arg(*array),
                                                QStringLiteral("--output=") + plan.logDir() + QStringLiteral("/merge-job%j.out")}
                                    + resourceArgs(plan.resources, false) + QStringList{plan.mergeScriptPath()});
    if (merge) {
        submission.mergeJob = *merge;
        plan.mergeJobs.append(*merge);
    }
    // The array job is submitted either way: the plan must know it, or a resubmission would
    // start a second element on the same store.
    if (const QString why = writePlan(plan); !why.isEmpty())
        return ReadError{plan.runDir, 0, 0, QStringLiteral("array job %1 was submitted, but %2").arg(*array).arg(why)};
    if (!merge)
        return ReadError{merge.error().file, 0, 0,
                         QStringLiteral("%1 (array job %2 was submitted: run strata-cli merge %3 when it ends)")
                             .arg(merge.error().message).arg(*array).arg(plan.runDir)};
    return submission;
}

} // namespace strata::cluster
