#include "diagnosis/ladder/StaticCost.h"

#include "compile/LoadedCompile.h"
#include "diagnosis/l4_compiler/CompilerTrace.h"

#include <algorithm>

namespace strata::diagnosis {

namespace {

// A line's global bytes, a line in a loop weighted by kAssumedLoopTrips.
double weightedBytes(const SourceLineFacts &line)
{
    return line.globalBytes * (line.inLoop ? kAssumedLoopTrips : 1);
}

double kernelBytes(const KernelIrFacts &facts)
{
    double total = 0;
    for (const SourceLineFacts &line : facts.lines)
        total += weightedBytes(line);
    return total;
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

double metricValue(const Finding &finding, const char *name, double fallback)
{
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *metric = std::get_if<MetricEvidence>(&evidence.data); metric && metric->name == QLatin1String(name))
            return metric->value;
    }
    return fallback;
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
    CompilerTrace trace;
    double totalBytes = 0;
    bool dotFree = true;
    bool dotLoop = false;
};

// The line's share of the kernel's weighted global bytes; -1 when unknown (no TTGIR type gave
// the line a size: it is never called cheap by its bytes).
double byteShare(const CostContext &context, int sourceLine)
{
    const SourceLineFacts *line = context.facts.line(sourceLine);
    if (!line || context.totalBytes <= 0 || line->globalBytes <= 0)
        return -1;
    return weightedBytes(*line) / context.totalBytes;
}

// A narrow access's cost: its share of the bytes, and whether its lanes can over-fetch sectors.
// Adjacent lanes lose vector width only (measured 1.03x-1.08x on the H200); outside a dot loop
// an unproven contiguity is a run-time question (decoded indices of a contiguous tensor are
// adjacent at run time); inside a dot loop it also keeps the operand from cp.async / wgmma.
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
bool costUnpipelinedLoad(Finding &finding, const CostContext &context)
{
    const double share = byteShare(context, finding.span.line);
    if (share < 0 || share >= kSmallByteShare)
        return false;
    return capSeverity(finding, Severity::Low, share,
                       QStringLiteral("this load moves ~%1% of the kernel's global bytes").arg(qRound(share * 100)));
}

// wgmma's smallest tile is 64 rows per warpgroup: a dot of at most 16 rows would fill a quarter
// of one, so mma.sync (16-row instructions) is the right path and nothing is lost to it.
bool costMmaSyncDot(Finding &finding)
{
    const double rows = metricValue(finding, "dot_tile_m", 0);
    if (rows <= 0 || rows > 16)
        return false;
    return capSeverity(finding, Severity::Low, 0,
                       QStringLiteral("a %1-row dot would use a quarter of wgmma's 64-row tile at best").arg(rows));
}

// A run-time unit stride in a dot-free kernel costs vector width (scalar instructions over the
// same sectors: measured 1.08x), not traffic; in a dot loop it also blocks cp.async and wgmma
// operands (measured 21.6x), so that case keeps the rule's severity.
bool costHiddenUnitStride(Finding &finding, const CostContext &context)
{
    if (!context.dotFree)
        return false;
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
    if (rule == QLatin1String("L3.mma-sync-dot"))
        return costMmaSyncDot(finding);
    if (rule == QLatin1String("L1.runtime-unit-stride"))
        return costHiddenUnitStride(finding, context);
    return false;
}

} // namespace

QStringList applyStaticCosts(Diagnosis &diagnosis, const KernelIrFacts &facts, const LoadedCompile &compile)
{
    CostContext context{facts, compile, {}, 0, !hasDot(facts), loopHasDot(facts)};
    if (compile.result.artifacts.contains(QStringLiteral("debug_trace"))) {
        if (Expected<CompilerTrace> read = readCompilerTrace(compile.result.artifacts.value(QStringLiteral("debug_trace")).path))
            context.trace = *read;
    }
    context.totalBytes = kernelBytes(facts);
    QStringList changes;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            const Severity before = finding.severity;
            if (applyCost(finding, context))
                changes << QStringLiteral("%1 at line %2: %3 -> %4 (estimated share %5)")
                               .arg(finding.ruleId).arg(finding.span.line)
                               .arg(severityName(before), severityName(finding.severity))
                               .arg(finding.gapShare->share, 0, 'f', 2);
        }
    }
    return changes;
}

} // namespace strata::diagnosis
