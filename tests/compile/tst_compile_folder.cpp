// A compile folder can be copied, moved and archived: its compile.json names files relative to
// the folder, a copy reads its own files even when the original is emptied or gone, and an old
// compile.json with absolute paths is read from where the folder is now, with a warning.
#include "NvidiaStages.h"
#include "compile/CompileFolder.h"
#include "compile/LoadedCompile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

const QString kFixture = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/aligned");

bool copyFolder(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString file = it.next();
        const QString target = to + file.mid(from.size());
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(file, target))
            return false;
    }
    return true;
}

// Truncates every file under `folder` to zero bytes, leaving the names in place.
void emptyEveryFile(const QString &folder)
{
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    }
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

void writeJson(const QString &path, const QJsonObject &json)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(json).toJson());
}

// Rewrites `folder`/compile.json as Strata wrote it before paths were relative: every path and
// work_dir absolute, naming `folder`.
void makeAbsolute(const QString &folder)
{
    Expected<CompileResult> result = readCompileResultFile(folder + QStringLiteral("/compile.json"));
    QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
    QVERIFY(QFileInfo(result->artifacts.value(QStringLiteral("ptx")).path).isAbsolute());
    writeJson(folder + QStringLiteral("/compile.json"), toJson(*result));
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// Every file the compile names lies in `folder`.
void expectAllPathsUnder(const CompileResult &result, const QString &folder)
{
    for (auto it = result.artifacts.cbegin(); it != result.artifacts.cend(); ++it)
        QVERIFY2(it->path.startsWith(folder + u'/'), qPrintable(it.key() + u' ' + it->path));
    for (const PassDumpRef &dump : result.passDumps)
        QVERIFY2(dump.file.path.isEmpty() || dump.file.path.startsWith(folder + u'/'), qPrintable(dump.file.path));
}

// Loads the compile in `folder` and checks its PTX is the fixture's, not an empty file.
void expectReadsFixtureStages(const QString &folder, CompileResult *out = nullptr)
{
    Expected<CompileResult> result = readCompileResultFile(folder + QStringLiteral("/compile.json"));
    QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().toString()));
    QVERIFY2(loaded->problems.isEmpty(), qPrintable(loaded->problems.value(0).toString()));
    const StageListing *ptx = loaded->listing(QStringLiteral("ptx"));
    QVERIFY(ptx);
    QCOMPARE(ptx->lineCount(), readText(kFixture + QStringLiteral("/add_kernel.ptx")).count(u'\n'));
    QCOMPARE(loaded->sourceText, readText(kFixture + QStringLiteral("/source.py")));
    if (out)
        *out = *result;
}

} // namespace

class TestCompileFolder : public QObject {
    Q_OBJECT

private slots:
    void init();
    void copyReadsItsOwnFilesWhenTheOriginalIsGone();
    void oldAbsoluteCopyReadsTheCopyNotTheOriginal();
    void oldAbsoluteMovedFolderIsRead();
    void missingFromTheCopyIsReadFromTheOriginalWithAWarning();
    void goneAbsolutePathFallsBackToTheSameName();
    void changedFileIsAWarning();
    void writtenCompileJsonIsRelative();
    void plainTarballIsEnough();

private:
    QString original() const { return m_dir->filePath(QStringLiteral("original")); }
    QString copy() const { return m_dir->filePath(QStringLiteral("copy")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestCompileFolder::init()
{
    if (!QFile::exists(kFixture + QStringLiteral("/compile.json")))
        QSKIP("tests/fixtures/vector_add/aligned is missing");
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QVERIFY(copyFolder(kFixture, original()));
}

void TestCompileFolder::copyReadsItsOwnFilesWhenTheOriginalIsGone()
{
    QVERIFY(copyFolder(original(), copy()));
    QVERIFY(QDir(original()).removeRecursively());
    CompileResult result;
    expectReadsFixtureStages(copy(), &result);
    expectAllPathsUnder(result, copy());
    QCOMPARE(result.workDir, copy());
    QVERIFY2(result.warnings.isEmpty(), qPrintable(result.warnings.join(u'\n')));
}

void TestCompileFolder::oldAbsoluteCopyReadsTheCopyNotTheOriginal()
{
    makeAbsolute(original());
    QVERIFY(copyFolder(original(), copy()));
    emptyEveryFile(original());   // the original still exists: reading it would give empty stages
    CompileResult result;
    expectReadsFixtureStages(copy(), &result);
    expectAllPathsUnder(result, copy());
    QCOMPARE(result.workDir, copy());
    QCOMPARE(result.warnings.size(), 1);
    QVERIFY2(result.warnings[0].contains(QStringLiteral("records its folder as ") + original()),
             qPrintable(result.warnings[0]));
    QVERIFY(result.warnings[0].contains(copy() + QStringLiteral(", where it is now")));
}

void TestCompileFolder::oldAbsoluteMovedFolderIsRead()
{
    makeAbsolute(original());
    QVERIFY(QDir().rename(original(), copy()));
    CompileResult result;
    expectReadsFixtureStages(copy(), &result);
    expectAllPathsUnder(result, copy());
    QCOMPARE(result.warnings.size(), 1);
}

void TestCompileFolder::missingFromTheCopyIsReadFromTheOriginalWithAWarning()
{
    makeAbsolute(original());
    QVERIFY(copyFolder(original(), copy()));
    QVERIFY(QFile::remove(copy() + QStringLiteral("/add_kernel.ptx")));
    Expected<CompileResult> result = readCompileResultFile(copy() + QStringLiteral("/compile.json"));
    QVERIFY(result);
    QCOMPARE(result->artifacts.value(QStringLiteral("ptx")).path, original() + QStringLiteral("/add_kernel.ptx"));
    QCOMPARE(result->artifacts.value(QStringLiteral("ttgir")).path, copy() + QStringLiteral("/add_kernel.ttgir"));
    const QString warnings = result->warnings.join(u'\n');
    QVERIFY2(warnings.contains(QStringLiteral("1 file(s) missing from %1 were read from the original folder %2: %2/add_kernel.ptx")
                                   .arg(copy(), original())),
             qPrintable(warnings));
}

void TestCompileFolder::goneAbsolutePathFallsBackToTheSameName()
{
    // Absolute paths into a folder that is not the recorded work_dir and no longer exists.
    QJsonObject json = readJson(original() + QStringLiteral("/compile.json"));
    QJsonObject artifacts = json.value(QStringLiteral("artifacts")).toObject();
    QJsonObject ptx = artifacts.value(QStringLiteral("ptx")).toObject();
    ptx.insert(QStringLiteral("path"), QStringLiteral("/nonexistent/build-machine/add_kernel.ptx"));
    artifacts.insert(QStringLiteral("ptx"), ptx);
    json.insert(QStringLiteral("artifacts"), artifacts);
    QJsonArray dumps = json.value(QStringLiteral("pass_dumps")).toArray();
    QJsonObject first = dumps.at(0).toObject();
    const QString dumpName = QFileInfo(first.value(QStringLiteral("path")).toString()).fileName();
    first.insert(QStringLiteral("path"), QStringLiteral("/nonexistent/build-machine/passes/") + dumpName);
    dumps[0] = first;
    json.insert(QStringLiteral("pass_dumps"), dumps);
    writeJson(original() + QStringLiteral("/compile.json"), json);

    CompileResult result;
    expectReadsFixtureStages(original(), &result);
    QCOMPARE(result.artifacts.value(QStringLiteral("ptx")).path, original() + QStringLiteral("/add_kernel.ptx"));
    QCOMPARE(result.passDumps.at(0).file.path, original() + QStringLiteral("/passes/") + dumpName);
    QCOMPARE(result.warnings.size(), 1);
    QVERIFY2(result.warnings[0].contains(QStringLiteral("2 file(s) are no longer where compile.json says")),
             qPrintable(result.warnings[0]));
    QVERIFY(result.warnings[0].contains(QStringLiteral("/nonexistent/build-machine/add_kernel.ptx")));
}

void TestCompileFolder::changedFileIsAWarning()
{
    QFile ttgir(original() + QStringLiteral("/add_kernel.ttgir"));
    QVERIFY(ttgir.open(QIODevice::WriteOnly | QIODevice::Truncate));
    ttgir.close();
    Expected<CompileResult> result = readCompileResultFile(original() + QStringLiteral("/compile.json"));
    QVERIFY(result);
    QCOMPARE(result->warnings.size(), 1);
    QVERIFY2(result->warnings[0].contains(QStringLiteral("changed since the compile")), qPrintable(result->warnings[0]));
    QVERIFY(result->warnings[0].contains(QStringLiteral("ttgir (%1): 0 bytes, compile.json records ").arg(ttgir.fileName())));
}

void TestCompileFolder::writtenCompileJsonIsRelative()
{
    makeAbsolute(original());
    Expected<CompileResult> absolute = readCompileResultFile(original() + QStringLiteral("/compile.json"));
    QVERIFY(absolute);
    absolute->artifacts.insert(QStringLiteral("elsewhere"), {QStringLiteral("/opt/other/file.txt"), 1, {}});
    QCOMPARE(writeCompileResultFile(*absolute, original()), QString());
    const QJsonObject json = readJson(original() + QStringLiteral("/compile.json"));
    QCOMPARE(json.value(QStringLiteral("work_dir")).toString(), QStringLiteral("."));
    QCOMPARE(json.value(QStringLiteral("source_path")).toString(), QStringLiteral("/tmp/strata-fixture-src/vector_add.py"));
    const QJsonObject artifacts = json.value(QStringLiteral("artifacts")).toObject();
    QCOMPARE(artifacts.value(QStringLiteral("ptx")).toObject().value(QStringLiteral("path")).toString(),
             QStringLiteral("add_kernel.ptx"));
    QCOMPARE(artifacts.value(QStringLiteral("elsewhere")).toObject().value(QStringLiteral("path")).toString(),
             QStringLiteral("/opt/other/file.txt"));
    const QString dumpPath = json.value(QStringLiteral("pass_dumps")).toArray().at(0).toObject().value(QStringLiteral("path")).toString();
    QVERIFY2(dumpPath.startsWith(QStringLiteral("passes/")), qPrintable(dumpPath));
    QVERIFY(!QFile::exists(original() + QStringLiteral("/.compile.json.tmp")));
}

void TestCompileFolder::plainTarballIsEnough()
{
    const QString tar = QStandardPaths::findExecutable(QStringLiteral("tar"));
    if (tar.isEmpty())
        QSKIP("no tar on this machine");
    const QString archive = m_dir->filePath(QStringLiteral("compile.tar.gz"));
    QCOMPARE(QProcess::execute(tar, {QStringLiteral("czf"), archive, QStringLiteral("-C"), m_dir->path(),
                                     QStringLiteral("original")}), 0);
    QVERIFY(QDir(original()).removeRecursively());
    const QString unpacked = m_dir->filePath(QStringLiteral("elsewhere"));
    QVERIFY(QDir().mkpath(unpacked));
    QCOMPARE(QProcess::execute(tar, {QStringLiteral("xzf"), archive, QStringLiteral("-C"), unpacked}), 0);
    CompileResult result;
    expectReadsFixtureStages(unpacked + QStringLiteral("/original"), &result);
    QVERIFY(result.warnings.isEmpty());
}

QTEST_GUILESS_MAIN(TestCompileFolder)
#include "tst_compile_folder.moc"
