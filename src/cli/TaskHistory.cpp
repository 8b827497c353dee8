// strata-cli history --tasks: the recorded task files and every task-method call on them.
#include "cli/TaskCommon.h"

#include "store/Store.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace strata::cli {

namespace {

QJsonObject runJson(const TaskRunRecord &r)
{
    QJsonArray kernels;
    for (const TaskKernelRecord &k : r.kernels) {
        QJsonArray grid;
        for (qint64 d : k.grid)
            grid.append(d);
        kernels.append(QJsonObject{{QStringLiteral("kernel"), k.kernel}, {QStringLiteral("source_path"), k.sourcePath},
                                   {QStringLiteral("line"), k.line}, {QStringLiteral("grid"), grid},
                                   {QStringLiteral("spec"), k.spec}, {QStringLiteral("launches"), k.launches}});
    }
    QJsonObject json{{QStringLiteral("id"), r.id}, {QStringLiteral("method"), r.method}, {QStringLiteral("host"), r.host},
                     {QStringLiteral("status"), r.ok ? QStringLiteral("ok") : QStringLiteral("failed")},
                     {QStringLiteral("device"), r.device}, {QStringLiteral("duration_s"), r.durationSeconds},
                     {QStringLiteral("created"), r.created.toString(Qt::ISODateWithMs)}, {QStringLiteral("kernels"), kernels}};
    if (!r.verdict.isEmpty())
        json.insert(QStringLiteral("verdict"), r.verdict);
    if (!r.ok)
        json.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), r.errorCode},
                                                         {QStringLiteral("kind"), r.errorKind},
                                                         {QStringLiteral("message"), r.errorMessage}});
    return json;
}

void printRun(const TaskRunRecord &r)
{
    out() << "  #" << r.id << "  " << r.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")) << "  "
          << r.method.leftJustified(8) << "  " << r.host << "  " << (r.ok ? QStringLiteral("ok") : QStringLiteral("failed"));
    if (!r.verdict.isEmpty())
        out() << " (" << r.verdict << ")";
    out() << "  " << QString::number(r.durationSeconds, 'f', 2) << " s";
    if (!r.device.isEmpty())
        out() << "  " << r.device;
    out() << "\n";
    for (const TaskKernelRecord &k : r.kernels)
        out() << "      " << k.kernel << "  " << shortLocation(k.sourcePath, k.line) << "\n";
    if (!r.ok)
        out() << "      " << r.errorKind << ": " << r.errorMessage.section(QLatin1Char('\n'), 0, 0) << "\n";
}

} // namespace

int printTaskHistory(Store &store, const QString &path, bool json)
{
    Expected<QVector<TaskRecord>> tasks = store.listTasks();
    Expected<QVector<TaskRunRecord>> hostRuns = store.hostRuns();
    if (!tasks || !hostRuns)
        return fail(ExitStoreFailed, tasks ? hostRuns.error() : tasks.error());
    QJsonArray tasksJson;
    for (const TaskRecord &task : *tasks) {
        Expected<QVector<TaskRunRecord>> runs = store.taskRuns(task.id);
        if (!runs)
            return fail(ExitStoreFailed, runs.error());
        if (!json)
            out() << task.path << "  (sha256 " << (task.sha256.isEmpty() ? QStringLiteral("unknown") : task.sha256.left(12)) << ")\n";
        QJsonArray runsJson;
        for (const TaskRunRecord &r : *runs) {
            if (json)
                runsJson.append(runJson(r));
            else
                printRun(r);
        }
        tasksJson.append(QJsonObject{{QStringLiteral("id"), task.id}, {QStringLiteral("path"), task.path},
                                     {QStringLiteral("sha256"), task.sha256}, {QStringLiteral("meta"), task.meta},
                                     {QStringLiteral("runs"), runsJson}});
    }
    QJsonArray hostJson;
    if (!json && !hostRuns->isEmpty())
        out() << "(no task: ceilings)\n";
    for (const TaskRunRecord &r : *hostRuns) {
        if (json)
            hostJson.append(runJson(r));
        else
            printRun(r);
    }
    if (json)
        out() << QJsonDocument(QJsonObject{{QStringLiteral("store"), path}, {QStringLiteral("tasks"), tasksJson},
                                           {QStringLiteral("host_runs"), hostJson}}).toJson(QJsonDocument::Indented);
    out().flush();
    return ExitOk;
}

} // namespace strata::cli
