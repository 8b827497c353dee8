// strata-cli with the Ascend plugin: map and diagnose on the committed triton-ascend fixtures
// (no agent compile needed), and a live compile -> map -> diagnose of the samples through the
// agent and .venv-ascend (skipped, saying why, where .venv-ascend is absent).
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include "../support/CliRun.h"

namespace {

const QString kCli = QStringLiteral(STRATA_CLI_PATH);
const QString kFixtures = QStringLiteral(STRATA_FIXTURES_DIR "/ascend");
const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");

using strata::testing::CliRun;
using strata::testing::describe;

// strata-cli, given the time a live compile through the agent can take on a loaded machine.
CliRun runCli(const QStringList &args, int timeoutMs = 240000)
{
    return strata::testing::runProgram(kCli, args, timeoutMs);
}

int lineOf(const QString &file, const QString &needle)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i)
        if (lines[i].contains(needle))
            return i + 1;
    return 0;
}

// The interpreter the agent's Ascend backend uses when nothing else is named (PROTOCOL.md).
QString ascendPython()
{
    const QString named = qEnvironmentVariable("STRATA_ASCEND_PYTHON");
    return named.isEmpty() ? QStringLiteral(STRATA_SOURCE_DIR "/.venv-ascend/bin/python") : named;
}

} // namespace

class TestAscendCli : public QObject {
    Q_OBJECT

private slots:
    void mapFixtureLinesBothWays();
    void mapNamesASkippedStagesReason();
    void diagnoseFixtureWithTheBackendsFacts();
    void compileMapDiagnoseSamplesLive_data();
    void compileMapDiagnoseSamplesLive();
    void optimizeChecksAnAscendTaskInterpreted();
    void verifyWithAnAscendTarget();
};

void TestAscendCli::mapFixtureLinesBothWays()
{
    const QString dir = kFixtures + QStringLiteral("/matmul");
    const int dotLine = lineOf(dir + QStringLiteral("/source.py"), QStringLiteral("tl.dot("));
    QVERIFY(dotLine > 0);
    const CliRun forward = runCli({QStringLiteral("map"), dir, QStringLiteral("--line"), QString::number(dotLine), QStringLiteral("--json")});
    QVERIFY2(forward.exitCode == 0, qPrintable(describe(forward)));
    const QJsonObject json = QJsonDocument::fromJson(forward.out.toUtf8()).object();
    QStringList stages;
    int matmulLine = 0;
    for (const QJsonValue &stage : json.value(QStringLiteral("stages")).toArray()) {
        stages << stage.toObject().value(QStringLiteral("stage")).toString();
        for (const QJsonValue &line : stage.toObject().value(QStringLiteral("lines")).toArray())
            if (line.toObject().value(QStringLiteral("opcode")).toString() == QLatin1String("linalg.matmul"))
                matmulLine = line.toObject().value(QStringLiteral("line")).toInt();
    }
    QCOMPARE(stages, (QStringList{"ttir", "ttadapter"}));
    QVERIFY2(matmulLine > 0, qPrintable(forward.out.left(2000)));

    const CliRun back = runCli({QStringLiteral("map"), dir, QStringLiteral("--ir"), QStringLiteral("ttadapter:%1").arg(matmulLine)});
    QVERIFY2(back.exitCode == 0, qPrintable(describe(back)));
    QVERIFY2(back.out.contains(QStringLiteral(":%1:").arg(dotLine)) && back.out.contains(QLatin1String("tl.dot(")),
             qPrintable(back.out));

    const CliRun locations = runCli({QStringLiteral("map"), dir, QStringLiteral("--locations")});
    QVERIFY2(locations.exitCode == 0, qPrintable(describe(locations)));
    QVERIFY2(locations.out.contains(QRegularExpression(QStringLiteral("ttadapter: (\\d+) of \\1 ops mapped"))),
             qPrintable(locations.out));
    QVERIFY2(locations.err.isEmpty(), qPrintable(locations.err));   // no stage degraded or refused
}

void TestAscendCli::mapNamesASkippedStagesReason()
{
    const CliRun run = runCli({QStringLiteral("map"), kFixtures + QStringLiteral("/vector_add"), QStringLiteral("--line"),
                            QStringLiteral("18"), QStringLiteral("--stage"), QStringLiteral("hivm")});
    QVERIFY2(run.exitCode != 0, qPrintable(describe(run)));
    QVERIFY2(run.err.contains(QLatin1String("stage \"hivm\" was not run for this compile: bishengir-compile is not on PATH")),
             qPrintable(run.err));
}

void TestAscendCli::diagnoseFixtureWithTheBackendsFacts()
{
    const QString dir = kFixtures + QStringLiteral("/gather");
    QTemporaryDir out;
    const QString json = out.filePath(QStringLiteral("diagnosis.json"));
    const CliRun run = runCli({QStringLiteral("diagnose"), dir, QStringLiteral("--json"), json});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY2(run.out.contains(QLatin1String("L3.ascend-discrete-access")), qPrintable(run.out));
    QVERIFY2(run.out.contains(QLatin1String("L4 compiler analysis: not run")), qPrintable(run.out));
    QVERIFY2(!run.out.contains(QLatin1String("GPU IR")) && !run.out.contains(QLatin1String("HIVM of kernel")), qPrintable(run.out));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject diagnosis = QJsonDocument::fromJson(file.readAll()).object();
    const QJsonArray ranking = diagnosis.value(QStringLiteral("ranking")).toArray();
    QVERIFY(!ranking.isEmpty());
    QCOMPARE(ranking.first().toObject().value(QStringLiteral("rule")).toString(), QStringLiteral("L3.ascend-discrete-access"));
}

void TestAscendCli::compileMapDiagnoseSamplesLive_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("loadOp");   // what the first tl.load became in ttadapter
    QTest::newRow("vector_add") << QStringLiteral("vector_add") << QStringLiteral("vector_add.aligned") << QStringLiteral("aiv")
                                << QStringLiteral("memref.copy");
    QTest::newRow("softmax") << QStringLiteral("softmax") << QStringLiteral("softmax.default") << QStringLiteral("aiv")
                             << QStringLiteral("memref.copy");
    // The matmul's pointer tensors advance in the K loop: an element-by-element access.
    QTest::newRow("matmul") << QStringLiteral("matmul") << QStringLiteral("matmul.default") << QStringLiteral("mix")
                            << QStringLiteral("{DiscreteMemAccess}");
}

void TestAscendCli::compileMapDiagnoseSamplesLive()
{
    if (!QFile::exists(ascendPython()))
        QSKIP(qPrintable(QStringLiteral("no triton-ascend interpreter at %1 (run scripts/bootstrap_ascend.sh)").arg(ascendPython())));
    QFETCH(QString, sample);
    QFETCH(QString, spec);
    QFETCH(QString, mode);
    QFETCH(QString, loadOp);
    QTemporaryDir out;
    const QString kernel = kSamples + QLatin1Char('/') + sample + QStringLiteral(".py");
    const CliRun compile = runCli({QStringLiteral("compile"), kernel, QStringLiteral("--spec"),
                                kSamples + QLatin1Char('/') + spec + QStringLiteral(".spec.json"), QStringLiteral("--target"),
                                QStringLiteral("ascend910_95"), QStringLiteral("--out"), out.path(), QStringLiteral("--no-store")});
    QVERIFY2(compile.exitCode == 0, qPrintable(describe(compile)));
    QVERIFY2(compile.out.contains(QStringLiteral("Kernel mode: %1").arg(mode)), qPrintable(compile.out));
    QVERIFY2(compile.out.contains(QRegularExpression(QStringLiteral("\\n  ttadapter\\s+[\\d.]+ KiB"))), qPrintable(compile.out));
    QVERIFY2(compile.out.contains(QRegularExpression(QStringLiteral("\\n  hivm\\s+skipped  bishengir-compile"))), qPrintable(compile.out));
    QVERIFY2(!compile.out.contains(QLatin1String("Registers")), qPrintable(compile.out));

    const int loadLine = lineOf(kernel, QStringLiteral("tl.load("));
    const CliRun map = runCli({QStringLiteral("map"), out.path(), QStringLiteral("--line"), QString::number(loadLine),
                            QStringLiteral("--stage"), QStringLiteral("ttadapter")});
    QVERIFY2(map.exitCode == 0, qPrintable(describe(map)));
    QVERIFY2(map.out.contains(loadOp), qPrintable(map.out));

    const CliRun diagnose = runCli({QStringLiteral("diagnose"), out.path()});
    QVERIFY2(diagnose.exitCode == 0, qPrintable(describe(diagnose)));
    QVERIFY2(diagnose.out.contains(QStringLiteral("mix_mode \"%1\"").arg(mode)), qPrintable(diagnose.out));
    QVERIFY2(diagnose.out.contains(QLatin1String("L1 triage:")), qPrintable(diagnose.out));
}

// The loop on an Ascend target (issue #16): `optimize --target ascend910_95 --interpret` sends run_task
// and verify to the agent's Ascend worker (triton-ascend's interpreter on the CPU: no NPU here), compiles
// the captured launch for the 950 and diagnoses it with the plugin's own L3 facts.
void TestAscendCli::optimizeChecksAnAscendTaskInterpreted()
{
    if (!QFile::exists(ascendPython()))
        QSKIP(qPrintable(QStringLiteral("no triton-ascend interpreter at %1 (run scripts/bootstrap_ascend.sh)").arg(ascendPython())));
    QTemporaryDir dir;
    const QString task = dir.filePath(QStringLiteral("add_good.py"));
    QVERIFY(QFile::copy(QStringLiteral(STRATA_SOURCE_DIR "/agent/tests/ascend/tasks/add_good.py"), task));
    const QString json = dir.filePath(QStringLiteral("out.json"));
    const CliRun run = runCli({QStringLiteral("optimize"), task, QStringLiteral("--target"), QStringLiteral("ascend910_95"),
                               QStringLiteral("--interpret"), QStringLiteral("--no-recipes"), QStringLiteral("--db"),
                               dir.filePath(QStringLiteral("s.db")), QStringLiteral("--work-dir"), dir.filePath(QStringLiteral("w")),
                               QStringLiteral("--json"), json},
                              480000);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QFile file(json);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject results = QJsonDocument::fromJson(file.readAll()).object();
    QCOMPARE(results.value(QStringLiteral("target")).toString(), QStringLiteral("ascend910_95"));
    QCOMPARE(results.value(QStringLiteral("backend")).toString(), QStringLiteral("ascend"));
    // The versions are the Ascend backend's: its triton is triton-ascend, not the agent's own triton.
    QVERIFY2(results.value(QStringLiteral("triton")).toString().startsWith(QLatin1String("triton-ascend ")),
             qPrintable(results.value(QStringLiteral("triton")).toString()));
    const QJsonObject outcome = results.value(QStringLiteral("tasks")).toArray().first().toObject();
    const QJsonObject initial = outcome.value(QStringLiteral("candidates")).toArray().first().toObject();
    QVERIFY2(initial.value(QStringLiteral("state")).toString() == QLatin1String("accepted")
                 && initial.value(QStringLiteral("detail")).toString().contains(QLatin1String("checks only")),
             qPrintable(QJsonDocument(initial).toJson()));
    const QJsonObject agentSeconds = outcome.value(QStringLiteral("agent_s")).toObject();
    QVERIFY(agentSeconds.contains(QStringLiteral("verify")) && agentSeconds.contains(QStringLiteral("run_task")));
    // The round's diagnosis is the plugin's: ttadapter facts, not the core's NVIDIA rules.
    const QByteArray rounds = QJsonDocument(outcome.value(QStringLiteral("rounds")).toArray()).toJson();
    QVERIFY2(rounds.contains("L3.ascend-masked-load-fill") && rounds.contains("reads its own stages"), rounds.constData());
    QVERIFY2(!rounds.contains("L3.fma-dot"), rounds.constData());
}

// The task commands take --target: an Ascend one runs under triton-ascend (interpreted here), and
// without --interpret on this host (no NPU, no CANN) the agent's reply names what is missing.
void TestAscendCli::verifyWithAnAscendTarget()
{
    if (!QFile::exists(ascendPython()))
        QSKIP(qPrintable(QStringLiteral("no triton-ascend interpreter at %1 (run scripts/bootstrap_ascend.sh)").arg(ascendPython())));
    const QString task = QStringLiteral(STRATA_SOURCE_DIR "/agent/tests/ascend/tasks/add_good.py");
    const CliRun checked = runCli({QStringLiteral("verify"), task, QStringLiteral("--target"), QStringLiteral("ascend910_95"),
                                   QStringLiteral("--interpret"), QStringLiteral("--no-store"), QStringLiteral("--json")});
    QVERIFY2(checked.exitCode == 0, qPrintable(describe(checked)));
    const QJsonObject verdict = QJsonDocument::fromJson(checked.out.toUtf8()).object();
    QCOMPARE(verdict.value(QStringLiteral("verdict")).toString(), QStringLiteral("pass"));
    QCOMPARE(verdict.value(QStringLiteral("backend")).toString(), QStringLiteral("ascend"));
    const QJsonObject spec = verdict.value(QStringLiteral("kernels")).toArray().first().toObject().value(QStringLiteral("spec")).toObject();
    QCOMPARE(spec.value(QStringLiteral("target")).toString(), QStringLiteral("ascend910_95"));
    if (qEnvironmentVariableIsSet("ASCEND_HOME_PATH") || qEnvironmentVariableIsSet("ASCEND_TOOLKIT_HOME"))
        return;   // maybe an Ascend host: the no-NPU answer below is not this host's
    const CliRun refused = runCli({QStringLiteral("verify"), task, QStringLiteral("--target"), QStringLiteral("ascend910_95"),
                                   QStringLiteral("--no-store")});
    QVERIFY2(refused.exitCode != 0, qPrintable(describe(refused)));
    QVERIFY2(refused.err.contains(QLatin1String("cannot verify the task on an Ascend NPU")), qPrintable(describe(refused)));
}

QTEST_GUILESS_MAIN(TestAscendCli)
#include "tst_ascend_cli.moc"
