// strata-cli on a damaged copy of a real compile folder (tests/fixtures/matmul/default): the
// damaged stage is named, with its file and problem kind, in `map` (which refuses to print a
// refused stage as IR), `map --locations` and `diagnose` (JSON "warnings" and "Warning:" lines),
// and the diagnosis gains no high finding from it.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include "../support/CliRun.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kCli = QStringLiteral(STRATA_CLI_PATH);
const QString kFixture = QStringLiteral(STRATA_FIXTURES_DIR "/matmul/default");

using Run = strata::testing::CliRun;
using strata::testing::describe;

Run runCli(const QStringList &args)
{
    return strata::testing::runProgram(kCli, args, 120000);
}

// A copy of the fixture folder (its compile.json names artifacts relative to it).
bool copyFixture(const QString &to)
{
    QDirIterator it(kFixture, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString from = it.next();
        const QString target = to + QLatin1Char('/') + QDir(kFixture).relativeFilePath(from);
        if (!QDir().mkpath(QFileInfo(target).path()) || !QFile::copy(from, target))
            return false;
    }
    return true;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// The machine's own /etc/passwd when it has one (what the probe of issue 20 fed), else its shape.
QByteArray passwdText()
{
    QFile file(QStringLiteral("/etc/passwd"));
    if (file.open(QIODevice::ReadOnly)) {
        const QByteArray text = file.readAll();
        if (text.startsWith("root:"))
            return text;
    }
    return "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n";
}

QJsonObject parseJson(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).object();
}

QStringList highFindings(const QJsonObject &diagnosis)
{
    QStringList high;
    for (const QJsonValue &level : diagnosis.value(QStringLiteral("levels")).toArray()) {
        for (const QJsonValue &finding : level.toObject().value(QStringLiteral("findings")).toArray()) {
            if (finding.toObject().value(QStringLiteral("severity")).toString() == QLatin1String("high"))
                high << finding.toObject().value(QStringLiteral("title")).toString();
        }
    }
    return high;
}

} // namespace

class TestDegradedCli : public QObject {
    Q_OBJECT
private slots:
    void passwdAsTtgirIsRefusedByName();
    void locationsThatPointElsewhereAreCounted();
};

void TestDegradedCli::passwdAsTtgirIsRefusedByName()
{
    QTemporaryDir dir;
    QVERIFY(copyFixture(dir.path()));
    const QString ttgir = dir.filePath(QStringLiteral("matmul_kernel.ttgir"));
    QVERIFY(writeFile(ttgir, passwdText()));

    // map --ir on the refused stage: an error naming the file and the kind, never its text as IR.
    const Run ir = runCli({QStringLiteral("map"), dir.path(), QStringLiteral("--ir"), QStringLiteral("ttgir:1")});
    QCOMPARE(ir.exitCode, 2);
    QVERIFY2(!ir.out.contains(QStringLiteral("root:x:")), qPrintable(describe(ir)));
    QVERIFY2(ir.err.contains(ttgir) && ir.err.contains(QStringLiteral("not-a-stage")), qPrintable(describe(ir)));

    // map --line --json carries the problem, typed.
    const Run line = runCli({QStringLiteral("map"), dir.path(), QStringLiteral("--line"), QStringLiteral("37"), QStringLiteral("--json")});
    QVERIFY2(line.exitCode == 0, qPrintable(describe(line)));
    const QJsonArray warnings = parseJson(line.out).value(QStringLiteral("warnings")).toArray();
    QCOMPARE(warnings.size(), 1);
    const QJsonObject warning = warnings.first().toObject();
    QCOMPARE(warning.value(QStringLiteral("stage")).toString(), QStringLiteral("ttgir"));
    QCOMPARE(warning.value(QStringLiteral("kind")).toString(), QStringLiteral("not-a-stage"));
    QVERIFY(warning.value(QStringLiteral("refused")).toBool());
    QCOMPARE(warning.value(QStringLiteral("file")).toString(), ttgir);

    // diagnose: JSON warnings and text "Warning:" lines; nothing high from the stand-in.
    const Run json = runCli({QStringLiteral("diagnose"), dir.path(), QStringLiteral("--json"), QStringLiteral("-")});
    QVERIFY2(json.exitCode == 0, qPrintable(describe(json)));
    const QJsonObject diagnosis = parseJson(json.out);
    const QStringList jsonWarnings = diagnosis.value(QStringLiteral("warnings")).toVariant().toStringList();
    QVERIFY2(jsonWarnings.filter(QStringLiteral("ttgir not read (not-a-stage): ") + ttgir).size() == 1,
             qPrintable(jsonWarnings.join(u'\n')));
    QVERIFY2(highFindings(diagnosis).isEmpty(), qPrintable(highFindings(diagnosis).join(u'\n')));
    const Run text = runCli({QStringLiteral("diagnose"), dir.path()});
    QVERIFY2(text.exitCode == 0, qPrintable(describe(text)));
    QVERIFY2(text.out.contains(QStringLiteral("Warning: ttgir not read (not-a-stage): ") + ttgir), qPrintable(describe(text)));
}

void TestDegradedCli::locationsThatPointElsewhereAreCounted()
{
    QTemporaryDir dir;
    QVERIFY(copyFixture(dir.path()));
    const QString ttgir = dir.filePath(QStringLiteral("matmul_kernel.ttgir"));
    QFile original(ttgir);
    QVERIFY(original.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(original.readAll());
    original.close();
    text.replace(QStringLiteral("\"/tmp/strata-fixture-src/matmul.py\""), QStringLiteral("\"/nonexistent/matmul.py\""));
    QVERIFY(writeFile(ttgir, text.toUtf8()));

    const Run run = runCli({QStringLiteral("map"), dir.path(), QStringLiteral("--locations"), QStringLiteral("--json")});
    QVERIFY2(run.exitCode == 0, qPrintable(describe(run)));
    const QJsonObject json = parseJson(run.out);
    QJsonObject ttgirStats, ttirStats;
    for (const QJsonValue &stage : json.value(QStringLiteral("stages")).toArray()) {
        if (stage.toObject().value(QStringLiteral("stage")) == QLatin1String("ttgir"))
            ttgirStats = stage.toObject();
        if (stage.toObject().value(QStringLiteral("stage")) == QLatin1String("ttir"))
            ttirStats = stage.toObject();
    }
    QCOMPARE(ttgirStats.value(QStringLiteral("mapped")).toInt(), 0);
    QVERIFY(ttgirStats.value(QStringLiteral("missing_file")).toInt() > 100);
    QCOMPARE(ttgirStats.value(QStringLiteral("ops")).toInt(),
             ttgirStats.value(QStringLiteral("missing_file")).toInt() + ttgirStats.value(QStringLiteral("no_location")).toInt());
    QVERIFY(ttirStats.value(QStringLiteral("mapped")).toInt() > 0);  // the other stages still map
    const QJsonArray warnings = json.value(QStringLiteral("warnings")).toArray();
    QCOMPARE(warnings.size(), 1);
    QCOMPARE(warnings.first().toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("no-mapped-lines"));
    QVERIFY(!warnings.first().toObject().value(QStringLiteral("refused")).toBool());
    QVERIFY2(run.err.contains(QStringLiteral("ttgir degraded (no-mapped-lines)")), qPrintable(describe(run)));
}

QTEST_GUILESS_MAIN(TestDegradedCli)
#include "tst_degraded_cli.moc"
