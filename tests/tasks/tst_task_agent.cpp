// The task methods on the real agent, read by strata_tasks: run_task and verify under Triton's
// CPU interpreter (interpret: true) on suites/tasks-smoke. Needs torch and triton in the agent's
// Python (STRATA_PYTHON, else python3); skipped with the reason when they are missing.
#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "tasks/TaskRun.h"
#include "tasks/Verdict.h"

#include <QJsonArray>
#include <QProcess>
#include <QtTest>

using namespace strata;

namespace {

const QString kSmoke = QStringLiteral(STRATA_SMOKE_DIR);

} // namespace

class TestTaskAgent : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void runTaskCapturesVectorAdd();
    void verifyPassesGoodTask();
    void verifyCatchesCheatWithoutTriton();
    void missingTaskIsBadInput();
    void cleanupTestCase();

private:
    RpcReply call(const QString &method, const QString &task, QJsonObject params = {});
    std::unique_ptr<HostConnection> m_agent;
    QString m_whyNot;
};

void TestTaskAgent::initTestCase()
{
    const QString python = LocalProcessTransport::defaultPython();
    QProcess probe;
    probe.start(python, {QStringLiteral("-c"), QStringLiteral("import torch, triton")});
    const bool ready = probe.waitForFinished(120000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0;
    if (!ready) {
        m_whyNot = QStringLiteral("torch and triton are not both importable by %1 (set STRATA_PYTHON): %2")
                       .arg(python, QString::fromUtf8(probe.readAllStandardError()).trimmed().section(QLatin1Char('\n'), -1));
        qInfo("%s", qPrintable(m_whyNot));
    }
    m_agent = std::make_unique<HostConnection>(std::make_unique<LocalProcessTransport>(python, QStringLiteral(STRATA_AGENT_DIR)));
    QString error;
    QVERIFY2(m_agent->start(&error), qPrintable(error));
}

void TestTaskAgent::cleanupTestCase()
{
    m_agent->stop();
}

RpcReply TestTaskAgent::call(const QString &method, const QString &task, QJsonObject params)
{
    params.insert(QStringLiteral("task"), task);
    params.insert(QStringLiteral("interpret"), true);
    params.insert(QStringLiteral("timeout_s"), 240);
    return m_agent->callBlocking(method, params, 300 * 1000);
}

void TestTaskAgent::runTaskCapturesVectorAdd()
{
    if (!m_whyNot.isEmpty())
        QSKIP(qPrintable(m_whyNot));
    const QString task = kSmoke + QStringLiteral("/vector_add.py");
    const RpcReply reply = call(QStringLiteral("run_task"), task);
    QVERIFY2(reply.ok, qPrintable(reply.error.toString()));
    Expected<TaskRun> run = parseTaskRun(reply.result.toObject());
    QVERIFY2(run, qPrintable(run ? QString() : run.error().toString()));
    QCOMPARE(run->launchCount, 1);
    const CapturedKernel &k = run->kernels.at(0);
    QCOMPARE(k.kernel, QStringLiteral("add_kernel"));
    QCOMPARE(k.sourcePath, task);
    QCOMPARE(k.line, 19);
    QCOMPARE(k.grid, (QVector<qint64>{5, 1, 1}));   // cdiv(4099, 1024) at the interpret shape
    QCOMPARE(k.spec.value(QStringLiteral("divisibility_16")).toArray(),
             (QJsonArray{QStringLiteral("x_ptr"), QStringLiteral("y_ptr"), QStringLiteral("out_ptr")}));
    QCOMPARE(k.target(), QStringLiteral("sm_90"));
    QVERIFY(k.ptxSha256.isEmpty());   // nothing compiled under the interpreter
}

void TestTaskAgent::verifyPassesGoodTask()
{
    if (!m_whyNot.isEmpty())
        QSKIP(qPrintable(m_whyNot));
    const RpcReply reply = call(QStringLiteral("verify"), kSmoke + QStringLiteral("/vector_add.py"));
    QVERIFY2(reply.ok, qPrintable(reply.error.toString()));
    Expected<Verdict> v = parseVerdict(reply.result.toObject());
    QVERIFY2(v, qPrintable(v ? QString() : v.error().toString()));
    QVERIFY2(v->passed(), qPrintable(v->reasons.value(0).message));
    QCOMPARE(v->checks.size(), 6);
}

void TestTaskAgent::verifyCatchesCheatWithoutTriton()
{
    if (!m_whyNot.isEmpty())
        QSKIP(qPrintable(m_whyNot));
    const RpcReply reply = call(QStringLiteral("verify"), kSmoke + QStringLiteral("/cheat_no_triton.py"));
    QVERIFY2(reply.ok, qPrintable(reply.error.toString()));
    Expected<Verdict> v = parseVerdict(reply.result.toObject());
    QVERIFY(v);
    QVERIFY(!v->passed());
    QStringList kinds;
    for (const VerifyReason &reason : v->reasons)
        kinds.append(reason.kind);
    QVERIFY2(kinds.contains(QStringLiteral("no_triton_launch")), qPrintable(kinds.join(QLatin1Char(' '))));
}

// The agent checks the task file before it starts a worker: no torch needed.
void TestTaskAgent::missingTaskIsBadInput()
{
    const QString missing = kSmoke + QStringLiteral("/no_such_task.py");
    const RpcReply reply = call(QStringLiteral("run_task"), missing);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::BadInput));
    QCOMPARE(reply.error.kind(), QStringLiteral("missing_file"));
    QCOMPARE(reply.error.data.value(QStringLiteral("file")).toString(), missing);
}

QTEST_GUILESS_MAIN(TestTaskAgent)
#include "tst_task_agent.moc"
