#include "cluster/ResultsMerge.h"

#include "optimize/OutcomeJson.h"
#include "optimize/OutcomeStore.h"
#include "optimize/SuiteBench.h"
#include "store/Store.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QProcessEnvironment>

namespace strata::cluster {

namespace {

using optimize::SuiteOutcome;
using optimize::TaskOutcome;

const QStringList kFinishedStates{QStringLiteral("improved"), QStringLiteral("no_gain"), QStringLiteral("failed")};

// The store of element `index`, or nullptr when the element has not created it yet.
Expected<std::unique_ptr<Store>> openExisting(const SlurmPlan &plan, int index)
{
    if (!QFile::exists(plan.storePath(index)))
        return std::unique_ptr<Store>();
    return Store::open(plan.storePath(index));
}

// The state a run of the store gives its task (see TaskProgress::state).
QString runState(const OptimizeRunRecord &run)
{
    if (run.status == QLatin1String("running"))
        return QStringLiteral("running");
    if (run.status == QLatin1String("cancelled"))
        return QStringLiteral("interrupted");
    const QString outcome = run.outcome.value(QStringLiteral("status")).toString();
    return outcome.isEmpty() ? QStringLiteral("failed") : outcome;
}

// The newest run of each task of element `index` (by stem), empty when it has none.
Expected<QHash<QString, OptimizeRunRecord>> newestRuns(const SlurmPlan &plan, int index, Store *store)
{
    QHash<QString, OptimizeRunRecord> newest;
    if (!store)
        return newest;
    Expected<QVector<OptimizeRunRecord>> runs = store->listOptimizeRuns();
    if (!runs)
        return runs.error();
    for (const OptimizeRunRecord &run : *runs) {
        const QString stem = QFileInfo(run.taskPath).completeBaseName();
        if (run.suite == plan.suiteName() && plan.batches[index].contains(stem)
            && (!newest.contains(stem) || newest.value(stem).id < run.id))
            newest.insert(stem, run);
    }
    return newest;
}

// Element `index`'s store (null before the element created it) and its newest run per task.
struct ElementRuns {
    std::unique_ptr<Store> store;
    QHash<QString, OptimizeRunRecord> runs;
};

Expected<ElementRuns> elementRuns(const SlurmPlan &plan, int index)
{
    Expected<std::unique_ptr<Store>> store = openExisting(plan, index);
    if (!store)
        return store.error();
    Expected<QHash<QString, OptimizeRunRecord>> runs = newestRuns(plan, index, store->get());
    if (!runs)
        return runs.error();
    return ElementRuns{std::move(*store), std::move(*runs)};
}

TaskOutcome pendingTask(const QString &stem, const QHash<QString, TaskOutcome> &pending)
{
    TaskOutcome task = pending.value(stem);
    task.taskId = stem;
    task.status = QStringLiteral("pending");
    return task;
}

// Device, driver and versions from the first element results file that reads.
void fillHeader(const SlurmPlan &plan, SuiteOutcome &suite)
{
    for (int i = 0; i < plan.batches.size(); ++i) {
        if (!QFile::exists(plan.partPath(i)))
            continue;
        Expected<SuiteOutcome> part = optimize::readSuiteOutcomeFile(plan.partPath(i));
        if (!part)
            continue;
        suite.device = part->device;
        suite.driver = part->driver;
        suite.triton = part->triton;
        suite.torch = part->torch;
        return;
    }
}

} // namespace

bool isFinished(const TaskProgress &task)
{
    return kFinishedStates.contains(task.state);
}

Expected<QVector<TaskProgress>> storeProgress(const SlurmPlan &plan)
{
    QVector<TaskProgress> progress;
    for (int i = 0; i < plan.batches.size(); ++i) {
        Expected<ElementRuns> element = elementRuns(plan, i);
        if (!element)
            return element.error();
        const QHash<QString, OptimizeRunRecord> &runs = element->runs;
        for (const QString &stem : plan.batches[i]) {
            TaskProgress task{stem, i, QStringLiteral("pending"), 0};
            if (runs.contains(stem)) {
                const OptimizeRunRecord run = runs.value(stem);
                task.state = runState(run);
                if (Expected<QVector<CandidateRow>> rows = element->store->candidatesForRun(run.id))
                    task.candidates = int(rows->size());
            }
            progress.append(task);
        }
    }
    return progress;
}

Expected<SuiteOutcome> mergeRun(const SlurmPlan &plan)
{
    QHash<QString, TaskOutcome> pending;  // category and path of tasks no element started
    if (Expected<SuiteOutcome> suite = optimize::pendingSuite(plan.suiteDir))
        for (const TaskOutcome &task : suite->tasks)
            pending.insert(task.taskId, task);
    SuiteOutcome merged;
    merged.suite = plan.suiteName();
    merged.date = QDateTime::currentDateTimeUtc();
    merged.commit = QProcessEnvironment::systemEnvironment().value(QStringLiteral("STRATA_GIT_COMMIT"));
    fillHeader(plan, merged);
    bool everyTaskFinished = true;
    for (int i = 0; i < plan.batches.size(); ++i) {
        Expected<ElementRuns> element = elementRuns(plan, i);
        if (!element)
            return element.error();
        const QHash<QString, OptimizeRunRecord> &runs = element->runs;
        for (const QString &stem : plan.batches[i]) {
            if (!runs.contains(stem)) {
                merged.tasks.append(pendingTask(stem, pending));
                everyTaskFinished = false;
                continue;
            }
            const OptimizeRunRecord run = runs.value(stem);
            Expected<TaskOutcome> task = optimize::loadTaskOutcome(*element->store, run.id);
            if (!task)
                return task.error();
            // The run's own status decides whether it ended: a cancel that cut the initial
            // kernel's check stores a "failed" outcome on a run that is still resumable.
            if (runState(run) == QLatin1String("interrupted") && task->status != QLatin1String("interrupted")) {
                task->status = QStringLiteral("interrupted");
                task->failure = QStringLiteral("stopped before the task finished (cancel or time limit); submitting the "
                                               "same command again resumes it");
            }
            everyTaskFinished = everyTaskFinished && kFinishedStates.contains(task->status);
            merged.tasks.append(*task);
        }
        merged.mergedFrom.append(QJsonObject{{QStringLiteral("file"), plan.storePath(i)},
                                             {QStringLiteral("tasks"), int(plan.batches[i].size())},
                                             {QStringLiteral("element"), i}});
    }
    merged.coverage = everyTaskFinished ? optimize::Coverage::Merged : optimize::Coverage::Part;
    return merged;
}

} // namespace strata::cluster
