// Facts the MLIR reader must get right on real triton 3.6.0 output (tests/fixtures).
#include "MlirTestSupport.h"

#include <algorithm>

#include <QDirIterator>
#include <QRegularExpression>

using namespace strata;
using namespace strata::ir;
using namespace strata::ir::test;

class TestMlirReader : public QObject {
    Q_OBJECT

private slots:
    void init() { STRATA_SKIP_WITHOUT_FIXTURES(); }

    void matmulWgmmaUsesMmaV3OnDotLine();
    void matmulModuleAttributesAndArgs();
    void matmulForLoopRegionsAndIterArgs();
    void vectorAddLayouts();
    void unhintedPointersGiveScalarLayout();
    void warpSpecializeRegions();
    void nameLocationsResolve();
    void reductionCallsiteChains();
    void forwardLocationReferences();
    void listingLineKinds();
    void llvmDialectDump();
    void functionAnchoredDump();
    void pipelinerInternalDumpHasInlineLayouts();
    void sharedInlineParentIsDecodedOnce();
    void accelerateMatmulChangesDotLine();
    void opSummaryNamesLayout();
    void ascendReduceRegionArguments();
    void ascendDiscreteAccessMarks();
    void everyFixtureFileReads_data();
    void everyFixtureFileReads();
};

static const QString kMatmul = QStringLiteral("matmul/default");

void TestMlirReader::matmulWgmmaUsesMmaV3OnDotLine()
{
    const QString dir = fixture(kMatmul);
    READ_MODULE(m, dir + QStringLiteral("/matmul_kernel.ttgir"));
    const auto dots = opsNamed(m, QStringLiteral("ttng.warp_group_dot"));
    QCOMPARE(dots.size(), 1);
    const MlirOp &dot = *dots.first();

    const LayoutAttr *mma = nullptr;
    for (int index : dot.layouts) {
        if (m.layouts[index].kind == LayoutKind::NvidiaMma)
            mma = &m.layouts[index];
    }
    QVERIFY(mma);
    QCOMPARE(mma->alias, QStringLiteral("mma"));
    QCOMPARE(mma->versionMajor, 3);
    QCOMPARE(mma->versionMinor, 0);
    QCOMPARE(mma->warpsPerCTA, (QVector<int>{8, 1}));
    QCOMPARE(mma->instrShape, (QVector<int>{16, 128, 16}));
    QCOMPARE(dot.resultTypes, QStringLiteral("tensor<128x128xf32, #mma>"));
    QCOMPARE(dot.attribute(QStringLiteral("isAsync")), QStringLiteral("true"));
    QCOMPARE(dot.operands.size(), 3);

    const int dotLine = sourceLineOf(dir, QStringLiteral("tl.dot("));
    QVERIFY(dotLine > 0);
    const SourceLocation where = frameInFile(dot.frames, kernelPathOf(dir));
    QCOMPARE(where.line, dotLine);
    QCOMPARE(dot.locName, QStringLiteral("accumulator"));
    // The shared operands carry the nvmma_shared layout.
    const LayoutAttr *shared = m.layout(QStringLiteral("#shared"));
    QVERIFY(shared);
    QCOMPARE(shared->kind, LayoutKind::NvmmaShared);
    QCOMPARE(shared->swizzlingByteWidth, 128);
    QCOMPARE(shared->elementBitWidth, 16);
    QCOMPARE(shared->transposed, false);
}

void TestMlirReader::matmulModuleAttributesAndArgs()
{
    READ_MODULE(m, fixture(kMatmul + QStringLiteral("/matmul_kernel.ttgir")));
    QCOMPARE(m.numWarps(), 8);
    QCOMPARE(m.moduleAttribute(QStringLiteral("ttg.target")), QStringLiteral("\"cuda:90\""));
    QCOMPARE(m.moduleAttribute(QStringLiteral("ttg.num-ctas")), QStringLiteral("1 : i32"));

    const auto funcs = opsNamed(m, QStringLiteral("tt.func"));
    QCOMPARE(funcs.size(), 1);
    const MlirOp &func = *funcs.first();
    QCOMPARE(func.symbol, QStringLiteral("@matmul_kernel"));
    QVERIFY(func.isFunction());
    QCOMPARE(func.depth, 1);
    QCOMPARE(func.attribute(QStringLiteral("noinline")), QStringLiteral("false"));
    QVERIFY(func.blockArgs.size() >= 6);
    const MlirBlockArg &a = func.blockArgs.first();
    QCOMPARE(a.name, QStringLiteral("%a_ptr"));
    QCOMPARE(a.type, QStringLiteral("!tt.ptr<f16>"));
    QCOMPARE(a.attributes.size(), 1);
    QCOMPARE(a.attributes.first().key, QStringLiteral("tt.divisibility"));
    QCOMPARE(a.attributes.first().value, QStringLiteral("16 : i32"));
    QCOMPARE(a.locName, QStringLiteral("a_ptr"));
    QCOMPARE(a.frames.size(), 1);
    QCOMPARE(a.frames.first().line, sourceLineOf(fixture(kMatmul), QStringLiteral("def matmul_kernel")));
}

void TestMlirReader::matmulForLoopRegionsAndIterArgs()
{
    READ_MODULE(m, fixture(kMatmul + QStringLiteral("/matmul_kernel.ttgir")));
    const auto loops = opsNamed(m, QStringLiteral("scf.for"));
    QCOMPARE(loops.size(), 1);
    const MlirOp &loop = *loops.first();
    QVERIFY(loop.hasRegions);
    QVERIFY(loop.endLine > loop.line);
    QVERIFY(loop.results.first().contains(QLatin1Char(':')));  // "%accumulator_..:N"
    QVERIFY(loop.blockArgs.size() >= 4);                        // induction variable + iter_args
    for (const MlirBlockArg &arg : loop.blockArgs)
        QVERIFY2(!arg.initValue.isEmpty(), qPrintable(arg.name));
    QCOMPARE(loop.operandTypes, QStringLiteral("i32"));
    QVERIFY(loop.resultTypes.contains(QStringLiteral("tensor<128x128xf32, #mma>")));
    // The dot sits in the loop's body, one level deeper.
    const MlirOp &dot = *opsNamed(m, QStringLiteral("ttng.warp_group_dot")).first();
    QCOMPARE(m.ops[dot.parent].name, QStringLiteral("scf.for"));
    QCOMPARE(dot.depth, loop.depth + 1);
    // The loop's location comes from its closing line "} loc(#locN)" and names the for line.
    const int forLine = sourceLineOf(fixture(kMatmul), QStringLiteral("for k in range"));
    QCOMPARE(frameInFile(loop.frames, kernelPathOf(fixture(kMatmul))).line, forLine);
}

void TestMlirReader::vectorAddLayouts()
{
    READ_MODULE(aligned, fixture(QStringLiteral("vector_add/aligned/add_kernel.ttgir")));
    READ_MODULE(unaligned, fixture(QStringLiteral("vector_add/unaligned/add_kernel.ttgir")));
    for (const MlirModule *m : {&aligned, &unaligned}) {
        const LayoutAttr *blocked = m->layout(QStringLiteral("blocked"));
        QVERIFY(blocked);
        QCOMPARE(blocked->kind, LayoutKind::Blocked);
        // Both variants have 16-byte aligned pointers, so both coalesce to 4 elements per
        // thread; the unaligned variant's scalar loads come from its mask, seen in the PTX.
        QCOMPARE(blocked->sizePerThread, QVector<int>{4});
        QCOMPARE(blocked->threadsPerWarp, QVector<int>{32});
        QCOMPARE(blocked->warpsPerCTA, QVector<int>{4});
        QCOMPARE(blocked->order, QVector<int>{0});
    }
    // What tells the variants apart in TTGIR: n_elements' divisibility hint.
    auto nElements = [](const MlirModule &m) {
        for (const MlirBlockArg &arg : opsNamed(m, QStringLiteral("tt.func")).first()->blockArgs) {
            if (arg.name == QLatin1String("%n_elements"))
                return arg;
        }
        return MlirBlockArg();
    };
    QCOMPARE(nElements(aligned).attributes.size(), 1);
    QCOMPARE(nElements(aligned).attributes.first().value, QStringLiteral("16 : i32"));
    QCOMPARE(nElements(unaligned).name, QStringLiteral("%n_elements"));
    QVERIFY(nElements(unaligned).attributes.isEmpty());
}

void TestMlirReader::unhintedPointersGiveScalarLayout()
{
    // data/add_no_hints.ttgir: triton 3.6.0, the same add kernel compiled for sm_90 with no
    // tt.divisibility on any argument: coalescing cannot prove alignment, one element per thread.
    READ_MODULE(m, dataFile(QStringLiteral("add_no_hints.ttgir")));
    const LayoutAttr *blocked = m.layout(QStringLiteral("#blocked"));
    QVERIFY(blocked);
    QCOMPARE(blocked->sizePerThread, QVector<int>{1});
    const MlirOp &load = *opsNamed(m, QStringLiteral("tt.load")).first();
    QCOMPARE(load.layouts.size(), 1);
    QCOMPARE(m.layouts[load.layouts.first()].alias, QStringLiteral("blocked"));
}

void TestMlirReader::warpSpecializeRegions()
{
    // data/warp_specialize_dump.mlir: triton 3.6.0's doCodePartition dump of a warp-specialized
    // loop. ttg.warp_specialize prints its regions on lines of their own: `default {` and
    // `partitionN(%args...) num_warps(4) {`, closed by `} : (types) -> ()`.
    const QString path = dataFile(QStringLiteral("warp_specialize_dump.mlir"));
    READ_MODULE(m, path);
    QCOMPARE(m.header.when, QStringLiteral("After"));
    QCOMPARE(m.header.passName, QStringLiteral("WarpSpec internal: doCodePartition"));
    const auto ws = opsNamed(m, QStringLiteral("ttg.warp_specialize"));
    QCOMPARE(ws.size(), 1);
    const MlirOp &op = *ws.first();
    const int wsIndex = int(&op - m.ops.constData());
    QVERIFY(op.hasRegions);
    QCOMPARE(op.resultTypes, QStringLiteral("()"));
    QVERIFY(op.operandTypes.startsWith(QLatin1String("(!ttg.memdesc<2x64x64xf16")));
    QVERIFY(!op.attribute(QStringLiteral("requestedRegisters")).isEmpty());
    QStringList partitions;
    for (const MlirBlockArg &arg : op.blockArgs) {
        if (!partitions.contains(arg.blockLabel))
            partitions << arg.blockLabel;
    }
    QCOMPARE(partitions, (QStringList{"partition0", "partition1"}));
    QVERIFY(opsNamed(m, QStringLiteral("default")).isEmpty());  // keywords are not ops
    QCOMPARE(m.lineKinds[op.line + 1], LineKind::Label);     // "default {"
    QCOMPARE(opsNamed(m, QStringLiteral("ttg.warp_yield")).first()->parent, wsIndex);
    for (const MlirOp *ret : opsNamed(m, QStringLiteral("ttg.warp_return")))
        QCOMPARE(ret->parent, wsIndex);
    QVERIFY(op.endLine > op.line + 100);
    QCOMPARE(m.lineKinds.last(), LineKind::Directive);  // the {-# external_resources #-} block
}

void TestMlirReader::nameLocationsResolve()
{
    const QString dir = fixture(kMatmul);
    READ_MODULE(m, dir + QStringLiteral("/matmul_kernel.ttgir"));
    const MlirOp *pid = nullptr;
    for (const MlirOp &op : m.ops) {
        if (op.results.contains(QStringLiteral("%pid")))
            pid = &op;
    }
    QVERIFY(pid);
    QCOMPARE(pid->name, QStringLiteral("tt.get_program_id"));
    QCOMPARE(pid->locName, QStringLiteral("pid"));
    QCOMPARE(pid->frames.size(), 1);
    QCOMPARE(pid->frames.first().file, kernelPathOf(dir));
    QCOMPARE(pid->frames.first().line, sourceLineOf(dir, QStringLiteral("pid = tl.program_id")));
    QVERIFY(pid->frames.first().column > 0);
    // Every "#locN = loc("name"(#locM))" definition resolves through to a file location.
    int named = 0;
    for (const MlirLocationDef &def : m.locationDefs) {
        if (def.text.startsWith(QLatin1String("loc(\"")) && def.text.contains(QLatin1String("\"(#"))) {
            ++named;
            QVERIFY2(!def.locName.isEmpty(), qPrintable(def.text));
            QVERIFY2(!def.frames.isEmpty() || def.text.contains(QLatin1String("#loc1)")), qPrintable(def.text));
        }
    }
    QVERIFY(named > 10);
}

void TestMlirReader::reductionCallsiteChains()
{
    const QString dir = fixture(QStringLiteral("softmax/default"));
    READ_MODULE(m, dir + QStringLiteral("/softmax_kernel.ttgir"));
    const QString kernel = kernelPathOf(dir);
    const auto reduces = opsNamed(m, QStringLiteral("tt.reduce"));
    QCOMPARE(reduces.size(), 2);  // tl.max and tl.sum
    const QVector<int> expected{sourceLineOf(dir, QStringLiteral("tl.max(")), sourceLineOf(dir, QStringLiteral("tl.sum("))};
    for (int i = 0; i < 2; ++i) {
        const MlirOp &reduce = *reduces[i];
        QVERIFY(reduce.genericForm);
        QCOMPARE(reduce.attribute(QStringLiteral("axis")), QStringLiteral("0 : i32"));
        QVERIFY2(reduce.frames.size() >= 2, qPrintable(QString::number(reduce.frames.size())));
        QVERIFY(reduce.frames.first().file.endsWith(QLatin1String("triton/language/standard.py")));
        QCOMPARE(frameInFile(reduce.frames, kernel).line, expected[i]);
        // The combine region: ^bb0 block arguments and an op inlined two levels deep.
        QCOMPARE(reduce.blockArgs.size(), 2);
        QCOMPARE(reduce.blockArgs.first().blockLabel, QStringLiteral("^bb0"));
        QCOMPARE(reduce.blockArgs.first().type, QStringLiteral("f32"));
        QCOMPARE(frameInFile(reduce.blockArgs.first().frames, kernel).line, expected[i]);
        const int index = int(&reduce - m.ops.constData());
        const MlirOp &combine = m.ops[index + 1];
        QCOMPARE(combine.parent, index);
        QVERIFY(combine.frames.size() >= 3);
        QCOMPARE(frameInFile(combine.frames, kernel).line, expected[i]);
    }
}

void TestMlirReader::forwardLocationReferences()
{
    READ_MODULE(m, fixture(kMatmul + QStringLiteral("/matmul_kernel.ttgir")));
    const MlirOp &module = m.ops.first();
    QCOMPARE(module.name, QStringLiteral("module"));
    int definedAfterModule = 0;
    for (const MlirLocationDef &def : m.locationDefs)
        definedAfterModule += def.line > module.endLine ? 1 : 0;
    QVERIFY(definedAfterModule > 10);  // Triton prints most #locN after the module that uses them
    int withFrames = 0, instructions = 0;
    for (const MlirOp &op : m.ops) {
        if (op.depth >= 2) {
            ++instructions;
            withFrames += op.frames.isEmpty() ? 0 : 1;
        }
    }
    QVERIFY(withFrames > instructions * 3 / 4);
}

void TestMlirReader::listingLineKinds()
{
    const QString path = fixture(kMatmul + QStringLiteral("/matmul_kernel.ttgir"));
    const QString text = readText(path);
    const Expected<StageListing> listing = readMlirListing(text, path);
    QVERIFY(listing);
    QStringList lines = text.split(QLatin1Char('\n'));
    if (lines.last().isEmpty())
        lines.removeLast();
    QCOMPARE(listing->lineCount(), lines.size());
    QCOMPARE(listing->path, path);
    int forLine = -1;
    for (int i = 0; i < lines.size(); ++i) {
        const ListingLine &l = listing->lines[i];
        QCOMPARE(l.text, lines[i]);
        const QString t = lines[i].trimmed();
        if (t.startsWith(QLatin1String("#")))
            QCOMPARE(l.kind, LineKind::Directive);
        else if (t.startsWith(QLatin1String("module")))
            QCOMPARE(l.kind, LineKind::Directive);
        else if (t.startsWith(QLatin1String("tt.func"))) {
            QCOMPARE(l.kind, LineKind::Label);
            QCOMPARE(l.opcode, QStringLiteral("tt.func"));
        } else if (t.startsWith(QLatin1String("}")))
            QCOMPARE(l.kind, LineKind::Other);
        else if (t.startsWith(QLatin1String("%")) || t.startsWith(QLatin1String("tt.")) || t.startsWith(QLatin1String("scf."))) {
            QCOMPARE(l.kind, LineKind::Instruction);
            QVERIFY(!l.opcode.isEmpty());
            QVERIFY(t.contains(l.opcode));
        }
        if (l.opcode == QLatin1String("scf.for"))
            forLine = i;
    }
    // A multi-line op: the first line carries the location written on its closing line.
    QVERIFY(forLine >= 0);
    QVERIFY(!listing->lines[forLine].frames.isEmpty());
    QCOMPARE(listing->lines[forLine].frames.first().line,
             sourceLineOf(fixture(kMatmul), QStringLiteral("for k in range")));
}

void TestMlirReader::llvmDialectDump()
{
    const QString path = fixture(kMatmul + QStringLiteral("/passes/074-enable-line-info.mlir"));
    READ_MODULE(m, path);
    QCOMPARE(m.header.passName, QStringLiteral("LLVMDIScope"));
    QCOMPARE(m.header.passArgument, QStringLiteral("enable-line-info"));
    QCOMPARE(m.header.anchorOp, QStringLiteral("builtin.module"));
    const auto funcs = opsNamed(m, QStringLiteral("llvm.func"));
    QCOMPARE(funcs.size(), 1);
    int labelled = 0;
    for (const MlirBlockArg &arg : funcs.first()->blockArgs)
        labelled += arg.blockLabel.startsWith(QLatin1String("^bb")) ? 1 : 0;
    QVERIFY(labelled > 0);  // ^bbN(%x: type loc(...)) after scf-to-cf
    const auto asms = opsNamed(m, QStringLiteral("llvm.inline_asm"));
    QVERIFY(!asms.isEmpty());
    const QStringList text = readText(path).split(QLatin1Char('\n'));
    const QString kernel = kernelPathOf(fixture(kMatmul));
    const int dotLine = sourceLineOf(fixture(kMatmul), QStringLiteral("tl.dot("));
    int wgmma = 0;
    for (const MlirOp *op : asms) {
        if (text[op->line].contains(QLatin1String("wgmma.mma_async"))) {
            ++wgmma;
            QCOMPARE(frameInFile(op->frames, kernel).line, dotLine);
        }
    }
    QVERIFY(wgmma > 0);
    int blockLabels = 0;
    for (int i = 0; i < m.lineCount; ++i) {
        if (text[i].trimmed().startsWith(QLatin1String("^bb"))) {
            ++blockLabels;
            QCOMPARE(m.lineKinds[i], LineKind::Label);
            QVERIFY(!m.opAtTextLine(i));
        }
    }
    QVERIFY(blockLabels > 2);
}

void TestMlirReader::functionAnchoredDump()
{
    const QString path = fixture(kMatmul + QStringLiteral("/passes/001-canonicalize.mlir"));
    READ_MODULE(m, path);
    QVERIFY(m.header.present);
    QCOMPARE(m.header.when, QStringLiteral("Before"));
    QCOMPARE(m.header.anchorOp, QStringLiteral("tt.func"));
    QVERIFY(!m.header.anchorSymbol.isEmpty());
    QCOMPARE(m.lineKinds[m.header.line], LineKind::Comment);
    QVERIFY(!opsNamed(m, QStringLiteral("tt.func")).isEmpty());
}

void TestMlirReader::pipelinerInternalDumpHasInlineLayouts()
{
    const QString path = fixture(kMatmul + QStringLiteral("/passes/034-tritongpu-pipeline.lower-loops.mlir"));
    READ_MODULE(m, path);
    QCOMPARE(m.header.when, QStringLiteral("After"));
    QVERIFY(m.header.passName.contains(QLatin1String("LowerLoops")));
    // No aliases here: layouts are written inline in the types and still decoded.
    int blocked = 0;
    for (const LayoutAttr &l : m.layouts) {
        if (l.kind == LayoutKind::Blocked) {
            ++blocked;
            QVERIFY(l.alias.isEmpty());
            QCOMPARE(l.sizePerThread.size(), 2);
        }
    }
    QVERIFY(blocked > 0);
}

// Found by bench/fuzz (fuzz_mlir_reader, ASan: heap-use-after-free): binding a slice alias's
// inline parent appended the parent to the layout list while holding a reference to the parent
// text inside that list; when the append reallocated, the reference dangled and the parent was
// cached under what the freed memory held, so the next slice of the same parent decoded it again.
// Pairs of slice aliases over one inline blocked parent each, in counts that cross the list's
// growth steps: each parent is decoded once, and both slices of a pair point at it.
void TestMlirReader::sharedInlineParentIsDecodedOnce()
{
    for (int pairs = 1; pairs <= 12; ++pairs) {
        QString aliases;
        for (int pair = 1; pair <= pairs; ++pair) {
            const QString blocked = QStringLiteral("#ttg.blocked<{sizePerThread = [1, %1], threadsPerWarp = [1, 32], "
                                                   "warpsPerCTA = [1, 4], order = [1, 0]}>").arg(pair);
            for (int dim = 0; dim <= 1; ++dim)
                aliases += QStringLiteral("#s%1_%2 = #ttg.slice<{dim = %2, parent = %3}>\n").arg(pair).arg(dim).arg(blocked);
        }
        const QString text = aliases
            + QStringLiteral("module attributes {\"ttg.num-warps\" = 4 : i32} {\n  tt.func @k() {\n"
                             "    %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32, #s1_0>\n"
                             "    tt.return\n  }\n}\n");
        const Expected<MlirModule> m = readMlir(text, QStringLiteral("inline.ttgir"));
        QVERIFY2(m, qPrintable(m ? QString() : m.error().toString()));
        int slices = 0, blocked = 0;
        QHash<int, int> slicesOfParent;
        for (const LayoutAttr &layout : m->layouts) {
            if (layout.kind == LayoutKind::Slice) {
                ++slices;
                QVERIFY(layout.parentIndex >= 0 && layout.parentIndex < m->layouts.size());
                QCOMPARE(m->layouts[layout.parentIndex].kind, LayoutKind::Blocked);
                ++slicesOfParent[layout.parentIndex];
            } else if (layout.kind == LayoutKind::Blocked) {
                ++blocked;
            }
        }
        QCOMPARE(slices, 2 * pairs);
        QCOMPARE(blocked, pairs);
        for (int count : std::as_const(slicesOfParent))
            QCOMPARE(count, 2);
    }
}

void TestMlirReader::accelerateMatmulChangesDotLine()
{
    const QString dir = fixture(kMatmul + QStringLiteral("/passes/"));
    // The dump before accelerate-matmul and the next one (= the IR after it).
    const QStringList dumps = QDir(dir).entryList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name);
    int index = -1;
    for (int i = 0; i < dumps.size(); ++i) {
        if (dumps[i].endsWith(QLatin1String("-tritongpu-accelerate-matmul.mlir")))
            index = i;
    }
    QVERIFY(index >= 0 && index + 1 < dumps.size());
    READ_MODULE(before, dir + dumps[index]);
    READ_MODULE(next, dir + dumps[index + 1]);
    OpDiffOptions options;
    options.kernelFile = kernelPathOf(fixture(kMatmul));
    options.sourceLine = sourceLineOf(fixture(kMatmul), QStringLiteral("tl.dot("));
    const OpChanges changes = diffOps(before, next, options);
    bool wgmmaAdded = false;
    for (int line : changes.added)
        wgmmaAdded |= next.opAtTextLine(line)->name == QLatin1String("ttng.warp_group_dot");
    QVERIFY(wgmmaAdded);
    bool dotRemoved = false;
    for (int line : changes.removed)
        dotRemoved |= before.opAtTextLine(line)->name == QLatin1String("tt.dot");
    QVERIFY(dotRemoved);
    QCOMPARE(changedOpLines(before, next, options), changes.added);
    QVERIFY(diffOps(next, next, options).isEmpty());
    // A line the pass did not touch: the program id.
    options.sourceLine = sourceLineOf(fixture(kMatmul), QStringLiteral("pid = tl.program_id"));
    QVERIFY(diffOps(before, next, options).isEmpty());
}

void TestMlirReader::opSummaryNamesLayout()
{
    READ_MODULE(m, fixture(kMatmul + QStringLiteral("/matmul_kernel.ttgir")));
    const QString s = opSummary(*opsNamed(m, QStringLiteral("ttng.warp_group_dot")).first(), m);
    QVERIFY2(s.startsWith(QLatin1String("ttng.warp_group_dot -> tensor<128x128xf32, #mma>")), qPrintable(s));
    QVERIFY2(s.contains(QLatin1String("nvidia_mma v3.0 warpsPerCTA=[8, 1] instrShape=[16, 128, 16]")), qPrintable(s));
}

// triton-ascend's ttadapter prints a reduction's region arguments on a line of their own after
// the op (`linalg.reduce ins(...) outs(...) dimensions = [0]` then `(%in: f32 loc(...), %init: f32
// loc(callsite(...))) {`); the reader refused that line ("expected an operation name").
void TestMlirReader::ascendReduceRegionArguments()
{
    const QString dir = fixture(QStringLiteral("ascend/softmax"));
    READ_MODULE(m, dir + QStringLiteral("/softmax_kernel.ttadapter"));
    const auto reduces = opsNamed(m, QStringLiteral("linalg.reduce"));
    QCOMPARE(reduces.size(), 2);
    const QString kernel = kernelPathOf(dir);
    const int maxLine = sourceLineOf(dir, QStringLiteral("tl.max("));
    const int sumLine = sourceLineOf(dir, QStringLiteral("tl.sum("));
    QVERIFY(maxLine > 0 && sumLine > maxLine);
    const QVector<int> expected{maxLine, sumLine};
    for (int i = 0; i < reduces.size(); ++i) {
        const MlirOp &reduce = *reduces[i];
        QVERIFY(reduce.hasRegions);
        QVERIFY(reduce.endLine > reduce.line + 2);   // the arguments line, the body, the closing line
        QCOMPARE(reduce.blockArgs.size(), 2);
        QCOMPARE(reduce.blockArgs[0].name, QStringLiteral("%in"));
        QCOMPARE(reduce.blockArgs[0].type, QStringLiteral("f32"));
        QCOMPARE(reduce.blockArgs[1].name, QStringLiteral("%init"));
        // The tl.max / tl.sum call: the reduction's location is a callsite into triton's
        // standard.py, whose kernel frame is the calling line.
        QVERIFY(reduce.frames.size() >= 2);
        QCOMPARE(frameInFile(reduce.frames, kernel).line, expected[i]);
        QCOMPARE(frameInFile(reduce.blockArgs[1].frames, kernel).line, expected[i]);
        // The body's ops belong to the reduce, not to the op before it.
        bool yieldInside = false;
        for (const MlirOp &op : m.ops)
            yieldInside |= op.name == QLatin1String("linalg.yield") && op.line > reduce.line && op.line < reduce.endLine
                && &m.ops[op.parent] == &reduce;
        QVERIFY(yieldInside);
    }
}

// Discrete (indirect) accesses: triton-ascend prints `{DiscreteMemAccess}` between an op's
// operands and its type, and after scf.yield's keyword; the loop's `{ExtractedLoadOrStore}` on its
// closing line. All are the op's attributes.
void TestMlirReader::ascendDiscreteAccessMarks()
{
    const QString dir = fixture(QStringLiteral("ascend/gather"));
    READ_MODULE(m, dir + QStringLiteral("/gather_kernel.ttadapter"));
    const QString kernel = kernelPathOf(dir);
    const int gatherLine = sourceLineOf(dir, QStringLiteral("tl.load(x_ptr + idx"));
    QVERIFY(gatherLine > 0);
    int marked = 0, loops = 0;
    for (const MlirOp &op : m.ops) {
        const bool discrete = std::any_of(op.attributes.cbegin(), op.attributes.cend(), [](const MlirAttribute &a) {
            return a.key == QLatin1String("DiscreteMemAccess");
        });
        const bool extracted = std::any_of(op.attributes.cbegin(), op.attributes.cend(), [](const MlirAttribute &a) {
            return a.key == QLatin1String("ExtractedLoadOrStore");
        });
        marked += discrete;
        if (extracted) {
            ++loops;
            QCOMPARE(op.name, QStringLiteral("scf.for"));
            QCOMPARE(frameInFile(op.frames, kernel).line, gatherLine);
        }
        if (discrete)
            QCOMPARE(frameInFile(op.frames, kernel).line, gatherLine);
    }
    QCOMPARE(loops, 1);
    QCOMPARE(marked, 2);   // tensor.extract of the index, scf.yield of the gathered element
}

void TestMlirReader::everyFixtureFileReads_data()
{
    QTest::addColumn<QString>("path");
    if (!QDir(fixturesDir()).exists())
        return;
    QDirIterator it(fixturesDir(), {QStringLiteral("*.ttir"), QStringLiteral("*.ttgir"), QStringLiteral("*.ttadapter"),
                                    QStringLiteral("*.mlir")},
                    QDir::Files, QDirIterator::Subdirectories);
    QStringList paths;
    while (it.hasNext())
        paths << it.next();
    paths.sort();
    for (const QString &path : paths)
        QTest::newRow(qPrintable(QDir(fixturesDir()).relativeFilePath(path))) << path;
}

void TestMlirReader::everyFixtureFileReads()
{
    QFETCH(QString, path);
    const QString text = readText(path);
    const Expected<MlirModule> m = readMlir(text, path);
    QVERIFY2(m, qPrintable(m ? QString() : m.error().toString()));
    QVERIFY(m->ops.size() > 3);
    QCOMPARE(m->ops.first().name, QStringLiteral("module"));
    // Ascend's ttadapter and the adapter's later passes hold the kernel as a func.func (Linalg).
    QVERIFY(!opsNamed(*m, QStringLiteral("tt.func")).isEmpty() || !opsNamed(*m, QStringLiteral("llvm.func")).isEmpty()
            || !opsNamed(*m, QStringLiteral("func.func")).isEmpty());
    const QString fileName = QFileInfo(path).fileName();
    static const QRegularExpression dumpName(QStringLiteral(R"(^\d+-([^.]+)\.mlir$)"));
    const QRegularExpressionMatch match = dumpName.match(fileName);
    if (match.hasMatch()) {  // a pass dump: its header names the pass of its file name
        QVERIFY(m->header.present);
        QCOMPARE(m->header.passArgument, match.captured(1));
    } else if (fileName.endsWith(QLatin1String(".mlir"))) {
        QVERIFY(m->header.present);
        QCOMPARE(m->header.when, QStringLiteral("After"));
    }
    const Expected<StageListing> listing = readMlirListing(text, path);
    QVERIFY2(listing, qPrintable(listing ? QString() : listing.error().toString()));
    QVERIFY2(listing->problems.isEmpty(), qPrintable(listing->problems.value(0).toString()));  // real output is sound
    QCOMPARE(listing->lineCount(), m->lineCount);
    const bool hasLocs = text.contains(QLatin1String("loc("));
    int located = 0, instructions = 0;
    for (const ListingLine &line : listing->lines) {
        if (line.kind == LineKind::Instruction) {
            ++instructions;
            located += line.frames.isEmpty() ? 0 : 1;
        }
    }
    QVERIFY(instructions > 0);
    if (hasLocs)
        QVERIFY2(located * 2 > instructions, qPrintable(QStringLiteral("%1 of %2 located").arg(located).arg(instructions)));
}

QTEST_GUILESS_MAIN(TestMlirReader)
#include "tst_mlirreader.moc"
