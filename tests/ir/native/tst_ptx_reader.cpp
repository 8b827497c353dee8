// PTX reader on real triton 3.6.0 output: `.loc` locations carried to instructions, full dotted
// mnemonics without predicates, inlined frames from both `.loc` forms, and errors for PTX that
// names files it never defines.
#include "FixtureSupport.h"
#include "ir/ptx/PtxReader.h"

#include <QtTest>

using namespace strata;
using namespace strata::testing;

class TestPtxReader : public QObject {
    Q_OBJECT

private:
    static ir::PtxModule readFixture(const Fixture &fixture)
    {
        const QString path = fixture.artifact(QStringLiteral(".ptx"));
        Expected<ir::PtxModule> module = ir::readPtxModule(readText(path), path);
        if (!module)
            qWarning() << module.error().toString();
        return module ? std::move(*module) : ir::PtxModule{};
    }

    static int indexOfLine(const QStringList &lines, const QString &needle, int from = 0)
    {
        for (int i = from; i < lines.size(); ++i) {
            if (lines[i].contains(needle))
                return i;
        }
        return -1;
    }

private slots:
    void unalignedLoadsAreScalar()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("unaligned"));
        QVERIFY(fixture.isValid());
        const ir::PtxModule module = readFixture(fixture);
        for (const QString &load : {QStringLiteral("x = tl.load("), QStringLiteral("y = tl.load(")}) {
            const QSet<QString> opcodes = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(load));
            QVERIFY2(opcodes.contains(QStringLiteral("ld.global.b32")), qPrintable(opcodes.values().join(u' ')));
            QVERIFY(!opcodes.contains(QStringLiteral("ld.global.v4.b32")));
        }
    }

    void alignedLoadsAreVectors()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const ir::PtxModule module = readFixture(fixture);
        for (const QString &load : {QStringLiteral("x = tl.load("), QStringLiteral("y = tl.load(")}) {
            const QSet<QString> opcodes = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(load));
            QVERIFY2(opcodes.contains(QStringLiteral("ld.global.v4.b32")), qPrintable(opcodes.values().join(u' ')));
            QVERIFY(!opcodes.contains(QStringLiteral("ld.global.b32")));
        }
        const QSet<QString> stores = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(QStringLiteral("tl.store(")));
        QVERIFY(stores.contains(QStringLiteral("st.global.v4.b32")));
    }

    void predicateIsNotPartOfTheOpcode()
    {
        const ir::PtxModule module = readFixture(loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned")));
        int predicatedLoads = 0;
        for (const ir::PtxInstruction &inst : module.instructions) {
            QVERIFY(!inst.opcode.startsWith(QLatin1Char('@')));
            if (inst.opcode == QLatin1String("ld.global.v4.b32") && inst.predicate.startsWith(QLatin1String("@%p"))) {
                ++predicatedLoads;
                QVERIFY(module.listing.lines[inst.line].text.contains(inst.predicate + QLatin1String(" ld.global.v4.b32")));
            }
        }
        QCOMPARE(predicatedLoads, 4);  // x and y, two 4-wide vectors each per thread
    }

    void moduleHeaderFilesAndFunctions()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const ir::PtxModule module = readFixture(fixture);
        QCOMPARE(module.version, QStringLiteral("8.7"));
        QCOMPARE(module.target, QStringLiteral("sm_90a"));
        QCOMPARE(module.files.value(1), fixture.kernelFile);
        QCOMPARE(module.functions.size(), 1);
        QCOMPARE(module.functions.first().name, QStringLiteral("add_kernel"));
        QVERIFY(module.functions.first().isEntry);
        QCOMPARE(module.listing.lines[module.functions.first().headerLine].kind, LineKind::Label);
        QCOMPARE(module.listing.lines[module.functions.first().bodyEndLine].text.trimmed(), QStringLiteral("}"));
        for (const ir::PtxInstruction &inst : module.instructions)
            QCOMPARE(inst.functionIndex, 0);
        QCOMPARE(module.instructions.last().opcode, QStringLiteral("ret"));
    }

    void dotIsWgmmaAndLoadsArePipelined()
    {
        const Fixture fixture = loadFixture(QStringLiteral("matmul"), QStringLiteral("default"));
        const ir::PtxModule module = readFixture(fixture);
        const QSet<QString> dot = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(QStringLiteral("tl.dot(")));
        QVERIFY(dot.contains(QStringLiteral("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16")));
        const QSet<QString> loadA = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(QStringLiteral("a = tl.load(")));
        QVERIFY(loadA.contains(QStringLiteral("cp.async.cg.shared.global")));

        // Runtime strides: still wgmma, but the pipeliner skipped the loads (no cp.async at all).
        const Fixture strided = loadFixture(QStringLiteral("matmul"), QStringLiteral("runtime_strides"));
        const ir::PtxModule stridedModule = readFixture(strided);
        QVERIFY(anyStartsWith(opcodesAtSourceLine(stridedModule.listing, strided.kernelFile, strided.lineOf(QStringLiteral("tl.dot("))),
                              QStringLiteral("wgmma.mma_async")));
        for (const ir::PtxInstruction &inst : stridedModule.instructions)
            QVERIFY(!inst.opcode.startsWith(QLatin1String("cp.async")));
    }

    void commentChainGivesInlinedFrames()
    {
        // Triton's line-tables-only PTX: `.loc 2 263 15  // standard.py:263:15 @[ standard.py:293:36 @[ row_sum.py:17:19 ] ]`
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const ir::PtxModule module = readFixture(fixture);
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        int deepest = 0, inlined = 0;
        for (const ListingLine &line : module.listing.lines) {
            if (line.kind != LineKind::Instruction || line.frames.isEmpty()
                || !line.frames.first().file.endsWith(QLatin1String("/triton/language/standard.py")))
                continue;
            ++inlined;
            deepest = std::max(deepest, int(line.frames.size()));
            STRATA_COMPARE_LOCATION(line.frames.last(), (SourceLocation{fixture.kernelFile, sumLine, 19}));
            // Base names in the comment resolve to the `.file` table's full paths.
            for (const SourceLocation &frame : line.frames)
                QVERIFY(frame.file.startsWith(QLatin1Char('/')));
        }
        QVERIFY(inlined >= 10);
        QCOMPARE(deepest, 3);  // combine_fn in reduce in sum
    }

    void inlinedAtFormGivesTheSameChain()
    {
        const QString path = QStringLiteral(STRATA_NATIVE_DATA_DIR "/row_sum_inlined.ptx");
        const Expected<ir::PtxModule> module = ir::readPtxModule(readText(path), path);
        QVERIFY(module);
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const QString standard = module->files.value(2);
        QVERIFY(standard.endsWith(QLatin1String("/triton/language/standard.py")));
        const int add = indexOfLine(readText(path).split(u'\n'), QStringLiteral("inlined_at 2 293 36"));
        QVERIFY(add > 0);
        // The first instruction after that `.loc`: the reduction's add, three frames deep.
        int inst = add + 1;
        while (module->listing.lines[inst].kind != LineKind::Instruction)
            ++inst;
        const LocationChain expected{{standard, 263, 15}, {standard, 293, 36},
                                     {fixture.kernelFile, fixture.lineOf(QStringLiteral("tl.sum(")), 19}};
        STRATA_COMPARE_LOCATION(module->listing.lines[inst].frames, expected);
        QCOMPARE(module->listing.lines[inst].opcode, QStringLiteral("add.f32"));
    }

    void lineZeroMeansNoLocation()
    {
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const ir::PtxModule module = readFixture(fixture);
        const QStringList lines = readText(fixture.artifact(QStringLiteral(".ptx"))).split(u'\n');
        const int loc = indexOfLine(lines, QStringLiteral(".loc\t1 0 "));
        QVERIFY(loc > 0);
        int inst = loc + 1;
        while (module.listing.lines[inst].kind != LineKind::Instruction)
            ++inst;
        QVERIFY(module.listing.lines[inst].frames.isEmpty());
    }

    void locWithUndefinedFileIsAnError()
    {
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        QStringList lines = readText(fixture.artifact(QStringLiteral(".ptx"))).split(u'\n');
        const int fileTwo = indexOfLine(lines, QStringLiteral(".file\t2 "));
        QVERIFY(fileTwo > 0);
        lines.removeAt(fileTwo);
        const int firstUse = indexOfLine(lines, QStringLiteral(".loc\t2 "));
        const Expected<StageListing> listing = ir::readPtxListing(lines.join(u'\n'), QStringLiteral("k.ptx"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, QStringLiteral("k.ptx"));
        QCOMPARE(listing.error().line, firstUse + 1);
        QVERIFY2(listing.error().message.contains(QLatin1String("file 2")), qPrintable(listing.error().message));
    }

    void malformedInputIsAnError_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("empty") << QString() << 0 << QStringLiteral("empty");
        QTest::newRow("not ptx") << QStringLiteral("hello\nworld\n") << 0 << QStringLiteral(".version");
        QTest::newRow("bad loc") << QStringLiteral(".version 8.7\n.file 1 \"k.py\"\n.loc 1 x 3\n") << 3 << QStringLiteral(".loc");
        QTest::newRow("bad file") << QStringLiteral(".version 8.7\n.file one \"k.py\"\n") << 2 << QStringLiteral(".file");
        QTest::newRow("bad inlined_at") << QStringLiteral(".version 8.7\n.file 1 \"k.py\"\n.loc 1 3 1, function_name $L, inlined_at 9 1 1\n")
                                        << 3 << QStringLiteral("inlined_at");
    }

    void malformedInputIsAnError()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, messagePart);
        const Expected<StageListing> listing = ir::readPtxListing(text, QStringLiteral("x.ptx"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().line, line);
        QVERIFY2(listing.error().message.contains(messagePart), qPrintable(listing.error().message));
    }
};

QTEST_GUILESS_MAIN(TestPtxReader)
#include "tst_ptx_reader.moc"
