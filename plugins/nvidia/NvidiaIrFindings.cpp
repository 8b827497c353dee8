// The NVIDIA backend's L3 rules over the facts of one compile (NvidiaIrFacts.cpp): scalar global
// accesses in PTX, dots on FMA or on mma.sync where wgmma was possible, dot-loop loads the pipeliner
// left synchronous, wgmma serialized by ptxas, layout conversions through shared memory, spills and
// occupancy from ptxas's figures. Each finding cites the IR lines, remarks and figures it rests on.
#include "NvidiaIrRules.h"

#include "NvidiaOccupancy.h"

#include <QRegularExpression>

#include <algorithm>
#include <functional>

namespace strata::nvidia {

using namespace diagnosis;

namespace {

constexpr int kNarrowAccessBits = 64;   // below this a multi-element access is "scalar"
constexpr int kMinCopyBits = 32;        // cp.async needs at least 4-byte copies
constexpr int kHeavySpillInstructions = 16;

// Evidence lookups into the compile's listings and remarks.
class EvidenceSource {
public:
    explicit EvidenceSource(const LoadedCompile &compile) : m_compile(compile)
    {
        for (const StageDescriptor &stage : compile.stages) {
            if (stage.format == StageFormat::MlirText)
                m_ttgir = stage.id;  // the last MLIR stage: TTGIR
            else if (stage.format == StageFormat::Ptx)
                m_ptx = stage.id;
            else if (stage.format == StageFormat::Sass)
                m_sass = stage.id;
        }
    }

    const QString &ttgir() const { return m_ttgir; }
    const QString &ptx() const { return m_ptx; }
    const StageListing *listing(const QString &stage) const { return m_compile.listing(stage); }
    const QString &sass() const { return m_sass; }

    // The first line of `stage` from `sourceLine` whose opcode satisfies `matches`, as evidence.
    std::optional<Evidence> irOp(const QString &stage, int sourceLine,
                                 const std::function<bool(const QString &)> &matches, const QString &note) const
    {
        const StageListing *listing = m_compile.listing(stage);
        if (!listing)
            return std::nullopt;
        for (const int index : m_compile.map.linesForSource(stage, sourceLine)) {
            const ListingLine &line = listing->lines[index];
            if (line.kind == LineKind::Instruction && matches(line.opcode))
                return Evidence::irOp(stage, index, line.opcode, line.text, note);
        }
        return std::nullopt;
    }

    QVector<Evidence> remarks(int sourceLine, const QString &containing) const
    {
        QVector<Evidence> found;
        for (const Remark &remark : m_compile.result.remarks) {
            if (remark.loc.line == sourceLine && sameSourceFile(remark.loc.file, m_compile.result.sourcePath)
                && remark.message.contains(containing))
                found.append(Evidence::remark({remark.loc.file, remark.loc.line, remark.loc.column, 0, 0},
                                              remark.severity, remark.message, QStringLiteral("compiler remark on this line")));
        }
        return found;
    }

    std::optional<Evidence> pass(const QString &argument, const QString &note) const
    {
        for (const PassDumpRef &dump : m_compile.result.passDumps) {
            if (dump.argument == argument)
                return Evidence::pass(dump.passName, dump.argument, note);
        }
        return std::nullopt;
    }

private:
    const LoadedCompile &m_compile;
    QString m_ttgir, m_ptx, m_sass;
};

void appendIf(Finding &finding, const std::optional<Evidence> &evidence)
{
    if (evidence)
        finding.evidence.append(*evidence);
}

std::function<bool(const QString &)> startsWith(const char *prefix)
{
    return [prefix](const QString &opcode) { return opcode.startsWith(QLatin1String(prefix)); };
}

std::function<bool(const QString &)> equals(const char *name)
{
    return [name](const QString &opcode) { return opcode == QLatin1String(name); };
}

Finding lineFinding(const KernelIrFacts &kernel, const SourceLineFacts &line, const QString &rule,
                    const QString &title, Severity severity, double confidence, const QString &cause,
                    const QStringList &recipes)
{
    return newFinding(rule, Level::L3, title, severity, confidence,
                      SourceSpan{kernel.sourcePath, line.line, 0, line.line, 0}, cause, recipes);
}

int contiguousPerThread(const SourceLineFacts &line, bool store)
{
    for (const LineLayout &layout : line.layouts) {
        if (layout.kind == QLatin1String("blocked") && (layout.op == QLatin1String("tt.store")) == store)
            return layout.contiguousPerThread();
    }
    return 0;
}

// Narrow accesses over a layout that promised contiguity still read whole sectors across the warp
// (the extra instructions hit the same lines): cheap, measured at ~1.03x on an H200 for an
// unaligned elementwise kernel. Without proven contiguity each thread may touch its own sector.
Severity scalarAccessSeverity(const SourceLineFacts &line, int count, int contiguous)
{
    if (contiguous > 1)
        return line.inLoop ? Severity::Medium : Severity::Low;
    return line.inLoop || count >= 4 ? Severity::High : Severity::Medium;
}

void scalarAccess(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir,
                  QVector<Finding> &out)
{
    for (const bool store : {false, true}) {
        const int count = line.accessCount(QStringLiteral("ptx"), store);
        const int widest = line.maxAccessBits(QStringLiteral("ptx"), store);
        if (count < 2 || widest >= kNarrowAccessBits)
            continue;
        const QString what = store ? QStringLiteral("stores") : QStringLiteral("loads");
        const int contiguous = contiguousPerThread(line, store);
        // Loads of one scalar value (tt.load of a pointer, not a tensor) have no vector form;
        // every lane reads the same address, one sector for the warp.
        if (!store && line.ttgirLoads > 0 && line.scalarTtgirLoads == line.ttgirLoads)
            continue;
        const QString cause = contiguous > 1
            ? QStringLiteral("The layout gives each thread %1 contiguous elements, yet the %2 lower to %3 "
                             "separate %4-bit accesses: alignment or the mask's divisibility is not known to "
                             "the compiler. The warp's accesses still fall on the same sectors, so this mostly "
                             "costs instructions, not memory traffic.").arg(contiguous).arg(what).arg(count).arg(widest)
            : QStringLiteral("The compiler could not prove these addresses contiguous (1 element per thread "
                             "along the fastest axis), so the %1 are %2 separate %3-bit accesses.")
                  .arg(what).arg(count).arg(widest);
        Finding finding = lineFinding(kernel, line, QStringLiteral("L3.scalar-global-access"),
                                      QStringLiteral("Scalar global %1 (%2-bit)").arg(what).arg(widest),
                                      scalarAccessSeverity(line, count, contiguous), 0.9, cause,
                                      {QStringLiteral("divisibility-hints"), QStringLiteral("constexpr-unit-stride"),
                                       QStringLiteral("pad-to-block")});
        appendIf(finding, ir.irOp(ir.ptx(), line.line, startsWith(store ? "st.global" : "ld.global"),
                                  QStringLiteral("global %1 as issued in PTX").arg(what)));
        appendIf(finding, ir.irOp(ir.sass(), line.line, startsWith(store ? "STG" : "LDG"),
                                  QStringLiteral("the same in SASS")));
        finding.evidence.append(Evidence::metric(QStringLiteral("access_bits"), widest, QStringLiteral("bits")));
        finding.evidence.append(Evidence::metric(QStringLiteral("instructions"), count, QString(),
                                                 QStringLiteral("PTX global %1 on this line").arg(what)));
        if (contiguous > 0)
            finding.evidence.append(Evidence::metric(QStringLiteral("contiguous_per_thread"), contiguous,
                                                     QStringLiteral("elements"), QStringLiteral("TTGIR layout sizePerThread along order[0]")));
        finding.evidence += ir.remarks(line.line, QStringLiteral("vectorization fails"));
        out.append(finding);
    }
}

// A dot outside every loop of a kernel that loops runs once per program, while the loop's work
// runs once per iteration: its cost is small beside the loop's, whatever it compiles to.
bool offTheLoopPath(const KernelIrFacts &kernel, const SourceLineFacts &line)
{
    return !line.inLoop && std::any_of(kernel.lines.cbegin(), kernel.lines.cend(),
                                       [](const SourceLineFacts &other) { return other.inLoop; });
}

// A dot on FMAs does M*N*K FMAs per execution and is fed (M*K + K*N) operand elements: at most
// 2*M*N*K / ((M*K + K*N) * bytes) = 2*M*N / ((M + N) * bytes) FLOP per operand byte (K cancels).
// sm_90's FP32 pipe does 128 FMAs (256 FLOP) per SM and clock against ~14 bytes per SM and clock
// of HBM (3.35 TB/s over 132 SMs at 1.83 GHz): a balance of ~18 FLOP/B. A tile under half of it
// (16 rows of fp32 times 64 columns: 6.4 FLOP/B) spends less time on its FMAs than its operands
// take to arrive, so tensor cores would shorten the shorter side (review pattern N1: a 16x16 mask
// times [16, 64], a cumulative sum as a matmul); a GEMM tile (64x64 fp32: 16 FLOP/B) is not that.
constexpr double kFp32FmaFlopsPerClock = 256;
constexpr double kHbmBytesPerClock = 13.9;

struct DotTile {
    qint64 m = 0, n = 0, k = 0;
    int bytes = 0;
    double flopsPerOperandByte() const { return 2.0 * m * n / double((m + n) * bytes); }
};

// M, N, K and the operand width of the dot op on `line`, from its TTGIR type
// (`tt.dot %a, %b, %c : tensor<MxKxf32, ..> * tensor<KxNxf32, ..> -> ..`).
std::optional<DotTile> dotTile(const SourceLineFacts &line, const EvidenceSource &ir)
{
    const StageListing *ttgir = ir.listing(ir.ttgir());
    if (!ttgir || line.dotIrLine < 0 || line.dotIrLine >= ttgir->lineCount())
        return std::nullopt;
    const QString &text = ttgir->lines[line.dotIrLine].text;
    const int colon = text.indexOf(QLatin1String(" : "));
    if (colon < 0)
        return std::nullopt;
    static const QRegularExpression operand(QStringLiteral("tensor<((?:\\d+x)+)(f32|f16|bf16|f64|tf32)"));
    QVector<QVector<qint64>> shapes;
    int bytes = 0;
    for (auto it = operand.globalMatch(text, colon); it.hasNext() && shapes.size() < 2;) {
        const QRegularExpressionMatch match = it.next();
        QVector<qint64> dims;
        for (const QString &dim : match.captured(1).split(u'x', Qt::SkipEmptyParts))
            dims.append(dim.toLongLong());
        if (shapes.isEmpty())
            bytes = match.captured(2) == QLatin1String("f64") ? 8 : match.captured(2).endsWith(QLatin1String("16")) ? 2 : 4;
        shapes.append(dims);
    }
    if (shapes.size() < 2 || shapes[0].size() < 2 || shapes[1].size() < 2)
        return std::nullopt;
    const DotTile tile{shapes[0][shapes[0].size() - 2], shapes[1].last(), shapes[0].last(), bytes};
    if (tile.m <= 0 || tile.n <= 0 || tile.k <= 0 || tile.bytes <= 0)
        return std::nullopt;
    return tile;
}

void fmaDot(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir, QVector<Finding> &out)
{
    if (line.dotKind != DotKind::Fma)
        return;
    const bool once = offTheLoopPath(kernel, line);
    const std::optional<DotTile> tile = dotTile(line, ir);
    const double balance = kFp32FmaFlopsPerClock / kHbmBytesPerClock;
    const bool lowIntensity = tile && tile->flopsPerOperandByte() < balance / 2;
    QString note;
    if (once)
        note = QStringLiteral(" It runs once per program, outside the loop that does the kernel's work: present, not the cause.");
    else if (lowIntensity)
        note = QStringLiteral(" Cost estimated, not measured: a %1x%2x%3 tile does at most %4 FLOP per operand byte, under "
                              "half of the FP32 FMA balance (~%5 FLOP/B on sm_90), so its FMAs take less time than its "
                              "operands take to arrive; tensor cores would shorten the shorter side.")
                   .arg(tile->m).arg(tile->n).arg(tile->k).arg(tile->flopsPerOperandByte(), 0, 'f', 1).arg(balance, 0, 'f', 0);
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.fma-dot"), QStringLiteral("Dot lowered to FMA"),
                                  once ? Severity::Low : lowIntensity ? Severity::Medium : Severity::High, 0.95,
                                  QStringLiteral("The dot kept a blocked layout instead of an MMA layout, so it runs "
                                                 "as %1 scalar FMAs instead of on tensor cores.%2").arg(line.fmaInstructions).arg(note),
                                  {QStringLiteral("dot-tf32-or-3xtf32"), QStringLiteral("dot-bf16-inputs"),
                                   QStringLiteral("grow-dot-tile")});
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("tt.dot"), QStringLiteral("tt.dot without an MMA layout")));
    finding.evidence.append(Evidence::metric(QStringLiteral("fma_instructions"), line.fmaInstructions, QString()));
    if (tile)
        finding.evidence.append(Evidence::metric(QStringLiteral("dot_flops_per_operand_byte"), tile->flopsPerOperandByte(),
                                                 QStringLiteral("FLOP/B"),
                                                 QStringLiteral("%1x%2x%3 tile (M x N x K), %4-byte operands: 2*M*N*K / ((M*K + K*N) * bytes)")
                                                     .arg(tile->m).arg(tile->n).arg(tile->k).arg(tile->bytes)));
    finding.evidence += ir.remarks(line.line, QStringLiteral("MMA"));
    out.append(finding);
}

// Hopper's wgmma needs whole warpgroups (num_warps a multiple of 4) and an M tile that is a
// multiple of 64 rows (one instruction covers 64 rows per warpgroup); short of that,
// AccelerateMatmul falls back to Ampere's mma.sync, which reaches a fraction of the tensor peak.
bool hasWgmma(const QString &target)
{
    const QString digits = QString(target).remove(QStringLiteral("sm_")).remove(u'a');
    return digits.toInt() >= 90;
}

QString whyNotWgmma(const KernelIrFacts &kernel, const SourceLineFacts &line)
{
    QStringList reasons;
    const int m = line.dotShape.size() >= 2 ? line.dotShape[line.dotShape.size() - 2] : 0;
    if (kernel.numWarps > 0 && kernel.numWarps % 4 != 0)
        reasons << QStringLiteral("num_warps=%1 is not a whole number of 4-warp warpgroups").arg(kernel.numWarps);
    if (m > 0 && m % 64 != 0)
        reasons << QStringLiteral("the tile has M=%1 rows, and wgmma covers 64 rows per warpgroup").arg(m);
    return reasons.isEmpty() ? QStringLiteral("the operand types or the tile shape rule wgmma out")
                             : reasons.join(QStringLiteral("; "));
}

void mmaSyncDot(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir, QVector<Finding> &out)
{
    if (line.dotKind != DotKind::SyncMatrix || !hasWgmma(kernel.target))
        return;
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.mma-sync-dot"),
                                  QStringLiteral("Dot on mma.sync, not wgmma"), line.inLoop ? Severity::High : Severity::Medium, 0.9,
                                  QStringLiteral("On %1 the dot compiled to Ampere's mma.sync (MMA v2) instead of Hopper's "
                                                 "asynchronous wgmma: %2. mma.sync reaches well under half of the tensor-core peak.")
                                      .arg(kernel.target, whyNotWgmma(kernel, line)),
                                  {QStringLiteral("grow-dot-tile"), QStringLiteral("retune-num-warps")});
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("tt.dot"), QStringLiteral("tt.dot with an MMA v2 layout")));
    appendIf(finding, ir.irOp(ir.ptx(), line.line, startsWith("mma.sync"), QStringLiteral("Ampere MMA instruction")));
    if (line.dotShape.size() >= 2)
        finding.evidence.append(Evidence::metric(QStringLiteral("dot_tile_m"), line.dotShape[line.dotShape.size() - 2], QStringLiteral("elements")));
    finding.evidence.append(Evidence::metric(QStringLiteral("num_warps"), kernel.numWarps, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("mma_instructions"), line.mmaInstructions, QString()));
    out.append(finding);
}

// A descriptor (TMA) load in the dot loop whose shared buffer is allocated per iteration, not
// multi-buffered: the copy is issued and waited for in the same iteration, so no load overlaps
// the dot.
void singleBufferedTmaLoad(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir,
                           QVector<Finding> &out)
{
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.unpipelined-loop-load"),
                                  QStringLiteral("Dot-loop TMA load not pipelined"), Severity::High, 0.85,
                                  QStringLiteral("The TMA copy of this descriptor load goes into a single shared buffer "
                                                 "and is waited for in the same iteration (the pipeliner made no "
                                                 "multi-buffered copy: the kernel's num_stages is %1, a tl.range(num_stages=...) "
                                                 "can lower it for one loop), so every iteration waits on global memory "
                                                 "before its dot.").arg(kernel.numStages),
                                  {QStringLiteral("tl-range-num-stages")});
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("ttng.async_tma_copy_global_to_local"),
                              QStringLiteral("the TMA copy in the loop")));
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("ttng.wait_barrier"), QStringLiteral("its wait, same iteration")));
    finding.evidence.append(Evidence::metric(QStringLiteral("buffers"), line.buffers, QString(),
                                             QStringLiteral("largest multi-buffer depth of this line's shared allocations")));
    appendIf(finding, ir.pass(QStringLiteral("tritongpu-pipeline"), QStringLiteral("the pass that decides pipelining")));
    out.append(finding);
}

void unpipelinedLoad(const KernelIrFacts &kernel, const SourceLineFacts &line, bool loopHasDot,
                     const EvidenceSource &ir, QVector<Finding> &out)
{
    if (!loopHasDot || !line.inLoop)
        return;
    if (line.ttgirLoads == 0) {
        if (line.bulkTensorCopies > 0 && line.buffers <= 1)
            singleBufferedTmaLoad(kernel, line, ir, out);
        return;
    }
    const int narrowest = line.minAccessBits(QStringLiteral("ptx"), false);
    QString cause = QStringLiteral("The load stays a synchronous tt.load inside the dot loop: the pipeliner "
                                   "(num_stages=%1) made no async copy of it, so each iteration waits on global memory.")
                        .arg(kernel.numStages);
    if (narrowest > 0 && narrowest < kMinCopyBits)
        cause += QStringLiteral(" Its %1-bit accesses are below the 4-byte minimum of cp.async.").arg(narrowest);
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.unpipelined-loop-load"),
                                  QStringLiteral("Dot-loop load not pipelined"), Severity::High, 0.85, cause,
                                  {QStringLiteral("constexpr-unit-stride"), QStringLiteral("tl-range-num-stages")});
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("tt.load"), QStringLiteral("synchronous load in the loop")));
    finding.evidence.append(Evidence::metric(QStringLiteral("num_stages"), kernel.numStages, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("async_copies"), line.asyncCopies + line.asyncCopyInstructions, QString(),
                                             QStringLiteral("cp.async / async_copy ops on this line")));
    appendIf(finding, ir.pass(QStringLiteral("tritongpu-pipeline"), QStringLiteral("the pass that decides pipelining")));
    finding.evidence += ir.remarks(line.line, QStringLiteral("ipelin"));
    out.append(finding);
}

// Spills inside the loop run on every iteration; a handful outside it hardly matter.
Severity spillSeverity(int instructions, bool inLoop)
{
    const bool heavy = instructions >= kHeavySpillInstructions;
    if (heavy && inLoop)
        return Severity::High;
    return heavy || inLoop ? Severity::Medium : Severity::Low;
}

void spills(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir, QVector<Finding> &out)
{
    const int total = line.spillStores + line.spillLoads;
    if (total == 0)
        return;
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.register-spill"),
                                  QStringLiteral("Register spills: %1 local-memory accesses").arg(total),
                                  spillSeverity(total, line.inLoop), 0.95,
                                  QStringLiteral("ptxas ran out of registers (%1 used) and moves this line's values "
                                                 "through local memory: %2 spill stores, %3 spill loads.")
                                      .arg(kernel.registers).arg(line.spillStores).arg(line.spillLoads),
                                  {QStringLiteral("shrink-tile"), QStringLiteral("retune-num-warps")});
    appendIf(finding, ir.irOp(ir.sass(), line.line, [](const QString &op) {
        return op.startsWith(QLatin1String("STL")) || op.startsWith(QLatin1String("LDL"));
    }, QStringLiteral("first spill instruction of this line")));
    finding.evidence.append(Evidence::metric(QStringLiteral("spill_stores"), line.spillStores, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("spill_loads"), line.spillLoads, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("registers"), kernel.registers, QStringLiteral("regs")));
    finding.evidence.append(Evidence::metric(QStringLiteral("spill_store_bytes"), kernel.spillStoreBytes, QStringLiteral("bytes"),
                                             QStringLiteral("whole kernel, ptxas -v")));
    out.append(finding);
}

void sharedMemoryConversion(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir,
                            QVector<Finding> &out)
{
    if (line.convertLayouts == 0 || line.sharedStores == 0 || line.barriers == 0)
        return;
    Finding finding = lineFinding(kernel, line, QStringLiteral("L3.smem-layout-conversion"),
                                  QStringLiteral("Layout conversion through shared memory"),
                                  line.inLoop ? Severity::Medium : Severity::Low, 0.8,
                                  QStringLiteral("A convert_layout here survived layout optimisation and goes "
                                                 "through shared memory (%1 shared stores, %2 barriers)%3.")
                                      .arg(line.sharedStores).arg(line.barriers)
                                      .arg(line.inLoop ? QStringLiteral(" on every loop iteration") : QString()),
                                  {QStringLiteral("match-layouts")});
    appendIf(finding, ir.irOp(ir.ttgir(), line.line, equals("ttg.convert_layout"), QStringLiteral("the conversion")));
    appendIf(finding, ir.irOp(ir.ptx(), line.line, startsWith("bar.sync"), QStringLiteral("its barrier")));
    out.append(finding);
}

void serializedWgmma(const KernelIrFacts &kernel, const SourceLineFacts &line, const EvidenceSource &ir,
                     QVector<Finding> &out)
{
    if (line.dotKind != DotKind::AsyncMatrix)
        return;
    for (const QString &warning : kernel.assemblerWarnings) {
        if (!warning.contains(QLatin1String("wgmma.mma_async instructions are serialized")))
            continue;
        Finding finding = lineFinding(kernel, line, QStringLiteral("L3.wgmma-serialized"),
                                      QStringLiteral("wgmma serialized by ptxas"), Severity::High, 0.95,
                                      QStringLiteral("ptxas serialized the wgmma instructions of this dot, so "
                                                     "tensor-core work no longer overlaps: %1").arg(warning.section(u':', -1).trimmed()),
                                      {QStringLiteral("shrink-tile"), QStringLiteral("retune-num-warps")});
        appendIf(finding, ir.irOp(ir.ptx(), line.line, startsWith("wgmma.mma_async"), QStringLiteral("the serialized wgmma")));
        finding.evidence.append(Evidence::metric(QStringLiteral("registers"), kernel.registers, QStringLiteral("regs")));
        out.append(finding);
        return;
    }
}

// Few resident warps leave memory latency exposed. Kernels with an MMA dot are left out: they
// hide latency with large tiles and software pipelining, and one CTA per SM is their norm.
void lowOccupancy(const KernelIrFacts &kernel, QVector<Finding> &out)
{
    if (kernel.registers <= 0 || kernel.numWarps <= 0 || kernel.hasMmaDot())
        return;
    const int shared = kernel.staticSharedBytes + kernel.dynamicSharedBytes;
    const Occupancy occupancy = computeOccupancy(kernel.registers, shared, kernel.numWarps, SmLimits::forTarget(kernel.target));
    if (occupancy.theoretical >= kLowOccupancyFraction)
        return;
    Finding finding;
    finding.ruleId = QStringLiteral("L3.low-occupancy");
    finding.level = Level::L3;
    finding.span = SourceSpan{kernel.sourcePath, 0, 0, 0, 0};
    finding.confidence = 0.8;
    if (!occupancy.canLaunch()) {
        finding.title = QStringLiteral("Cannot launch: a resource exceeds the per-CTA maximum");
        finding.severity = Severity::High;
        finding.cause = QStringLiteral("The kernel needs %1 bytes of shared memory and %2 registers per thread; no CTA fits on an "
                                       "SM, so the launch fails with OutOfResources.").arg(shared).arg(kernel.registers);
    } else {
        finding.title = QStringLiteral("Low occupancy: %1 warps per SM (limit: %2)").arg(occupancy.activeWarps).arg(occupancy.limiter);
        finding.severity = Severity::Medium;
        finding.cause = QStringLiteral("%1 registers per thread, %2 bytes of shared memory and %3 warps per CTA let only %4 CTAs "
                                       "(%5 of 64 warps) reside on an SM; the %6 is the binding limit, leaving little to hide "
                                       "memory latency with.").arg(kernel.registers).arg(shared).arg(kernel.numWarps)
                            .arg(occupancy.activeBlocks).arg(occupancy.activeWarps).arg(occupancy.limiter);
    }
    finding.recipes = {QStringLiteral("shrink-tile"), QStringLiteral("retune-num-warps")};
    finding.evidence.append(Evidence::metric(QStringLiteral("theoretical_occupancy_pct"), occupancy.theoretical * 100, QStringLiteral("%"),
                                             QStringLiteral("computed against the SM's limits")));
    finding.evidence.append(Evidence::metric(QStringLiteral("registers"), kernel.registers, QStringLiteral("regs")));
    finding.evidence.append(Evidence::metric(QStringLiteral("shared_bytes"), shared, QStringLiteral("bytes")));
    finding.evidence.append(Evidence::metric(QStringLiteral("num_warps"), kernel.numWarps, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("blocks_per_sm"), occupancy.activeBlocks, QString()));
    out.append(finding);
}

} // namespace

QVector<Finding> NvidiaIrRules::findings(const KernelIrFacts &facts, const LoadedCompile &compile) const
{
    const EvidenceSource ir(compile);
    const bool loopHasDot = std::any_of(facts.lines.cbegin(), facts.lines.cend(), [](const SourceLineFacts &line) {
        return line.inLoop && line.dotKind != DotKind::None;
    });
    QVector<Finding> findings;
    for (const SourceLineFacts &line : facts.lines) {
        scalarAccess(facts, line, ir, findings);
        if (facts.gpuIrRead) {  // layouts, dot kinds and loops come from the TTGIR alone
            fmaDot(facts, line, ir, findings);
            mmaSyncDot(facts, line, ir, findings);
            unpipelinedLoad(facts, line, loopHasDot, ir, findings);
            serializedWgmma(facts, line, ir, findings);
            sharedMemoryConversion(facts, line, ir, findings);
        }
        spills(facts, line, ir, findings);
    }
    lowOccupancy(facts, findings);
    return findings;
}

QStringList NvidiaIrRules::gpuIrRules() const
{
    return {QStringLiteral("L3.fma-dot"), QStringLiteral("L3.mma-sync-dot"), QStringLiteral("L3.unpipelined-loop-load"),
            QStringLiteral("L3.wgmma-serialized"), QStringLiteral("L3.smem-layout-conversion")};
}

} // namespace strata::nvidia
