// strata-cli run|verify|time|profile|ceilings against a fake agent (fake_task_agent.py, installed
// as strata_agent through STRATA_AGENT_DIR) that answers with real H200 replies from
// tests/tasks/fixtures/h200, or with errors; and --host ssh:HOST through a stand-in `ssh` on PATH.
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

const QString kCli = QStringLiteral(STRATA_CLI_PATH);
const QString kSmoke = QStringLiteral(STRATA_SMOKE_DIR);
const QString kVectorAdd = kSmoke + QStringLiteral("/vector_add.py");

struct Run {
    int exitCode = -1;
    QString out, err;
};

QString describe(const Run &run)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(run.exitCode).arg(run.out.left(3000), run.err.left(3000));
}

// The reply (without jsonrpc/id) of a captured H200 exchange.
QJsonObject capturedReply(const QString &name)
{
    QFile file(QStringLiteral(STRATA_TASK_FIXTURES "/h200/%1.json").arg(name));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(file.fileName()));
    // The capture names the smoke folder of the checkout it ran in; this checkout may be elsewhere.
    QByteArray text = file.readAll();
    const QJsonObject captured = QJsonDocument::fromJson(text).object();
    const QString recordedTask = captured.value(QStringLiteral("request")).toObject()
                                     .value(QStringLiteral("params")).toObject().value(QStringLiteral("task")).toString();
    if (!recordedTask.isEmpty())
        text.replace(QFileInfo(recordedTask).path().toUtf8(), kSmoke.toUtf8());
    QJsonObject reply = QJsonDocument::fromJson(text).object().value(QStringLiteral("reply")).toObject();
    reply.remove(QStringLiteral("jsonrpc"));
    reply.remove(QStringLiteral("id"));
    return reply;
}

QJsonObject errorReply(int code, const QString &kind, const QString &message, QJsonObject data = {})
{
    data.insert(QStringLiteral("kind"), kind);
    data.insert(QStringLiteral("message"), message);
    return {{QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), code}, {QStringLiteral("message"), message},
                                                  {QStringLiteral("data"), data}}}};
}

} // namespace

class TestTaskCli : public QObject {
    Q_OBJECT

private slots:
    void init();
    void runListsKernelsAndStoresThem();
    void verifyFailExitsSix();
    void verifyJsonPrintsTheResult();
    void timeTableAndOptions();
    void profileSummary();
    void ceilingsTakeNoTask();
    void workerKilledIsStoredAsFailed();
    void agentTimeoutExitsSix();
    void cudaErrorNamesTheTaskLine();
    void badTaskExitsTwo();
    void malformedResultKeepsWhatArrived();
    void agentDeathExitsFour();
    void historyListsTaskRuns();
    void usageErrors();
    void sshHostCommandLine();

private:
    // Installs the fake agent answering `replies` ({method: reply}); returns its environment.
    QProcessEnvironment fakeAgent(const QJsonObject &replies);
    Run runCli(const QStringList &args, const QProcessEnvironment &env);
    QVector<QJsonObject> requests() const;   // what the fake agent received, in order
    QVector<TaskRunRecord> storedRuns(const QString &taskPath) const;
    QString db() const { return m_dir->filePath(QStringLiteral("strata.db")); }

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestTaskCli::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli));
}

QProcessEnvironment TestTaskCli::fakeAgent(const QJsonObject &replies)
{
    const QString package = m_dir->filePath(QStringLiteral("agent/strata_agent"));
    QDir().mkpath(package);
    QFile(package + QStringLiteral("/__main__.py")).remove();
    QFile::copy(QStringLiteral(STRATA_FAKE_TASK_AGENT), package + QStringLiteral("/__main__.py"));
    QFile init(package + QStringLiteral("/__init__.py"));
    init.open(QIODevice::WriteOnly);
    QFile file(m_dir->filePath(QStringLiteral("replies.json")));
    file.open(QIODevice::WriteOnly);
    file.write(QJsonDocument(replies).toJson());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_AGENT_DIR"), m_dir->filePath(QStringLiteral("agent")));
    env.insert(QStringLiteral("STRATA_FAKE_REPLIES"), file.fileName());
    env.insert(QStringLiteral("STRATA_FAKE_LOG"), m_dir->filePath(QStringLiteral("requests.log")));
    env.insert(QStringLiteral("STRATA_PYTHON"), QStringLiteral("python3"));
    return env;
}

Run TestTaskCli::runCli(const QStringList &args, const QProcessEnvironment &env)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(kCli, args);
    Run run;
    if (!process.waitForFinished(120000)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("strata-cli did not finish within the test's timeout");
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QVector<QJsonObject> TestTaskCli::requests() const
{
    QFile log(m_dir->filePath(QStringLiteral("requests.log")));
    QVector<QJsonObject> all;
    if (log.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : log.readAll().split('\n')) {
            if (!line.isEmpty())
                all.append(QJsonDocument::fromJson(line).object());
        }
    }
    return all;
}

QVector<TaskRunRecord> TestTaskCli::storedRuns(const QString &taskPath) const
{
    auto store = Store::open(db());
    if (!store)
        return {};
    const QVector<TaskRecord> tasks = *(*store)->listTasks();   // a copy: the Expected is a temporary
    for (const TaskRecord &task : tasks) {
        if (task.path == taskPath)
            return *(*store)->taskRuns(task.id);
    }
    return {};
}

void TestTaskCli::runListsKernelsAndStoresThem()
{
    const auto env = fakeAgent({{QStringLiteral("run_task"), capturedReply(QStringLiteral("run_task-vector_add"))}});
    const Run run = runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--db"), db(), QStringLiteral("--interpret")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(QStringLiteral("add_kernel grid (16384, 1, 1), 4 warps, 3 stages, 1 launch  (vector_add.py:19)")),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QStringLiteral("constexprs BLOCK=1024; divisibility_16 x_ptr, y_ptr, out_ptr, n_elements")));
    QVERIFY(run.err.contains(QStringLiteral("run: worker started (pid 4242)")));   // progress on stderr
    QVERIFY(run.err.contains(QStringLiteral("stored: task run #1 in ") + db()));

    const QVector<QJsonObject> sent = requests();
    QCOMPARE(sent.size(), 2);   // run_task, then shutdown as the CLI stops the agent
    QCOMPARE(sent[0].value(QStringLiteral("method")).toString(), QStringLiteral("run_task"));
    const QJsonObject params = sent[0].value(QStringLiteral("params")).toObject();
    QCOMPARE(params.value(QStringLiteral("task")).toString(), kVectorAdd);
    QCOMPARE(params.value(QStringLiteral("timeout_s")).toInt(), 60);
    QCOMPARE(params.value(QStringLiteral("interpret")).toBool(), true);

    const QVector<TaskRunRecord> runs = storedRuns(kVectorAdd);
    QCOMPARE(runs.size(), 1);
    QVERIFY(runs[0].ok);
    QCOMPARE(runs[0].host, QStringLiteral("local"));
    QCOMPARE(runs[0].device, QStringLiteral("cuda"));
    QCOMPARE(runs[0].kernels.size(), 1);
    QCOMPARE(runs[0].kernels[0].grid, (QVector<qint64>{16384, 1, 1}));
    QCOMPARE(runs[0].kernels[0].spec.value(QStringLiteral("target")).toString(), QStringLiteral("sm_90"));
}

void TestTaskCli::verifyFailExitsSix()
{
    const auto env = fakeAgent({{QStringLiteral("verify"), capturedReply(QStringLiteral("verify-cheat_reference_op"))}});
    const QString task = kSmoke + QStringLiteral("/cheat_reference_op.py");
    const Run run = runCli({QStringLiteral("verify"), task, QStringLiteral("--db"), db()}, env);
    QVERIFY2(run.exitCode == 6, qPrintable(describe(run)));
    QVERIFY(run.out.startsWith(QStringLiteral("Verdict: FAIL  ") + task));
    QVERIFY(run.out.contains(QStringLiteral("fail    torch_compute_in_candidate [shape 0, draw 0, seen 3 times]")));
    QVERIFY(run.out.contains(QStringLiteral("ModelNew.forward ran torch compute ops aten._softmax x1")));
    const QVector<TaskRunRecord> runs = storedRuns(task);
    QCOMPARE(runs.size(), 1);
    QVERIFY(runs[0].ok);   // the call worked; the candidate did not
    QCOMPARE(runs[0].verdict, QStringLiteral("fail"));
}

void TestTaskCli::verifyJsonPrintsTheResult()
{
    const QJsonObject reply = capturedReply(QStringLiteral("verify-vector_add"));
    const auto env = fakeAgent({{QStringLiteral("verify"), reply}});
    const Run run = runCli({QStringLiteral("verify"), kVectorAdd, QStringLiteral("--json"), QStringLiteral("--no-store")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QCOMPARE(QJsonDocument::fromJson(run.out.toUtf8()).object(), reply.value(QStringLiteral("result")).toObject());
    QVERIFY(!QFile::exists(db()));
}

void TestTaskCli::timeTableAndOptions()
{
    const auto env = fakeAgent({{QStringLiteral("time"), capturedReply(QStringLiteral("time-vector_add"))}});
    const Run run = runCli({QStringLiteral("time"), kVectorAdd, QStringLiteral("--db"), db(), QStringLiteral("--candidates"),
                            QStringLiteral("triton, eager"), QStringLiteral("--self-check"), QStringLiteral("--warm-l2")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.contains(QStringLiteral("Device: NVIDIA H200 (sm_90, 132 SMs), SM clock 1980 MHz -> 1980 MHz")));
    // candidate, median, IQR, min, n, how many times faster triton is, SOL %, bound
    QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("\ntriton +0\\.05286 +0\\.001672 +0\\.05088 +110 +1\\.00x +89\\.8  memory\n"))),
             qPrintable(run.out));
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("\neager +0\\.0525 .* 0\\.99x +90\\.4  memory\n"))));
    QVERIFY(run.out.contains(QStringLiteral("triton/warm-l2")));
    QVERIFY(run.out.contains(QStringLiteral("speedup_vs_eager 0.993")));
    const QJsonObject params = requests().at(0).value(QStringLiteral("params")).toObject();
    QCOMPARE(params.value(QStringLiteral("candidates")).toArray(), (QJsonArray{QStringLiteral("triton"), QStringLiteral("eager")}));
    QCOMPARE(params.value(QStringLiteral("self_check")).toBool(), true);
    QCOMPARE(params.value(QStringLiteral("warm_l2")).toArray(), QJsonArray{QStringLiteral("triton")});
    QCOMPARE(params.value(QStringLiteral("timeout_s")).toInt(), 600);
    QVERIFY(!params.contains(QStringLiteral("interpret")));
    QCOMPARE(storedRuns(kVectorAdd).at(0).device, QStringLiteral("NVIDIA H200"));
}

void TestTaskCli::profileSummary()
{
    const auto env = fakeAgent({{QStringLiteral("profile"), capturedReply(QStringLiteral("profile-vector_add"))}});
    const Run run = runCli({QStringLiteral("profile"), kVectorAdd, QStringLiteral("--no-store"), QStringLiteral("--sections"),
                            QStringLiteral("SpeedOfLight,SourceCounters"), QStringLiteral("--timeout"), QStringLiteral("90")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.startsWith(QStringLiteral("ncu: ok (Version 2025.3.1.0")));
    QVERIFY(run.out.contains(QStringLiteral("Kernel add_kernel (ncu id 0), grid (16384, 1, 1), block (128, 1, 1)")));
    QVERIFY(run.out.contains(QStringLiteral("Speed of light: memory 84.27 %, compute 5.78 %, duration 44.77 us")));
    QVERIFY(run.out.contains(QStringLiteral("Occupancy: achieved 82.1 %, theoretical 100 %")));
    QVERIFY2(run.out.contains(QStringLiteral("Top stalls: long_sb 73.6 %, drain 14.1 %")), qPrintable(run.out));
    QVERIFY(run.out.contains(QRegularExpression(QStringLiteral("vector_add.py:25 +4752  tl.store\\(out_ptr"))));
    QVERIFY(run.out.contains(QStringLiteral("[WarpStateStats/CPIStall] (est. speedup 73.6 %)")));
    const QJsonObject params = requests().at(0).value(QStringLiteral("params")).toObject();
    QCOMPARE(params.value(QStringLiteral("sections")).toArray(),
             (QJsonArray{QStringLiteral("SpeedOfLight"), QStringLiteral("SourceCounters")}));
    QCOMPARE(params.value(QStringLiteral("timeout_s")).toInt(), 90);

    // ncu that may not read the counters: the status and why, exit 4.
    QJsonObject unavailable = capturedReply(QStringLiteral("profile-vector_add"));
    QJsonObject result = unavailable.value(QStringLiteral("result")).toObject();
    result.insert(QStringLiteral("ncu"), QJsonObject{{QStringLiteral("status"), QStringLiteral("counters_unavailable")},
                                                    {QStringLiteral("message"), QStringLiteral("ERR_NVGPUCTRPERM: no access")}});
    unavailable.insert(QStringLiteral("result"), result);
    const Run denied = runCli({QStringLiteral("profile"), kVectorAdd, QStringLiteral("--no-store")},
                              fakeAgent({{QStringLiteral("profile"), unavailable}}));
    QCOMPARE(denied.exitCode, 4);
    QVERIFY(denied.out.contains(QStringLiteral("ncu: counters_unavailable\n  ERR_NVGPUCTRPERM: no access")));
}

void TestTaskCli::ceilingsTakeNoTask()
{
    const auto env = fakeAgent({{QStringLiteral("ceilings"), capturedReply(QStringLiteral("ceilings"))}});
    const Run run = runCli({QStringLiteral("ceilings"), QStringLiteral("--db"), db(), QStringLiteral("--refresh")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.contains(QStringLiteral("Copy bandwidth: 4242 GB/s (kernel 4242, memcpy 2712)")));
    QVERIFY(run.out.contains(QStringLiteral("Matmul TFLOP/s: fp16 761.4 bf16 792.1 tf32 412.0 fp32 50.7")));
    const QJsonObject params = requests().at(0).value(QStringLiteral("params")).toObject();
    QVERIFY(!params.contains(QStringLiteral("task")));
    QCOMPARE(params.value(QStringLiteral("refresh")).toBool(), true);
    QCOMPARE(params.value(QStringLiteral("timeout_s")).toInt(), 300);
    auto store = Store::open(db());
    QVERIFY(store);
    QCOMPARE((*store)->hostRuns()->size(), 1);
    QCOMPARE((*store)->hostRuns()->at(0).device, QStringLiteral("NVIDIA H200"));
}

void TestTaskCli::workerKilledIsStoredAsFailed()
{
    const QString task = kSmoke + QStringLiteral("/crash_out_of_bounds.py");
    const auto env = fakeAgent({{QStringLiteral("run_task"),
                                 errorReply(-32004, QStringLiteral("worker_killed"), QStringLiteral("the task worker died of SIGSEGV"),
                                            {{QStringLiteral("file"), task}, {QStringLiteral("line"), 41},
                                             {QStringLiteral("kernel"), QStringLiteral("oob_kernel")},
                                             {QStringLiteral("signal"), QStringLiteral("SIGSEGV")},
                                             {QStringLiteral("stderr_tail"), QStringLiteral("Fatal Python error: Segmentation fault")}})}});
    const Run run = runCli({QStringLiteral("run"), task, QStringLiteral("--db"), db()}, env);
    QCOMPARE(run.exitCode, 6);
    QVERIFY2(run.err.contains(QStringLiteral("strata-cli: error: run_task failed: ") + task
                              + QStringLiteral(":41: the task worker died of SIGSEGV (kernel oob_kernel)")), qPrintable(run.err));
    QVERIFY(run.err.contains(QStringLiteral("Fatal Python error: Segmentation fault")));
    const QVector<TaskRunRecord> runs = storedRuns(task);
    QCOMPARE(runs.size(), 1);
    QVERIFY(!runs[0].ok);
    QCOMPARE(runs[0].errorCode, -32004);
    QCOMPARE(runs[0].errorKind, QStringLiteral("worker_killed"));
    QCOMPARE(runs[0].errorData.value(QStringLiteral("signal")).toString(), QStringLiteral("SIGSEGV"));
}

void TestTaskCli::agentTimeoutExitsSix()
{
    const QString task = kSmoke + QStringLiteral("/hang_forever.py");
    const auto env = fakeAgent({{QStringLiteral("run_task"), capturedReply(QStringLiteral("run_task-hang_forever"))}});
    const Run run = runCli({QStringLiteral("run"), task, QStringLiteral("--db"), db(), QStringLiteral("--json")}, env);
    QCOMPARE(run.exitCode, 6);
    QVERIFY2(run.err.contains(QStringLiteral("the task worker ran longer than 15 s (a hang?) and was killed")), qPrintable(run.err));
    const QJsonObject printed = QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("error")).toObject();
    QCOMPARE(printed.value(QStringLiteral("code")).toInt(), -32002);
    QCOMPARE(printed.value(QStringLiteral("data")).toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("timeout"));
    QCOMPARE(storedRuns(task).at(0).errorKind, QStringLiteral("timeout"));
}

// A real -32004 cuda_error reply (H200, interpret with the agent's memory cap).
void TestTaskCli::cudaErrorNamesTheTaskLine()
{
    const auto env = fakeAgent({{QStringLiteral("run_task"), capturedReply(QStringLiteral("interpret-run_task-vector_add"))}});
    const Run run = runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--db"), db(), QStringLiteral("--interpret")}, env);
    QCOMPARE(run.exitCode, 6);
    QVERIFY2(run.err.contains(QStringLiteral("strata-cli: error: run_task failed: ") + kVectorAdd
                              + QStringLiteral(":42: AcceleratorError: CUDA error: out of memory")), qPrintable(run.err));
    const QVector<TaskRunRecord> runs = storedRuns(kVectorAdd);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].errorKind, QStringLiteral("cuda_error"));
    QCOMPARE(runs[0].errorData.value(QStringLiteral("line")).toInt(), 42);
}

void TestTaskCli::badTaskExitsTwo()
{
    // A missing local file is refused before any agent starts.
    const QString missing = m_dir->filePath(QStringLiteral("no_such_task.py"));
    const auto env = fakeAgent({});
    const Run local = runCli({QStringLiteral("verify"), missing, QStringLiteral("--db"), db()}, env);
    QCOMPARE(local.exitCode, 2);
    QVERIFY2(local.err.contains(missing + QStringLiteral(": no such task file")), qPrintable(local.err));
    QVERIFY(requests().isEmpty());
    // One the agent refuses (here: not a task) is exit 2 with the agent's place and reason.
    const Run refused = runCli({QStringLiteral("verify"), kVectorAdd, QStringLiteral("--db"), db()},
                               fakeAgent({{QStringLiteral("verify"),
                                           errorReply(-32003, QStringLiteral("not_a_task"), QStringLiteral("no class ModelNew in the task"),
                                                      {{QStringLiteral("file"), kVectorAdd}})}}));
    QCOMPARE(refused.exitCode, 2);
    QVERIFY(refused.err.contains(kVectorAdd + QStringLiteral(": no class ModelNew in the task")));
}

void TestTaskCli::malformedResultKeepsWhatArrived()
{
    QJsonObject reply = capturedReply(QStringLiteral("run_task-vector_add"));
    QJsonObject result = reply.value(QStringLiteral("result")).toObject();
    QJsonArray kernels = result.value(QStringLiteral("kernels")).toArray();
    QJsonObject kernel = kernels[0].toObject();
    kernel.insert(QStringLiteral("grid"), QStringLiteral("16384"));
    kernels[0] = kernel;
    result.insert(QStringLiteral("kernels"), kernels);
    reply.insert(QStringLiteral("result"), result);
    const Run run = runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--db"), db()},
                           fakeAgent({{QStringLiteral("run_task"), reply}}));
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(QStringLiteral("the agent's run_task result is malformed: ") + kVectorAdd
                              + QStringLiteral(": malformed run_task result: kernels[0].grid: expected an array, got a string "
                                               "(kernel add_kernel at ") + kVectorAdd + QStringLiteral(":19)")), qPrintable(run.err));
    const QVector<TaskRunRecord> runs = storedRuns(kVectorAdd);
    QCOMPARE(runs.size(), 1);
    QVERIFY(!runs[0].ok);
    QCOMPARE(runs[0].errorKind, QStringLiteral("malformed_result"));
    QCOMPARE(runs[0].result, result);   // what the agent sent is kept
}

void TestTaskCli::agentDeathExitsFour()
{
    const Run run = runCli({QStringLiteral("time"), kVectorAdd, QStringLiteral("--db"), db()},
                           fakeAgent({{QStringLiteral("time"), QJsonObject{{QStringLiteral("exit"), 3}}}}));
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(QStringLiteral("fake agent: dying on purpose")), qPrintable(run.err));
    QVERIFY(run.err.contains(QStringLiteral("time")));
    const QVector<TaskRunRecord> runs = storedRuns(kVectorAdd);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].errorCode, -32010);   // RpcCode::AgentExited
}

void TestTaskCli::historyListsTaskRuns()
{
    const auto env = fakeAgent({{QStringLiteral("run_task"), capturedReply(QStringLiteral("run_task-vector_add"))},
                                {QStringLiteral("verify"), capturedReply(QStringLiteral("interpret-verify-vector_add"))},
                                {QStringLiteral("ceilings"), capturedReply(QStringLiteral("ceilings"))}});
    QCOMPARE(runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--db"), db()}, env).exitCode, 0);
    QCOMPARE(runCli({QStringLiteral("verify"), kVectorAdd, QStringLiteral("--db"), db()}, env).exitCode, 6);
    QCOMPARE(runCli({QStringLiteral("ceilings"), QStringLiteral("--db"), db()}, env).exitCode, 0);
    const Run text = runCli({QStringLiteral("history"), QStringLiteral("--tasks"), QStringLiteral("--db"), db()}, env);
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY(text.out.startsWith(kVectorAdd + QStringLiteral("  (sha256 ")));
    QVERIFY2(text.out.contains(QRegularExpression(QStringLiteral("  #1  \\S+ \\S+  run_task  local  ok  [0-9.]+ s  cuda\n      add_kernel  vector_add.py:19\n"))),
             qPrintable(text.out));
    QVERIFY(text.out.contains(QRegularExpression(QStringLiteral("  #2  .*verify    local  ok \\(fail\\)"))));
    QVERIFY(text.out.contains(QStringLiteral("(no task: ceilings)\n")));
    const Run json = runCli({QStringLiteral("history"), QStringLiteral("--tasks"), QStringLiteral("--db"), db(), QStringLiteral("--json")}, env);
    const QJsonObject history = QJsonDocument::fromJson(json.out.toUtf8()).object();
    const QJsonArray runs = history.value(QStringLiteral("tasks")).toArray().at(0).toObject().value(QStringLiteral("runs")).toArray();
    QCOMPARE(runs.size(), 2);
    QCOMPARE(runs[0].toObject().value(QStringLiteral("kernels")).toArray().at(0).toObject().value(QStringLiteral("grid")).toArray(),
             (QJsonArray{16384, 1, 1}));
    QCOMPARE(runs[1].toObject().value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
    QCOMPARE(history.value(QStringLiteral("host_runs")).toArray().at(0).toObject().value(QStringLiteral("device")).toString(),
             QStringLiteral("NVIDIA H200"));
}

void TestTaskCli::usageErrors()
{
    const auto env = fakeAgent({});
    const Run host = runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--host"), QStringLiteral("gpu-box")}, env);
    QCOMPARE(host.exitCode, 1);
    QVERIFY(host.err.contains(QStringLiteral("--host wants \"local\" or \"ssh:HOST\", not \"gpu-box\"")));
    const Run ceilings = runCli({QStringLiteral("ceilings"), kVectorAdd}, env);
    QCOMPARE(ceilings.exitCode, 1);
    const Run noTask = runCli({QStringLiteral("verify")}, env);
    QCOMPARE(noTask.exitCode, 1);
    QVERIFY(noTask.err.contains(QStringLiteral("verify takes exactly one TASK.py")));
    const Run timeout = runCli({QStringLiteral("run"), kVectorAdd, QStringLiteral("--timeout"), QStringLiteral("0")}, env);
    QCOMPARE(timeout.exitCode, 1);
    const Run candidates = runCli({QStringLiteral("time"), kVectorAdd, QStringLiteral("--candidates"), QStringLiteral(",")}, env);
    QCOMPARE(candidates.exitCode, 1);
    const Run help = runCli({QStringLiteral("time"), QStringLiteral("--help")}, env);
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("--self-check")));
    QVERIFY(requests().isEmpty());
}

// --host ssh:HOST runs `ssh -T -o BatchMode=yes HOST PYTHON -m strata_agent --stdio`; a stand-in
// ssh records its arguments and runs the fake agent here.
void TestTaskCli::sshHostCommandLine()
{
    QProcessEnvironment env = fakeAgent({{QStringLiteral("verify"), capturedReply(QStringLiteral("verify-vector_add"))}});
    const QString bin = m_dir->filePath(QStringLiteral("bin"));
    QDir().mkpath(bin);
    QFile script(bin + QStringLiteral("/ssh"));
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\n"
                                "printf '%s\\n' \"$@\" > %1/ssh-args\n"
                                "export PYTHONPATH=%2\n"
                                "exec python3 -m strata_agent --stdio\n")
                     .arg(m_dir->path(), m_dir->filePath(QStringLiteral("agent"))).toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    env.insert(QStringLiteral("PATH"), bin + QLatin1Char(':') + env.value(QStringLiteral("PATH")));
    // The task path is the remote machine's: passed as given, not checked or resolved here.
    const QString remoteTask = QStringLiteral("tasks/remote_only.py");
    const Run run = runCli({QStringLiteral("verify"), remoteTask, QStringLiteral("--host"), QStringLiteral("ssh:gpu-box"),
                            QStringLiteral("--remote-python"), QStringLiteral("/opt/venv/bin/python"), QStringLiteral("--db"), db()}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QFile args(m_dir->filePath(QStringLiteral("ssh-args")));
    QVERIFY(args.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(args.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts),
             (QStringList{"-T", "-o", "BatchMode=yes", "gpu-box", "/opt/venv/bin/python", "-m", "strata_agent", "--stdio"}));
    QCOMPARE(requests().at(0).value(QStringLiteral("params")).toObject().value(QStringLiteral("task")).toString(), remoteTask);
    const QVector<TaskRunRecord> runs = storedRuns(remoteTask);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].host, QStringLiteral("ssh:gpu-box"));
    QCOMPARE(runs[0].verdict, QStringLiteral("pass"));
}

QTEST_GUILESS_MAIN(TestTaskCli)
#include "tst_task_cli.moc"
