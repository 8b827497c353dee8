// The location map over several stages of real triton 3.6.0 fixtures: source line -> per-stage
// lines, IR line -> source line, siblings, and helper-file frames landing on the kernel's line.
#include "../ir/native/FixtureSupport.h"
#include "ir/StageReader.h"
#include "ir/llvm/LlvmIrReader.h"
#include "ir/ptx/PtxReader.h"
#include "ir/sass/SassReader.h"
#include "locmap/LocationMap.h"

#include <QtTest>

using namespace strata;
using namespace strata::testing;

class TestLocationMap : public QObject {
    Q_OBJECT

private:
    struct Stages {
        StageListing llir, ptx, sass;
    };

    static Stages readStages(const Fixture &fixture)
    {
        Stages stages;
        const auto llir = ir::readLlvmIrListing(readText(fixture.artifact(QStringLiteral(".llir"))));
        const auto ptx = ir::readPtxListing(readText(fixture.artifact(QStringLiteral(".ptx"))));
        const auto sass = ir::readSassListing(readText(fixture.artifact(QStringLiteral(".sass"))));
        if (llir && ptx && sass)
            stages = Stages{*llir, *ptx, *sass};
        return stages;
    }

    static LocationMap mapOf(const Fixture &fixture, const Stages &stages)
    {
        LocationMap map(fixture.kernelFile);
        map.addStage(stages.llir);
        map.addStage(stages.ptx);
        map.addStage(stages.sass);
        return map;
    }

    static QSet<QString> opcodesOf(const StageListing &listing, const QVector<int> &lines)
    {
        QSet<QString> opcodes;
        for (int line : lines)
            opcodes.insert(listing.lines[line].opcode);
        return opcodes;
    }

private slots:
    void sourceLineToEveryStage()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        QVERIFY(fixture.isValid());
        const Stages stages = readStages(fixture);
        const LocationMap map = mapOf(fixture, stages);
        QCOMPARE(map.stages(), (QStringList{QStringLiteral("llir"), QStringLiteral("ptx"), QStringLiteral("sass")}));
        const int xLoad = fixture.lineOf(QStringLiteral("x = tl.load("));
        const QVector<int> ptxLines = map.linesForSource(QStringLiteral("ptx"), xLoad);
        const QVector<int> sassLines = map.linesForSource(QStringLiteral("sass"), xLoad);
        QVERIFY(std::is_sorted(ptxLines.cbegin(), ptxLines.cend()));
        QVERIFY(opcodesOf(stages.ptx, ptxLines).contains(QStringLiteral("ld.global.v4.b32")));
        QVERIFY(opcodesOf(stages.sass, sassLines).contains(QStringLiteral("LDG.E.128")));
        QVERIFY(opcodesOf(stages.llir, map.linesForSource(QStringLiteral("llir"), xLoad)).contains(QStringLiteral("call")));
        QVERIFY(map.linesForSource(QStringLiteral("ptx"), 1).isEmpty());  // the docstring has no code
        QVERIFY(map.linesForSource(QStringLiteral("nope"), xLoad).isEmpty());
    }

    void irLineToSourceAndSiblings()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const Stages stages = readStages(fixture);
        const LocationMap map = mapOf(fixture, stages);
        const int xLoad = fixture.lineOf(QStringLiteral("x = tl.load("));
        int load = -1;
        for (int i = 0; i < stages.ptx.lineCount() && load < 0; ++i) {
            if (stages.ptx.lines[i].opcode == QLatin1String("ld.global.v4.b32"))
                load = i;
        }
        QVERIFY(load >= 0);
        const SourceLocation source = map.sourceForLine(QStringLiteral("ptx"), load);
        QCOMPARE(source.file, fixture.kernelFile);
        QCOMPARE(source.line, xLoad);
        QVERIFY(source.column > 0);
        const QVector<int> siblings = map.siblingLines(QStringLiteral("ptx"), load);
        QVERIFY(siblings.contains(load));
        QCOMPARE(siblings, map.linesForSource(QStringLiteral("ptx"), xLoad));
        // A directive line has no source; neither has a line past the end.
        QVERIFY(!map.sourceForLine(QStringLiteral("ptx"), 0).isValid());
        QVERIFY(!map.sourceForLine(QStringLiteral("ptx"), stages.ptx.lineCount() + 5).isValid());
        QVERIFY(map.siblingLines(QStringLiteral("ptx"), 0).isEmpty());
        // SASS knows lines only.
        const QVector<int> sassLines = map.linesForSource(QStringLiteral("sass"), xLoad);
        QVERIFY(!sassLines.isEmpty());
        QCOMPARE(map.sourceForLine(QStringLiteral("sass"), sassLines.first()).column, 0);
    }

    void sourceLinesWithCode()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const LocationMap map = mapOf(fixture, readStages(fixture));
        const QVector<int> ptxLines = map.sourceLinesWithCode(QStringLiteral("ptx"));
        for (const QString &code : {QStringLiteral("x = tl.load("), QStringLiteral("y = tl.load("),
                                    QStringLiteral("tl.store("), QStringLiteral("output = x + y")})
            QVERIFY2(ptxLines.contains(fixture.lineOf(code)), qPrintable(code));
        QVERIFY(!ptxLines.contains(fixture.lineOf(QStringLiteral("import triton"))));
        QVERIFY(std::is_sorted(ptxLines.cbegin(), ptxLines.cend()));
        const QVector<int> all = map.sourceLinesWithCode();
        for (int line : ptxLines)
            QVERIFY(all.contains(line));
    }

    void helperFramesLandOnTheKernelLine()
    {
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        Stages stages = readStages(fixture);
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        ir::adoptCallSitesFromPtx(stages.sass, stages.ptx);
        const LocationMap map = mapOf(fixture, stages);
        QVERIFY(opcodesOf(stages.ptx, map.linesForSource(QStringLiteral("ptx"), sumLine)).contains(QStringLiteral("shfl.sync.bfly.b32")));
        QVERIFY(opcodesOf(stages.sass, map.linesForSource(QStringLiteral("sass"), sumLine)).contains(QStringLiteral("SHFL.BFLY")));
        QVERIFY(opcodesOf(stages.llir, map.linesForSource(QStringLiteral("llir"), sumLine)).contains(QStringLiteral("fadd")));
        for (int i = 0; i < stages.ptx.lineCount(); ++i) {
            const ListingLine &line = stages.ptx.lines[i];
            if (line.kind == LineKind::Instruction && !line.frames.isEmpty()
                && line.frames.first().file.endsWith(QLatin1String("standard.py")))
                QCOMPARE(map.sourceForLine(QStringLiteral("ptx"), i).line, sumLine);
        }
    }

    void bareKernelFileNameMatches()
    {
        // SASS-style base names: a map keyed on "row_sum.py" finds the same lines.
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const Stages stages = readStages(fixture);
        LocationMap byName(QStringLiteral("row_sum.py"));
        byName.addStage(stages.ptx);
        const LocationMap byPath = mapOf(fixture, stages);
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        QCOMPARE(byName.linesForSource(QStringLiteral("ptx"), sumLine), byPath.linesForSource(QStringLiteral("ptx"), sumLine));
        QVERIFY(!byName.linesForSource(QStringLiteral("ptx"), sumLine).isEmpty());
    }

    void replacingAStageKeepsOneEntry()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("unaligned"));
        const Stages stages = readStages(fixture);
        LocationMap map = mapOf(fixture, stages);
        map.addStage(stages.ptx);
        QCOMPARE(map.stages().count(QStringLiteral("ptx")), 1);
        const int xLoad = fixture.lineOf(QStringLiteral("x = tl.load("));
        QVERIFY(opcodesOf(stages.ptx, map.linesForSource(QStringLiteral("ptx"), xLoad)).contains(QStringLiteral("ld.global.b32")));
    }

    void allStagesThroughTheStageReader()
    {
        const Fixture fixture = loadFixture(QStringLiteral("matmul"), QStringLiteral("default"));
        LocationMap map(fixture.kernelFile);
        const struct { StageFormat format; const char *id; const char *suffix; } stages[] = {
            {StageFormat::MlirText, "ttir", ".ttir"}, {StageFormat::MlirText, "ttgir", ".ttgir"},
            {StageFormat::LlvmIr, "llir", ".llir"}, {StageFormat::Ptx, "ptx", ".ptx"},
            {StageFormat::Sass, "sass", ".sass"}};
        QHash<QString, StageListing> listings;
        for (const auto &stage : stages) {
            const auto listing = ir::readStageFile(stage.format, QString::fromLatin1(stage.id),
                                                   fixture.artifact(QString::fromLatin1(stage.suffix)));
            QVERIFY2(listing, listing ? "" : qPrintable(listing.error().toString()));
            map.addStage(*listing);
            listings.insert(listing->stage, *listing);
        }
        const auto source = ir::readStageFile(StageFormat::PythonSource, QStringLiteral("source"), fixture.dir + QStringLiteral("/source.py"));
        const int dotLine = fixture.lineOf(QStringLiteral("tl.dot("));
        QVERIFY(anyStartsWith(opcodesOf(listings.value(QStringLiteral("ttgir")), map.linesForSource(QStringLiteral("ttgir"), dotLine)),
                              QStringLiteral("ttng.warp_group_dot")));
        QVERIFY(anyStartsWith(opcodesOf(listings.value(QStringLiteral("ptx")), map.linesForSource(QStringLiteral("ptx"), dotLine)),
                              QStringLiteral("wgmma.mma_async")));
        QVERIFY(anyStartsWith(opcodesOf(listings.value(QStringLiteral("sass")), map.linesForSource(QStringLiteral("sass"), dotLine)),
                              QStringLiteral("HGMMA.")));
        QVERIFY(source);
        QCOMPARE(source->lines[dotLine - 1].text.trimmed(), QStringLiteral("accumulator = tl.dot(a, b, accumulator)"));
    }
};

QTEST_GUILESS_MAIN(TestLocationMap)
#include "tst_location_map.moc"
