// SASS reader on real `nvdisasm -c -g -gi` output of triton 3.6.0 cubins: `//## File` blocks as
// frame chains, opcodes without predicates, addresses, functions; call sites taken from PTX.
#include "FixtureSupport.h"
#include "ir/ptx/PtxReader.h"
#include "ir/sass/SassReader.h"

#include <QtTest>

using namespace strata;
using namespace strata::testing;

class TestSassReader : public QObject {
    Q_OBJECT

private:
    static ir::SassModule readFixture(const Fixture &fixture)
    {
        const QString path = fixture.artifact(QStringLiteral(".sass"));
        Expected<ir::SassModule> module = ir::readSassModule(readText(path), path);
        if (!module)
            qWarning() << module.error().toString();
        return module ? std::move(*module) : ir::SassModule{};
    }

    static int countOpcode(const ir::SassModule &module, const QString &opcode)
    {
        return int(std::count_if(module.instructions.cbegin(), module.instructions.cend(),
                                 [&](const auto &inst) { return inst.opcode == opcode; }));
    }

private slots:
    void loadWidthFollowsAlignment()
    {
        const Fixture aligned = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const Fixture unaligned = loadFixture(QStringLiteral("vector_add"), QStringLiteral("unaligned"));
        QVERIFY(aligned.isValid() && unaligned.isValid());
        const int xLoad = aligned.lineOf(QStringLiteral("x = tl.load("));
        const QSet<QString> wide = opcodesAtSourceLine(readFixture(aligned).listing, aligned.kernelFile, xLoad);
        const QSet<QString> narrow = opcodesAtSourceLine(readFixture(unaligned).listing, unaligned.kernelFile, xLoad);
        QVERIFY2(wide.contains(QStringLiteral("LDG.E.128")), qPrintable(wide.values().join(u' ')));
        QVERIFY(narrow.contains(QStringLiteral("LDG.E")));
        QVERIFY(!narrow.contains(QStringLiteral("LDG.E.128")));
    }

    void dotIsHgmmaAndLoadsAreAsyncCopies()
    {
        const Fixture fixture = loadFixture(QStringLiteral("matmul"), QStringLiteral("default"));
        const ir::SassModule module = readFixture(fixture);
        const QSet<QString> dot = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(QStringLiteral("tl.dot(")));
        QVERIFY2(anyStartsWith(dot, QStringLiteral("HGMMA.64x128x16.F32")), qPrintable(dot.values().join(u' ')));
        const QSet<QString> loadA = opcodesAtSourceLine(module.listing, fixture.kernelFile, fixture.lineOf(QStringLiteral("a = tl.load(")));
        QVERIFY(loadA.contains(QStringLiteral("LDGSTS.E.BYPASS.128")));  // cp.async.cg in SASS
    }

    void spillsShowAsLocalMemoryTraffic()
    {
        const ir::SassModule spilling = readFixture(loadFixture(QStringLiteral("matmul"), QStringLiteral("big_spill")));
        const ir::SassModule fitting = readFixture(loadFixture(QStringLiteral("matmul"), QStringLiteral("default")));
        // 256x256 fp32 accumulator over 128 threads: ptxas spills hundreds of registers.
        QVERIFY(countOpcode(spilling, QStringLiteral("STL")) + countOpcode(spilling, QStringLiteral("STL.64")) > 1000);
        QVERIFY(countOpcode(spilling, QStringLiteral("LDL.LU")) + countOpcode(spilling, QStringLiteral("LDL.LU.64")) > 900);
        for (const ir::SassInstruction &inst : fitting.instructions)
            QVERIFY(!inst.opcode.startsWith(QLatin1String("STL")) && !inst.opcode.startsWith(QLatin1String("LDL")));
    }

    void functionsAndAddresses()
    {
        const Fixture fixture = loadFixture(QStringLiteral("matmul"), QStringLiteral("default"));
        const ir::SassModule module = readFixture(fixture);
        QCOMPARE(module.functions.size(), 1);
        QCOMPARE(module.functions.first().name, QStringLiteral("matmul_kernel"));
        QCOMPARE(module.listing.lines[module.functions.first().headerLine].text, QStringLiteral("matmul_kernel:"));
        QCOMPARE(module.functions.first().instructionCount, module.instructions.size());
        QCOMPARE(module.instructions.first().address, 0u);
        for (qsizetype i = 1; i < module.instructions.size(); ++i)
            QCOMPARE(module.instructions[i].address, module.instructions[i - 1].address + 0x10);
        QCOMPARE(module.listing.stage, QStringLiteral("sass"));
        QCOMPARE(module.listing.lines.first().kind, LineKind::Directive);  // .headerflags
    }

    void predicateAndLabels()
    {
        const ir::SassModule module = readFixture(loadFixture(QStringLiteral("vector_add"), QStringLiteral("unaligned")));
        int predicated = 0;
        for (const ir::SassInstruction &inst : module.instructions) {
            QVERIFY(!inst.opcode.startsWith(QLatin1Char('@')) && !inst.opcode.endsWith(QLatin1Char(';')));
            if (!inst.predicate.isEmpty()) {
                ++predicated;
                QVERIFY(module.listing.lines[inst.line].text.contains(inst.predicate + QLatin1Char(' ') + inst.opcode));
            }
        }
        QVERIFY(predicated > 0);
        bool sawBlockLabel = false;
        for (const ListingLine &line : module.listing.lines)
            sawBlockLabel |= line.text == QLatin1String(".L_x_0:") && line.kind == LineKind::Label;
        QVERIFY(sawBlockLabel);
    }

    void tritonSassHasNoInlinedFrames()
    {
        // Triton 3.6's line-tables-only debug info never reaches ptxas with call sites: tl.sum's
        // code names standard.py alone. (This is why adoptCallSitesFromPtx exists.)
        const ir::SassModule module = readFixture(loadFixture(QStringLiteral("row_sum"), QStringLiteral("default")));
        int helperLines = 0;
        for (const ListingLine &line : module.listing.lines) {
            QVERIFY(line.frames.size() <= 1);
            helperLines += !line.frames.isEmpty() && line.frames.first().file.endsWith(QLatin1String("triton/language/standard.py"));
        }
        QVERIFY(helperLines > 10);
    }

    void inlinedAtBlocksBecomeChains()
    {
        const QString path = QStringLiteral(STRATA_NATIVE_DATA_DIR "/row_sum_inlined.sass");
        const Expected<ir::SassModule> module = ir::readSassModule(readText(path), path);
        QVERIFY(module);
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        int threeDeep = 0, twoDeep = 0;
        for (const ir::SassInstruction &inst : module->instructions) {
            const LocationChain &frames = module->listing.lines[inst.line].frames;
            if (frames.size() < 2)
                continue;
            STRATA_COMPARE_LOCATION(frames.last(), (SourceLocation{fixture.kernelFile, sumLine, 0}));  // no columns in SASS
            QVERIFY(frames.first().file.endsWith(QLatin1String("/triton/language/standard.py")));
            if (frames.size() == 3) {
                ++threeDeep;
                QCOMPARE(frames[0].line, 263);
                QCOMPARE(frames[1].line, 293);
                QCOMPARE(inst.opcode, QStringLiteral("FADD"));
            } else {
                ++twoDeep;
                QCOMPARE(frames[0].line, 293);
            }
        }
        QVERIFY(threeDeep > 0 && twoDeep > 0);
    }

    void callSitesComeFromPtx()
    {
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        StageListing sass = readFixture(fixture).listing;
        const Expected<StageListing> ptx = ir::readPtxListing(readText(fixture.artifact(QStringLiteral(".ptx"))));
        QVERIFY(ptx);
        const int completed = ir::adoptCallSitesFromPtx(sass, *ptx);
        QVERIFY(completed > 10);
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        int fadds = 0;
        for (const ListingLine &line : sass.lines) {
            if (line.opcode != QLatin1String("FADD") || line.frames.isEmpty()
                || !line.frames.first().file.endsWith(QLatin1String("standard.py")))
                continue;
            ++fadds;
            QCOMPARE(frameInFile(line.frames, fixture.kernelFile).line, sumLine);
        }
        QVERIFY(fadds >= 5);
    }

    void ambiguousCallSitesStayUnresolved()
    {
        // layernorm calls tl.sum on two lines: standard.py's lines have two callers in PTX.
        const Fixture fixture = loadFixture(QStringLiteral("layernorm"), QStringLiteral("default"));
        StageListing sass = readFixture(fixture).listing;
        const Expected<StageListing> ptx = ir::readPtxListing(readText(fixture.artifact(QStringLiteral(".ptx"))));
        QVERIFY(ptx);
        ir::adoptCallSitesFromPtx(sass, *ptx);
        for (const ListingLine &line : sass.lines) {
            if (!line.frames.isEmpty() && line.frames.first().file.endsWith(QLatin1String("standard.py")))
                QCOMPARE(line.frames.size(), 1);
        }
    }

    // tritonparse's SASS (`nvdisasm -gp`): a `Function:NAME` header, and frames into the PTX
    // text that resolve to that PTX line's location.
    void ptxTextFramesResolveThroughPtx()
    {
        const QString text = QStringLiteral(
            "Function:add_kernel\n"
            "\t//## File \"/tmp/k.py\", line 13\n"
            "\t//## File \".nv_debug_ptx_txt\", line 2\n"
            "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
            "\t//## File \".nv_debug_ptx_txt\", line 3\n"
            "        /*0010*/                   S2R R0, SR_TID.X ;\n"
            "\t//## File \".nv_debug_ptx_txt\", line 1\n"
            "        /*0020*/                   EXIT ;\n");
        Expected<ir::SassModule> module = ir::readSassModule(text);
        QVERIFY(module);
        QCOMPARE(module->functions.size(), 1);
        QCOMPARE(module->functions.first().name, QStringLiteral("add_kernel"));
        QCOMPARE(module->functions.first().instructionCount, 3);
        QCOMPARE(module->listing.lines[3].frames.size(), 2);
        StageListing ptx;
        ptx.lines.resize(3);
        ptx.lines[1].frames = LocationChain{SourceLocation{QStringLiteral("/tmp/k.py"), 14, 5}};
        ptx.lines[2].frames = LocationChain{SourceLocation{QStringLiteral("/tmp/k.py"), 16, 3}};
        StageListing sass = module->listing;
        QCOMPARE(ir::resolvePtxTextFrames(sass, &ptx), 2);
        QCOMPARE(sass.lines[3].frames.first().line, 14);  // the PTX line's, not the block's 13
        QCOMPARE(sass.lines[5].frames.first().line, 16);
        QVERIFY(sass.lines[7].frames.isEmpty());          // PTX line 1 has no location
        StageListing alone = module->listing;
        QCOMPARE(ir::resolvePtxTextFrames(alone, nullptr), 0);
        QCOMPARE(alone.lines[3].frames.size(), 1);
        QCOMPARE(alone.lines[3].frames.first().line, 13);
    }

    void malformedInputIsAnError_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("empty") << QStringLiteral("\n") << 0 << QStringLiteral("empty");
        QTest::newRow("no instructions") << QStringLiteral("\t.headerflags @\"x\"\nk:\n") << 0 << QStringLiteral("nvdisasm");
        QTest::newRow("bad address") << QStringLiteral("k:\n        /*00zz*/  NOP ;\n") << 2 << QStringLiteral("address");
        QTest::newRow("bad location") << QStringLiteral("k:\n\t//## File \"k.py\" line x\n        /*0000*/  NOP ;\n")
                                      << 2 << QStringLiteral("//## File");
    }

    void malformedInputIsAnError()
    {
        QFETCH(QString, text);
        QFETCH(int, line);
        QFETCH(QString, messagePart);
        const Expected<StageListing> listing = ir::readSassListing(text, QStringLiteral("k.sass"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, QStringLiteral("k.sass"));
        QCOMPARE(listing.error().line, line);
        QVERIFY2(listing.error().message.contains(messagePart), qPrintable(listing.error().message));
    }
};

QTEST_GUILESS_MAIN(TestSassReader)
#include "tst_sass_reader.moc"
