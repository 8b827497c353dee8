// The one entry point over every stage format: dispatch, stage ids, Python source and plain text,
// and errors for files that are missing or unreadable.
#include "FixtureSupport.h"
#include "ir/StageReader.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::testing;

class TestStageReader : public QObject {
    Q_OBJECT

private slots:
    void everyFixtureStageReads_data()
    {
        QTest::addColumn<QString>("fixture");
        for (const QString &fixture : allFixtures())
            QTest::newRow(qPrintable(fixture)) << fixture;
        QVERIFY(allFixtures().size() >= 8);
    }

    void everyFixtureStageReads()
    {
        QFETCH(QString, fixture);
        const Fixture f = loadFixture(fixture.section(u'/', 0, 0), fixture.section(u'/', 1, 1));
        // SASS names helper code (tl.sum, tl.max in triton/language) by the helper's line alone.
        const struct { StageFormat format; const char *id; const char *suffix; const char *firstOpcode; int minPercentInKernel; } stages[] = {
            {StageFormat::LlvmIr, "llir", ".llir", nullptr, 80},
            {StageFormat::Ptx, "ptx", ".ptx", "ld.param.", 80},
            {StageFormat::Sass, "sass", ".sass", "LDC", 60},
        };
        for (const auto &stage : stages) {
            const QString path = f.artifact(QString::fromLatin1(stage.suffix));
            const Expected<StageListing> listing = ir::readStageFile(stage.format, QString::fromLatin1(stage.id), path);
            QVERIFY2(listing, listing ? "" : qPrintable(listing.error().toString()));
            QCOMPARE(listing->stage, QString::fromLatin1(stage.id));
            QCOMPARE(listing->path, path);
            QCOMPARE(listing->lineCount(), readText(path).count(u'\n'));
            // Most instructions of every stage lead back to a line of the kernel file.
            int instructions = 0, inKernel = 0;
            QString first;
            for (const ListingLine &line : listing->lines) {
                if (line.kind != LineKind::Instruction)
                    continue;
                if (first.isEmpty())
                    first = line.opcode;
                ++instructions;
                inKernel += frameInFile(line.frames, f.kernelFile).isValid();
            }
            QVERIFY2(inKernel * 100 >= instructions * stage.minPercentInKernel,
                     qPrintable(QStringLiteral("%1: %2 of %3").arg(path).arg(inKernel).arg(instructions)));
            if (stage.firstOpcode)
                QVERIFY2(first.startsWith(QLatin1String(stage.firstOpcode)), qPrintable(first));
        }
    }

    void stageIdComesFromTheCaller()
    {
        const Fixture f = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const auto listing = ir::readStageText(StageFormat::Ptx, QStringLiteral("ptx-after-ptxas"),
                                               readText(f.artifact(QStringLiteral(".ptx"))));
        QVERIFY(listing);
        QCOMPARE(listing->stage, QStringLiteral("ptx-after-ptxas"));
    }

    void mlirStagesDispatchToTheMlirReader()
    {
        const Fixture f = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const auto listing = ir::readStageFile(StageFormat::MlirText, QStringLiteral("ttgir"), f.artifact(QStringLiteral(".ttgir")));
        QVERIFY2(listing, listing ? "" : qPrintable(listing.error().toString()));
        const QSet<QString> loads = opcodesAtSourceLine(*listing, f.kernelFile, f.lineOf(QStringLiteral("x = tl.load(")));
        QVERIFY(loads.contains(QStringLiteral("tt.load")));
    }

    void pythonSourceLinesAreTheirOwnLocations()
    {
        const Fixture f = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const QString path = f.dir + QStringLiteral("/source.py");
        const auto listing = ir::readStageFile(StageFormat::PythonSource, QStringLiteral("source"), path);
        QVERIFY(listing);
        QCOMPARE(listing->lineCount(), f.sourceLines.size() - (f.sourceLines.last().isEmpty() ? 1 : 0));
        const int xLoad = f.lineOf(QStringLiteral("x = tl.load("));
        STRATA_COMPARE_LOCATION(listing->lines[xLoad - 1].frames, (LocationChain{SourceLocation{path, xLoad, 0}}));
        QCOMPARE(listing->lines[xLoad - 1].kind, LineKind::Other);
        QCOMPARE(listing->lines[0].kind == LineKind::Other || listing->lines[0].kind == LineKind::Comment, true);
    }

    void plainTextHasNoLocations()
    {
        const auto listing = ir::readStageText(StageFormat::PlainText, QStringLiteral("log"),
                                               QStringLiteral("ptxas info : Used 40 registers\n\nwarning\n"));
        QVERIFY(listing);
        QCOMPARE(listing->lineCount(), 3);
        QCOMPARE(listing->lines[1].kind, LineKind::Blank);
        for (const ListingLine &line : listing->lines)
            QVERIFY(line.frames.isEmpty());
    }

    void missingFileIsNamed()
    {
        const QString path = QStringLiteral("/nonexistent/strata/k.ptx");
        const auto listing = ir::readStageFile(StageFormat::Ptx, QStringLiteral("ptx"), path);
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, path);
        QVERIFY(listing.error().message.contains(QLatin1String("does not exist")));
    }

    void unreadableFileIsNamed()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("a-directory.sass"));
        QVERIFY(QDir().mkpath(path));  // exists, but cannot be read as a file
        const auto listing = ir::readStageFile(StageFormat::Sass, QStringLiteral("sass"), path);
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, path);
        QVERIFY(listing.error().message.contains(QLatin1String("cannot read")));
    }

    void readerErrorsKeepTheirLine()
    {
        const auto listing = ir::readStageText(StageFormat::LlvmIr, QStringLiteral("llir"),
                                               QStringLiteral("define void @k() {\n  frob i32 1\n}\n"), QStringLiteral("k.llir"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().line, 2);
        QCOMPARE(listing.error().file, QStringLiteral("k.llir"));
    }
};

QTEST_GUILESS_MAIN(TestStageReader)
#include "tst_stage_reader.moc"
