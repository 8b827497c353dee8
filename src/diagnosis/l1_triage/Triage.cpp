#include "diagnosis/l1_triage/Triage.h"

#include "diagnosis/l1_triage/TriageRules.h"

#include <algorithm>

namespace strata::diagnosis {

const QVector<TriageRule> &triageRules()
{
    using namespace rules;
    static const QVector<TriageRule> all = {
        {QStringLiteral("L1.tiny-block"), QStringLiteral("the largest tile a program builds is at most 128 elements (one per thread of 4 warps)"), tinyBlock},
        {QStringLiteral("L1.block-not-pow2"), QStringLiteral("a tl.arange extent or tile dimension is not a power of 2"), blockNotPowerOfTwo},
        {QStringLiteral("L1.small-dot-tile"), QStringLiteral("a tl.dot operand tile has a dimension under 16"), smallDotTile},
        {QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("num_warps does not fit the tile (idle threads or too many elements per thread)"), numWarpsMismatch},
        {QStringLiteral("L1.no-autotune"), QStringLiteral("a tl.dot kernel with constexpr tile sizes is not autotuned"), missingAutotune},
        {QStringLiteral("L1.runtime-unit-stride"), QStringLiteral("a run-time stride scales the innermost per-element offsets of a pointer"), runtimeUnitStride},
        {QStringLiteral("L1.int64-index"), QStringLiteral("a 64-bit cast in pointer arithmetic"), wideIndexCast},
        {QStringLiteral("L1.strided-access"), QStringLiteral("every per-element offset of a pointer is scaled by a constant other than 1"), stridedAccess},
        {QStringLiteral("L1.per-element-divmod"), QStringLiteral("per-element // or % by a non-power-of-2 in hot index math"), perElementDivMod},
        {QStringLiteral("L1.reload-same-pointer"), QStringLiteral("the same pointer expression loaded twice in one block"), reloadSamePointer},
        {QStringLiteral("L1.redundant-mask"), QStringLiteral("a mask against a constexpr bound that the tile divides"), redundantMask},
        {QStringLiteral("L1.unpipelined-dot-loop"), QStringLiteral("a loop that loads dot operands cannot be software-pipelined"), unpipelinedDotLoop},
        {QStringLiteral("L1.scalar-load-loop"), QStringLiteral("a python loop doing one scalar load per iteration"), scalarLoadLoop},
        {QStringLiteral("L1.atomic-in-loop"), QStringLiteral("an atomic inside a loop"), atomicInLoop},
        {QStringLiteral("L1.multi-pass-reread"), QStringLiteral("a tensor walked by two or more separate loops (read once per pass)"), multiPassReread},
        {QStringLiteral("L1.cross-program-reread"), QStringLiteral("a loop re-reads data that every program along a grid axis its address ignores reads too"), crossProgramReread},
        {QStringLiteral("L1.atomic-contention"), QStringLiteral("an atomic of a per-element value into one address of the tile, or into the same addresses from every program"), atomicContention},
        {QStringLiteral("L1.serial-recurrence"), QStringLiteral("a loop advancing one element per iteration carries a value and stores it every iteration (a serial scan)"), serialRecurrenceLoop},
        {QStringLiteral("L1.under-filled-grid"), QStringLiteral("the captured launch has fewer programs than the GPU has SMs"), underFilledGrid},
        {QStringLiteral("L1.host-launch-loop"), QStringLiteral("the forward launches one kernel 8 or more times"), hostLaunchLoop},
        {QStringLiteral("L1.torch-glue"), QStringLiteral("torch ops of the forward move half the kernel's tensor bytes or more"), torchGlue},
        {QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("a fp32 tl.dot with an implicit or ieee input precision"), fp32DotPrecision},
    };
    return all;
}

QVector<Finding> runTriage(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const TriageRule &rule : triageRules()) {
        QVector<Finding> found = rule.check(kernel);
        std::stable_sort(found.begin(), found.end(), [](const Finding &a, const Finding &b) {
            return a.span.line < b.span.line;
        });
        findings += found;
    }
    return findings;
}

Expected<QVector<Finding>> runTriage(const QJsonObject &astResult, const QJsonObject &spec)
{
    Expected<KernelView> kernel = KernelView::build(astResult, spec);
    if (!kernel)
        return kernel.error();
    return runTriage(*kernel);
}

QVector<LoopAtLaunch> loopsAtLaunch(const KernelView &kernel)
{
    QVector<LoopAtLaunch> loops;
    for (const LoopInfo &loop : kernel.loops()) {
        const SourceSpan span = kernel.span(loop.node);
        loops.append({span.line, std::max(span.line, span.endLine), rules::launchTripCount(kernel, loop)});
    }
    return loops;
}

Expected<QVector<LoopAtLaunch>> loopsAtLaunch(const QJsonObject &astResult, const QJsonObject &spec)
{
    Expected<KernelView> kernel = KernelView::build(astResult, spec);
    if (!kernel)
        return kernel.error();
    return loopsAtLaunch(*kernel);
}

namespace rules {

Finding makeFinding(const KernelView &kernel, const QString &ruleId, const QString &title,
                    Severity severity, double confidence, const pyast::Node &node, const QString &cause,
                    const QStringList &recipes)
{
    Finding finding = newFinding(ruleId, Level::L1, title, severity, confidence, kernel.span(node), cause, recipes);
    finding.evidence.append(Evidence::span(finding.span, QStringLiteral("code the rule matched")));
    return finding;
}

} // namespace rules

} // namespace strata::diagnosis
