// strata-cli with tritonparse traces, as a user runs it: list the kernels, write one as a compile
// folder, map a traced kernel's lines, diagnose it with the launch the trace recorded, and fail
// clearly (exit 2, file and line named) on a damaged trace.
#include "../support/AgentTestSupport.h"
#include "TraceTestSupport.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata::testing;

namespace {

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run runCli(const QStringList &args)
{
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_PLUGIN_DIR"), QStringLiteral(STRATA_PLUGIN_DIR));
    env.insert(QStringLiteral("STRATA_AGENT_DIR"), QStringLiteral(STRATA_AGENT_DIR));
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(STRATA_CLI_PATH), args);
    Run run;
    if (!process.waitForFinished(240000)) {
        process.kill();
        process.waitForFinished();
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString describe(const Run &run)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(run.exitCode).arg(run.out.left(3000), run.err.left(3000));
}

} // namespace

class TraceCliTest : public QObject {
    Q_OBJECT
private slots:
    void listsKernelsAsJsonAndText();
    void writesAKernelAsACompileFolder();
    void mapsATracedKernel();
    void writesEveryKernel();
    void damagedTraceExitsWithBadInput();
    void diagnosesWithTheTracedLaunch();
};

void TraceCliTest::listsKernelsAsJsonAndText()
{
    const Run json = runCli({QStringLiteral("trace"), h200Trace(), QStringLiteral("--json")});
    QVERIFY2(json.exitCode == 0, qPrintable(describe(json)));
    const QJsonObject listing = QJsonDocument::fromJson(json.out.toUtf8()).object();
    QCOMPARE(listing.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.trace"));
    QCOMPARE(listing.value(QStringLiteral("launch_events")).toInt(), 16);
    const QJsonArray kernels = listing.value(QStringLiteral("kernels")).toArray();
    QCOMPARE(kernels.size(), 5);
    const QJsonObject winner = kernels.at(4).toObject();
    QCOMPARE(winner.value(QStringLiteral("label")).toString(), QStringLiteral("autotuned_add_kernel#3"));
    QVERIFY(winner.value(QStringLiteral("autotune")).toObject().value(QStringLiteral("winner")).toBool());
    QCOMPARE(winner.value(QStringLiteral("config")).toObject().value(QStringLiteral("BLOCK")).toInt(), 4096);

    const Run text = runCli({QStringLiteral("trace"), cpuTrace()});
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY(text.out.contains(QStringLiteral("5 compiled kernels, 0 launches")));
    QVERIFY(text.out.contains(QStringLiteral("autotuned_add_kernel#2")));
    QVERIFY(text.out.contains(QStringLiteral("No launch events")));
}

void TraceCliTest::writesAKernelAsACompileFolder()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("mm"));
    const Run run = runCli({QStringLiteral("trace"), h200Trace(), QStringLiteral("--kernel"), QStringLiteral("matmul_kernel"),
                            QStringLiteral("--out"), out});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject compile = QJsonDocument::fromJson(readAll(out + QStringLiteral("/compile.json"))).object();
    QCOMPARE(compile.value(QStringLiteral("kernel")).toString(), QStringLiteral("matmul_kernel"));
    QCOMPARE(compile.value(QStringLiteral("spec")).toObject().value(QStringLiteral("grid")).toArray(), (QJsonArray{16}));
    for (const char *file : {"source.py", "matmul_kernel.ttir", "matmul_kernel.ttgir", "matmul_kernel.llir", "matmul_kernel.ptx", "matmul_kernel.sass"})
        QVERIFY2(QFileInfo::exists(QDir(out).filePath(QLatin1String(file))), file);
    // The folder reads like any compile folder.
    const Run map = runCli({QStringLiteral("map"), out, QStringLiteral("--line"), QStringLiteral("37"), QStringLiteral("--stage"), QStringLiteral("ttgir")});
    QVERIFY2(map.exitCode == 0 && map.out.contains(QStringLiteral("warp_group_dot")), qPrintable(describe(map)));
}

void TraceCliTest::mapsATracedKernel()
{
    const Run run = runCli({QStringLiteral("map"), cpuTrace(), QStringLiteral("--kernel"), QStringLiteral("add_kernel"),
                            QStringLiteral("--line"), QStringLiteral("18"), QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QVERIFY(json.value(QStringLiteral("source")).toObject().value(QStringLiteral("text")).toString().contains(QStringLiteral("tl.load(x_ptr")));
    QStringList stages;
    for (const QJsonValue &stage : json.value(QStringLiteral("stages")).toArray())
        if (!stage.toObject().value(QStringLiteral("lines")).toArray().isEmpty())
            stages << stage.toObject().value(QStringLiteral("stage")).toString();
    QCOMPARE(stages, (QStringList{QStringLiteral("ttir"), QStringLiteral("ttgir"), QStringLiteral("llir"), QStringLiteral("ptx"), QStringLiteral("sass")}));
    const Run ambiguous = runCli({QStringLiteral("map"), cpuTrace(), QStringLiteral("--kernel"), QStringLiteral("autotuned_add_kernel"),
                                  QStringLiteral("--line"), QStringLiteral("18")});
    QCOMPARE(ambiguous.exitCode, 2);
    QVERIFY2(ambiguous.err.contains(QStringLiteral("choose one of")), qPrintable(describe(ambiguous)));
}

void TraceCliTest::writesEveryKernel()
{
    QTemporaryDir dir;
    const Run run = runCli({QStringLiteral("trace"), h200Parsed(), QStringLiteral("--all"), QStringLiteral("--out"), dir.path()});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QStringList folders = QDir(dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QCOMPARE(folders.size(), 5);
    for (const QString &folder : folders)
        QVERIFY(QFileInfo::exists(dir.filePath(folder + QStringLiteral("/compile.json"))));
}

void TraceCliTest::damagedTraceExitsWithBadInput()
{
    QTemporaryDir dir;
    const QByteArray whole = readAll(h200Parsed());
    const QString cut = dir.filePath(QStringLiteral("cut.ndjson.gz"));
    QVERIFY(writeAll(cut, whole.left(whole.size() / 2)));
    const Run truncated = runCli({QStringLiteral("trace"), cut});
    QCOMPARE(truncated.exitCode, 2);
    QVERIFY2(truncated.err.contains(cut + u':') && truncated.err.contains(QStringLiteral("cut short")), qPrintable(describe(truncated)));

    const QString notJson = dir.filePath(QStringLiteral("bad.ndjson"));
    QVERIFY(writeAll(notJson, readAll(cpuTrace()).split('\n').first() + "\nnot json\n"));
    const Run bad = runCli({QStringLiteral("diagnose"), notJson, QStringLiteral("--kernel"), QStringLiteral("add_kernel")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains(notJson + QStringLiteral(":2: not a JSON line")), qPrintable(describe(bad)));
}

void TraceCliTest::diagnosesWithTheTracedLaunch()
{
    QString why;
    if (!pythonImports(QStringLiteral("triton"), &why))
        QSKIP(qPrintable(why));
    // The autotuner's winner ran 25 programs on the H200: L1 reads that grid from the trace.
    const Run run = runCli({QStringLiteral("diagnose"), h200Trace(), QStringLiteral("--kernel"), QStringLiteral("autotuned_add_kernel"),
                            QStringLiteral("--max-level"), QStringLiteral("1")});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(QStringLiteral("L1.under-filled-grid")) && run.out.contains(QStringLiteral("25 programs")), qPrintable(describe(run)));
}

QTEST_GUILESS_MAIN(TraceCliTest)
#include "tst_trace_cli.moc"
