// The one entry point over every stage format: dispatch, stage ids, Python source and plain text,
// and errors for files that are missing or unreadable.
#include "FixtureSupport.h"
#include "ir/StageReader.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::testing;

Q_DECLARE_METATYPE(strata::StageFormat)

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
            QVERIFY2(listing->problems.isEmpty(), qPrintable(listing->problems.value(0).toString()));
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
        QCOMPARE(listing.error().kind, ProblemKind::Missing);
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
        QCOMPARE(listing.error().kind, ProblemKind::Unreadable);
    }

    // Small texts in each format, sound or damaged one way: refused with their kind, or read
    // with it among the listing's problems.
    void damagedTextHasItsKind_data()
    {
        QTest::addColumn<StageFormat>("format");
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");      // -1: a sound stage
        QTest::addColumn<bool>("refused");
        const QString ptxHead = QStringLiteral(".version 8.7\n.target sm_90a\n.address_size 64\n");
        const QString ptxBody = QStringLiteral(".visible .entry k(\n\t.param .u64 k_param_0\n)\n{\n\t.reg .b32 %r<3>;\n"
                                               "\tmov.u32 %r1, 0;\n\tret;\n}\n");
        const QString sass = QStringLiteral("\t.section\t.text.k,\"ax\",@progbits\n\t.size\tk,(.L_x_1 - k)\nk:\n"
                                            "        /*0000*/                   EXIT ;\n.L_x_1:\n");
        const QString mlir = QStringLiteral("module {\n  tt.func public @k() {\n    tt.return loc(#loc1)\n  } loc(#loc)\n} loc(#loc)\n"
                                            "#loc = loc(\"/p/k.py\":1:0)\n#loc1 = loc(\"/p/k.py\":2:4)\n");
        const QString llvm = QStringLiteral("define void @k() {\n  ret void\n}\n");
        const auto row = [](const char *name, StageFormat format, const QString &text, int kind, bool refused) {
            QTest::newRow(name) << format << text << kind << refused;
        };
        const int sound = -1;
        row("ptx sound", StageFormat::Ptx, ptxHead + ptxBody, sound, false);
        row("ptx without .target", StageFormat::Ptx, QStringLiteral(".version 8.7\n") + ptxBody, int(ProblemKind::NotAStage), true);
        row("ptx header only", StageFormat::Ptx, ptxHead, int(ProblemKind::Truncated), true);
        row("ptx cut before the body", StageFormat::Ptx, ptxHead + QStringLiteral(".visible .entry k(\n"), int(ProblemKind::Truncated), true);
        row("ptx body never closes", StageFormat::Ptx, ptxHead + ptxBody.chopped(2), int(ProblemKind::Truncated), true);
        row("ptx prototype over lines", StageFormat::Ptx,
            ptxHead + QStringLiteral(".extern .func (.param .b32 r) vprintf\n(\n\t.param .b64 a\n)\n;\n") + ptxBody, sound, false);
        row("ptx junk in the body", StageFormat::Ptx, ptxHead + QString(ptxBody).replace(QStringLiteral("\tret;"), QStringLiteral("\tRET NOW\n\tret;")),
            int(ProblemKind::JunkLines), false);
        row("ptx junk outside a body", StageFormat::Ptx, ptxHead + QStringLiteral("hello world;\n") + ptxBody, int(ProblemKind::JunkLines), false);
        row("sass sound", StageFormat::Sass, sass, sound, false);
        row("sass without a section", StageFormat::Sass, QStringLiteral("        /*0000*/                   EXIT ;\n"),
            int(ProblemKind::NotAStage), true);
        row("sass before its end label", StageFormat::Sass, sass.left(sass.indexOf(QLatin1String(".L_x_1:"))), int(ProblemKind::Truncated), true);
        row("sass malformed address", StageFormat::Sass, QString(sass).replace(QStringLiteral("/*0000*/"), QStringLiteral("/*zz*/")),
            int(ProblemKind::Syntax), true);
        row("mlir sound", StageFormat::MlirText, mlir, sound, false);
        row("mlir empty", StageFormat::MlirText, QStringLiteral("\n \n"), int(ProblemKind::Empty), true);
        row("mlir passwd", StageFormat::MlirText, QStringLiteral("root:x:0:0:root:/root:/bin/bash\n"), int(ProblemKind::NotAStage), true);
        row("mlir no terminator", StageFormat::MlirText, QString(mlir).replace(QStringLiteral("tt.return"), QStringLiteral("tt.print")),
            int(ProblemKind::Truncated), true);
        row("mlir cut in a region", StageFormat::MlirText, mlir.left(mlir.indexOf(QLatin1String("  }"))), int(ProblemKind::Truncated), true);
        row("mlir cut in the #loc table", StageFormat::MlirText, mlir.left(mlir.lastIndexOf(QLatin1String("#loc1 ="))),
            int(ProblemKind::Truncated), true);
        row("mlir stray op after the module", StageFormat::MlirText, mlir + QStringLiteral("stray words here\n"), int(ProblemKind::JunkLines), false);
        row("llvm sound", StageFormat::LlvmIr, llvm, sound, false);
        row("llvm prose", StageFormat::LlvmIr, QStringLiteral("Just words, nothing else.\n"), int(ProblemKind::NotAStage), true);
        row("llvm declarations only", StageFormat::LlvmIr, QStringLiteral("target triple = \"nvptx64-nvidia-cuda\"\ndeclare void @f()\n"),
            int(ProblemKind::Truncated), true);
        row("llvm cut in a function", StageFormat::LlvmIr, QStringLiteral("define void @k() {\n  ret void\n"), int(ProblemKind::Truncated), true);
        row("llvm bad instruction", StageFormat::LlvmIr, QStringLiteral("define void @k() {\n  frob i32 1\n  ret void\n}\n"),
            int(ProblemKind::Syntax), true);
    }

    void damagedTextHasItsKind()
    {
        QFETCH(StageFormat, format);
        QFETCH(QString, text);
        QFETCH(int, kind);
        QFETCH(bool, refused);
        const auto listing = ir::readStageText(format, QStringLiteral("s"), text, QStringLiteral("/c/k.s"));
        if (refused) {
            QVERIFY2(!listing, "read, but should have been refused");
            QVERIFY2(int(listing.error().kind) == kind, qPrintable(problemKindName(listing.error().kind) + QStringLiteral(": ") + listing.error().toString()));
            QCOMPARE(listing.error().file, QStringLiteral("/c/k.s"));
            return;
        }
        QVERIFY2(listing, qPrintable(listing ? QString() : listing.error().toString()));
        if (kind < 0) {
            QVERIFY2(listing->problems.isEmpty(), qPrintable(listing->problems.value(0).toString()));
            return;
        }
        QCOMPARE(listing->problems.size(), 1);
        QCOMPARE(int(listing->problems.first().kind), kind);
        for (const ListingLine &line : listing->lines) {  // junk is shown, never an instruction
            if (line.text.contains(QLatin1String("RET NOW")) || line.text.contains(QLatin1String("hello"))
                || line.text.contains(QLatin1String("stray")))
                QCOMPARE(line.kind, LineKind::Other);
        }
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
