// The store's task half (schema 3): migration from a version-2 store, task runs ok and failed
// recorded whole with their captured kernels, and a failed write that leaves earlier runs intact.
#include "store/Store.h"
#include "store/StoreSchema.h"

#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

// Runs `statements` on the database file through a connection of its own (as another program would).
void execOn(const QString &path, const QStringList &statements)
{
    const QString name = QStringLiteral("tst-task-store-side");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const QString &statement : statements)
            QVERIFY2(q.exec(statement), qPrintable(statement + QStringLiteral(": ") + q.lastError().text()));
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

// A store as Strata with schema 2 left it: one kernel, one compile with a pass dump.
void writeVersionTwoStore(const QString &path)
{
    QStringList statements;
    for (const storeschema::Migration &m : storeschema::migrations()) {
        if (m.version <= 2)
            statements += m.statements;
    }
    statements += {QStringLiteral("UPDATE schema_version SET version = 2"),
                   QStringLiteral("INSERT INTO kernels (id, source_path, kernel_name, source_sha256) VALUES (4, '/k/add.py', 'add_kernel', 'aa')"),
                   QStringLiteral("INSERT INTO compiles (id, kernel_id, spec_json, target, status, work_dir, duration_s, ptxas_json) "
                                  "VALUES (9, 4, '{\"kernel\":\"add_kernel\"}', 'sm_90', 'ok', '/w', 2.0, '{\"registers\":26}')"),
                   QStringLiteral("INSERT INTO pass_dumps (compile_id, idx, pass, path, size, sha256) VALUES (9, 0, 'Inliner', '/w/p0.mlir', 5, 'bb')")};
    execOn(path, statements);
}

CapturedKernel kernel(const QString &name, int line, QVector<qint64> grid)
{
    CapturedKernel k;
    k.kernel = name;
    k.sourcePath = QStringLiteral("/tasks/softmax.py");
    k.line = line;
    k.grid = std::move(grid);
    k.launches = 2;
    k.spec = QJsonObject{{QStringLiteral("kernel"), name}, {QStringLiteral("target"), QStringLiteral("sm_90")},
                         {QStringLiteral("constexprs"), QJsonObject{{QStringLiteral("BLOCK"), 1024}}}};
    k.ptxSha256 = QStringLiteral("0570");
    return k;
}

TaskCallRecord okRun(const QString &taskPath)
{
    TaskCallRecord call;
    call.method = QStringLiteral("run_task");
    call.host = QStringLiteral("ssh:gpu-box");
    call.taskPath = taskPath;
    call.taskMeta = QJsonObject{{QStringLiteral("category"), QStringLiteral("reduction")}};
    call.params = QJsonObject{{QStringLiteral("task"), taskPath}, {QStringLiteral("timeout_s"), 60}};
    call.result = QJsonObject{{QStringLiteral("protocol"), 1}, {QStringLiteral("launch_count"), 4}};
    call.device = QStringLiteral("cuda");
    call.durationSeconds = 3.5;
    call.kernels = {kernel(QStringLiteral("softmax_kernel"), 12, {4096, 1, 1}), kernel(QStringLiteral("max_kernel"), 30, {64, 2, 1})};
    return call;
}

TaskCallRecord failedVerify(const QString &taskPath)
{
    TaskCallRecord call;
    call.method = QStringLiteral("verify");
    call.host = QStringLiteral("local");
    call.taskPath = taskPath;
    call.ok = false;
    call.errorCode = -32004;
    call.errorKind = QStringLiteral("worker_killed");
    call.errorMessage = QStringLiteral("the task worker died of SIGKILL");
    call.errorData = QJsonObject{{QStringLiteral("kind"), call.errorKind}, {QStringLiteral("signal"), QStringLiteral("SIGKILL")}};
    return call;
}

} // namespace

class TestTaskStore : public QObject {
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); QVERIFY(m_dir->isValid()); }
    void migratesVersionTwoStore();
    void recordsOkAndFailedRuns();
    void sameTaskEditedIsANewTask();
    void ceilingsHaveNoTask();
    void remoteTaskHasNoHash();
    void failedWriteKeepsEarlierRuns();

private:
    QString dbPath() const { return m_dir->filePath(QStringLiteral("strata.db")); }
    QString writeTask(const QByteArray &text, const QString &name = QStringLiteral("softmax.py")) const
    {
        const QString path = m_dir->filePath(name);
        QFile file(path);
        file.open(QIODevice::WriteOnly);
        file.write(text);
        return path;
    }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestTaskStore::migratesVersionTwoStore()
{
    writeVersionTwoStore(dbPath());
    auto store = Store::open(dbPath());
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE((*store)->schemaVersion(), storeschema::latestVersion());
    Expected<CompileResult> old = (*store)->loadCompile(9);   // version 2's rows are untouched
    QVERIFY2(old, qPrintable(old ? QString() : old.error().toString()));
    QCOMPARE(old->ptxas.registers, 26);
    QCOMPARE(old->passDumps.size(), 1);
    QVERIFY((*store)->listTasks()->isEmpty());
    Expected<qint64> run = (*store)->recordTaskResult(okRun(writeTask("class Model: pass\n")));
    QVERIFY2(run, qPrintable(run ? QString() : run.error().toString()));
    QCOMPARE((*store)->listTasks()->size(), 1);
}

void TestTaskStore::recordsOkAndFailedRuns()
{
    const QString task = writeTask("class Model: pass\n");
    auto store = Store::open(dbPath());
    QVERIFY(store);
    Expected<qint64> first = (*store)->recordTaskResult(okRun(task));
    Expected<qint64> second = (*store)->recordTaskResult(failedVerify(task));
    QVERIFY(first && second);
    QVERIFY(*second > *first);

    const QVector<TaskRecord> tasks = *(*store)->listTasks();
    QCOMPARE(tasks.size(), 1);   // one task, two runs
    QCOMPARE(tasks[0].path, task);
    // sha256 of "class Model: pass\n", computed from the file.
    QCOMPARE(tasks[0].sha256, QString::fromLatin1(QCryptographicHash::hash("class Model: pass\n", QCryptographicHash::Sha256).toHex()));
    QCOMPARE(tasks[0].meta.value(QStringLiteral("category")).toString(), QStringLiteral("reduction"));

    const QVector<TaskRunRecord> runs = *(*store)->taskRuns(tasks[0].id);
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].method, QStringLiteral("run_task"));
    QVERIFY(runs[0].ok);
    QCOMPARE(runs[0].host, QStringLiteral("ssh:gpu-box"));
    QCOMPARE(runs[0].result.value(QStringLiteral("launch_count")).toInt(), 4);
    QCOMPARE(runs[0].params.value(QStringLiteral("timeout_s")).toInt(), 60);
    QCOMPARE(runs[0].durationSeconds, 3.5);
    QVERIFY(runs[0].created.isValid());
    QCOMPARE(runs[0].kernels.size(), 2);
    QCOMPARE(runs[0].kernels[1].kernel, QStringLiteral("max_kernel"));
    QCOMPARE(runs[0].kernels[1].grid, (QVector<qint64>{64, 2, 1}));
    QCOMPARE(runs[0].kernels[1].line, 30);
    QCOMPARE(runs[0].kernels[0].spec.value(QStringLiteral("constexprs")).toObject().value(QStringLiteral("BLOCK")).toInt(), 1024);
    QCOMPARE(runs[0].kernels[0].ptxSha256, QStringLiteral("0570"));

    QCOMPARE(runs[1].method, QStringLiteral("verify"));
    QVERIFY(!runs[1].ok);
    QCOMPARE(runs[1].errorCode, -32004);
    QCOMPARE(runs[1].errorKind, QStringLiteral("worker_killed"));
    QCOMPARE(runs[1].errorData.value(QStringLiteral("signal")).toString(), QStringLiteral("SIGKILL"));
    QVERIFY(runs[1].kernels.isEmpty());
    QVERIFY(runs[1].result.isEmpty());
}

void TestTaskStore::sameTaskEditedIsANewTask()
{
    const QString task = writeTask("version 1\n");
    auto store = Store::open(dbPath());
    QVERIFY(store);
    TaskCallRecord failed = failedVerify(task);   // first seen through a failure: no meta yet
    QVERIFY((*store)->recordTaskResult(failed));
    QVERIFY((*store)->recordTaskResult(okRun(task)));
    QCOMPARE((*store)->listTasks()->size(), 1);
    QCOMPARE((*store)->listTasks()->at(0).meta.value(QStringLiteral("category")).toString(), QStringLiteral("reduction"));
    writeTask("version 2\n");
    QVERIFY((*store)->recordTaskResult(okRun(task)));
    const QVector<TaskRecord> tasks = *(*store)->listTasks();
    QCOMPARE(tasks.size(), 2);
    QVERIFY(tasks[0].sha256 != tasks[1].sha256);
    QCOMPARE((*store)->taskRuns(tasks[0].id)->size(), 2);
    QCOMPARE((*store)->taskRuns(tasks[1].id)->size(), 1);
}

void TestTaskStore::ceilingsHaveNoTask()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    TaskCallRecord call;
    call.method = QStringLiteral("ceilings");
    call.host = QStringLiteral("local");
    call.device = QStringLiteral("NVIDIA H200");
    call.result = QJsonObject{{QStringLiteral("ceilings"), QJsonObject{{QStringLiteral("copy_bandwidth_gbs"), 4241.96}}}};
    QVERIFY((*store)->recordTaskResult(call));
    QVERIFY((*store)->listTasks()->isEmpty());
    const QVector<TaskRunRecord> runs = *(*store)->hostRuns();
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].taskId, qint64(0));
    QCOMPARE(runs[0].device, QStringLiteral("NVIDIA H200"));
    QCOMPARE(runs[0].result.value(QStringLiteral("ceilings")).toObject().value(QStringLiteral("copy_bandwidth_gbs")).toDouble(), 4241.96);
}

// A task on an ssh host cannot be hashed here; its runs are still recorded and found again.
void TestTaskStore::remoteTaskHasNoHash()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    const QString remote = QStringLiteral("/home/me/tasks/only_on_gpu_box.py");
    QVERIFY((*store)->recordTaskResult(okRun(remote)));
    QVERIFY((*store)->recordTaskResult(failedVerify(remote)));
    const QVector<TaskRecord> tasks = *(*store)->listTasks();
    QCOMPARE(tasks.size(), 1);
    QCOMPARE(tasks[0].sha256, QString());
    QCOMPARE((*store)->taskRuns(tasks[0].id)->size(), 2);
}

void TestTaskStore::failedWriteKeepsEarlierRuns()
{
    const QString task = writeTask("class Model: pass\n");
    {
        auto store = Store::open(dbPath());
        QVERIFY(store);
        QVERIFY((*store)->recordTaskResult(okRun(task)));
    }
    // A kernel row that the database refuses, after the task and run rows of the same call went in.
    execOn(dbPath(), {QStringLiteral("CREATE TRIGGER refuse_boom BEFORE INSERT ON task_kernels WHEN NEW.kernel = 'boom' "
                                     "BEGIN SELECT RAISE(ABORT, 'boom refused'); END")});
    auto store = Store::open(dbPath());
    QVERIFY(store);
    TaskCallRecord broken = okRun(writeTask("another task: a new task row\n", QStringLiteral("other.py")));
    broken.kernels.append(kernel(QStringLiteral("boom"), 50, {1, 1, 1}));
    Expected<qint64> id = (*store)->recordTaskResult(broken);
    QVERIFY(!id);
    QVERIFY2(id.error().message.contains(QStringLiteral("captured kernel boom")), qPrintable(id.error().toString()));
    QVERIFY(id.error().message.contains(QStringLiteral("boom refused")));
    QCOMPARE(id.error().file, dbPath());
    // Neither the new task row nor its run stayed; the earlier run is whole.
    const QVector<TaskRecord> tasks = *(*store)->listTasks();
    QCOMPARE(tasks.size(), 1);
    const QVector<TaskRunRecord> runs = *(*store)->taskRuns(tasks[0].id);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].kernels.size(), 2);
    // And the store takes the next write.
    QVERIFY((*store)->recordTaskResult(failedVerify(task)));
    QCOMPARE((*store)->taskRuns(tasks[0].id)->size(), 2);
}

QTEST_GUILESS_MAIN(TestTaskStore)
#include "tst_task_store.moc"
