// Compile results: reading the agent's compile.json (real triton 3.6.0 fixtures), clear errors
// for broken ones, and a whole compile loaded into a location map.
#include "NvidiaStages.h"
#include "compile/LoadedCompile.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

const QString kFixtures = QStringLiteral(STRATA_FIXTURES_DIR);

QString fixture(const QString &sampleVariant)
{
    return kFixtures + QLatin1Char('/') + sampleVariant + QStringLiteral("/compile.json");
}

// The NVIDIA pipeline as plugins/nvidia declares it (this test does not load plugins).

int lineContaining(const QString &text, const QString &needle)
{
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(needle))
            return i + 1;
    }
    return 0;
}

bool anyLineContains(const LoadedCompile &loaded, const QString &stage, int sourceLine, const QString &needle)
{
    const StageListing *listing = loaded.listing(stage);
    if (!listing)
        return false;
    for (const int index : loaded.map.linesForSource(stage, sourceLine)) {
        if (listing->lines[index].text.contains(needle))
            return true;
    }
    return false;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestCompile : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void parsesMatmulFixture();
    void keepsOmittedPassDumps();
    void roundTripsThroughJson();
    void missingKeyNamesFileAndKey_data();
    void missingKeyNamesFileAndKey();
    void unreadableFiles();
    void loadsMatmulIntoMap();
    void vectorAddAlignmentShowsInPtx();
    void inlinedReductionReachesSassThroughPtx();
    void missingSourceArtifactIsFatal();
    void brokenStageIsAProblemNotFatal();
    void loadsOnePassDump();
};

void TestCompile::initTestCase()
{
    if (!QFile::exists(fixture(QStringLiteral("matmul/default"))))
        QSKIP("tests/fixtures/matmul/default/compile.json is missing (tests/fixtures/generate_fixtures.py)");
}

void TestCompile::parsesMatmulFixture()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("matmul/default")));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    QCOMPARE(r->kernel, QStringLiteral("matmul_kernel"));
    QCOMPARE(r->target, QStringLiteral("sm_90"));
    QCOMPARE(r->sourcePath, QStringLiteral("/tmp/strata-fixture-src/matmul.py"));
    QCOMPARE(r->protocol.toInt(), 1);
    const QString dir = QDir::cleanPath(kFixtures + QStringLiteral("/matmul/default"));
    QCOMPARE(r->workDir, dir);
    for (const QString &name : {QStringLiteral("source"), QStringLiteral("ttir"), QStringLiteral("ttgir"),
                                QStringLiteral("llir"), QStringLiteral("ptx"), QStringLiteral("cubin"),
                                QStringLiteral("sass"), QStringLiteral("ptxas_log")}) {
        QVERIFY2(r->artifacts.contains(name), qPrintable(name));
        const ArtifactRef &ref = r->artifacts[name];
        QVERIFY2(QFileInfo(ref.path).isAbsolute() && QFile::exists(ref.path), qPrintable(ref.path));
        QCOMPARE(QFileInfo(ref.path).size(), ref.size);
        QCOMPARE(ref.sha256.size(), 64);
    }
    QCOMPARE(r->artifacts[QStringLiteral("source")].path, dir + QStringLiteral("/source.py"));
    QCOMPARE(r->passDumps.size(), 75);
    QCOMPARE(r->passDumps[0].passName, QStringLiteral("Inliner"));
    QCOMPARE(r->passDumps[0].argument, QStringLiteral("inline"));
    QCOMPARE(r->passDumps[0].stage, QStringLiteral("ttir"));
    QCOMPARE(r->passDumps[0].file.path, dir + QStringLiteral("/passes/000-inline.mlir"));
    QCOMPARE(r->ptxas.registers, 126);
    QCOMPARE(r->ptxas.spillStoreBytes, 0);
    QCOMPARE(r->metadata.value(QStringLiteral("num_warps")).toInt(), 8);
    QCOMPARE(r->spec.value(QStringLiteral("constexprs")).toObject().value(QStringLiteral("BLOCK_K")).toInt(), 64);
}

void TestCompile::keepsOmittedPassDumps()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("matmul/runtime_strides")));
    QVERIFY2(r, qPrintable(r ? QString() : r.error().toString()));
    int omitted = 0;
    for (const PassDumpRef &dump : r->passDumps)
        omitted += dump.file.path.isEmpty() && dump.file.size > 0;
    QCOMPARE(omitted, 10);
    const PassDumpRef &gone = *std::find_if(r->passDumps.cbegin(), r->passDumps.cend(),
                                            [](const PassDumpRef &d) { return d.file.path.isEmpty(); });
    Expected<StageListing> listing = loadPassDump(gone, StageFormat::MlirText);
    QVERIFY(!listing);
    QVERIFY2(listing.error().message.contains(gone.passName), qPrintable(listing.error().toString()));
}

void TestCompile::roundTripsThroughJson()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("vector_add/aligned")));
    QVERIFY(r);
    const QJsonObject json = toJson(*r);
    QCOMPARE(json.value(QStringLiteral("kernel")).toString(), QStringLiteral("add_kernel"));
    Expected<CompileResult> again = parseCompileResult(json);
    QVERIFY(again);
    QCOMPARE(toJson(*again), json);
    QCOMPARE(again->artifacts.keys(), r->artifacts.keys());
    QCOMPARE(again->artifacts.value(QStringLiteral("ptx")).path, r->artifacts.value(QStringLiteral("ptx")).path);
    QCOMPARE(again->passDumps.size(), r->passDumps.size());
}

void TestCompile::missingKeyNamesFileAndKey_data()
{
    QTest::addColumn<QString>("key");
    QTest::newRow("kernel") << QStringLiteral("kernel");
    QTest::newRow("source_path") << QStringLiteral("source_path");
    QTest::newRow("target") << QStringLiteral("target");
    QTest::newRow("artifacts") << QStringLiteral("artifacts");
}

void TestCompile::missingKeyNamesFileAndKey()
{
    QFETCH(QString, key);
    QJsonObject json = readJson(fixture(QStringLiteral("vector_add/aligned")));
    json.remove(key);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("compile.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QJsonDocument(json).toJson());
    file.close();
    Expected<CompileResult> r = readCompileResultFile(path);
    QVERIFY(!r);
    QCOMPARE(r.error().file, path);
    QVERIFY2(r.error().message.contains(QLatin1Char('"') + key + QLatin1Char('"')), qPrintable(r.error().toString()));
}

void TestCompile::unreadableFiles()
{
    Expected<CompileResult> missing = readCompileResultFile(QStringLiteral("/nonexistent/compile.json"));
    QVERIFY(!missing);
    QCOMPARE(missing.error().file, QStringLiteral("/nonexistent/compile.json"));
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("compile.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"kernel\": \"k\",\n \"target\": }");
    file.close();
    Expected<CompileResult> broken = readCompileResultFile(path);
    QVERIFY(!broken);
    QVERIFY2(broken.error().message.contains(QStringLiteral("not valid JSON")), qPrintable(broken.error().toString()));
    QJsonObject badArtifact = readJson(fixture(QStringLiteral("vector_add/aligned")));
    QJsonObject artifacts = badArtifact.value(QStringLiteral("artifacts")).toObject();
    artifacts.insert(QStringLiteral("ptx"), QJsonObject{{QStringLiteral("size"), 3}});
    badArtifact.insert(QStringLiteral("artifacts"), artifacts);
    Expected<CompileResult> noPath = parseCompileResult(badArtifact);
    QVERIFY(!noPath);
    QVERIFY2(noPath.error().message.contains(QStringLiteral("artifact \"ptx\"")), qPrintable(noPath.error().toString()));
}

void TestCompile::loadsMatmulIntoMap()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("matmul/default")));
    QVERIFY(r);
    Expected<LoadedCompile> loaded = loadCompile(*r, nvidiaStages());
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().toString()));
    for (const StageProblem &problem : loaded->problems)
        qWarning() << "stage problem:" << problem.toString();
    QVERIFY(loaded->problems.isEmpty());
    QCOMPARE(loaded->stages.size(), 6);
    QCOMPARE(loaded->map.kernelFile(), QStringLiteral("/tmp/strata-fixture-src/matmul.py"));

    const int dotLine = lineContaining(loaded->sourceText, QStringLiteral("tl.dot("));
    QCOMPARE(dotLine, 37);
    QCOMPARE(loaded->listing(QStringLiteral("source"))->lines[dotLine - 1].text.trimmed(),
             QStringLiteral("accumulator = tl.dot(a, b, accumulator)"));
    QCOMPARE(loaded->map.linesForSource(QStringLiteral("source"), dotLine), QVector<int>{dotLine - 1});
    QVERIFY(anyLineContains(*loaded, QStringLiteral("ttir"), dotLine, QStringLiteral("tt.dot")));
    QVERIFY(anyLineContains(*loaded, QStringLiteral("ttgir"), dotLine, QStringLiteral("ttng.warp_group_dot")));
    QVERIFY(anyLineContains(*loaded, QStringLiteral("ptx"), dotLine, QStringLiteral("wgmma.mma_async")));
    QVERIFY(anyLineContains(*loaded, QStringLiteral("sass"), dotLine, QStringLiteral("HGMMA")));
    // And back: a wgmma line of the PTX maps to the tl.dot line.
    const StageListing *ptx = loaded->listing(QStringLiteral("ptx"));
    QStringList ptxTexts;
    for (const ListingLine &line : ptx->lines)
        ptxTexts.append(line.text);
    const int wgmma = lineContaining(ptxTexts.join(QLatin1Char('\n')), QStringLiteral("wgmma.mma_async"));
    QVERIFY(wgmma > 0);
    QCOMPARE(loaded->map.sourceForLine(QStringLiteral("ptx"), wgmma - 1).line, dotLine);
}

void TestCompile::vectorAddAlignmentShowsInPtx()
{
    for (const QString &variant : {QStringLiteral("aligned"), QStringLiteral("unaligned")}) {
        Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("vector_add/") + variant));
        QVERIFY(r);
        Expected<LoadedCompile> loaded = loadCompile(*r, nvidiaStages());
        QVERIFY(loaded);
        const int loadLine = lineContaining(loaded->sourceText, QStringLiteral("x = tl.load("));
        QVERIFY(loadLine > 0);
        const bool vectorised = anyLineContains(*loaded, QStringLiteral("ptx"), loadLine, QStringLiteral("ld.global.v4.b32"));
        QCOMPARE(vectorised, variant == QLatin1String("aligned"));
        QVERIFY(anyLineContains(*loaded, QStringLiteral("ptx"), loadLine, QStringLiteral("ld.global")));
    }
}

// tl.sum is inlined from triton/language/standard.py; ptxas drops that call site, so its SASS
// maps to the kernel line only because loadCompile borrows the call sites from the PTX.
void TestCompile::inlinedReductionReachesSassThroughPtx()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("row_sum/default")));
    QVERIFY(r);
    Expected<LoadedCompile> loaded = loadCompile(*r, nvidiaStages());
    QVERIFY(loaded);
    const int sumLine = lineContaining(loaded->sourceText, QStringLiteral("tl.sum("));
    QVERIFY(sumLine > 0);
    QVERIFY(anyLineContains(*loaded, QStringLiteral("ptx"), sumLine, QStringLiteral("shfl.sync")));
    QVERIFY(anyLineContains(*loaded, QStringLiteral("sass"), sumLine, QStringLiteral("SHFL")));
}

void TestCompile::missingSourceArtifactIsFatal()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("vector_add/aligned")));
    QVERIFY(r);
    r->artifacts.remove(QStringLiteral("source"));
    Expected<LoadedCompile> loaded = loadCompile(*r, nvidiaStages());
    QVERIFY(!loaded);
    QVERIFY(loaded.error().message.contains(QStringLiteral("add_kernel")));
    QVERIFY(loaded.error().message.contains(QStringLiteral("\"source\"")));
}

void TestCompile::brokenStageIsAProblemNotFatal()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("vector_add/aligned")));
    QVERIFY(r);
    r->artifacts[QStringLiteral("sass")].path = QStringLiteral("/nonexistent/add_kernel.sass");
    Expected<LoadedCompile> loaded = loadCompile(*r, nvidiaStages());
    QVERIFY(loaded);
    QCOMPARE(loaded->problems.size(), 1);
    QCOMPARE(loaded->problems[0].error.file, QStringLiteral("/nonexistent/add_kernel.sass"));
    QCOMPARE(loaded->problems[0].error.kind, ProblemKind::Missing);
    QVERIFY(loaded->problems[0].refused);
    QVERIFY(!loaded->listing(QStringLiteral("sass")));
    QVERIFY(loaded->listing(QStringLiteral("ptx")));
    QCOMPARE(loaded->stages.size(), 5);
}

void TestCompile::loadsOnePassDump()
{
    Expected<CompileResult> r = readCompileResultFile(fixture(QStringLiteral("matmul/default")));
    QVERIFY(r);
    const auto coalesce = std::find_if(r->passDumps.cbegin(), r->passDumps.cend(), [](const PassDumpRef &d) {
        return d.argument == QLatin1String("tritongpu-coalesce");
    });
    QVERIFY(coalesce != r->passDumps.cend());
    Expected<StageListing> listing = loadPassDump(*coalesce, StageFormat::MlirText);
    QVERIFY2(listing, qPrintable(listing ? QString() : listing.error().toString()));
    bool hasBlocked = false;
    for (const ListingLine &line : listing->lines)
        hasBlocked = hasBlocked || line.text.contains(QStringLiteral("#ttg.blocked"));
    QVERIFY(hasBlocked);   // before coalescing, convert-triton-to-tritongpu already chose a layout
}

QTEST_GUILESS_MAIN(TestCompile)
#include "tst_compile.moc"
