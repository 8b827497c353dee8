#include "cli/ClusterCommand.h"

#include "cli/CliCommon.h"
#include "cluster/ResultsMerge.h"
#include "cluster/SlurmStatus.h"
#include "cluster/SlurmSubmitter.h"
#include "core/AtomicFile.h"
#include "optimize/OutcomeJson.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

namespace strata::cli {

namespace {

const char *const kMergeUsage =
    "strata-cli merge RUN_DIR [--json FILE] [--csv FILE]\n"
    "Merges the stores of a Slurm run's elements (bench --slurm) into one results file: each task's\n"
    "newest run, in suite order; tasks no element started are \"pending\". Writes RUN_DIR/results.json\n"
    "(and FILE). The merged file's coverage is \"merged\" when every task finished, else \"part\".";

// Writes the file whole or not at all; false after printing why.
bool writeOut(const QString &path, const QByteArray &bytes)
{
    if (path.isEmpty())
        return true;
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (const QString why = writeFileAtomically(path, bytes); !why.isEmpty()) {
        fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("cannot write: ") + why});
        return false;
    }
    return true;
}

int mergeInto(const cluster::SlurmPlan &plan, const QString &jsonCopy, const QString &csvPath)
{
    Expected<optimize::SuiteOutcome> merged = cluster::mergeRun(plan);
    if (!merged)
        return fail(ExitStoreFailed, merged.error());
    const QByteArray json = QJsonDocument(optimize::toJson(*merged)).toJson(QJsonDocument::Indented);
    if (!writeOut(plan.resultsPath(), json) || !writeOut(jsonCopy, json) || !writeOut(csvPath, optimize::toCsv(*merged).toUtf8()))
        return ExitBadInput;
    int finished = 0;
    for (const optimize::TaskOutcome &task : merged->tasks)
        finished += task.status == QLatin1String("pending") || task.status == QLatin1String("running")
                            || task.status == QLatin1String("interrupted") ? 0 : 1;
    out() << "merged " << merged->tasks.size() << " tasks of " << merged->suite << " (" << finished << " finished, coverage "
          << optimize::coverageName(merged->coverage) << ") into " << plan.resultsPath();
    if (!jsonCopy.isEmpty())
        out() << " and " << jsonCopy;
    out() << Qt::endl;
    return ExitOk;
}

int printStatus(const SlurmCommand &command)
{
    Expected<cluster::SlurmPlan> plan = cluster::readPlan(command.runDir);
    if (!plan)
        return fail(ExitBadInput, plan.error());
    Expected<cluster::QueueView> queue = cluster::readQueue(plan->arrayJobs + plan->mergeJobs);
    if (!queue)
        return fail(ExitAgentFailed, queue.error());
    Expected<QVector<cluster::TaskProgress>> tasks = cluster::storeProgress(*plan);
    if (!tasks)
        return fail(ExitStoreFailed, tasks.error());
    out() << cluster::statusText(*plan, *queue, *tasks);
    out().flush();
    return ExitOk;
}

int submit(const SlurmCommand &command)
{
    cluster::SubmitRequest request;
    request.suiteDir = command.suiteDir;
    request.only = command.only;
    request.runDir = command.runDir;
    request.cli = QCoreApplication::applicationFilePath();
    request.workingDir = QDir::currentPath();
    request.benchArgs = command.benchArgs;
    request.resultsCopy = command.resultsCopy;
    request.resources = command.resources;
    request.arrayMax = command.arrayMax;
    Expected<cluster::Submission> submission = cluster::submitRun(request);
    if (!submission)
        return fail(ExitAgentFailed, submission.error());
    const cluster::SlurmPlan &plan = submission->plan;
    if (submission->arrayJob == 0) {
        out() << "every task of " << plan.suiteName() << " in " << plan.runDir << " has finished: nothing to submit" << Qt::endl;
        return mergeInto(plan, plan.resultsCopy, {});
    }
    out() << "submitted array job " << submission->arrayJob << " (elements " << cluster::arraySpec(submission->elements) << " of "
          << plan.batches.size() << ") and merge job " << submission->mergeJob << " for " << plan.suiteName();
    if (submission->finishedTasks > 0)
        out() << "; " << submission->finishedTasks << " finished task(s) kept";
    out() << "\nrun folder: " << plan.runDir << "\nprogress: strata-cli bench " << plan.suiteDir << " --slurm --status --slurm-dir "
          << plan.runDir << "\nresults when the merge job ends: " << plan.resultsPath() << Qt::endl;
    return ExitOk;
}

} // namespace

int runSlurmCommand(const SlurmCommand &command)
{
    return command.status ? printStatus(command) : submit(command);
}

int runMergeCommand(const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Also write the merged results to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption csv(QStringLiteral("csv"), QStringLiteral("Write one CSV row per task to FILE."), QStringLiteral("FILE"));
    parser.addOptions({json, csv});
    parser.addPositionalArgument(QStringLiteral("RUN_DIR"), QStringLiteral("The run folder of bench --slurm (it holds plan.json)."));
    if (const int code = parseOrExit(parser, args, QString::fromUtf8(kMergeUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("merge takes exactly one RUN_DIR (see --help)"));
    Expected<cluster::SlurmPlan> plan = cluster::readPlan(parser.positionalArguments().first());
    if (!plan)
        return fail(ExitBadInput, plan.error());
    return mergeInto(*plan, parser.value(json), parser.value(csv));
}

} // namespace strata::cli
