// Compiles a bundled sample through the window, on the real local agent (triton 3.6.0 on this
// machine, no GPU): progress notifications arrive, the stages load, linking works on the result,
// and a kernel error is reported with its file and line while the window stays up.
#include "UiTestSupport.h"

#include "app/AgentCompiler.h"
#include "app/Samples.h"

#include <QTemporaryDir>

using namespace strata;
using namespace strata::test;

class TestAgentCompile : public QObject {
    Q_OBJECT
private slots:
    void bundledSamplesAreFound();
    void compilesSampleWithProgress();
    void kernelErrorNamesFileAndLine();
    void specErrorsNameTheSpecFile();
};

void TestAgentCompile::bundledSamplesAreFound()
{
    const QVector<SampleVariant> samples = findSamples(defaultSamplesDir());
    QStringList titles;
    for (const SampleVariant &sample : samples)
        titles.append(sample.title());
    QVERIFY2(titles.contains(QStringLiteral("matmul.default")), qPrintable(titles.join(QLatin1Char(' '))));
    QVERIFY(titles.contains(QStringLiteral("vector_add.unaligned")));
    QVERIFY(std::is_sorted(titles.cbegin(), titles.cend()));
    const SampleVariant matmul = findSample(defaultSamplesDir(), QStringLiteral("matmul"));
    QCOMPARE(matmul.variant, QStringLiteral("default"));
    QVERIFY(matmul.kernelPath.endsWith(QStringLiteral("/matmul.py")));
    QVERIFY(findSample(defaultSamplesDir(), QStringLiteral("matmul.no_such_variant")).kernelPath.isEmpty());
    const QStringList specs = specsForKernel(matmul.kernelPath);
    QCOMPARE(specs.size(), 3);  // default, runtime_strides, big_spill
    QVERIFY(specs.contains(matmul.specPath));
}

void TestAgentCompile::compilesSampleWithProgress()
{
    const SampleVariant sample = findSample(defaultSamplesDir(), QStringLiteral("vector_add.aligned"));
    QVERIFY2(!sample.kernelPath.isEmpty(), qPrintable(defaultSamplesDir()));
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QSignalSpy progress(window.agentCompiler(), &AgentCompiler::progress);
    QSignalSpy loaded(&window, &MainWindow::compileLoaded);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.compileKernel(sample.kernelPath, sample.specPath);
    QVERIFY2(loaded.wait(240000), failed.isEmpty() ? "timeout"
                                                   : qPrintable(failed.first().first().value<ReadError>().toString()));
    QStringList messages;
    for (const QList<QVariant> &args : progress)
        messages.append(args.first().toString());
    // The agent's own notifications came through, not just ours.
    QVERIFY2(messages.join(QLatin1Char('\n')).contains(QStringLiteral("running stage ttgir")),
             qPrintable(messages.join(QLatin1Char('\n'))));

    QCOMPARE(window.currentCompile()->result.kernel, QStringLiteral("add_kernel"));
    QVERIFY(window.statusText().contains(QStringLiteral("sm_90")));
    const QVector<int> loads = linesContaining(window.sourcePane()->view(), QStringLiteral("tl.load(x_ptr"));
    QVERIFY(!loads.isEmpty());
    window.selectSourceLine(loads.first() + 1);
    StagePane *ptx = window.pane(QStringLiteral("ptx"));
    QVERIFY(anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("ld.global.v4.b32")));
}

void TestAgentCompile::kernelErrorNamesFileAndLine()
{
    QTemporaryDir dir;
    const QString kernelPath = dir.filePath(QStringLiteral("broken.py"));
    QFile kernel(kernelPath);
    QVERIFY(kernel.open(QIODevice::WriteOnly));
    // Line 7 uses a name that does not exist: Triton's frontend rejects it.
    kernel.write("import triton\n"
                 "import triton.language as tl\n"
                 "\n"
                 "@triton.jit\n"
                 "def broken_kernel(x_ptr, BLOCK: tl.constexpr):\n"
                 "    offs = tl.arange(0, BLOCK)\n"
                 "    tl.store(x_ptr + offs, undefined_name)\n");
    kernel.close();
    const QString specPath = dir.filePath(QStringLiteral("broken.default.spec.json"));
    QFile spec(specPath);
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(R"({"kernel": "broken_kernel", "signature": {"x_ptr": "*fp32", "BLOCK": "constexpr"},
                   "constexprs": {"BLOCK": 128}, "options": {"num_warps": 4}, "target": "sm_90"})");
    spec.close();

    MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.compileKernel(kernelPath, specPath);
    QVERIFY(failed.wait(240000));
    const ReadError error = failed.first().first().value<ReadError>();
    qInfo("reported: %s", qPrintable(error.toString()));
    QVERIFY2(error.file.endsWith(QStringLiteral("broken.py")), qPrintable(error.toString()));
    QCOMPARE(error.line, 7);
    QVERIFY2(error.message.contains(QStringLiteral("broken_kernel")), qPrintable(error.toString()));
    QVERIFY(window.currentCompile() == nullptr);
}

// A wrong type is caught before the agent is asked; a string constexpr the kernel needs as a
// number is caught by the agent. Both name the spec file and key, not the kernel file.
void TestAgentCompile::specErrorsNameTheSpecFile()
{
    QTemporaryDir dir;
    const QString kernelPath = defaultSamplesDir() + QStringLiteral("/vector_add.py");
    const QString specPath = dir.filePath(QStringLiteral("vector_add.bad.spec.json"));
    const auto writeSpec = [&](const QByteArray &constexprs, const QByteArray &options) {
        QFile spec(specPath);
        QVERIFY(spec.open(QIODevice::WriteOnly | QIODevice::Truncate));
        spec.write("{\"kernel\": \"add_kernel\",\n \"signature\": {\"x_ptr\": \"*fp32\", \"y_ptr\": \"*fp32\", "
                   "\"out_ptr\": \"*fp32\", \"n_elements\": \"i32\", \"BLOCK\": \"constexpr\"},\n \"constexprs\": "
                   + constexprs + ",\n \"options\": " + options + "\n}\n");
    };
    MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &MainWindow::loadFailed);

    writeSpec(R"({"BLOCK": 1024})", R"({"num_warps": "eight"})");
    window.compileKernel(kernelPath, specPath);
    QCOMPARE(failed.size(), 1);   // at once: no agent involved
    ReadError error = failed.takeFirst().first().value<ReadError>();
    QCOMPARE(error.file, specPath);
    QCOMPARE(error.line, 4);
    QVERIFY2(error.message.contains(QStringLiteral("spec.options.num_warps must be an integer")), qPrintable(error.toString()));

    writeSpec(R"({"BLOCK": "abc"})", R"({"num_warps": 4})");
    window.compileKernel(kernelPath, specPath);
    QVERIFY(failed.wait(240000));
    error = failed.takeFirst().first().value<ReadError>();
    qInfo("reported: %s", qPrintable(error.toString()));
    QCOMPARE(error.file, specPath);
    QCOMPARE(error.line, 3);
    QVERIFY2(error.message.contains(QStringLiteral("spec.constexprs.BLOCK is the string \"abc\"")), qPrintable(error.toString()));
    QVERIFY(window.currentCompile() == nullptr);
}

QTEST_MAIN(TestAgentCompile)
#include "tst_agent_compile.moc"
