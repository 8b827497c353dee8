#include "cluster/SlurmStatus.h"

#include "cluster/ToolRun.h"

#include <QFileInfo>
#include <QHash>

namespace strata::cluster {

namespace {

const QStringList kLiveStates{QStringLiteral("PENDING"),    QStringLiteral("RUNNING"),  QStringLiteral("CONFIGURING"),
                              QStringLiteral("COMPLETING"), QStringLiteral("SUSPENDED"), QStringLiteral("REQUEUED"),
                              QStringLiteral("REQUEUE_HOLD"), QStringLiteral("RESIZING"), QStringLiteral("SIGNALING"),
                              QStringLiteral("STAGE_OUT")};

QString idList(const QVector<qint64> &jobs)
{
    QStringList ids;
    for (qint64 job : jobs)
        ids.append(QString::number(job));
    return ids.join(u',');
}

// Newest first: a resubmitted element's new job wins over the one it replaced.
std::optional<ElementState> find(const QVector<ElementState> &states, const QVector<qint64> &jobs, int index)
{
    for (auto job = jobs.crbegin(); job != jobs.crend(); ++job)
        for (const ElementState &state : states)
            if (state.job == *job && state.index == index)
                return state;
    return std::nullopt;
}

QString elementLine(const SlurmPlan &plan, const QueueView &queue, const QVector<TaskProgress> &tasks, int index)
{
    const std::optional<ElementState> slurm = queue.element(plan.arrayJobs, index);
    QString slurmText = QStringLiteral("-");
    if (slurm)
        slurmText = QStringLiteral("%1_%2 %3").arg(slurm->job).arg(index).arg(slurm->state);
    QStringList taskTexts;
    for (const TaskProgress &task : tasks) {
        if (task.index != index)
            continue;
        QString text = task.task + u' ' + task.state;
        // A run the store calls running whose element Slurm no longer runs was cut hard (kill,
        // node failure): the next submission resumes it.
        const bool live = slurm && isLive(slurm->state);
        if (task.state == QLatin1String("running") && !live)
            text = task.task + QStringLiteral(" cut (resumes on resubmission)");
        else if (task.state == QLatin1String("interrupted") && live)
            text = task.task + QStringLiteral(" resuming");
        if (task.candidates > 0)
            text += QStringLiteral(" (%1 candidates)").arg(task.candidates);
        taskTexts.append(text);
    }
    return QStringLiteral("  %1 %2 %3\n").arg(index, 4).arg(slurmText, -26).arg(taskTexts.join(QStringLiteral(", ")));
}

} // namespace

QVector<ElementState> parseSqueue(const QString &text)
{
    QVector<ElementState> states;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList fields = line.trimmed().split(u'|');
        if (fields.size() < 3)
            continue;
        bool isNumber = false;
        ElementState state;
        state.job = fields[0].toLongLong(&isNumber);
        if (!isNumber)
            continue;
        state.index = fields[1].toInt(&isNumber);
        if (!isNumber)
            state.index = -1;  // "N/A": not an array element
        state.state = fields[2];
        state.reason = fields.mid(3).join(u'|');
        states.append(state);
    }
    return states;
}

QVector<ElementState> parseSacct(const QString &text)
{
    QVector<ElementState> states;
    for (const QString &line : text.split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList fields = line.trimmed().split(u'|');
        if (fields.size() < 2 || fields[0].contains(u'.') || fields[0].contains(u'['))
            continue;
        const QStringList id = fields[0].split(u'_');
        bool isNumber = false;
        ElementState state;
        state.job = id[0].toLongLong(&isNumber);
        if (!isNumber)
            continue;
        state.index = id.size() > 1 ? id[1].toInt(&isNumber) : -1;
        if (!isNumber)
            continue;
        state.state = fields[1].section(u' ', 0, 0);
        state.reason = fields.value(2);
        states.append(state);
    }
    return states;
}

bool isLive(const QString &state)
{
    return kLiveStates.contains(state);
}

std::optional<ElementState> QueueView::element(const QVector<qint64> &jobs, int index) const
{
    // squeue is live; sacct may lag behind it by a few seconds.
    if (std::optional<ElementState> state = find(queued, jobs, index))
        return state;
    return find(accounted, jobs, index);
}

std::optional<ElementState> QueueView::job(qint64 id) const
{
    return element({id}, -1);
}

bool QueueView::anyLive(const QVector<qint64> &jobs) const
{
    for (const ElementState &state : queued)
        if (jobs.contains(state.job) && isLive(state.state))
            return true;
    return false;
}

Expected<QueueView> readQueue(const QVector<qint64> &jobs)
{
    QueueView view;
    if (jobs.isEmpty())
        return view;
    // All of the user's jobs, filtered here: squeue --jobs fails on ids it has already forgotten.
    Expected<QString> queued = runTool(QStringLiteral("squeue"), {QStringLiteral("--noheader"), QStringLiteral("--array"),
                                                                   QStringLiteral("--states=all"), QStringLiteral("--format=%F|%K|%T|%R")});
    if (!queued)
        return queued.error();
    for (const ElementState &state : parseSqueue(*queued))
        if (jobs.contains(state.job))
            view.queued.append(state);
    const QStringList sacctArgs{QStringLiteral("--noheader"), QStringLiteral("--parsable2"), QStringLiteral("--allocations"),
                                QStringLiteral("--jobs=") + idList(jobs), QStringLiteral("--format=JobID,State,ExitCode")};
    if (Expected<QString> accounted = runTool(QStringLiteral("sacct"), sacctArgs))
        view.accounted = parseSacct(*accounted);
    else
        view.notes.append(QStringLiteral("no job history (%1); finished elements are judged by their stores")
                              .arg(accounted.error().toString()));
    return view;
}

QString statusText(const SlurmPlan &plan, const QueueView &queue, const QVector<TaskProgress> &tasks)
{
    int finished = 0;
    for (const TaskProgress &task : tasks)
        finished += isFinished(task) ? 1 : 0;
    QString text = QStringLiteral("Slurm run of %1 in %2: %3 tasks in %4 elements, %5 finished\n")
                       .arg(plan.suiteName(), plan.runDir)
                       .arg(tasks.size())
                       .arg(plan.batches.size())
                       .arg(finished);
    QStringList jobs;
    for (qint64 job : plan.arrayJobs)
        jobs.append(QString::number(job));
    text += QStringLiteral("array jobs submitted: %1\n").arg(jobs.isEmpty() ? QStringLiteral("none") : jobs.join(QStringLiteral(", ")));
    text += QStringLiteral("  elem %1 tasks (state from the element's store)\n").arg(QStringLiteral("slurm"), -26);
    for (int i = 0; i < plan.batches.size(); ++i)
        text += elementLine(plan, queue, tasks, i);
    if (!plan.mergeJobs.isEmpty()) {
        const std::optional<ElementState> merge = queue.job(plan.mergeJobs.last());
        text += QStringLiteral("merge job %1: %2\n").arg(plan.mergeJobs.last()).arg(merge ? merge->state + u' ' + merge->reason : QStringLiteral("not in the queue"));
    }
    const QFileInfo results(plan.resultsPath());
    text += results.exists() ? QStringLiteral("results: %1 (merged %2)\n").arg(results.filePath(), results.lastModified().toUTC().toString(Qt::ISODate))
                             : QStringLiteral("results: not merged yet (strata-cli merge %1 merges what the stores hold)\n").arg(plan.runDir);
    for (const QString &note : queue.notes)
        text += QStringLiteral("note: ") + note + u'\n';
    return text;
}

} // namespace strata::cluster
