// L1 rules on tile shapes and the launch configuration: they compare what the kernel builds
// (tl.arange extents, tl.zeros shapes, from the spec's constexprs) with num_warps.
#include "diagnosis/l1_triage/TriageRules.h"

#include <QJsonArray>

#include <algorithm>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

constexpr qint64 kTinyTile = 128;              // at most one element per thread of 4 warps: no vector access
constexpr qint64 kMinDotDim = 16;              // smallest MMA instruction dimension
constexpr qint64 kMaxAccumulatorPerThread = 128;  // fp32 accumulator registers before spills loom
constexpr qint64 kMaxElementsPerThread = 64;   // element-wise: beyond this, more warps help
constexpr qint64 kVectorElements = 4;          // a 16-byte access holds 4 32-bit elements
constexpr int kDefaultWarps = 4;               // Triton's default: fewer warps is always an option

bool hasDot(const KernelView &kernel)
{
    return !kernel.callsOf("dot").isEmpty();
}

SourceSpan headerSpan(const KernelView &kernel)
{
    SourceSpan span = kernel.span(kernel.function());
    span.endLine = span.line;
    span.endColumn = 0;
    return span;
}

// A load inside a loop whose induction variable moves its address: the program walks data, so
// its work is the tile times the trips, not the tile.
bool walksDataInLoop(const KernelView &kernel)
{
    const QVector<LocatedNode> loads = kernel.callsOf("load");
    return std::any_of(loads.cbegin(), loads.cend(), [&](const LocatedNode &load) {
        return walkingLoop(kernel, load, kernel.dependencies(argument(load.node, 0, "pointer"))) != nullptr;
    });
}

} // namespace

QVector<Finding> tinyBlock(const KernelView &kernel)
{
    const KernelView::Tile tile = kernel.largestTile();
    if (tile.elements <= 0 || tile.elements > kTinyTile || walksDataInLoop(kernel))
        return {};
    Finding finding = makeFinding(kernel, QStringLiteral("L1.tiny-block"),
                                  QStringLiteral("Tiny tile: %1 elements per program").arg(tile.elements),
                                  Severity::Medium, 0.8, tile.node,
                                  QStringLiteral("Each program handles only %1 elements, so launch and "
                                                 "index overhead dominate and memory requests stay small.")
                                      .arg(tile.elements),
                                  {QStringLiteral("grow-block"), QStringLiteral("autotune-blocks")});
    finding.evidence.append(Evidence::metric(QStringLiteral("tile_elements"), double(tile.elements), QStringLiteral("elements")));
    noteFedAccesses(finding, kernel, tile.node);
    return {finding};
}

QVector<Finding> blockNotPowerOfTwo(const KernelView &kernel)
{
    QVector<Finding> findings;
    const auto report = [&](const Node &node, qint64 extent) {
        Finding finding = makeFinding(kernel, QStringLiteral("L1.block-not-pow2"),
                                      QStringLiteral("Tile dimension %1 is not a power of 2").arg(extent),
                                      Severity::High, 0.95, node,
                                      QStringLiteral("Triton tiles must have power-of-2 dimensions; %1 fails "
                                                     "to compile or forces padding to %2.")
                                          .arg(extent).arg(qint64(1) << (64 - __builtin_clzll(quint64(extent)))),
                                      {QStringLiteral("pow2-block-with-mask")});
        finding.evidence.append(Evidence::metric(QStringLiteral("tile_dimension"), double(extent), QStringLiteral("elements")));
        findings.append(finding);
    };
    for (const LocatedNode &call : kernel.calls()) {
        if (isTritonCall(call.node, "arange")) {
            const auto extent = kernel.arangeExtent(call.node);
            if (extent && *extent > 0 && !isPowerOfTwo(*extent))
                report(call.node, *extent);
        } else if (isTritonCall(call.node, "zeros") || isTritonCall(call.node, "full")) {
            const Node shape = argument(call.node, 0, "shape");
            const QJsonArray dims = (isType(shape, "Tuple") || isType(shape, "List")) ? children(shape, "elts")
                                                                                      : QJsonArray{shape};
            for (const QJsonValue &dim : dims) {
                const auto value = kernel.constValue(dim.toObject());
                if (value && *value > 0 && !isPowerOfTwo(*value))
                    report(dim.toObject(), *value);
            }
        }
    }
    return findings;
}

QVector<Finding> smallDotTile(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &dot : kernel.callsOf("dot")) {
        QVector<qint64> extents = kernel.arangeExtents(argument(dot.node, 0, "input"));
        extents += kernel.arangeExtents(argument(dot.node, 1, "other"));
        if (extents.isEmpty())
            continue;
        const qint64 smallest = *std::min_element(extents.cbegin(), extents.cend());
        if (smallest >= kMinDotDim)
            continue;
        Finding finding = makeFinding(kernel, QStringLiteral("L1.small-dot-tile"),
                                      QStringLiteral("tl.dot on a tile dimension of %1").arg(smallest),
                                      Severity::High, 0.85, dot.node,
                                      QStringLiteral("An operand tile dimension of %1 is below the 16 that "
                                                     "tensor-core MMA instructions need, so the dot is padded "
                                                     "or falls back to FMA.").arg(smallest),
                                      {QStringLiteral("grow-dot-tile")});
        finding.evidence.append(Evidence::metric(QStringLiteral("smallest_operand_dim"), double(smallest), QStringLiteral("elements")));
        findings.append(finding);
    }
    return findings;
}

QVector<Finding> numWarpsMismatch(const KernelView &kernel)
{
    if (!kernel.hasSpec())
        return {};
    const qint64 threads = qint64(kernel.numWarps()) * 32;
    const bool dot = hasDot(kernel);
    const KernelView::Tile tile = kernel.largestTile(dot);
    if (tile.elements <= 0)
        return {};
    const double perThread = double(tile.elements) / double(threads);
    QString cause;
    if (tile.elements < threads)
        cause = QStringLiteral("%1 warps (%2 threads) share a tile of %3 elements, so threads hold "
                               "replicated data and do redundant work.").arg(kernel.numWarps()).arg(threads).arg(tile.elements);
    else if (dot && perThread > kMaxAccumulatorPerThread)
        cause = QStringLiteral("A %1-element accumulator over %2 warps needs %3 fp32 registers per thread "
                               "for the accumulator alone, which forces spills.").arg(tile.elements).arg(kernel.numWarps()).arg(perThread);
    else if (!dot && kernel.numWarps() > kDefaultWarps && perThread < kVectorElements)
        cause = QStringLiteral("%1 warps split a %2-element tile into %3 elements per thread: too few for 16-byte "
                               "accesses, and every reduction over the tile crosses %1 warps through shared memory "
                               "and barriers. Fewer warps give each thread a vector's worth.")
                    .arg(kernel.numWarps()).arg(tile.elements).arg(perThread);
    else if (!dot && perThread > kMaxElementsPerThread)
        cause = QStringLiteral("%1 elements over %2 warps is %3 per thread; more warps would hide "
                               "memory latency better.").arg(tile.elements).arg(kernel.numWarps()).arg(perThread);
    if (cause.isEmpty())
        return {};
    Finding finding = makeFinding(kernel, QStringLiteral("L1.num-warps-mismatch"),
                                  QStringLiteral("num_warps=%1 does not fit a %2-element tile").arg(kernel.numWarps()).arg(tile.elements),
                                  Severity::Medium, 0.7, tile.node, cause,
                                  {QStringLiteral("retune-num-warps"), QStringLiteral("autotune-blocks")});
    finding.evidence.append(Evidence::metric(QStringLiteral("num_warps"), kernel.numWarps(), QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("elements_per_thread"), perThread, QStringLiteral("elements")));
    return {finding};
}

QVector<Finding> missingAutotune(const KernelView &kernel)
{
    for (const QString &decorator : kernel.decorators()) {
        if (decorator.endsWith(QLatin1String("autotune")))
            return {};
    }
    if (!hasDot(kernel))
        return {};
    // Constexpr parameters that size a tile: the knobs autotuning would turn.
    QStringList knobs;
    for (const LocatedNode &call : kernel.calls()) {
        if (!isTritonCall(call.node, "arange"))
            continue;
        for (const QString &name : namesRead(argument(call.node, 1, "end"))) {
            const KernelParam *param = kernel.param(name);
            if (param && param->isConstexpr && !knobs.contains(name))
                knobs.append(name);
        }
    }
    if (knobs.size() < 2)
        return {};
    Finding finding = makeFinding(kernel, QStringLiteral("L1.no-autotune"),
                                  QStringLiteral("Tile sizes are fixed, not autotuned"),
                                  Severity::Info, 0.6, kernel.function(),
                                  QStringLiteral("The tile sizes (%1) are fixed at launch, and the best tile "
                                                 "for a dot kernel depends on the problem shape and GPU.")
                                      .arg(knobs.join(QStringLiteral(", "))),
                                  {QStringLiteral("autotune-blocks")});
    finding.span = headerSpan(kernel);
    finding.evidence.first() = Evidence::span(finding.span, QStringLiteral("kernel without @triton.autotune"));
    for (const QString &knob : knobs)
        finding.evidence.append(Evidence::span(kernel.param(knob)->span, QStringLiteral("tile-size parameter")));
    return {finding};
}

} // namespace strata::diagnosis::rules
