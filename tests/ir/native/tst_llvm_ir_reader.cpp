// LLVM IR reader on real triton 3.6.0 output: instructions tied to their text lines, DILocation
// chains resolving to the kernel's lines (helpers inlined from triton/language included), and
// LLVM's own diagnostics for text it rejects.
#include "FixtureSupport.h"
#include "ir/llvm/LlvmIrReader.h"

#include <QtTest>

using namespace strata;
using namespace strata::testing;

class TestLlvmIrReader : public QObject {
    Q_OBJECT

private:
    static ir::LlvmModule readFixture(const Fixture &fixture)
    {
        const QString path = fixture.artifact(QStringLiteral(".llir"));
        Expected<ir::LlvmModule> module = ir::readLlvmIrModule(readText(path), path);
        if (!module)
            qWarning() << module.error().toString();
        return module ? std::move(*module) : ir::LlvmModule{};
    }

    // Inline asm of the instructions on `sourceLine` of the kernel file.
    static QStringList inlineAsmAtLine(const ir::LlvmModule &module, const Fixture &fixture, int sourceLine)
    {
        QStringList asmTexts;
        for (const ir::LlvmInstructionInfo &inst : module.instructions) {
            if (frameInFile(inst.frames, fixture.kernelFile).line == sourceLine && !inst.inlineAsm.isEmpty())
                asmTexts.append(inst.inlineAsm);
        }
        return asmTexts;
    }

private slots:
    void instructionsSitOnTheirTextLines()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        QVERIFY(fixture.isValid());
        const ir::LlvmModule module = readFixture(fixture);
        QVERIFY(!module.instructions.isEmpty());
        for (const ir::LlvmInstructionInfo &inst : module.instructions) {
            const ListingLine &line = module.listing.lines[inst.line];
            QCOMPARE(line.kind, LineKind::Instruction);
            // The text of the line holds the opcode LLVM parsed there.
            QVERIFY2(line.text.contains(inst.opcode), qPrintable(line.text));
        }
        QCOMPARE(module.listing.stage, QStringLiteral("llir"));
        QCOMPARE(module.listing.lines.first().kind, LineKind::Comment);  // "; ModuleID = ..."
    }

    void functionsAndLineKinds()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const ir::LlvmModule module = readFixture(fixture);
        const auto kernel = std::find_if(module.functions.cbegin(), module.functions.cend(),
                                         [](const auto &f) { return f.name == QLatin1String("add_kernel"); });
        QVERIFY(kernel != module.functions.cend());
        QVERIFY(!kernel->isDeclaration);
        QVERIFY(module.listing.lines[kernel->headerLine].text.startsWith(QLatin1String("define ptx_kernel void @add_kernel(")));
        QCOMPARE(module.listing.lines[kernel->headerLine].kind, LineKind::Label);
        QCOMPARE(module.listing.lines[kernel->lastLine].text, QStringLiteral("}"));
        QCOMPARE(module.listing.lines[kernel->lastLine - 1].opcode, QStringLiteral("ret"));
        int declarations = 0;
        for (const auto &function : module.functions)
            declarations += function.isDeclaration && function.name.startsWith(QLatin1String("llvm.nvvm.read.ptx.sreg."));
        QVERIFY(declarations >= 2);  // ctaid.x and tid.x
        bool sawMetadata = false;
        for (const ListingLine &line : module.listing.lines)
            sawMetadata |= line.text.startsWith(QLatin1String("!0 = ")) && line.kind == LineKind::Directive;
        QVERIFY(sawMetadata);
    }

    void loadsCarryTheKernelLineAndTheirPtx()
    {
        const Fixture aligned = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const Fixture unaligned = loadFixture(QStringLiteral("vector_add"), QStringLiteral("unaligned"));
        const int xLoad = aligned.lineOf(QStringLiteral("x = tl.load("));
        QVERIFY(xLoad > 0);
        const QString alignedAsm = inlineAsmAtLine(readFixture(aligned), aligned, xLoad).join(QLatin1Char('\n'));
        const QString unalignedAsm = inlineAsmAtLine(readFixture(unaligned), unaligned, xLoad).join(QLatin1Char('\n'));
        QVERIFY2(alignedAsm.contains(QLatin1String("ld.global.v4.b32")), qPrintable(alignedAsm));
        QVERIFY(!unalignedAsm.contains(QLatin1String("ld.global.v4.b32")));
        QVERIFY2(unalignedAsm.contains(QLatin1String("ld.global.b32")), qPrintable(unalignedAsm));
    }

    void framesNameTheKernelFileWithColumns()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const ir::LlvmModule module = readFixture(fixture);
        const int storeLine = fixture.lineOf(QStringLiteral("tl.store("));
        int stores = 0;
        for (const ir::LlvmInstructionInfo &inst : module.instructions) {
            QVERIFY(!inst.frames.isEmpty());  // Triton gives every instruction of this kernel a line
            QCOMPARE(inst.frames.first().file, fixture.kernelFile);  // DIFile directory + filename
            QVERIFY(inst.frames.first().column > 0);
            if (inst.inlineAsm.contains(QLatin1String("st.global.v4.b32"))) {
                ++stores;
                QCOMPARE(inst.frames.first().line, storeLine);
            }
        }
        QCOMPARE(stores, 2);  // 1024 elements, 128 threads, 4 per vector store
    }

    void inlinedHelperFramesResolveToTheCallSite()
    {
        const Fixture fixture = loadFixture(QStringLiteral("row_sum"), QStringLiteral("default"));
        const ir::LlvmModule module = readFixture(fixture);
        const int sumLine = fixture.lineOf(QStringLiteral("tl.sum("));
        QVERIFY(sumLine > 0);
        int inlined = 0;
        for (const ir::LlvmInstructionInfo &inst : module.instructions) {
            if (inst.frames.isEmpty() || !inst.frames.first().file.endsWith(QLatin1String("triton/language/standard.py")))
                continue;
            ++inlined;
            QVERIFY(inst.frames.size() >= 2);
            QCOMPARE(inst.frames.last().file, fixture.kernelFile);
            QCOMPARE(frameInFile(inst.frames, fixture.kernelFile).line, sumLine);
        }
        QVERIFY2(inlined >= 10, "tl.sum's adds and shuffles come from standard.py");
    }

    void dotLineHoldsWgmma()
    {
        const Fixture fixture = loadFixture(QStringLiteral("matmul"), QStringLiteral("default"));
        const int dotLine = fixture.lineOf(QStringLiteral("tl.dot("));
        const QString asmText = inlineAsmAtLine(readFixture(fixture), fixture, dotLine).join(QLatin1Char('\n'));
        QVERIFY(asmText.contains(QLatin1String("wgmma.mma_async.sync.aligned")));
    }

    void truncatedIrNamesTheLine()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        const QStringList lines = readText(fixture.artifact(QStringLiteral(".llir"))).split(QLatin1Char('\n'));
        const QString truncated = lines.mid(0, 30).join(QLatin1Char('\n'));  // stops inside add_kernel
        const Expected<StageListing> listing = ir::readLlvmIrListing(truncated, QStringLiteral("cut.llir"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, QStringLiteral("cut.llir"));
        QVERIFY(listing.error().line >= 30);
        QVERIFY(listing.error().message.startsWith(QLatin1String("LLVM IR does not parse: ")));
    }

    void garbledInstructionNamesLineAndColumn()
    {
        const Fixture fixture = loadFixture(QStringLiteral("vector_add"), QStringLiteral("aligned"));
        QStringList lines = readText(fixture.artifact(QStringLiteral(".llir"))).split(QLatin1Char('\n'));
        const int target = int(lines.indexOf(QRegularExpression(QStringLiteral(R"(^\s+%\d+ = fadd float .*)"))));
        QVERIFY(target > 0);
        lines[target].replace(QLatin1String("fadd float"), QLatin1String("fadd_wide float"));
        const Expected<StageListing> listing = ir::readLlvmIrListing(lines.join(QLatin1Char('\n')), QStringLiteral("bad.llir"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().line, target + 1);
        QVERIFY(listing.error().column > 1);
        QVERIFY2(listing.error().message.contains(QLatin1String("fadd_wide")) ||
                     listing.error().message.contains(QLatin1String("instruction")),
                 qPrintable(listing.error().message));
    }

    void undefinedValueIsAnError()
    {
        const QString text = QStringLiteral("define void @k() {\n  %1 = add i32 %7, 1\n  ret void\n}\n");
        const Expected<StageListing> listing = ir::readLlvmIrListing(text, QStringLiteral("k.llir"));
        QVERIFY(!listing);
        QVERIFY(listing.error().line >= 2);
        QVERIFY(listing.error().toString().startsWith(QLatin1String("k.llir:")));
    }

    void emptyTextIsAnError()
    {
        const Expected<StageListing> listing = ir::readLlvmIrListing(QStringLiteral(" \n\n"), QStringLiteral("e.llir"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().file, QStringLiteral("e.llir"));
        QVERIFY(listing.error().message.contains(QLatin1String("empty")));
    }

    void multiLineInstructionCoversItsLines()
    {
        const QString text = QStringLiteral(
            "define void @k(i32 %x) {\n"
            "entry:\n"
            "  switch i32 %x, label %done [\n"
            "    i32 0, label %done\n"
            "  ]\n"
            "done:                 ; preds = %entry\n"
            "  ret void\n"
            "}\n");
        const Expected<ir::LlvmModule> module = ir::readLlvmIrModule(text);
        QVERIFY(module);
        const QVector<ListingLine> &lines = module->listing.lines;
        QCOMPARE(lines[1].kind, LineKind::Label);
        for (int i = 2; i <= 4; ++i) {
            QCOMPARE(lines[i].kind, LineKind::Instruction);
            QCOMPARE(lines[i].opcode, QStringLiteral("switch"));
        }
        QCOMPARE(lines[5].kind, LineKind::Label);
        QCOMPARE(lines[6].opcode, QStringLiteral("ret"));
        QCOMPARE(module->instructions.size(), 2);
        QCOMPARE(module->instructions.first().line, 2);
        QVERIFY(module->instructions.first().frames.isEmpty());  // no debug info, no frames
    }

    void invalidModuleDoesNotAbort()
    {
        // Parses, but the verifier rejects it (a use before its definition). LLVM's
        // parseAssemblyString would verify it while upgrading debug info and abort the process
        // ("Broken module found"); the reader must instead read what the text says.
        const QString text = QStringLiteral(
            "define void @k() !dbg !3 {\n  %1 = add i32 %2, 1, !dbg !4\n  %2 = add i32 %1, 1, !dbg !4\n  ret void, !dbg !4\n}\n"
            "!llvm.module.flags = !{!0}\n!llvm.dbg.cu = !{!1}\n"
            "!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
            "!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !2, emissionKind: LineTablesOnly)\n"
            "!2 = !DIFile(filename: \"k.py\", directory: \"/w\")\n"
            "!3 = distinct !DISubprogram(name: \"k\", scope: !2, file: !2, line: 1, unit: !1, spFlags: DISPFlagDefinition)\n"
            "!4 = !DILocation(line: 2, column: 5, scope: !3)\n");
        const Expected<ir::LlvmModule> module = ir::readLlvmIrModule(text);
        QVERIFY(module);
        QCOMPARE(module->instructions.size(), 3);
        STRATA_COMPARE_LOCATION(module->instructions.first().frames.first(), (SourceLocation{QStringLiteral("/w/k.py"), 2, 5}));
    }

    // Found by bench/fuzz (fuzz_llvm_ir_reader): debug info whose nodes are of the wrong kind
    // parses, and LLVM's accessors read it as if it were not (a crash, a 2^48-byte allocation,
    // or, for a location that is its own inlinedAt, a loop that never ends). Such locations are
    // dropped; the instructions still read.
    void malformedDebugInfoReadsWithoutItsLocations_data()
    {
        QTest::addColumn<QString>("metadata");
        const QString header = QStringLiteral(
            "!llvm.module.flags = !{!0}\n!llvm.dbg.cu = !{!1}\n"
            "!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
            "!1 = distinct !DICompileUnit(language: DW_LANG_C, file: !2, emissionKind: LineTablesOnly)\n"
            "!2 = !DIFile(filename: \"k.py\", directory: \"/w\")\n"
            "!3 = distinct !DISubprogram(name: \"k\", scope: !2, file: !2, line: 1, unit: !1, spFlags: DISPFlagDefinition)\n");
        QTest::newRow("scope is a location")
            << header + QStringLiteral("!4 = !DILocation(line: 2, column: 5, scope: !5)\n"
                                       "!5 = !DILocation(line: 3, column: 1, scope: !3)\n");
        QTest::newRow("subprogram's file is a tuple")
            << header + QStringLiteral("!4 = !DILocation(line: 2, column: 5, scope: !5)\n"
                                       "!5 = distinct !DISubprogram(name: \"k\", scope: !2, file: !6, line: 1, unit: !1, "
                                       "spFlags: DISPFlagDefinition)\n!6 = !{!\"k.py\"}\n");
        QTest::newRow("inlinedAt is itself")
            << header + QStringLiteral("!4 = distinct !DILocation(line: 2, column: 5, scope: !5, inlinedAt: !4)\n"
                                       "!5 = !DILocation(line: 3, column: 1, scope: !3)\n");
    }

    void malformedDebugInfoReadsWithoutItsLocations()
    {
        QFETCH(QString, metadata);
        const QString text = QStringLiteral("define void @k() !dbg !3 {\n  ret void, !dbg !4\n}\n") + metadata;
        const Expected<ir::LlvmModule> module = ir::readLlvmIrModule(text, QStringLiteral("k.llir"));
        QVERIFY2(module, qPrintable(module ? QString() : module.error().toString()));
        QCOMPARE(module->instructions.size(), 1);
        QCOMPARE(module->instructions.first().opcode, QStringLiteral("ret"));
        QVERIFY(module->instructions.first().frames.isEmpty());
    }

    // Found by bench/fuzz: LLVM's parser walks "@N..." and "^xx" constraint codes without looking
    // for the constraint's end; "@" alone terminates the process (std::length_error through
    // LLVM), "^a" reads past it. The reader refuses them as a syntax error on the asm's line.
    // Only "@" (and "@" escaped) fail without the check in a plain build; the other codes are
    // reads past the string that LLVM then happens to reject, which only ASan shows (bench/fuzz).
    void cutShortAsmConstraintIsASyntaxError_data()
    {
        QTest::addColumn<QString>("constraints");
        QTest::newRow("@ alone") << QStringLiteral("@");
        QTest::newRow("@ without a digit") << QStringLiteral("=r,@x");
        QTest::newRow("@3 with two letters") << QStringLiteral("@3ab");
        QTest::newRow("^ with one letter") << QStringLiteral("^a");
        QTest::newRow("escaped @") << QStringLiteral("\\40");
    }

    void cutShortAsmConstraintIsASyntaxError()
    {
        QFETCH(QString, constraints);
        const QString text = QStringLiteral("define void @k() {\n  call void asm sideeffect \"@%p1 bra $0;\", \"")
            + constraints + QStringLiteral("\"()\n  ret void\n}\n");
        const Expected<StageListing> listing = ir::readLlvmIrListing(text, QStringLiteral("k.llir"));
        QVERIFY(!listing);
        QCOMPARE(listing.error().kind, ProblemKind::Syntax);
        QCOMPARE(listing.error().line, 2);
        QVERIFY2(listing.error().message.contains(QLatin1String("constraint")), qPrintable(listing.error().message));
    }

    void wholeAsmConstraintsStillRead()
    {
        // Triton's own constraint strings, and an "@N" code that is whole, as LLVM reads them.
        const QString text = QStringLiteral(
            "define i32 @k(ptr addrspace(1) %p, i1 %b) {\n"
            "  %1 = tail call i32 asm sideeffect \"mov.u32 $0, 0x0;\\0A\\09@$2 ld.global.b32 { $0 }, [ $1 + 0 ];\", "
            "\"=r,l,b\"(ptr addrspace(1) %p, i1 %b)\n"
            "  call void asm sideeffect \"; asm with ; and \\22\", \"~{memory}\"()\n"
            "  ret i32 %1\n}\n");
        const Expected<ir::LlvmModule> module = ir::readLlvmIrModule(text, QStringLiteral("k.llir"));
        QVERIFY2(module, qPrintable(module ? QString() : module.error().toString()));
        QCOMPARE(module->instructions.size(), 3);
        QVERIFY(module->instructions.first().inlineAsm.contains(QLatin1String("ld.global.b32")));
    }
};

QTEST_GUILESS_MAIN(TestLlvmIrReader)
#include "tst_llvm_ir_reader.moc"
