// `strata-cli diagnose` as a user runs it: a kernel compiled now (text report), a compile
// folder (JSON), without an agent, and its usage errors.
#include "../support/AgentTestSupport.h"
#include "diagnosis/model/DiagnosisJson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include "../support/CliRun.h"

#include <QProcess>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");
const QString kFixtures = QStringLiteral(STRATA_FIXTURES_DIR);
const QString kCli = QStringLiteral(STRATA_CLI_PATH);

using Run = strata::testing::CliRun;
using strata::testing::describe;

Run runCli(const QStringList &args, const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    return strata::testing::runProgram(kCli, args, 400000, env);
}

QString python()
{
    return strata::testing::agentPython();
}

QStringList escalationText(const Diagnosis &diagnosis)
{
    QStringList lines;
    for (const EscalationStep &step : diagnosis.escalation)
        lines.append(step.step + QStringLiteral(": ") + step.reason);
    return lines;
}

} // namespace

class DiagnoseCliTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void usageErrors();
    void kernelTextReport();
    void compileFolderJsonAtLevel3();
    void compileFolderWithoutAgent();
    void taskLaunchReachesTheLaunchRules();

private:
    bool m_triton = false;
    QString m_whyNoTriton;
};

void DiagnoseCliTest::initTestCase()
{
    QVERIFY2(QFileInfo(kCli).isExecutable(), qPrintable(kCli));
    m_triton = strata::testing::pythonImports(QStringLiteral("triton"), &m_whyNoTriton);
}

void DiagnoseCliTest::usageErrors()
{
    const QString add = kSamples + QStringLiteral("/vector_add.py");
    const Run noSpec = runCli({QStringLiteral("diagnose"), add});
    QCOMPARE(noSpec.exitCode, 1);
    QVERIFY2(noSpec.err.contains(QStringLiteral("needs --spec")), qPrintable(describe(noSpec)));
    const Run badLevel = runCli({QStringLiteral("diagnose"), add, QStringLiteral("--spec"), QStringLiteral("{}"),
                                 QStringLiteral("--max-level"), QStringLiteral("5")});
    QCOMPARE(badLevel.exitCode, 1);
    QVERIFY(badLevel.err.contains(QStringLiteral("--max-level wants 1, 2, 3 or 4")));
    const Run missing = runCli({QStringLiteral("diagnose"), QStringLiteral("/nonexistent/kernel.py"), QStringLiteral("--spec"), QStringLiteral("{}")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(QStringLiteral("/nonexistent/kernel.py: no such kernel file or compile folder")));
    const Run specWithFolder = runCli({QStringLiteral("diagnose"), kFixtures + QStringLiteral("/vector_add/unaligned"),
                                       QStringLiteral("--spec"), QStringLiteral("{}")});
    QCOMPARE(specWithFolder.exitCode, 1);
    const Run help = runCli({QStringLiteral("diagnose"), QStringLiteral("--help")});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("--max-level")));
}

void DiagnoseCliTest::kernelTextReport()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    const Run run = runCli({QStringLiteral("diagnose"), kSamples + QStringLiteral("/vector_add.py"),
                            QStringLiteral("--kernel"), QStringLiteral("add_kernel"),
                            QStringLiteral("--spec"), kSamples + QStringLiteral("/vector_add.unaligned.spec.json"),
                            QStringLiteral("--target"), QStringLiteral("sm_90")});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QStringList expected{
        QStringLiteral("Diagnosis of add_kernel (%1/vector_add.py)").arg(kSamples),
        QStringLiteral("Ranking: estimate: ranked by static severity"),
        QStringLiteral("1. [low] Scalar global loads (32-bit) (L4, confirmed)"),  // contiguous layout: cheap
        QStringLiteral("  18 | x = tl.load(x_ptr + offsets, mask=mask)"),
        QStringLiteral("  19 | y = tl.load(y_ptr + offsets, mask=mask)"),
        QStringLiteral("[low] Scalar global stores (32-bit) (L4, confirmed)"),
        QStringLiteral("examines L3.scalar-global-access"),
        QStringLiteral("- pass: ConvertTritonGPUToLLVM (convert-triton-gpu-to-llvm)  [first pass whose output has this line's narrow global loads]"),
        QStringLiteral("- counterfactual: \"n_elements divisible by 16\": ld.global.b32 x8 -> ld.global.v4.b32 x2  [the fact flipped: cause confirmed]"),
        QStringLiteral("- counterfactual: \"n_elements divisible by 16\": st.global.b32 x8 -> st.global.v4.b32 x2  [the fact flipped: cause confirmed]"),
        QStringLiteral("vectorization fails vec = 1 origin vec = 4"),
        QStringLiteral("L1 triage: the kernel's AST and launch spec are available: 0 findings"),
        QStringLiteral("L2 measurement: skipped: no GPU host is connected"),
        QStringLiteral("L4 counterfactuals: 1 one-change compiles for 3 findings"),
        QStringLiteral("stop: all 3 top findings are confirmed")};
    for (const QString &text : expected)
        QVERIFY2(run.out.contains(text), qPrintable(text + QStringLiteral("\n---\n") + describe(run)));
}

void DiagnoseCliTest::compileFolderJsonAtLevel3()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString jsonPath = dir.filePath(QStringLiteral("diagnosis.json"));
    const Run run = runCli({QStringLiteral("diagnose"), kFixtures + QStringLiteral("/matmul/runtime_strides"),
                            QStringLiteral("--max-level"), QStringLiteral("L3"), QStringLiteral("--json"), jsonPath});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.out.contains(QStringLiteral("Escalation:")));  // the text still goes to stdout
    QFile file(jsonPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
    Expected<Diagnosis> diagnosis = diagnosisFromJson(json, jsonPath);
    QVERIFY2(diagnosis, qPrintable(diagnosis ? QString() : diagnosis.error().toString()));
    QCOMPARE(diagnosis->kernel, QStringLiteral("matmul_kernel"));
    QCOMPARE(diagnosis->levels.size(), 2);
    QCOMPARE(diagnosis->levels[0].level, Level::L1);
    QCOMPARE(diagnosis->levels[1].level, Level::L3);
    int unitStride = 0, unpipelined = 0;
    for (const Finding &finding : diagnosis->allFindings()) {
        unitStride += finding.ruleId == QStringLiteral("L1.runtime-unit-stride");
        unpipelined += finding.ruleId == QStringLiteral("L3.unpipelined-loop-load");
    }
    QCOMPARE(unitStride, 3);
    QCOMPARE(unpipelined, 2);
    const QStringList log = escalationText(*diagnosis);
    QVERIFY2(log.contains(QStringLiteral("L4 compiler analysis: not run: 5 top findings are unconfirmed, but --max-level is L3")),
             qPrintable(log.join(u'\n')));
    QCOMPARE(json.value(QStringLiteral("ranking_estimate")).toBool(), true);
    const QJsonArray ranking = json.value(QStringLiteral("ranking")).toArray();
    QCOMPARE(ranking.size(), diagnosis->allFindings().size());
    QCOMPARE(ranking.first().toObject().value(QStringLiteral("status")).toString(), QStringLiteral("not_examined"));
    QCOMPARE(ranking.first().toObject().value(QStringLiteral("severity")).toString(), QStringLiteral("high"));
}

void DiagnoseCliTest::compileFolderWithoutAgent()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("STRATA_PYTHON"), QStringLiteral("/nonexistent/python3"));
    const Run run = runCli({QStringLiteral("diagnose"), kFixtures + QStringLiteral("/vector_add/unaligned"),
                            QStringLiteral("--json"), QStringLiteral("-")}, env);
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    QVERIFY(run.err.contains(QStringLiteral("warning: the agent could not start")));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    Expected<Diagnosis> diagnosis = diagnosisFromJson(json);
    QVERIFY2(diagnosis, qPrintable(run.out.left(2000)));
    QCOMPARE(diagnosis->findings(Level::L3).size(), 3);
    QCOMPARE(diagnosis->findings(Level::L4).size(), 3);
    for (const QJsonValue &ranked : json.value(QStringLiteral("ranking")).toArray())
        QCOMPARE(ranked.toObject().value(QStringLiteral("status")).toString(), QStringLiteral("untested"));
    const QStringList log = escalationText(*diagnosis);
    QVERIFY(log.first().startsWith(QStringLiteral("L1 triage: skipped: no AST of the kernel (the agent could not start")));
    QVERIFY(log.contains(QStringLiteral("L4 counterfactuals: skipped: no agent to compile with")));
}

// A task whose forward launches a 16-program kernel in a host loop of 12 chunks: the captured
// grid and launch count must reach L1's launch rules (they once got only the compile's spec).
void DiagnoseCliTest::taskLaunchReachesTheLaunchRules()
{
    if (!m_triton)
        QSKIP(qPrintable(m_whyNoTriton));
    QTemporaryDir dir;
    const QString task = dir.filePath(QStringLiteral("chunked_add.py"));
    QFile file(task);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"(import torch
import triton
import triton.language as tl

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
CHUNKS, CHUNK = 12, 16 * 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        for c in range(CHUNKS):
            part = slice(c * CHUNK, (c + 1) * CHUNK)
            add_kernel[(CHUNK // 1024,)](x[part], y[part], out[part], CHUNK, BLOCK=1024)
        return out


def get_inputs():
    return [torch.randn(CHUNKS * CHUNK, device=DEVICE), torch.randn(CHUNKS * CHUNK, device=DEVICE)]


def get_init_inputs():
    return []
)");
    file.close();
    const Run run = runCli({QStringLiteral("diagnose"), task, QStringLiteral("--json"), QStringLiteral("-")});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8()).object();
    QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.task-diagnosis"));
    const QJsonArray kernels = json.value(QStringLiteral("kernels")).toArray();
    QCOMPARE(kernels.size(), 1);
    QStringList rules;
    for (const QJsonValue &ranked : kernels[0].toObject().value(QStringLiteral("diagnosis")).toObject().value(QStringLiteral("ranking")).toArray())
        rules.append(ranked.toObject().value(QStringLiteral("rule")).toString());
    QVERIFY2(rules.contains(QStringLiteral("L1.under-filled-grid")), qPrintable(rules.join(u',') + u'\n' + describe(run)));
    QVERIFY2(rules.contains(QStringLiteral("L1.host-launch-loop")), qPrintable(rules.join(u',')));
}

QTEST_GUILESS_MAIN(DiagnoseCliTest)
#include "tst_diagnose_cli.moc"
