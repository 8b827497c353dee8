#include "diagnosis/ladder/StaticCost.h"

#include "compile/LoadedCompile.h"
#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/l4_compiler/CompilerTrace.h"
#include "diagnosis/model/ElementTypes.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <optional>

namespace strata::diagnosis {

namespace {

// How many times a line runs per program: the product of the iterations of the source loops
// around it, each as launched when known, else kAssumedLoopTrips; a line the IR puts in a loop
// no source loop encloses (an inlined helper's loop) counts kAssumedLoopTrips.
double lineExecutions(const SourceLineFacts &line, const QVector<LoopAtLaunch> &loops)
{
    double executions = 1;
    bool enclosed = false;
    for (const LoopAtLaunch &loop : loops) {
        if (line.line < loop.firstLine || line.line > loop.lastLine)
            continue;
        enclosed = true;
        executions *= loop.trips ? double(std::max<qint64>(*loop.trips, 1)) : double(kAssumedLoopTrips);
    }
    if (!enclosed && line.inLoop)
        executions = kAssumedLoopTrips;
    return executions;
}

// The innermost source loop around a line (the one whose header is last), or null.
const LoopAtLaunch *innermostLoop(int sourceLine, const QVector<LoopAtLaunch> &loops)
{
    const LoopAtLaunch *innermost = nullptr;
    for (const LoopAtLaunch &loop : loops) {
        if (sourceLine >= loop.firstLine && sourceLine <= loop.lastLine && (!innermost || loop.firstLine > innermost->firstLine))
            innermost = &loop;
    }
    return innermost;
}

bool hasDot(const KernelIrFacts &facts)
{
    return std::any_of(facts.lines.cbegin(), facts.lines.cend(),
                       [](const SourceLineFacts &line) { return line.dotKind != DotKind::None; });
}

bool loopHasDot(const KernelIrFacts &facts)
{
    return std::any_of(facts.lines.cbegin(), facts.lines.cend(),
                       [](const SourceLineFacts &line) { return line.inLoop && line.dotKind != DotKind::None; });
}

// Lowers `finding` to `cap` (never raises it) with its estimated share and the reason; true when
// the severity changed.
bool capSeverity(Finding &finding, Severity cap, double share, const QString &reason)
{
    finding.gapShare = GapShare{share, true};
    if (finding.severity <= cap)
        return false;
    finding.severity = cap;
    finding.cause = (cap <= Severity::Low
                         ? QStringLiteral("%1: %2): ").arg(QString::fromLatin1(kEstimatedNotCausePrefix), reason)
                         : QString::fromLatin1(kEstimatedCostPrefix) + reason + QStringLiteral(". "))
        + finding.cause;
    finding.evidence.append(Evidence::metric(QStringLiteral("estimated_share"), share, QString(),
                                             QStringLiteral("estimated from IR and launch facts, not measured")));
    return true;
}

// Whether the compiler's axis analysis proved every traced access of this line's kind, shape and
// element type contiguous along its fastest axis: the warp's lanes then read adjacent elements,
// whole sectors, and a narrow access costs instructions only. The coalesce pass may still give
// one element per thread (for alignment), which is why the layout alone cannot say this.
bool lanesAdjacent(const SourceLineFacts &line, bool store, const LoadedCompile &compile, const CompilerTrace &trace)
{
    const QString kind = store ? QStringLiteral("tt.store") : QStringLiteral("tt.load");
    const StageListing *ttgir = compile.listing(QStringLiteral("ttgir"));
    bool any = false;
    for (const LineLayout &layout : line.layouts) {
        if (layout.op != kind)
            continue;
        if (layout.kind == QLatin1String("blocked") && layout.contiguousPerThread() > 1)
            return true;
        QString shape, element;
        if (!ttgir || layout.irLine < 0 || layout.irLine >= ttgir->lineCount()
            || !pointerTensorOf(ttgir->lines[layout.irLine].text, &shape, &element))
            return false;
        const int fastest = layout.order.isEmpty() ? 0 : layout.order.first();
        for (const TracedAccess &access : trace.accesses) {
            if (access.op != kind || access.shape != shape || access.element != element)
                continue;
            if (access.contiguity.value(fastest, 1) <= 1)
                return false;  // one access of this type was not proven contiguous: do not guess
            any = true;
        }
    }
    return any;
}

bool isStoreFinding(const Finding &finding)
{
    return finding.title.contains(QLatin1String("stores"));
}

struct CostContext {
    const KernelIrFacts &facts;
    const LoadedCompile &compile;
    const QVector<LoopAtLaunch> &loops;
    CompilerTrace trace;
    double totalBytes = 0;
    bool dotFree = true;
    bool dotLoop = false;

    double weightedBytes(const SourceLineFacts &line) const { return line.globalBytes * lineExecutions(line, loops); }
    double kernelBytes() const
    {
        double total = 0;
        for (const SourceLineFacts &line : facts.lines)
            total += weightedBytes(line);
        return total;
    }
};

// The line's share of the kernel's weighted global bytes; -1 when unknown (no TTGIR type gave
// the line a size: it is never called cheap by its bytes).
double byteShare(const CostContext &context, int sourceLine)
{
    const SourceLineFacts *line = context.facts.line(sourceLine);
    if (!line || context.totalBytes <= 0 || line->globalBytes <= 0)
        return -1;
    return context.weightedBytes(*line) / context.totalBytes;
}

// A narrow access's cost: its share of the bytes, and whether its lanes can over-fetch sectors.
// Adjacent lanes lose vector width only (measured 1.03x-1.08x on the H200); outside a dot loop
// an unproven contiguity is a run-time question (decoded indices of a contiguous tensor are
// adjacent at run time); inside a dot loop it also keeps the operand from the asynchronous copies
// that feed the matrix unit, so the rule keeps its severity there.
bool costScalarAccess(Finding &finding, const CostContext &context)
{
    const SourceLineFacts *line = context.facts.line(finding.span.line);
    const double share = byteShare(context, finding.span.line);
    if (!line || share < 0)
        return false;
    if (share < kSmallByteShare)
        return capSeverity(finding, Severity::Low, share,
                           QStringLiteral("this line moves ~%1% of the kernel's global bytes").arg(qRound(share * 100)));
    if (lanesAdjacent(*line, isStoreFinding(finding), context.compile, context.trace)) {
        // The rule read "no contiguity" from the layout, which the coalesce pass also narrows
        // for alignment; the axis analysis says the addresses are contiguous, only not aligned.
        finding.cause = QStringLiteral("The compiler proved these addresses contiguous but not aligned (its axis analysis), "
                                       "so each thread issues %1 separate %2-bit accesses; the warp still reads whole "
                                       "sectors.").arg(metricValue(finding, "instructions", 0)).arg(metricValue(finding, "access_bits", 0));
        return capSeverity(finding, line->inLoop ? Severity::Medium : Severity::Low, share * 0.1,
                           QStringLiteral("narrow accesses over contiguous addresses cost instructions, not memory traffic "
                                          "(measured 1.03x-1.08x)"));
    }
    if (!(line->inLoop && context.dotLoop))
        return capSeverity(finding, Severity::Medium, share * 0.5,
                           QStringLiteral("outside any dot loop the cost depends on the run-time addresses: adjacent lanes "
                                          "(a contiguous tensor's decoded index) lose vector width only, strided lanes "
                                          "over-fetch sectors"));
    return false;
}

// A dot-loop load that is not pipelined costs its latency per iteration in proportion to the
// bytes it brings; a small side load beside the loop's tiles is not the cause.
// A loop that runs once at this launch has no later iteration whose loads could overlap: a fact
// of the launch, true with or without measurements.
bool capSingleTripLoopLoad(Finding &finding, const QVector<LoopAtLaunch> &loops)
{
    const LoopAtLaunch *loop = innermostLoop(finding.span.line, loops);
    if (!loop || !loop->trips || *loop->trips > 1)
        return false;
    return capSeverity(finding, Severity::Low, 0,
                       QStringLiteral("the loop at line %1 runs %2 time(s) at this launch: no later iteration to "
                                      "overlap").arg(loop->firstLine).arg(*loop->trips));
}

bool costUnpipelinedLoad(Finding &finding, const CostContext &context)
{
    if (capSingleTripLoopLoad(finding, context.loops))
        return true;
    const double share = byteShare(context, finding.span.line);
    if (share < 0 || share >= kSmallByteShare)
        return false;
    return capSeverity(finding, Severity::Low, share,
                       QStringLiteral("this load moves ~%1% of the kernel's global bytes").arg(qRound(share * 100)));
}

// Where a blocked layout of a rank >= 2 memory op puts the warp's lanes first on an outer axis
// (not the tile's last one). With no contiguity proven on any axis the coalesce pass may order
// the threads that way; where the innermost axis is the contiguous one at run time (a hidden
// unit stride), one warp instruction then touches a separate run of `rowBytes` in each of
// `rows` rows, each run its own sector(s), instead of the fewest sectors its bytes fill.
struct OuterLanes {
    int axis = -1;
    int rows = 0;       // rows one warp instruction touches
    int rowBytes = 0;   // contiguous bytes per row and instruction
    double waste = 0;   // share of the touched sectors the instruction did not need
};

std::optional<OuterLanes> outerLanes(const SourceLineFacts &line, const LoadedCompile &compile)
{
    const StageListing *ttgir = compile.listing(QStringLiteral("ttgir"));
    for (const LineLayout &layout : line.layouts) {
        const int rank = layout.order.size();
        if (layout.kind != QLatin1String("blocked") || (layout.op != QLatin1String("tt.load") && layout.op != QLatin1String("tt.store"))
            || rank < 2 || layout.threadsPerWarp.size() != rank || layout.sizePerThread.size() != rank)
            continue;
        const int first = *std::find_if(layout.order.cbegin(), layout.order.cend(), [&](int axis) {
            return axis >= 0 && axis < rank && (layout.threadsPerWarp[axis] > 1 || axis == layout.order.last());
        });
        QString shape, element;
        if (first == rank - 1 || !ttgir || layout.irLine < 0 || layout.irLine >= ttgir->lineCount()
            || !pointerTensorOf(ttgir->lines[layout.irLine].text, &shape, &element) || mlirElementBytes(element) == 0)
            continue;
        OuterLanes lanes;
        lanes.axis = first;
        const int inner = rank - 1;
        lanes.rows = 32 / std::max(1, layout.threadsPerWarp[inner]);
        lanes.rowBytes = layout.threadsPerWarp[inner] * layout.sizePerThread[inner] * mlirElementBytes(element);
        const double touched = lanes.rows * std::ceil(lanes.rowBytes / 32.0);
        const double needed = std::ceil(lanes.rows * lanes.rowBytes / 32.0);
        lanes.waste = 1.0 - needed / touched;
        return lanes;
    }
    return std::nullopt;
}

// The finding's line and the lines of the accesses its code feeds.
QVector<int> accessLines(const Finding &finding)
{
    QVector<int> lines{finding.span.line};
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *span = std::get_if<SpanEvidence>(&evidence.data); span && evidence.note == QLatin1String(kFedAccessNote))
            lines.append(span->span.line);
    }
    return lines;
}

// A run-time unit stride in a dot-free kernel costs vector width (scalar instructions over the
// same sectors: measured 1.08x), not traffic, as long as the lanes walk the innermost axis; in a
// dot loop it also blocks the asynchronous copies of the matrix unit's operands (measured
// 21.6x), and where the compiler put the lanes on an outer axis they are strided at run time
// (measured 6.9x): both keep the rule's severity.
bool costHiddenUnitStride(Finding &finding, const CostContext &context)
{
    if (!context.dotFree)
        return false;
    for (const int line : accessLines(finding)) {
        const SourceLineFacts *facts = context.facts.line(line);
        const std::optional<OuterLanes> lanes = facts ? outerLanes(*facts, context.compile) : std::nullopt;
        // Rows whose runs fill their sectors (power-of-2 layouts waste none, or half and more)
        // cost vector width only, as lanes on the innermost axis do.
        if (!lanes || lanes->waste < 0.5)
            continue;
        finding.evidence.append(Evidence::metric(
            QStringLiteral("lane_axis"), lanes->axis, QString(),
            QStringLiteral("line %1: the TTGIR layout orders the warp's lanes along axis %2 first, not the innermost one: "
                           "one instruction touches %3 rows, %4 contiguous bytes in each")
                .arg(line).arg(lanes->axis).arg(lanes->rows).arg(lanes->rowBytes)));
        // Sectors touched but not needed: the traffic (or L1/L2 transactions) the lane order adds,
        // measured 6.9x where every lane touched its own row (7 of 8 sectors wasted).
        finding.gapShare = GapShare{lanes->waste, true};
        finding.evidence.append(Evidence::metric(QStringLiteral("estimated_share"), lanes->waste, QString(),
                                                 QStringLiteral("sectors the warp touches beyond those its bytes fill")));
        return false;
    }
    return capSeverity(finding, Severity::Medium, 0.1,
                       QStringLiteral("in a dot-free kernel a unit stride the compiler cannot see costs vector width "
                                      "(scalar instructions over the same sectors), not memory traffic"));
}

bool applyCost(Finding &finding, const CostContext &context)
{
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return costScalarAccess(finding, context);
    if (rule == QLatin1String("L3.unpipelined-loop-load"))
        return costUnpipelinedLoad(finding, context);
    if (rule == QLatin1String("L1.runtime-unit-stride"))
        return costHiddenUnitStride(finding, context);
    return false;
}

} // namespace

QStringList applyLaunchFacts(Diagnosis &diagnosis, const QVector<LoopAtLaunch> &loops)
{
    QStringList changes;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            const Severity before = finding.severity;
            if (finding.ruleId == QLatin1String("L3.unpipelined-loop-load") && capSingleTripLoopLoad(finding, loops))
                changes << QStringLiteral("%1 at line %2: %3 -> %4 (its loop runs once at this launch)")
                               .arg(finding.ruleId).arg(finding.span.line)
                               .arg(severityName(before), severityName(finding.severity));
        }
    }
    return changes;
}

QStringList applyStaticCosts(Diagnosis &diagnosis, const KernelIrFacts &facts, const LoadedCompile &compile,
                             const BackendIrRules &rules, const QVector<LoopAtLaunch> &loops)
{
    CostContext context{facts, compile, loops, {}, 0, !hasDot(facts), loopHasDot(facts)};
    if (compile.result.artifacts.contains(QStringLiteral("debug_trace"))) {
        if (Expected<CompilerTrace> read = readCompilerTrace(compile.result.artifacts.value(QStringLiteral("debug_trace")).path))
            context.trace = *read;
    }
    context.totalBytes = context.kernelBytes();
    QStringList changes;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            const Severity before = finding.severity;
            // The backend prices its own rules' findings first; the core's rules the rest.
            const std::optional<EstimatedCost> cost = rules.estimatedCost(finding, facts, compile);
            if (cost ? capSeverity(finding, cost->cap, cost->share, cost->reason) : applyCost(finding, context))
                changes << QStringLiteral("%1 at line %2: %3 -> %4 (estimated share %5)")
                               .arg(finding.ruleId).arg(finding.span.line)
                               .arg(severityName(before), severityName(finding.severity))
                               .arg(finding.gapShare->share, 0, 'f', 2);
        }
    }
    return changes;
}

} // namespace strata::diagnosis
