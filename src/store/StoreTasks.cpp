// Store's task half: task files, the calls made on them (run_task, verify, time, profile,
// ceilings) and the kernels each call captured. Each call is one transaction.
#include "store/Store.h"

#include "store/StoreInternal.h"

#include <QJsonArray>
#include <QVariant>

namespace strata {

using namespace storeinternal;

namespace {

QVariant nullIfEmpty(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

QVariant jsonOrNull(const QJsonObject &object)
{
    return object.isEmpty() ? QVariant() : QVariant(compactJson(object));
}

Expected<qint64> taskId(WriteTransaction &tx, const TaskCallRecord &call)
{
    // A task on an ssh host is not readable here: its hash is "" (never NULL, which the UNIQUE
    // key would not match and INSERT OR IGNORE would silently drop).
    QString sha = call.taskSha256.isEmpty() ? fileSha256(call.taskPath) : call.taskSha256;
    if (sha.isNull())
        sha = QStringLiteral("");
    ReadError error;
    QSqlQuery insert(tx.db());
    insert.prepare(QStringLiteral("INSERT OR IGNORE INTO tasks (path, sha256, meta_json) VALUES (?, ?, ?)"));
    insert.addBindValue(call.taskPath);
    insert.addBindValue(sha);
    insert.addBindValue(jsonOrNull(call.taskMeta));
    if (!run(insert, tx.path(), QStringLiteral("cannot record task %1").arg(call.taskPath), &error))
        return error;
    if (!call.taskMeta.isEmpty()) {   // a task first seen through a failed call learns its meta later
        QSqlQuery meta(tx.db());
        meta.prepare(QStringLiteral("UPDATE tasks SET meta_json = ? WHERE path = ? AND sha256 = ? AND meta_json IS NULL"));
        meta.addBindValue(compactJson(call.taskMeta));
        meta.addBindValue(call.taskPath);
        meta.addBindValue(sha);
        if (!run(meta, tx.path(), QStringLiteral("cannot record the meta of task %1").arg(call.taskPath), &error))
            return error;
    }
    QSqlQuery select(tx.db());
    select.prepare(QStringLiteral("SELECT id FROM tasks WHERE path = ? AND sha256 = ?"));
    select.addBindValue(call.taskPath);
    select.addBindValue(sha);
    if (!run(select, tx.path(), QStringLiteral("cannot find task %1").arg(call.taskPath), &error))
        return error;
    if (!select.next())
        return ReadError{tx.path(), 0, 0, QStringLiteral("task %1 vanished while recording").arg(call.taskPath)};
    return select.value(0).toLongLong();
}

Expected<qint64> insertRun(WriteTransaction &tx, const QVariant &task, const TaskCallRecord &call)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral(
        "INSERT INTO task_runs (task_id, method, host, status, params_json, result_json, verdict, "
        "error_code, error_kind, error_message, error_json, device, duration_s) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const QVariant &value : {task, QVariant(call.method), QVariant(call.host),
                                  QVariant(call.ok ? QStringLiteral("ok") : QStringLiteral("failed")),
                                  jsonOrNull(call.params), jsonOrNull(call.result), nullIfEmpty(call.verdict),
                                  call.ok ? QVariant() : QVariant(call.errorCode), nullIfEmpty(call.errorKind),
                                  nullIfEmpty(call.errorMessage), jsonOrNull(call.errorData),
                                  nullIfEmpty(call.device), QVariant(call.durationSeconds)})
        query.addBindValue(value);
    ReadError error;
    if (!run(query, tx.path(), QStringLiteral("cannot record the %1 call").arg(call.method), &error))
        return error;
    return query.lastInsertId().toLongLong();
}

QString gridJson(const QVector<qint64> &grid)
{
    QJsonArray array;
    for (qint64 d : grid)
        array.append(d);
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

bool insertKernels(WriteTransaction &tx, qint64 runId, const TaskCallRecord &call, ReadError *error)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral("INSERT INTO task_kernels (run_id, idx, kernel, source_path, line, grid_json, "
                                 "spec_json, launches, ptx_sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (int i = 0; i < call.kernels.size(); ++i) {
        const CapturedKernel &k = call.kernels[i];
        for (const QVariant &value : {QVariant(runId), QVariant(i), QVariant(k.kernel), QVariant(k.sourcePath),
                                      QVariant(k.line), QVariant(gridJson(k.grid)), QVariant(compactJson(k.spec)),
                                      QVariant(k.launches), nullIfEmpty(k.ptxSha256)})
            query.addBindValue(value);
        if (!run(query, tx.path(), QStringLiteral("cannot record captured kernel %1").arg(k.kernel), error))
            return false;
    }
    return true;
}

TaskRunRecord runFrom(const QSqlQuery &q)
{
    TaskRunRecord r;
    r.id = q.value(0).toLongLong();
    r.taskId = q.value(1).toLongLong();
    r.method = q.value(2).toString();
    r.host = q.value(3).toString();
    r.ok = q.value(4).toString() == QLatin1String("ok");
    r.params = parseObject(q.value(5));
    r.result = parseObject(q.value(6));
    r.verdict = q.value(7).toString();
    r.errorCode = q.value(8).toInt();
    r.errorKind = q.value(9).toString();
    r.errorMessage = q.value(10).toString();
    r.errorData = parseObject(q.value(11));
    r.device = q.value(12).toString();
    r.durationSeconds = q.value(13).toDouble();
    r.created = QDateTime::fromString(q.value(14).toString(), Qt::ISODateWithMs);
    return r;
}

bool readKernels(QSqlDatabase db, const QString &path, TaskRunRecord *run_, ReadError *error)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT kernel, source_path, line, grid_json, spec_json, launches, ptx_sha256 "
                             "FROM task_kernels WHERE run_id = ? ORDER BY idx"));
    q.addBindValue(run_->id);
    if (!run(q, path, QStringLiteral("cannot read the kernels of task run %1").arg(run_->id), error))
        return false;
    while (q.next()) {
        TaskKernelRecord k{q.value(0).toString(), q.value(1).toString(), q.value(2).toInt(), {},
                           parseObject(q.value(4)), q.value(5).toInt(), q.value(6).toString()};
        for (const QJsonValue &d : QJsonDocument::fromJson(q.value(3).toString().toUtf8()).array())
            k.grid.append(qint64(d.toDouble()));
        run_->kernels.append(k);
    }
    return true;
}

Expected<QVector<TaskRunRecord>> readRuns(QSqlDatabase db, const QString &path, const QString &where,
                                          const QVariant &bound)
{
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT id, task_id, method, host, status, params_json, result_json, verdict, "
                             "error_code, error_kind, error_message, error_json, device, duration_s, created "
                             "FROM task_runs WHERE %1 ORDER BY id").arg(where));
    if (bound.isValid())
        q.addBindValue(bound);
    ReadError error;
    if (!run(q, path, QStringLiteral("cannot read task runs"), &error))
        return error;
    QVector<TaskRunRecord> runs;
    while (q.next())
        runs.append(runFrom(q));
    for (TaskRunRecord &r : runs) {
        if (!readKernels(db, path, &r, &error))
            return error;
    }
    return runs;
}

} // namespace

Expected<qint64> Store::recordTaskResult(const TaskCallRecord &call)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    QVariant task;   // null for calls without a task (ceilings)
    if (!call.taskPath.isEmpty()) {
        Expected<qint64> id = taskId(tx, call);
        if (!id)
            return id.error();
        task = *id;
    }
    Expected<qint64> runId = insertRun(tx, task, call);
    if (!runId)
        return runId.error();
    if (!insertKernels(tx, *runId, call, &error) || !tx.commit(&error))
        return error;
    return runId;
}

Expected<QVector<TaskRecord>> Store::listTasks() const
{
    QSqlQuery q(connection(m_connectionName));
    q.prepare(QStringLiteral("SELECT id, path, sha256, meta_json, created FROM tasks ORDER BY id"));
    ReadError error;
    if (!run(q, m_path, QStringLiteral("cannot list tasks"), &error))
        return error;
    QVector<TaskRecord> tasks;
    while (q.next())
        tasks.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(), parseObject(q.value(3)),
                      QDateTime::fromString(q.value(4).toString(), Qt::ISODateWithMs)});
    return tasks;
}

Expected<QVector<TaskRunRecord>> Store::taskRuns(qint64 taskId) const
{
    return readRuns(connection(m_connectionName), m_path, QStringLiteral("task_id = ?"), taskId);
}

Expected<QVector<TaskRunRecord>> Store::hostRuns() const
{
    return readRuns(connection(m_connectionName), m_path, QStringLiteral("task_id IS NULL"), QVariant());
}

} // namespace strata
