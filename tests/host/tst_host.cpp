// HostConnection against the real agent (python -m strata_agent) and against small fake agents
// that misbehave on purpose (garbage on stdout, silence, sudden exit).
#include "../support/AgentTestSupport.h"
#include "compile/CompileResult.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace strata;

namespace {

const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");
constexpr int kCompileTimeoutMs = 180 * 1000;

QString python()
{
    return LocalProcessTransport::defaultPython();
}


QJsonObject readSpec(const QString &name)
{
    QFile file(kSamples + QLatin1Char('/') + name);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}

QJsonObject compileParams(const QString &source, const QJsonObject &spec, const QString &workDir)
{
    return {{QStringLiteral("source_path"), source},
            {QStringLiteral("kernel"), spec.value(QStringLiteral("kernel"))},
            {QStringLiteral("spec"), spec},
            {QStringLiteral("target"), QStringLiteral("sm_90")},
            {QStringLiteral("work_dir"), workDir},
            {QStringLiteral("timeout_s"), 150}};
}

// A package named strata_agent whose __main__ is `body`, in its own folder.
QString writeFakeAgent(const QTemporaryDir &dir, const QString &body)
{
    const QString package = dir.filePath(QStringLiteral("fake/strata_agent"));
    QDir().mkpath(package);
    QFile init(package + QStringLiteral("/__init__.py"));
    init.open(QIODevice::WriteOnly);
    QFile main(package + QStringLiteral("/__main__.py"));
    main.open(QIODevice::WriteOnly);
    main.write(body.toUtf8());
    return dir.filePath(QStringLiteral("fake"));
}

const char *const kEchoAgentAfterGarbage = R"(import json, sys
print("this is not json at all", flush=True)
for line in sys.stdin:
    request = json.loads(line)
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"echo": request["method"]}}), flush=True)
)";

const char *const kGarbageThenExit = R"(import sys
sys.stdin.readline()
print("Traceback (most recent call last): oops", flush=True)
print("boom on stderr", file=sys.stderr, flush=True)
sys.exit(3)
)";

const char *const kSilentAgent = R"(import sys
for line in sys.stdin:
    pass
)";

} // namespace

class TestHost : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void notRunningFailsAsynchronously();
    void garbageOnStdoutIsReported();
    void garbageThenExitFailsPendingRequest();
    void blockingCallTimesOut();
    void cancelStopsABlockingCallAfterItsGrace();
    void agentInfo();
    void compilesVectorAdd();
    void compileErrorIsStructured();
    void killedAgentFailsPendingAndRestarts();
    void sshTransportCommandLine();
    void sshTransportReachesAgent();

private:
    bool m_triton = false;
    QString m_whyNoTriton;
};

void TestHost::initTestCase()
{
    m_triton = strata::testing::pythonImports(QStringLiteral("triton"), &m_whyNoTriton);
    if (!m_triton)
        qWarning("%s", qPrintable(m_whyNoTriton));
}

void TestHost::notRunningFailsAsynchronously()
{
    HostConnection connection(std::make_unique<LocalProcessTransport>(python(), QStringLiteral("/nonexistent")));
    bool called = false;
    RpcReply reply;
    connection.call(QStringLiteral("info"), {}, [&](const RpcReply &r) { called = true; reply = r; });
    QVERIFY(!called);   // never inside call()
    QTRY_VERIFY(called);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::NotRunning));
    QVERIFY(reply.error.message.contains(QStringLiteral("info")));
    QCOMPARE(connection.pendingCount(), 0);
}

void TestHost::garbageOnStdoutIsReported()
{
    QTemporaryDir dir;
    HostConnection connection(std::make_unique<LocalProcessTransport>(python(), writeFakeAgent(dir, QString::fromUtf8(kEchoAgentAfterGarbage))));
    QSignalSpy garbage(&connection, &HostConnection::protocolError);
    QString error;
    QVERIFY2(connection.start(&error), qPrintable(error));
    const RpcReply reply = connection.callBlocking(QStringLiteral("info"), {}, 30000);
    QVERIFY2(reply.ok, qPrintable(reply.error.message));
    QCOMPARE(reply.result.toObject().value(QStringLiteral("echo")).toString(), QStringLiteral("info"));
    QCOMPARE(garbage.size(), 1);
    const QString message = garbage.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("not JSON-RPC")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("this is not json at all")), qPrintable(message));
    connection.stop();
    QVERIFY(!connection.isRunning());
}

void TestHost::garbageThenExitFailsPendingRequest()
{
    QTemporaryDir dir;
    HostConnection connection(std::make_unique<LocalProcessTransport>(python(), writeFakeAgent(dir, QString::fromUtf8(kGarbageThenExit))));
    QSignalSpy disconnected(&connection, &HostConnection::disconnected);
    QVERIFY(connection.start());
    const RpcReply reply = connection.callBlocking(QStringLiteral("compile"), {}, 30000);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::AgentExited));
    QCOMPARE(reply.error.kind(), QStringLiteral("agent_exited"));
    const QString message = reply.error.message;
    QVERIFY2(message.contains(QStringLiteral("request compile")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("exited with code 3")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("boom on stderr")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("Traceback (most recent call last): oops")), qPrintable(message));
    QCOMPARE(disconnected.size(), 1);
    QCOMPARE(connection.pendingCount(), 0);
}

void TestHost::blockingCallTimesOut()
{
    QTemporaryDir dir;
    HostConnection connection(std::make_unique<LocalProcessTransport>(python(), writeFakeAgent(dir, QString::fromUtf8(kSilentAgent))));
    QVERIFY(connection.start());
    QElapsedTimer clock;
    clock.start();
    const RpcReply reply = connection.callBlocking(QStringLiteral("info"), {}, 400);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::HostTimeout));
    QVERIFY(reply.error.message.contains(QStringLiteral("info")));
    const qint64 elapsed = clock.elapsed();
    QVERIFY2(elapsed >= 400 && elapsed < 10000, qPrintable(QStringLiteral("returned after %1 ms").arg(elapsed)));
    QCOMPARE(connection.pendingCount(), 0);
    connection.stop();
}

void TestHost::cancelStopsABlockingCallAfterItsGrace()
{
    // A deadline's SIGTERM sets the flag while a call waits on an agent that will not answer soon
    // (a minute-long timing call): the call ends a grace period later and the agent is stopped.
    QTemporaryDir dir;
    HostConnection connection(std::make_unique<LocalProcessTransport>(python(), writeFakeAgent(dir, QString::fromUtf8(kSilentAgent))));
    QVERIFY(connection.start());
    std::atomic_bool cancel = false;
    QTimer::singleShot(200, [&cancel] { cancel = true; });
    QElapsedTimer clock;
    clock.start();
    const RpcReply reply = connection.callBlocking(QStringLiteral("time"), {}, 120000, &cancel, 500);
    const qint64 elapsed = clock.elapsed();
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::Cancelled));
    QVERIFY2(reply.error.message.contains(QStringLiteral("time")), qPrintable(reply.error.message));
    QVERIFY2(elapsed >= 700 && elapsed < 10000, qPrintable(QStringLiteral("returned after %1 ms").arg(elapsed)));
    QVERIFY(!connection.isRunning());
    QCOMPARE(connection.pendingCount(), 0);
    // Without a cancel the same call would have waited for its timeout.
    QVERIFY(connection.start());
    std::atomic_bool never = false;
    const RpcReply timedOut = connection.callBlocking(QStringLiteral("info"), {}, 400, &never, 100);
    QCOMPARE(timedOut.error.code, int(RpcCode::HostTimeout));
    connection.stop();
}

void TestHost::agentInfo()
{
    HostConnection connection(std::make_unique<LocalProcessTransport>());
    QString error;
    QVERIFY2(connection.start(&error), qPrintable(error));
    QVERIFY(connection.describe().startsWith(QStringLiteral("local: ")));
    QVERIFY(connection.describe().contains(QStringLiteral("-m strata_agent --stdio")));
    // Which agent runs is not in the command line (it is on PYTHONPATH), so the description says.
    QVERIFY2(connection.describe().endsWith(QStringLiteral(" (agent: %1)").arg(LocalProcessTransport::defaultAgentDir())),
             qPrintable(connection.describe()));
    const RpcReply reply = connection.callBlocking(QStringLiteral("info"), {}, 120000);
    QVERIFY2(reply.ok, qPrintable(reply.error.message));
    const QJsonObject info = reply.result.toObject();
    QCOMPARE(info.value(QStringLiteral("protocol")).toInt(), 1);
    QCOMPARE(info.value(QStringLiteral("default_target")).toString(), QStringLiteral("sm_90"));
    QVERIFY(info.value(QStringLiteral("targets")).toArray().contains(QStringLiteral("sm_90")));
    QVERIFY(info.value(QStringLiteral("methods")).toArray().contains(QStringLiteral("compile")));
    if (m_triton)
        QCOMPARE(info.value(QStringLiteral("triton")).toString(), QStringLiteral("3.6.0"));
    connection.stop();
}

void TestHost::compilesVectorAdd()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir work;
    HostConnection connection(std::make_unique<LocalProcessTransport>());
    QSignalSpy progress(&connection, &HostConnection::progress);
    QVERIFY(connection.start());
    const QJsonObject params = compileParams(kSamples + QStringLiteral("/vector_add.py"),
                                             readSpec(QStringLiteral("vector_add.aligned.spec.json")), work.path());
    const RpcReply reply = connection.callBlocking(QStringLiteral("compile"), params, kCompileTimeoutMs);
    QVERIFY2(reply.ok, qPrintable(reply.error.toString()));
    QVERIFY(progress.size() >= 1);
    QCOMPARE(progress.at(0).at(0).toULongLong(), quint64(1));   // the first request's id

    Expected<CompileResult> result = parseCompileResult(reply.result.toObject(), work.path());
    QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
    QCOMPARE(result->kernel, QStringLiteral("add_kernel"));
    QCOMPARE(result->ptxas.spillStoreBytes, 0);
    QVERIFY(result->ptxas.registers > 0);
    QVERIFY(result->passDumps.size() > 40);
    QFile ptx(result->artifacts.value(QStringLiteral("ptx")).path);
    QVERIFY(ptx.open(QIODevice::ReadOnly));
    const QByteArray text = ptx.readAll();
    QVERIFY(text.contains(".target sm_90a"));
    // BLOCK 1024 over 128 threads: 8 floats per thread per input, two 16-byte loads each for x and y.
    QCOMPARE(text.count("ld.global.v4.b32"), 4);
    QVERIFY(!text.contains("ld.global.b32 "));
    QVERIFY(QFile::exists(work.filePath(QStringLiteral("compile.json"))));
    connection.stop();
}

void TestHost::compileErrorIsStructured()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir work;
    const QString source = work.filePath(QStringLiteral("bad_kernel.py"));
    QFile file(source);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
               "def bad_kernel(x_ptr, BLOCK: tl.constexpr):\n"
               "    offs = tl.arange(0, BLOCK)\n"
               "    x = tl.load(x_ptr + offs)\n"
               "    y = undefined_thing(x)\n"
               "    tl.store(x_ptr + offs, y)\n");
    file.close();
    const QJsonObject spec{{QStringLiteral("kernel"), QStringLiteral("bad_kernel")},
                           {QStringLiteral("signature"), QJsonObject{{QStringLiteral("x_ptr"), QStringLiteral("*fp32")},
                                                                     {QStringLiteral("BLOCK"), QStringLiteral("constexpr")}}},
                           {QStringLiteral("constexprs"), QJsonObject{{QStringLiteral("BLOCK"), 128}}}};
    HostConnection connection(std::make_unique<LocalProcessTransport>());
    QVERIFY(connection.start());
    const RpcReply reply = connection.callBlocking(QStringLiteral("compile"),
                                                   compileParams(source, spec, work.filePath(QStringLiteral("out"))),
                                                   kCompileTimeoutMs);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::CompileError));
    QCOMPARE(reply.error.kind(), QStringLiteral("frontend_error"));
    QCOMPARE(reply.error.data.value(QStringLiteral("file")).toString(), source);
    QCOMPARE(reply.error.data.value(QStringLiteral("line")).toInt(), 9);
    QCOMPARE(reply.error.data.value(QStringLiteral("kernel")).toString(), QStringLiteral("bad_kernel"));
    QVERIFY(reply.error.message.contains(QStringLiteral("undefined_thing")));
    QVERIFY(reply.error.toString().startsWith(source + QStringLiteral(":9: ")));
    // The agent survives a failed compile.
    QVERIFY(connection.callBlocking(QStringLiteral("info"), {}, 60000).ok);
    connection.stop();
}

void TestHost::killedAgentFailsPendingAndRestarts()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir work;
    auto transport = std::make_unique<LocalProcessTransport>();
    LocalProcessTransport *local = transport.get();
    HostConnection connection(std::move(transport));
    QSignalSpy progress(&connection, &HostConnection::progress);
    QVERIFY(connection.start());
    bool answered = false;
    RpcReply reply;
    connection.call(QStringLiteral("compile"),
                    compileParams(kSamples + QStringLiteral("/matmul.py"),
                                  readSpec(QStringLiteral("matmul.default.spec.json")), work.path()),
                    [&](const RpcReply &r) { answered = true; reply = r; });
    QVERIFY(progress.wait(60000));   // the compile is under way
    // The worker runs in its own session; end it too so it does not outlive the test.
    const QRegularExpressionMatch worker = QRegularExpression(QStringLiteral("pid (\\d+)"))
                                               .match(progress.at(0).at(1).toString());
    QVERIFY(::kill(pid_t(local->processId()), SIGKILL) == 0);
    if (worker.hasMatch())
        ::kill(pid_t(worker.captured(1).toLongLong()), SIGKILL);
    QTRY_VERIFY_WITH_TIMEOUT(answered, 30000);
    QVERIFY(!reply.ok);
    QCOMPARE(reply.error.code, int(RpcCode::AgentExited));
    QVERIFY2(reply.error.message.contains(QStringLiteral("request compile")), qPrintable(reply.error.message));
    QVERIFY2(reply.error.message.contains(QStringLiteral("killed")), qPrintable(reply.error.message));
    QVERIFY(!connection.isRunning());

    QString error;
    QVERIFY2(connection.start(&error), qPrintable(error));
    const RpcReply info = connection.callBlocking(QStringLiteral("info"), {}, 120000);
    QVERIFY2(info.ok, qPrintable(info.error.message));
    connection.stop();
}

void TestHost::sshTransportCommandLine()
{
    SshTransport ssh(QStringLiteral("gpu-box"), QStringLiteral("/opt/venv/bin/python"), {QStringLiteral("-p"), QStringLiteral("2222")});
    QCOMPARE(ssh.describe(), QStringLiteral("ssh gpu-box: ssh -T -o BatchMode=yes -p 2222 gpu-box /opt/venv/bin/python "
                                            "-m strata_agent --stdio"));
}

// The SSH transport end to end, with a stand-in `ssh` on PATH that runs the command locally.
void TestHost::sshTransportReachesAgent()
{
    QTemporaryDir dir;
    const QString fakeSsh = dir.filePath(QStringLiteral("ssh"));
    QFile script(fakeSsh);
    QVERIFY(script.open(QIODevice::WriteOnly));
    script.write(QStringLiteral("#!/bin/sh\n"
                                "# drop ssh's own options and the host, run the rest here\n"
                                "while [ \"$1\" = -T ] || [ \"$1\" = -o ] || [ \"$1\" = BatchMode=yes ]; do shift; done\n"
                                "shift\n"
                                "export PYTHONPATH=%1\n"
                                "exec \"$@\"\n").arg(LocalProcessTransport::defaultAgentDir()).toUtf8());
    script.close();
    script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const QByteArray oldPath = qgetenv("PATH");
    qputenv("PATH", dir.path().toUtf8() + ':' + oldPath);
    HostConnection connection(std::make_unique<SshTransport>(QStringLiteral("gpu-box"), python()));
    QString error;
    const bool started = connection.start(&error);
    qputenv("PATH", oldPath);
    QVERIFY2(started, qPrintable(error));
    QVERIFY(connection.describe().startsWith(QStringLiteral("ssh gpu-box: ")));
    const RpcReply reply = connection.callBlocking(QStringLiteral("info"), {}, 120000);
    QVERIFY2(reply.ok, qPrintable(reply.error.message));
    QCOMPARE(reply.result.toObject().value(QStringLiteral("protocol")).toInt(), 1);
    connection.stop();
}

QTEST_GUILESS_MAIN(TestHost)
#include "tst_host.moc"
