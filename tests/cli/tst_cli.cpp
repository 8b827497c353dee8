// strata-cli as a user runs it: compile a sample, map its lines, and fail clearly on bad input.
#include "../support/AgentTestSupport.h"
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");
const QString kCli = QStringLiteral(STRATA_CLI_PATH);

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run runCli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment(),
           int timeoutMs = 240000)
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(kCli, args);
    Run run;
    if (!process.waitForFinished(timeoutMs)) {
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

QString python()
{
    return strata::testing::agentPython();
}

int lineOf(const QString &file, const QString &needle)
{
    QFile f(file);
    f.open(QIODevice::ReadOnly);
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(needle))
            return i + 1;
    }
    return 0;
}

QString describe(const Run &run)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(run.exitCode).arg(run.out.left(2000), run.err.left(2000));
}

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void helpAndVersion();
    void usageErrors();
    void compileAndMapAlignedAdd();
    void missingKernelFile();
    void unknownKernel();
    void syntaxErrorNamesFileAndLine();
    void mapOfMissingCompile();
    void frontendErrorExitsThree();
    void agentThatCannotStart();
    void mapWithoutPlugins();
    void badSpecIsRefusedBeforeTheAgent();
    void agentSpecErrorNamesTheSpecFile();
    void nonSqliteDbIsNotReplaced();

private:
    bool m_triton = false;
    QString m_whyNoTriton;
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli));
    m_triton = strata::testing::pythonImports(QStringLiteral("triton"), &m_whyNoTriton);
}

void TestCli::helpAndVersion()
{
    const Run version = runCli({QStringLiteral("--version")});
    QCOMPARE(version.exitCode, 0);
    QCOMPARE(version.out.trimmed(), QStringLiteral("strata-cli " STRATA_VERSION));
    const Run help = runCli({QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("compile KERNEL.py")));
    const Run compileHelp = runCli({QStringLiteral("compile"), QStringLiteral("--help")});
    QCOMPARE(compileHelp.exitCode, 0);
    QVERIFY(compileHelp.out.contains(QStringLiteral("--spec")));
}

void TestCli::usageErrors()
{
    const Run unknown = runCli({QStringLiteral("frobnicate")});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY(unknown.err.contains(QStringLiteral("unknown command \"frobnicate\"")));
    const Run noSpec = runCli({QStringLiteral("compile"), kSamples + QStringLiteral("/vector_add.py")});
    QCOMPARE(noSpec.exitCode, 1);
    QVERIFY(noSpec.err.contains(QStringLiteral("--spec")));
    const Run badOption = runCli({QStringLiteral("map"), QStringLiteral("x"), QStringLiteral("--bogus")});
    QCOMPARE(badOption.exitCode, 1);
    QVERIFY(badOption.err.contains(QStringLiteral("bogus")));
}

void TestCli::compileAndMapAlignedAdd()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("out"));
    const QString db = dir.filePath(QStringLiteral("strata.db"));
    const QString source = kSamples + QStringLiteral("/vector_add.py");
    const Run compile = runCli({QStringLiteral("compile"), source, QStringLiteral("--kernel"), QStringLiteral("add_kernel"),
                                QStringLiteral("--spec"), kSamples + QStringLiteral("/vector_add.aligned.spec.json"),
                                QStringLiteral("--target"), QStringLiteral("sm_90"), QStringLiteral("--out"), out,
                                QStringLiteral("--db"), db});
    QVERIFY2(compile.exitCode == 0, qPrintable(describe(compile)));
    QVERIFY(compile.out.startsWith(QStringLiteral("Compiled add_kernel (vector_add.py) for sm_90")));
    QVERIFY(compile.out.contains(QStringLiteral("Stored: compile #1 in ") + db));
    QVERIFY(QFile::exists(out + QStringLiteral("/compile.json")));
    QVERIFY(QFile::exists(db));
    // The folder is portable: its compile.json names its own files relative to it.
    QFile resultFile(out + QStringLiteral("/compile.json"));
    QVERIFY(resultFile.open(QIODevice::ReadOnly));
    QVERIFY(!QString::fromUtf8(resultFile.readAll()).contains(out + u'/'));

    // The store has it.
    const Run history = runCli({QStringLiteral("history"), QStringLiteral("--db"), db, QStringLiteral("--json")});
    QVERIFY2(history.exitCode == 0, qPrintable(describe(history)));
    const QJsonArray kernels = QJsonDocument::fromJson(history.out.toUtf8()).object().value(QStringLiteral("kernels")).toArray();
    QCOMPARE(kernels.size(), 1);
    QCOMPARE(kernels[0].toObject().value(QStringLiteral("kernel")).toString(), QStringLiteral("add_kernel"));
    const QJsonObject recorded = kernels[0].toObject().value(QStringLiteral("compiles")).toArray().at(0).toObject();
    QCOMPARE(recorded.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QCOMPARE(recorded.value(QStringLiteral("work_dir")).toString(), out);

    const int loadLine = lineOf(source, QStringLiteral("x = tl.load("));
    QVERIFY(loadLine > 0);
    const Run map = runCli({QStringLiteral("map"), out, QStringLiteral("--line"), QString::number(loadLine),
                            QStringLiteral("--stage"), QStringLiteral("ptx"), QStringLiteral("--json")});
    QVERIFY2(map.exitCode == 0, qPrintable(describe(map)));
    const QJsonObject json = QJsonDocument::fromJson(map.out.toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("source")).toObject().value(QStringLiteral("line")).toInt(), loadLine);
    const QJsonArray stages = json.value(QStringLiteral("stages")).toArray();
    QCOMPARE(stages.size(), 1);
    QCOMPARE(stages[0].toObject().value(QStringLiteral("stage")).toString(), QStringLiteral("ptx"));
    int vectorLoadLine = 0;
    for (const QJsonValue &line : stages[0].toObject().value(QStringLiteral("lines")).toArray()) {
        if (line.toObject().value(QStringLiteral("text")).toString().contains(QStringLiteral("ld.global.v4.b32")))
            vectorLoadLine = line.toObject().value(QStringLiteral("line")).toInt();
    }
    QVERIFY2(vectorLoadLine > 0, qPrintable(map.out));

    // And back from that PTX line to the source line.
    const Run back = runCli({QStringLiteral("map"), out + QStringLiteral("/compile.json"), QStringLiteral("--ir"),
                             QStringLiteral("ptx:%1").arg(vectorLoadLine), QStringLiteral("--json")});
    QVERIFY2(back.exitCode == 0, qPrintable(describe(back)));
    const QJsonObject backJson = QJsonDocument::fromJson(back.out.toUtf8()).object();
    QCOMPARE(backJson.value(QStringLiteral("source")).toObject().value(QStringLiteral("line")).toInt(), loadLine);
    QVERIFY(backJson.value(QStringLiteral("text")).toString().contains(QStringLiteral("ld.global.v4.b32")));

    // The readable form lists every stage.
    const Run readable = runCli({QStringLiteral("map"), out, QStringLiteral("--line"), QString::number(loadLine)});
    QCOMPARE(readable.exitCode, 0);
    for (const QString &stage : {QStringLiteral("\nttir ("), QStringLiteral("\nttgir ("), QStringLiteral("\nllir ("),
                                 QStringLiteral("\nptx ("), QStringLiteral("\nsass (")})
        QVERIFY2(readable.out.contains(stage), qPrintable(stage));

    const Run outOfRange = runCli({QStringLiteral("map"), out, QStringLiteral("--line"), QStringLiteral("999")});
    QCOMPARE(outOfRange.exitCode, 2);
    QVERIFY(outOfRange.err.contains(source + QStringLiteral(":999")));
    const Run badStage = runCli({QStringLiteral("map"), out, QStringLiteral("--line"), QString::number(loadLine),
                                 QStringLiteral("--stage"), QStringLiteral("hip")});
    QCOMPARE(badStage.exitCode, 2);
    QVERIFY(badStage.err.contains(QStringLiteral("stage \"hip\"")));
}

void TestCli::missingKernelFile()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no_such_kernel.py"));
    const Run run = runCli({QStringLiteral("compile"), missing, QStringLiteral("--spec"),
                            kSamples + QStringLiteral("/vector_add.aligned.spec.json"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("out")), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.db"))});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(missing), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("no such kernel file")));
}

void TestCli::unknownKernel()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const Run run = runCli({QStringLiteral("compile"), kSamples + QStringLiteral("/vector_add.py"), QStringLiteral("--kernel"),
                            QStringLiteral("nope_kernel"), QStringLiteral("--spec"),
                            kSamples + QStringLiteral("/vector_add.aligned.spec.json"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("out")), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.db"))});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(QStringLiteral("nope_kernel")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(kSamples + QStringLiteral("/vector_add.py")));
    QVERIFY(run.err.contains(QStringLiteral("add_kernel")));   // the agent lists what is there
}

void TestCli::syntaxErrorNamesFileAndLine()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("broken_add.py"));
    QFile file(source);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
               "def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):\n"
               "    pid = tl.program_id(axis=0\n"
               "    offsets = pid * BLOCK + tl.arange(0, BLOCK)\n");
    file.close();
    const Run run = runCli({QStringLiteral("compile"), source, QStringLiteral("--spec"),
                            kSamples + QStringLiteral("/vector_add.aligned.spec.json"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("out")), QStringLiteral("--db"), dir.filePath(QStringLiteral("s.db"))});
    QVERIFY2(run.exitCode == 2 || run.exitCode == 3, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(QRegularExpression(QRegularExpression::escape(source) + QStringLiteral(":[78]: "))),
             qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("syntax")));
    QVERIFY(run.err.contains(QStringLiteral("(kernel add_kernel)")));
}

void TestCli::mapOfMissingCompile()
{
    QTemporaryDir dir;
    const Run run = runCli({QStringLiteral("map"), dir.path(), QStringLiteral("--line"), QStringLiteral("3")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(dir.path() + QStringLiteral("/compile.json")), qPrintable(describe(run)));
}

void TestCli::frontendErrorExitsThree()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString source = dir.filePath(QStringLiteral("undefined_name.py"));
    QFile file(source);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
               "def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):\n"
               "    offsets = tl.arange(0, BLOCK)\n"
               "    x = tl.load(x_ptr + offsets)\n"
               "    tl.store(out_ptr + offsets, undefined_thing(x))\n");
    file.close();
    const Run run = runCli({QStringLiteral("compile"), source, QStringLiteral("--spec"),
                            kSamples + QStringLiteral("/vector_add.aligned.spec.json"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("out")), QStringLiteral("--no-store")});
    QCOMPARE(run.exitCode, 3);
    QVERIFY2(run.err.contains(source + QStringLiteral(":9: ")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("undefined_thing")));
    QVERIFY(run.err.contains(QStringLiteral("(kernel add_kernel)")));
}

void TestCli::agentThatCannotStart()
{
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_PYTHON"), QStringLiteral("/nonexistent/python3"));
    const Run run = runCli({QStringLiteral("compile"), kSamples + QStringLiteral("/vector_add.py"), QStringLiteral("--spec"),
                            kSamples + QStringLiteral("/vector_add.aligned.spec.json"), QStringLiteral("--out"),
                            dir.filePath(QStringLiteral("out")), QStringLiteral("--no-store")}, env);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(QStringLiteral("cannot start the agent")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("/nonexistent/python3")));
}

void TestCli::mapWithoutPlugins()
{
    const QString fixture = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/aligned");
    if (!QFile::exists(fixture + QStringLiteral("/compile.json")))
        QSKIP("vector_add/aligned fixture missing");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_PLUGIN_DIR"), QStringLiteral("/nonexistent/plugins"));
    const Run run = runCli({QStringLiteral("map"), fixture, QStringLiteral("--line"), QStringLiteral("18")}, env);
    QCOMPARE(run.exitCode, 4);
    QVERIFY2(run.err.contains(QStringLiteral("no backend plugin for target sm_90")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("/nonexistent/plugins")));
    // With plugins, the fixture maps without any agent.
    const Run ok = runCli({QStringLiteral("map"), fixture, QStringLiteral("--line"), QStringLiteral("18"),
                           QStringLiteral("--stage"), QStringLiteral("ttgir")});
    QVERIFY2(ok.exitCode == 0, qPrintable(describe(ok)));
    QVERIFY(ok.out.contains(QStringLiteral("tt.load")));
}

// A copy of the aligned vector_add spec with `from` replaced by `to`, in `dir`.
QString writeMutatedSpec(const QTemporaryDir &dir, const QByteArray &from, const QByteArray &to)
{
    QFile sample(kSamples + QStringLiteral("/vector_add.aligned.spec.json"));
    if (!sample.open(QIODevice::ReadOnly))
        return {};
    const QString path = dir.filePath(QStringLiteral("add.bad.spec.json"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(sample.readAll().replace(from, to));
    return path;
}

void TestCli::badSpecIsRefusedBeforeTheAgent()
{
    QTemporaryDir dir;
    const QString spec = writeMutatedSpec(dir, "\"num_warps\": 4", "\"num_warps\": \"eight\"");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_PYTHON"), QStringLiteral("/nonexistent/python3"));   // never needed
    const Run run = runCli({QStringLiteral("compile"), kSamples + QStringLiteral("/vector_add.py"), QStringLiteral("--spec"),
                            spec, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")), QStringLiteral("--no-store")},
                           env);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(spec + QStringLiteral(":21: spec.options.num_warps must be an integer")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("not the string \"eight\"")));
    QVERIFY(!run.err.contains(QStringLiteral("vector_add.py")));
}

void TestCli::agentSpecErrorNamesTheSpecFile()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString spec = writeMutatedSpec(dir, "\"BLOCK\": 1024", "\"BLOCK\": \"abc\"");
    const Run run = runCli({QStringLiteral("compile"), kSamples + QStringLiteral("/vector_add.py"), QStringLiteral("--spec"),
                            spec, QStringLiteral("--out"), dir.filePath(QStringLiteral("out")), QStringLiteral("--no-store")});
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.err.contains(spec + QStringLiteral(":11: spec.constexprs.BLOCK is the string \"abc\"")), qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("vector_add.py:15")));   // where the kernel needs a number
    QVERIFY(!run.err.contains(QStringLiteral("Traceback")));
}

void TestCli::nonSqliteDbIsNotReplaced()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("one-byte.db"));
    QFile file(db);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("x");
    file.close();
    const Run run = runCli({QStringLiteral("history"), QStringLiteral("--db"), db});
    QVERIFY2(run.exitCode != 0, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(db + QStringLiteral(": not a Strata store: the file is not an SQLite database")),
             qPrintable(describe(run)));
    QCOMPARE(QFileInfo(db).size(), 1);
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
