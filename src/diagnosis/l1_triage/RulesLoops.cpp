// L1 rules on loops and dots: what the software pipeliner and the MMA lowering will see.
#include "diagnosis/l1_triage/TriageRules.h"

#include <QMap>

#include <algorithm>
#include <optional>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

constexpr int kMaxTraceDepth = 8;

bool containsInnerLoop(const Node &loop)
{
    bool found = false;
    for (const QJsonValue &statement : children(loop, "body")) {
        walk(statement.toObject(), [&](const Node &node, const QVector<Node> &) {
            found = found || isType(node, "For") || isType(node, "While");
        });
    }
    return found;
}

// num_stages a loop runs with: tl.range's own argument, else the launch option.
int loopStages(const KernelView &kernel, const LoopInfo &loop)
{
    if (loop.iterator == QLatin1String("tl.range")) {
        if (const auto stages = kernel.constValue(keyword(loop.iteratorCall, "num_stages")))
            return int(*stages);
    }
    return kernel.numStages();
}

bool isFp32PointerParam(const KernelParam *param)
{
    return param && param->isPointer() && param->type.endsWith(QLatin1String("fp32"));
}

// Whether a dot operand is fp32: traced back through names to a load of a fp32 pointer or a
// `.to(tl.float32)`.
bool isFp32Operand(const KernelView &kernel, const Node &expr, int depth = 0)
{
    if (depth > kMaxTraceDepth)
        return false;
    if (isMethodCall(expr, "to"))
        return dottedName(argument(expr, 0, "dtype")).endsWith(QLatin1String("float32"));
    if (isTritonCall(expr, "load")) {
        for (const QString &name : kernel.dependencies(argument(expr, 0, "pointer"))) {
            const KernelParam *param = kernel.param(name);
            if (param && param->isPointer())
                return isFp32PointerParam(param);
        }
        return false;
    }
    if (isType(expr, "Name")) {
        for (const Node &value : kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString()))
            if (isFp32Operand(kernel, value, depth + 1))
                return true;
        return false;
    }
    if (isType(expr, "BinOp"))
        return isFp32Operand(kernel, child(expr, "left"), depth + 1) || isFp32Operand(kernel, child(expr, "right"), depth + 1);
    return false;
}

// The element type of the pointer a value was loaded from, traced back through names; empty when
// it is not one load of a kernel pointer.
QString loadedType(const KernelView &kernel, const Node &expr, int depth = 0)
{
    if (depth > kMaxTraceDepth)
        return {};
    if (isTritonCall(expr, "load")) {
        for (const QString &name : kernel.dependencies(argument(expr, 0, "pointer"))) {
            const KernelParam *param = kernel.param(name);
            if (param && param->isPointer())
                return param->type.mid(1);
        }
        return {};
    }
    if (isType(expr, "Name")) {
        const QVector<Node> values = kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString());
        return values.size() == 1 ? loadedType(kernel, values.first(), depth + 1) : QString();
    }
    return {};
}

// A `.to(tl.float32)` of data loaded as 16 or 8 bits: the dot's operand was narrow in memory and
// is widened in registers, so the dot runs at the tf32 rate (half the fp16/bf16 tensor-core rate
// on Hopper, a quarter of int8's) and pays the conversions. Returns the narrow type, or empty.
QString upcastFrom(const KernelView &kernel, const Node &operand, int depth = 0)
{
    if (depth > kMaxTraceDepth)
        return {};
    if (isType(operand, "Name")) {
        const QVector<Node> values = kernel.assignmentsOf(operand.value(QStringLiteral("id")).toString());
        return values.size() == 1 ? upcastFrom(kernel, values.first(), depth + 1) : QString();
    }
    if (!isMethodCall(operand, "to") || !dottedName(argument(operand, 0, "dtype")).endsWith(QLatin1String("float32")))
        return {};
    static const QStringList narrow{QStringLiteral("fp16"), QStringLiteral("bf16"), QStringLiteral("i8"),
                                    QStringLiteral("u8"), QStringLiteral("fp8e4nv"), QStringLiteral("fp8e5")};
    const QString type = loadedType(kernel, child(child(operand, "func"), "value"));
    return narrow.contains(type) ? type : QString();
}

} // namespace

std::optional<qint64> constantTripCount(const KernelView &kernel, const LoopInfo &loop)
{
    if (loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range"))
        return std::nullopt;
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (args.isEmpty() || args.size() > 3)
        return std::nullopt;
    const auto start = args.size() == 1 ? std::optional<qint64>(0) : kernel.constValue(args[0].toObject());
    const auto stop = kernel.constValue(args[args.size() == 1 ? 0 : 1].toObject());
    const auto step = args.size() == 3 ? kernel.constValue(args[2].toObject()) : std::optional<qint64>(1);
    if (!start || !stop || !step || *step == 0)
        return std::nullopt;
    const qint64 span = *step > 0 ? *stop - *start : *start - *stop;
    const qint64 stride = *step > 0 ? *step : -*step;
    return span <= 0 ? 0 : (span + stride - 1) / stride;
}

// A loop bound as launched: a compile-time constant, or a run-time int parameter's value at the
// captured launch (scalar_args).
static std::optional<qint64> boundAtLaunch(const KernelView &kernel, const Node &expr)
{
    if (const std::optional<qint64> constant = kernel.constValue(expr))
        return constant;
    const KernelParam *param = isType(expr, "Name") ? kernel.param(expr.value(QStringLiteral("id")).toString()) : nullptr;
    return param ? param->launchValue : std::nullopt;
}

std::optional<qint64> launchTripCount(const KernelView &kernel, const LoopInfo &loop)
{
    if (const std::optional<qint64> trips = constantTripCount(kernel, loop))
        return trips;
    if (loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range"))
        return std::nullopt;
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (args.isEmpty() || args.size() > 3)
        return std::nullopt;
    const auto start = args.size() == 1 ? std::optional<qint64>(0) : boundAtLaunch(kernel, args[0].toObject());
    const auto stop = boundAtLaunch(kernel, args[args.size() == 1 ? 0 : 1].toObject());
    const auto step = args.size() == 3 ? boundAtLaunch(kernel, args[2].toObject()) : std::optional<qint64>(1);
    if (!start || !stop || !step || *step == 0)
        return std::nullopt;
    const qint64 span = *step > 0 ? *stop - *start : *start - *stop;
    const qint64 stride = *step > 0 ? *step : -*step;
    return span <= 0 ? 0 : (span + stride - 1) / stride;
}

// A loop finding's span narrowed to the loop's header, not its whole body.
static Finding atLoopHeader(Finding finding)
{
    finding.span.endLine = finding.span.line;
    finding.span.endColumn = 0;
    finding.evidence.first().data = SpanEvidence{finding.span};
    return finding;
}

// A dot loop that pipelines on its own but sits inside other loops: its pipeline fills and drains
// on every trip of them. The loops around the dot, outermost first, when `loop` is one of them and
// the innermost (the dot's own) is pipelined; empty otherwise.
static QVector<const LoopInfo *> pipelinedDotNest(const KernelView &kernel, const LoopInfo &loop)
{
    for (const LocatedNode &dot : kernel.callsOf("dot")) {
        const QVector<const LoopInfo *> loops = kernel.enclosingLoops(dot.ancestors);
        if (loops.size() < 2 || std::none_of(loops.cbegin(), loops.cend() - 1, [&loop](const LoopInfo *outer) {
                return outer->node == loop.node;
            }))
            continue;
        const LoopInfo &inner = *loops.last();
        if (inner.iterator == QLatin1String("tl.range") && loopStages(kernel, inner) > 1 && !containsInnerLoop(inner.node))
            return loops;
    }
    return {};
}

// Reported once, at the outermost loop of the nest, with the un-overlapped part of the dot loop's
// loads, (stages - 1) of every (trips + stages - 1), as its cost.
static Finding refilledDotPipeline(const KernelView &kernel, const QVector<const LoopInfo *> &loops)
{
    const LoopInfo &inner = *loops.last();
    const int stages = loopStages(kernel, inner);
    std::optional<qint64> refills = 1;
    for (qsizetype i = 0; i + 1 < loops.size(); ++i) {
        const std::optional<qint64> trips = launchTripCount(kernel, *loops.at(i));
        refills = refills && trips ? std::optional<qint64>(*refills * *trips) : std::nullopt;
    }
    const std::optional<qint64> innerTrips = launchTripCount(kernel, inner);
    const std::optional<double> share = innerTrips ? std::optional<double>(double(stages - 1) / double(*innerTrips + stages - 1))
                                                   : std::nullopt;
    const Severity severity = !share ? Severity::Medium : *share >= 0.15 ? Severity::High : *share >= 0.08 ? Severity::Medium : Severity::Low;
    const QString cause =
        QStringLiteral("The dot loop on line %1 is software-pipelined only inside this loop: its pipeline fills and "
                       "drains on each of %2 outer trips, and %3 of its loads wait un-overlapped%4.")
            .arg(lineOf(inner.node))
            .arg(refills ? QString::number(*refills) : QStringLiteral("the"))
            .arg(share ? QStringLiteral("%1 of every %2").arg(stages - 1).arg(*innerTrips + stages - 1)
                       : QStringLiteral("%1 per outer trip").arg(stages - 1))
            .arg(innerTrips ? QStringLiteral(" (%1 trips at this launch)").arg(*innerTrips) : QString());
    Finding finding = makeFinding(kernel, QStringLiteral("L1.unpipelined-dot-loop"),
                                  QStringLiteral("Dot loop's pipeline refills on every outer trip"), severity, 0.8, loops.first()->node,
                                  severity == Severity::Low ? QStringLiteral("Present, not the cause: many trips per refill. ") + cause
                                                            : cause,
                                  {QStringLiteral("flatten-dot-loop-nest")});
    if (share)
        finding.gapShare = GapShare{*share, true};
    finding.evidence.append(Evidence::metric(QStringLiteral("num_stages"), stages, QString()));
    if (innerTrips)
        finding.evidence.append(Evidence::metric(QStringLiteral("inner_trips"), double(*innerTrips), QString()));
    return finding;
}

QVector<Finding> unpipelinedDotLoop(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LoopInfo &loop : kernel.loops()) {
        if (!containsCall(loop.node, "dot") || !containsCall(loop.node, "load"))
            continue;
        const int stages = loopStages(kernel, loop);
        const bool nestOnly = stages > 1 && loop.iterator != QLatin1String("tl.static_range")
                              && loop.iterator != QLatin1String("while") && containsInnerLoop(loop.node);
        if (const QVector<const LoopInfo *> nest = nestOnly ? pipelinedDotNest(kernel, loop) : QVector<const LoopInfo *>();
            !nest.isEmpty()) {
            // Only an inner loop keeps this one from pipelining, and the dot's own loop pipelines:
            // the cost is the refills, said once at the nest's outermost loop.
            if (nest.first()->node == loop.node)
                findings.append(atLoopHeader(refilledDotPipeline(kernel, nest)));
            continue;
        }
        QStringList reasons;
        if (stages <= 1)
            reasons.append(QStringLiteral("num_stages=%1").arg(stages));
        if (loop.iterator == QLatin1String("tl.static_range"))
            reasons.append(QStringLiteral("tl.static_range unrolls it"));
        if (loop.iterator == QLatin1String("while"))
            reasons.append(QStringLiteral("a while loop has no trip count"));
        if (containsInnerLoop(loop.node))
            reasons.append(QStringLiteral("it holds an inner loop"));
        if (reasons.isEmpty())
            continue;
        // A loop that runs once at this launch has no next iteration whose loads could overlap.
        const std::optional<qint64> trips = launchTripCount(kernel, loop);
        const bool once = trips && *trips <= 1;
        const QString cause = QStringLiteral("The loop loads dot operands but cannot be pipelined (%1), so every "
                                             "iteration waits for its global loads.").arg(reasons.join(QStringLiteral("; ")));
        Finding finding = makeFinding(kernel, QStringLiteral("L1.unpipelined-dot-loop"),
                                      QStringLiteral("Dot loop will not be software-pipelined"),
                                      once ? Severity::Low : Severity::High, 0.8, loop.node,
                                      once ? QStringLiteral("Present, not the cause: the loop runs %1 time(s) at this "
                                                            "launch, so there is no later iteration to overlap. ")
                                                     .arg(*trips) + cause
                                           : cause,
                                      {QStringLiteral("tl-range-num-stages"), QStringLiteral("flatten-dot-loop-nest")});
        finding.evidence.append(Evidence::metric(QStringLiteral("num_stages"), stages, QString()));
        findings.append(atLoopHeader(finding));
    }
    return findings;
}

// A block pointer (tl.make_block_ptr, moved by tl.advance) addresses a whole tile although no
// tl.arange appears in its expression.
static bool isBlockPointer(const KernelView &kernel, const Node &pointer)
{
    const auto builds = [](const Node &expr) {
        return containsCall(expr, "make_block_ptr") || containsCall(expr, "advance");
    };
    if (builds(pointer))
        return true;
    for (const QString &name : kernel.dependencies(pointer))
        for (const Node &value : kernel.assignmentsOf(name))
            if (builds(value))
                return true;
    return false;
}

// True when an iteration of `loop` also moves a tile (a load, store or atomic through a
// per-element or block pointer): a scalar loaded beside it (a row's mean, a bin's offset) is a
// few bytes next to the tile's, and vectorizing it would save nothing measurable.
static bool loopMovesTiles(const KernelView &kernel, const LoopInfo &loop)
{
    for (const LocatedNode &call : kernel.calls()) {
        if (!isMemoryCall(call.node) || !call.ancestors.contains(loop.node))
            continue;
        const Node pointer = argument(call.node, 0, "pointer");
        if (kernel.isPerElement(pointer) || isBlockPointer(kernel, pointer))
            return true;
    }
    return false;
}

QVector<Finding> scalarLoadLoop(const KernelView &kernel)
{
    QMap<int, Finding> byLoop;  // loop line -> finding
    for (const LocatedNode &load : kernel.callsOf("load")) {
        const Node pointer = argument(load.node, 0, "pointer");
        if (kernel.isPerElement(pointer) || isBlockPointer(kernel, pointer))
            continue;
        const QSet<QString> deps = kernel.dependencies(pointer);
        const QVector<const LoopInfo *> loops = kernel.enclosingLoops(load.ancestors);
        for (auto it = loops.crbegin(); it != loops.crend(); ++it) {
            const LoopInfo &loop = **it;
            const bool indexedByLoop = std::any_of(loop.inductionNames.cbegin(), loop.inductionNames.cend(),
                                                   [&](const QString &name) { return deps.contains(name); });
            if (!indexedByLoop)
                continue;
            const int line = lineOf(loop.node);
            if (!byLoop.contains(line)) {
                const bool sideLoad = loopMovesTiles(kernel, loop);
                Finding finding = makeFinding(kernel, QStringLiteral("L1.scalar-load-loop"),
                                              QStringLiteral("Python loop of scalar loads"),
                                              sideLoad ? Severity::Low : Severity::High, 0.8, load.node,
                                              sideLoad ? QStringLiteral("Present, not the cause: the loop loads a scalar per "
                                                                        "iteration through a pointer indexed by its induction "
                                                                        "variable, beside tile loads or stores of the same "
                                                                        "iteration that move far more bytes.")
                                                       : QStringLiteral("The loop loads one scalar per iteration through a "
                                                                        "pointer indexed by its induction variable; a "
                                                                        "tl.arange tile loads the same data in one vector op."),
                                              {QStringLiteral("vectorize-scalar-loop")});
                SourceSpan header = kernel.span(loop.node);
                header.endLine = header.line;
                header.endColumn = 0;
                finding.evidence.append(Evidence::span(header, QStringLiteral("the loop")));
                byLoop.insert(line, finding);
            } else {
                byLoop[line].evidence.append(Evidence::span(kernel.span(load.node), QStringLiteral("another scalar load")));
            }
            break;
        }
    }
    return byLoop.values().toVector();
}

QVector<Finding> atomicInLoop(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &call : kernel.calls()) {
        if (!isAtomicCall(call.node) || kernel.enclosingLoops(call.ancestors).isEmpty())
            continue;
        findings.append(makeFinding(kernel, QStringLiteral("L1.atomic-in-loop"),
                                    QStringLiteral("Atomic inside a loop"), Severity::Medium, 0.75, call.node,
                                    QStringLiteral("An atomic on every loop iteration serialises on contended "
                                                   "addresses; accumulate in registers and issue one atomic after the loop."),
                                    {QStringLiteral("accumulate-then-atomic")}));
    }
    return findings;
}

// A dot outside every loop of a kernel whose loops walk data: it runs once per program beside the
// work, so its precision path costs little next to the loads (L3's fma-dot says the same).
static bool sideDot(const KernelView &kernel, const LocatedNode &dot)
{
    if (!kernel.enclosingLoops(dot.ancestors).isEmpty())
        return false;
    const QVector<LocatedNode> loads = kernel.callsOf("load");
    return std::any_of(loads.cbegin(), loads.cend(), [&](const LocatedNode &load) {
        return !kernel.enclosingLoops(load.ancestors).isEmpty();
    });
}

// An fp32 dot whose first operand has at most 16 rows, or whose second has at most 16 columns,
// does at most 2*M*N / ((M + N) * 4) < 8 FLOP per operand byte (16 x any N), under half of a GPU's
// FP32 FMA balance (~18 FLOP/B on sm_90): on FMAs it still spends less time computing than its
// operands take to arrive (review pattern N1, a 16x16 mask times a [16, 64] chunk). Known here
// when every tl.arange the operand is built from spans at most 16 (L3 reads the real tile).
constexpr qint64 kSmallDotSide = 16;

static bool builtFromSmallAranges(const KernelView &kernel, const Node &operand)
{
    const QVector<qint64> extents = kernel.arangeExtents(operand);
    return !extents.isEmpty()
        && std::all_of(extents.cbegin(), extents.cend(), [](qint64 extent) { return extent > 0 && extent <= kSmallDotSide; });
}

QVector<Finding> fp32DotPrecision(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &dot : kernel.callsOf("dot")) {
        const bool side = sideDot(kernel, dot);
        const Severity costly = side ? Severity::Low : Severity::High;
        const QString sideNote = side ? QStringLiteral(" It runs once per program, outside the loop that does the "
                                                       "kernel's work: present, not the cause.")
                                      : QString();
        const Node precision = keyword(dot.node, "input_precision");
        const Node allowTf32 = keyword(dot.node, "allow_tf32");
        const bool ieee = precision.value(QStringLiteral("value")).toString() == QLatin1String("ieee")
                          || (isType(allowTf32, "Constant") && allowTf32.value(QStringLiteral("value")) == QJsonValue(false));
        const bool implicit = precision.isEmpty() && allowTf32.isEmpty();
        if (!ieee && !implicit)
            continue;
        if (!isFp32Operand(kernel, argument(dot.node, 0, "input")) && !isFp32Operand(kernel, argument(dot.node, 1, "other")))
            continue;
        QString narrow = upcastFrom(kernel, argument(dot.node, 0, "input"));
        if (narrow.isEmpty())
            narrow = upcastFrom(kernel, argument(dot.node, 1, "other"));
        if (!ieee && !narrow.isEmpty())
            findings.append(makeFinding(kernel, QStringLiteral("L1.fp32-dot-precision"),
                                        QStringLiteral("%1 operands upcast to fp32 before tl.dot").arg(narrow),
                                        costly, 0.8, dot.node,
                                        QStringLiteral("The operands are loaded as %1 and converted to fp32 before the "
                                                       "dot, so it runs at the tf32 tensor-core rate (half of fp16/bf16 "
                                                       "on Hopper, less for 8-bit) and pays a conversion per element, "
                                                       "in twice the registers and shared memory. Pass the %1 tiles to "
                                                       "tl.dot as they are (or convert an 8-bit operand to the other's "
                                                       "16-bit type) and accumulate in fp32.").arg(narrow) + sideNote,
                                        {QStringLiteral("dot-native-operands"), QStringLiteral("dot-bf16-inputs")}));
        else if (ieee) {
            const bool small = !side && (builtFromSmallAranges(kernel, argument(dot.node, 0, "input"))
                                         || builtFromSmallAranges(kernel, argument(dot.node, 1, "other")));
            const QString smallNote = small
                ? QStringLiteral(" Cost estimated, not measured: one operand spans at most %1 rows or columns, so the dot "
                                 "does under 8 FLOP per operand byte, under half of the FP32 FMA balance: its FMAs take "
                                 "less time than its operands take to arrive. An explicit ieee choice may also be the "
                                 "accuracy the result needs.").arg(kSmallDotSide)
                : QString();
            findings.append(makeFinding(kernel, QStringLiteral("L1.fp32-dot-precision"),
                                        QStringLiteral("fp32 tl.dot in ieee precision"), small ? Severity::Medium : costly,
                                        0.85, dot.node,
                                        QStringLiteral("input_precision=\"ieee\" on fp32 operands keeps the dot off "
                                                       "tensor cores: it lowers to FMA, an order of magnitude slower.")
                                            + sideNote + smallNote,
                                        {QStringLiteral("dot-tf32-or-3xtf32"), QStringLiteral("dot-bf16-inputs")}));
        }
        else
            findings.append(makeFinding(kernel, QStringLiteral("L1.fp32-dot-precision"),
                                        QStringLiteral("fp32 tl.dot without an input_precision choice"),
                                        Severity::Low, 0.7, dot.node,
                                        QStringLiteral("fp32 operands with no input_precision run as tf32 by default, "
                                                       "a silent precision/speed trade-off that should be explicit."),
                                        {QStringLiteral("dot-explicit-precision")}));
    }
    return findings;
}

} // namespace strata::diagnosis::rules
