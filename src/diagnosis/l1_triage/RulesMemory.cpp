// L1 rules on address math and memory access: what feeds the pointers of tl.load / tl.store.
#include "diagnosis/l1_triage/LaneStep.h"
#include "diagnosis/l1_triage/TriageRules.h"

#include "diagnosis/l1_triage/Triage.h"

#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cstdlib>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

bool contains(const Node &root, const Node &needle)
{
    bool found = false;
    walk(root, [&](const Node &node, const QVector<Node> &) { found = found || node == needle; });
    return found;
}

// Whether a subscript's index puts the per-element axis last (`x[None, :]`, `x[:]`) or not
// (`x[:, None]`).
bool lastIndexIsSlice(const Node &subscript)
{
    const Node slice = child(subscript, "slice");
    if (isType(slice, "Tuple")) {
        const QJsonArray elements = children(slice, "elts");
        return !elements.isEmpty() && isType(elements.last().toObject(), "Slice");
    }
    return isType(slice, "Slice");
}

// The axes a name's per-element value was built on (`rows = offs[:, None] // n`): innermost when
// any 2-D-style subscript in its assignments puts the elements last, outer when all put them
// elsewhere; nullopt when its assignments hold no such subscript.
std::optional<bool> innermostByAssignment(const KernelView &kernel, const Node &name)
{
    std::optional<bool> innermost;
    for (const Node &value : kernel.assignmentsOf(name.value(QStringLiteral("id")).toString())) {
        walk(value, [&](const Node &node, const QVector<Node> &) {
            if (isType(node, "Subscript") && isType(child(node, "slice"), "Tuple")
                && kernel.isPerElement(child(node, "value")))
                innermost = innermost.value_or(false) || lastIndexIsSlice(node);
        });
    }
    return innermost;
}

// True when `offsets` (a per-element operand of a multiplication) varies along the innermost
// (last) axis of the tile it ends up in.
bool isInnermost(const KernelView &kernel, const Node &offsets, const Node &product, const QVector<Node> &ancestors)
{
    if (isType(offsets, "Subscript"))
        return lastIndexIsSlice(offsets);
    if (isType(offsets, "Name"))
        if (const std::optional<bool> byAssignment = innermostByAssignment(kernel, offsets))
            return *byAssignment;
    for (auto it = ancestors.crbegin(); it != ancestors.crend(); ++it) {
        if (isType(*it, "Subscript") && contains(child(*it, "value"), product))
            return lastIndexIsSlice(*it);
    }
    return true;  // a 1-D tile: its only axis is the innermost
}

const KernelParam *runtimeIntParam(const KernelView &kernel, const Node &node)
{
    if (!isType(node, "Name"))
        return nullptr;
    const KernelParam *param = kernel.param(node.value(QStringLiteral("id")).toString());
    return param && param->isRuntimeInteger() ? param : nullptr;
}

bool isWideIntType(const Node &type)
{
    const QString name = dottedName(type);
    return name.endsWith(QLatin1String("int64")) || name.endsWith(QLatin1String("uint64"));
}

Node resolveName(const KernelView &kernel, const Node &expr)
{
    if (!isType(expr, "Name"))
        return expr;
    const QVector<Node> values = kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString());
    return values.size() == 1 ? values.first() : expr;
}

// The scope a statement runs in for reuse purposes: the nearest loop or the function.
int scopeLine(const QVector<Node> &ancestors)
{
    for (auto it = ancestors.crbegin(); it != ancestors.crend(); ++it) {
        if (isType(*it, "For") || isType(*it, "While") || isType(*it, "FunctionDef"))
            return lineOf(*it);
    }
    return 0;
}

bool reassignedBetween(const KernelView &kernel, const Node &pointer, int fromLine, int toLine)
{
    for (const QString &name : namesRead(pointer)) {
        for (const Node &value : kernel.assignmentsOf(name)) {
            if (lineOf(value) > fromLine && lineOf(value) <= toLine)
                return true;
        }
    }
    return false;
}

} // namespace

namespace {

// How a pointer's per-element offsets step through memory, from its additive terms.
struct StrideTerms {
    QVector<Node> strided;   // per-element offsets times a constant other than +-1
    qint64 stride = 0;       // the first such constant
    bool contiguous = false; // some per-element term steps by 1 (or in a way not known here)
};

void collectStrideTerms(const KernelView &kernel, const Node &expr, int depth, StrideTerms &terms)
{
    if (isType(expr, "BinOp") && (isType(child(expr, "op"), "Add") || isType(child(expr, "op"), "Sub"))) {
        collectStrideTerms(kernel, child(expr, "left"), depth, terms);
        collectStrideTerms(kernel, child(expr, "right"), depth, terms);
        return;
    }
    if (!kernel.isPerElement(expr))
        return;
    if (isType(expr, "Subscript")) {  // rows[:, None]: the same offsets on one axis
        collectStrideTerms(kernel, child(expr, "value"), depth, terms);
        return;
    }
    if (isType(expr, "Name") && depth < 4) {
        // Every value the name takes counts (a pointer advanced with `+=` keeps its first
        // assignment's offsets; the increments are per-program scalars and add no term).
        const QVector<Node> values = kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString());
        if (!values.isEmpty()) {
            for (const Node &value : values)
                collectStrideTerms(kernel, value, depth + 1, terms);
            return;
        }
    }
    if (isType(expr, "BinOp") && isType(child(expr, "op"), "Mult")) {
        for (const auto &[constant, offsets] : {std::pair{"left", "right"}, std::pair{"right", "left"}}) {
            const std::optional<qint64> value = kernel.constValue(child(expr, constant));
            if (!value || !kernel.isPerElement(child(expr, offsets)))
                continue;
            if (*value == 1 || *value == -1) {
                terms.contiguous = true;
            } else {
                if (terms.strided.isEmpty())
                    terms.stride = *value;
                terms.strided.append(expr);
            }
            return;
        }
        if (runtimeIntParam(kernel, child(expr, "left")) || runtimeIntParam(kernel, child(expr, "right")))
            return;  // a run-time stride: L1.runtime-unit-stride's case
    }
    terms.contiguous = true;  // arange itself, a cast, index math: not known to be strided
}


// True when every load or store the value at `ancestors` feeds also has a per-element term that
// steps by 1: the coalescing pass orders the tile by that axis, so a scaled axis beside it is
// the outer one (a K tile loaded transposed), whatever its run-time stride is.
bool feedsOnlyContiguousPointers(const KernelView &kernel, const QVector<Node> &ancestors)
{
    const QVector<LocatedNode> calls = kernel.memoryCallsFedBy(ancestors);
    return !calls.isEmpty() && std::all_of(calls.cbegin(), calls.cend(), [&](const LocatedNode &call) {
        StrideTerms terms;
        collectStrideTerms(kernel, argument(call.node, 0, "pointer"), 0, terms);
        return terms.contiguous;
    });
}

// Below this estimated share of the launch's DRAM bytes, a strided access is present, not the cause.
constexpr double kCheapStrideShare = 0.1;

// With the tensors' sizes at the captured launch, the strided access's cost is the sector bytes
// it wastes of all the launch fetches from DRAM (tensorWeightedWasteShare): a strided read of a
// small tensor beside large contiguous ones (a matrix-vector product's vector) is cheap.
void weighByTensors(Finding &finding, const KernelView &kernel, const QVector<LocatedNode> &strided, qint64 stride)
{
    const std::optional<double> share = tensorWeightedWasteShare(kernel, strided, stride);
    if (!share)
        return;
    finding.gapShare = GapShare{*share, true};
    finding.evidence.append(Evidence::metric(QStringLiteral("estimated_share"), *share, QString(),
                                             QStringLiteral("estimate: sector bytes fetched and not used, of all DRAM bytes the "
                                                            "launch's tensors take (32-byte sectors; L2 reuse ignored)")));
    if (*share >= kCheapStrideShare)
        return;
    finding.severity = Severity::Low;
    finding.cause = QStringLiteral("Present, not the cause (estimated: the strided tensor wastes %1% of the launch's DRAM "
                                   "bytes, its tensors' sizes at the captured launch): ")
                        .arg(100.0 * *share, 0, 'f', 1) + finding.cause;
}

// The captured launch says what the run-time scale of the innermost offsets is: not 1 (a 1 would
// have been folded by the JIT, or is known), so the premise of a hidden unit stride is false and
// the access is what the value makes it: lanes that far apart, each fetching its own sector.
Finding launchStridedAccess(const KernelView &kernel, const KernelParam &stride, const Node &node,
                            const QVector<Node> &ancestors)
{
    const qint64 value = std::abs(*stride.launchValue);
    Finding finding = makeFinding(
        kernel, QStringLiteral("L1.strided-access"),
        QStringLiteral("Strided access: elements %1 apart (%2 at launch)").arg(value).arg(stride.name),
        Severity::High, 0.8, node,
        QStringLiteral("The innermost per-element offsets are scaled by the run-time int %1, which is %2 at the "
                       "captured launch: neighbouring lanes touch addresses %2 elements apart, so each access is "
                       "uncoalesced and most of every memory sector fetched is wasted. Walk the contiguous axis "
                       "with the lanes (swap the tile's axes, or stage a transposed tile through shared memory).")
            .arg(stride.name).arg(value),
        {QStringLiteral("load-contiguous-axis"), QStringLiteral("transpose-tile-order")});
    finding.evidence.append(Evidence::metric(QStringLiteral("element_stride"), double(value), QStringLiteral("elements"),
                                             QStringLiteral("%1 at the captured launch").arg(stride.name)));
    finding.evidence.append(Evidence::span(stride.span, QStringLiteral("run-time %1 parameter").arg(stride.type)));
    noteFedAccesses(finding, kernel, ancestors);
    weighByTensors(finding, kernel, kernel.memoryCallsFedBy(ancestors), value);
    return finding;
}

// The launch's strided access through a decoded flat index (`(offs % C) * HW`, a permutation
// copy): the statements that use the loaded value are evidence too (its wait is sampled there).
Finding decodedIndexStride(const KernelView &kernel, const KernelParam &stride, const Node &node, const QVector<Node> &ancestors)
{
    Finding finding = launchStridedAccess(kernel, stride, node, ancestors);
    finding.cause += QStringLiteral(" The offsets are decoded from a flat index (// and %), so the compiler proves no "
                                    "contiguity, yet at this launch they step by one from lane to lane over runs of at "
                                    "least %1 lanes.").arg(kMinLaneRun);
    noteUsesOfFedLoads(finding, kernel, ancestors);
    if (finding.gapShare.has_value())
        return finding;  // weighed by the tensors' sizes already
    if (const std::optional<double> share = stridedWasteShare(kernel, kernel.memoryCallsFedBy(ancestors), *stride.launchValue)) {
        finding.gapShare = GapShare{*share, true};
        finding.evidence.append(Evidence::metric(QStringLiteral("estimated_share"), *share, QString(),
                                                 QStringLiteral("estimate: sector bytes fetched and not used, of all fetched "
                                                                "(one element per lane, 32-byte sectors; cache reuse ignored)")));
    }
    return finding;
}

// A modulo keeps runs of consecutive values only as long as its divisor's known divisibility:
// Triton's axis analysis gives `x % d` the contiguity gcd(contiguity(x), divisibility(d)).
bool moduloKeepsRuns(const KernelView &kernel, const Node &divisor)
{
    if (const std::optional<qint64> value = kernel.constValue(divisor))
        return isPowerOfTwo(*value);
    const KernelParam *param = isType(divisor, "Name") ? kernel.param(divisor.value(QStringLiteral("id")).toString()) : nullptr;
    return param && param->divisibleBy16;
}

// Names rebound in place by `//=` or `%=` (`tid //= n`), with the first line that does it: the
// assignment table keeps only the divisor, so the rules ask for these separately. A use on an
// earlier line (`col = tid % n` before `tid //= n`) still reads the undivided value.
QHash<QString, int> namesDividedInPlace(const KernelView &kernel)
{
    QHash<QString, int> firstLine;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &) {
        if (isType(node, "AugAssign")
            && (isType(child(node, "op"), "FloorDiv") || isType(child(node, "op"), "Mod")))
            for (const QString &name : targetNames(child(node, "target")))
                if (!firstLine.contains(name) || lineOf(node) < firstLine.value(name))
                    firstLine.insert(name, lineOf(node));
    });
    return firstLine;
}

// True when per-element `offsets` cannot form runs of consecutive values, whatever scales them:
// a floor division (equal values in runs: constancy, not contiguity), a modulo that breaks runs
// (moduloKeepsRuns), or a value loaded from memory (a gathered index). Then a unit stride would
// not make the access provably contiguous, and the stride is not what keeps it scalar.
bool offsetsLoseContiguity(const KernelView &kernel, const Node &offsets, const QHash<QString, int> &dividedInPlace,
                           int depth = 0)
{
    bool lost = false;
    walk(offsets, [&](const Node &node, const QVector<Node> &) {
        if (lost)
            return;
        if (isType(node, "BinOp") && kernel.isPerElement(child(node, "left"))) {
            const Node divisor = child(node, "right");
            if (isType(child(node, "op"), "FloorDiv"))
                lost = kernel.constValue(divisor).value_or(0) != 1;
            else if (isType(child(node, "op"), "Mod"))
                lost = !moduloKeepsRuns(kernel, divisor);
        } else if (isTritonCall(node, "load") && kernel.isPerElement(node)) {
            lost = true;
        } else if (isType(node, "Name") && kernel.isPerElement(node) && depth < 6) {
            const QString name = node.value(QStringLiteral("id")).toString();
            lost = dividedInPlace.contains(name) && lineOf(node) > dividedInPlace.value(name);
            for (const Node &value : kernel.assignmentsOf(name))
                lost = lost || offsetsLoseContiguity(kernel, value, dividedInPlace, depth + 1);
        }
    });
    return lost;
}

// The `do_not_specialize=[...]` list of the kernel's decorator when it names `param`:
// Triton's JIT would otherwise fold a launch value of 1 into the kernel (equal_to_1); with the
// parameter listed it stays a run-time int, so the decorator is where a hidden unit stride is made.
Node doNotSpecializeNaming(const KernelView &kernel, const QString &param)
{
    for (const QJsonValue &decorator : children(kernel.function(), "decorator_list")) {
        const Node listed = keyword(decorator.toObject(), "do_not_specialize");
        if (listed.isEmpty())
            continue;
        for (const QJsonValue &element : children(listed, "elts")) {
            if (element.toObject().value(QStringLiteral("value")).toString() == param)
                return listed;
        }
    }
    return {};
}

} // namespace

QVector<Finding> runtimeUnitStride(const KernelView &kernel)
{
    QMap<QString, Finding> byParam;  // one finding per stride parameter
    const QHash<QString, int> dividedInPlace = namesDividedInPlace(kernel);
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (!isType(node, "BinOp") || !isType(child(node, "op"), "Mult"))
            return;
        for (const auto &[strideSide, offsetSide] : {std::pair{"left", "right"}, std::pair{"right", "left"}}) {
            const KernelParam *stride = runtimeIntParam(kernel, child(node, strideSide));
            const Node offsets = child(node, offsetSide);
            if (!stride || !kernel.isPerElement(offsets) || !isInnermost(kernel, offsets, node, ancestors)
                || !kernel.flowsIntoPointer(ancestors))
                continue;
            if (offsetsLoseContiguity(kernel, offsets, dividedInPlace)) {
                // No unit stride could make the compiler prove runs here; but at the launch the
                // accesses may still step by the stride from lane to lane: then it is the access.
                if (!byParam.contains(stride->name) && lanesStepByStride(kernel, *stride, offsets, ancestors))
                    byParam.insert(stride->name, decodedIndexStride(kernel, *stride, node, ancestors));
                continue;
            }
            if (feedsOnlyContiguousPointers(kernel, ancestors))
                continue;
            // A stride the launch marks divisible by 16 is a multiple of 16 (or 0), not 1: there is
            // no unit stride for the JIT to fold, and L3 judges the access the value makes.
            if (stride->divisibleBy16 && !stride->launchValue)
                continue;
            auto it = byParam.find(stride->name);
            if (it == byParam.end() && stride->launchValue && std::abs(*stride->launchValue) != 1) {
                it = byParam.insert(stride->name, launchStridedAccess(kernel, *stride, node, ancestors));
            } else if (it == byParam.end()) {
                Finding finding = makeFinding(
                    kernel, QStringLiteral("L1.runtime-unit-stride"),
                    QStringLiteral("Run-time stride %1 on the innermost axis").arg(stride->name),
                    Severity::High, 0.75, node,
                    QStringLiteral("The innermost per-element offsets are scaled by the run-time int %1, "
                                   "which this launch does not fold to constexpr 1, so the compiler cannot "
                                   "prove the accesses contiguous: no vector loads, no cp.async pipelining.")
                        .arg(stride->name),
                    {QStringLiteral("constexpr-unit-stride"), QStringLiteral("make-contiguous")});
                finding.evidence.append(Evidence::span(stride->span, stride->launchValue
                    ? QStringLiteral("run-time %1 parameter, 1 at the captured launch but not specialized").arg(stride->type)
                    : QStringLiteral("run-time %1 parameter, not in equal_to_1").arg(stride->type)));
                noteFedAccesses(finding, kernel, ancestors);
                // 1 at launch yet run-time: the decorator's do_not_specialize keeps it so. The
                // finding points at that keyword (where the fix goes); the access stays evidence.
                if (const Node listed = doNotSpecializeNaming(kernel, stride->name); stride->launchValue && !listed.isEmpty()) {
                    const SourceSpan access = finding.span;
                    finding.span = kernel.span(listed);
                    finding.span.endLine = finding.span.line;
                    finding.span.endColumn = 0;
                    finding.evidence.append(Evidence::span(access, QString::fromLatin1(kFedAccessNote)));
                    finding.cause += QStringLiteral(" The launch passes %1 = 1, but the decorator's do_not_specialize "
                                                    "keeps Triton from specializing it.").arg(stride->name);
                }
                it = byParam.insert(stride->name, finding);
            } else {
                it->evidence.append(Evidence::span(kernel.span(node), QStringLiteral("another innermost use")));
            }
        }
    });
    return byParam.values().toVector();
}

QVector<Finding> wideIndexCast(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &call : kernel.calls()) {
        const bool methodCast = isMethodCall(call.node, "to") && isWideIntType(argument(call.node, 0, "dtype"));
        const bool functionCast = isTritonCall(call.node, "cast") && isWideIntType(argument(call.node, 1, "dtype"));
        if ((!methodCast && !functionCast) || !kernel.flowsIntoPointer(call.ancestors))
            continue;
        findings.append(makeFinding(kernel, QStringLiteral("L1.int64-index"),
                                    QStringLiteral("64-bit index arithmetic"), Severity::Low, 0.7, call.node,
                                    QStringLiteral("A 64-bit cast in pointer arithmetic doubles the integer "
                                                   "work and registers of every offset computed from it; it "
                                                   "is needed only when offsets can pass 2^31."),
                                    {QStringLiteral("int32-offsets")}));
        noteFedAccesses(findings.last(), kernel, call.ancestors);
    }
    return findings;
}

QVector<Finding> perElementDivMod(const KernelView &kernel)
{
    QVector<Finding> findings;
    const bool elementwiseKernel = kernel.loops().isEmpty() && kernel.callsOf("dot").isEmpty();
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &ancestors) {
        if (!isType(node, "BinOp"))
            return;
        const QString op = typeOf(child(node, "op"));
        if (op != QLatin1String("Mod") && op != QLatin1String("FloorDiv"))
            return;
        const auto divisor = kernel.constValue(child(node, "right"));
        if ((divisor && isPowerOfTwo(*divisor)) || !kernel.isPerElement(child(node, "left")))
            return;
        // Hot: inside a loop, or in a kernel whose only work is this index math.
        const bool inLoop = !kernel.enclosingLoops(ancestors).isEmpty();
        if (!(inLoop || elementwiseKernel) || !kernel.flowsIntoPointer(ancestors))
            return;
        const QString symbol = op == QLatin1String("Mod") ? QStringLiteral("%") : QStringLiteral("//");
        // In a loop-free elementwise kernel the ALU work hides under the memory traffic (an H200
        // moves ~7 bytes per integer op at peak): measured fixes of such kernels gained nothing.
        findings.append(makeFinding(kernel, QStringLiteral("L1.per-element-divmod"),
                                    QStringLiteral("Per-element %1 in index math").arg(symbol),
                                    inLoop ? Severity::Medium : Severity::Low, 0.7, node,
                                    inLoop ? QStringLiteral("An integer %1 by a value that is not a constexpr power of 2 "
                                                            "costs tens of instructions per element on every iteration.").arg(symbol)
                                           : QStringLiteral("An integer %1 by a value that is not a constexpr power of 2 "
                                                            "costs tens of instructions per element; in a memory-bound "
                                                            "elementwise kernel they usually hide under the loads (present, "
                                                            "likely not the cause).").arg(symbol),
                                    {QStringLiteral("hoist-index-math"), QStringLiteral("multi-dim-program-ids")}));
        noteFedAccesses(findings.last(), kernel, ancestors);
    });
    return findings;
}

QVector<Finding> reloadSamePointer(const KernelView &kernel)
{
    QVector<Finding> findings;
    QHash<QString, LocatedNode> firstLoad;  // scope + pointer + mask -> first load
    for (const LocatedNode &load : kernel.callsOf("load")) {
        const Node pointer = argument(load.node, 0, "pointer");
        const QString key = QString::number(scopeLine(load.ancestors)) + canonicalText(pointer)
                            + canonicalText(argument(load.node, 1, "mask"));
        const auto it = firstLoad.constFind(key);
        if (it == firstLoad.constEnd() || reassignedBetween(kernel, pointer, lineOf(it->node), lineOf(load.node))) {
            firstLoad.insert(key, load);
            continue;
        }
        Finding finding = makeFinding(kernel, QStringLiteral("L1.reload-same-pointer"),
                                      QStringLiteral("Same pointer loaded again"), Severity::Low, 0.8, load.node,
                                      QStringLiteral("This load reads the same addresses as the load on line %1 "
                                                     "with nothing reassigned in between; reuse that value.")
                                          .arg(lineOf(it->node)),
                                      {QStringLiteral("reuse-loaded-value")});
        finding.evidence.append(Evidence::span(kernel.span(it->node), QStringLiteral("first load of the same pointer")));
        findings.append(finding);
    }
    return findings;
}

QVector<Finding> redundantMask(const KernelView &kernel)
{
    QVector<Finding> findings;
    for (const LocatedNode &call : kernel.calls()) {
        const bool load = isTritonCall(call.node, "load");
        if (!load && !isTritonCall(call.node, "store"))
            continue;
        const Node mask = resolveName(kernel, argument(call.node, load ? 1 : 2, "mask"));
        const QJsonArray ops = children(mask, "ops");
        if (!isType(mask, "Compare") || ops.size() != 1 || !isType(ops[0].toObject(), "Lt"))
            continue;
        const Node offsets = child(mask, "left");
        const auto bound = kernel.constValue(children(mask, "comparators").first().toObject());
        const QVector<qint64> extents = kernel.arangeExtents(offsets);
        if (!bound || extents.isEmpty() || !kernel.isPerElement(offsets))
            continue;
        const bool divides = std::all_of(extents.cbegin(), extents.cend(),
                                         [&](qint64 e) { return e > 0 && *bound % e == 0; });
        if (!divides)
            continue;
        Finding finding = makeFinding(kernel, QStringLiteral("L1.redundant-mask"),
                                      QStringLiteral("Mask against a constexpr multiple of the tile"),
                                      Severity::Low, 0.6, call.node,
                                      QStringLiteral("The mask compares against the constexpr %1, which the tile "
                                                     "divides, so it is all-true for every full tile yet still "
                                                     "costs predicates and can cap vector width.").arg(*bound),
                                      {QStringLiteral("drop-constexpr-mask")});
        finding.evidence.append(Evidence::metric(QStringLiteral("mask_bound"), double(*bound), QStringLiteral("elements")));
        findings.append(finding);
    }
    return findings;
}


void noteFedAccesses(Finding &finding, const KernelView &kernel, const QVector<Node> &ancestors)
{
    for (const LocatedNode &call : kernel.memoryCallsFedBy(ancestors)) {
        const SourceSpan span = kernel.span(call.node);
        if (span.line != finding.span.line)
            finding.evidence.append(Evidence::span(span, QString::fromLatin1(kFedAccessNote)));
    }
}

void noteFedAccesses(Finding &finding, const KernelView &kernel, const Node &node)
{
    std::optional<QVector<Node>> found;
    walk(kernel.function(), [&](const Node &candidate, const QVector<Node> &ancestors) {
        if (!found && candidate == node)
            found = ancestors;
    });
    if (found)
        noteFedAccesses(finding, kernel, *found);
}

int pointeeBytes(const KernelParam *param)
{
    static const QRegularExpression bits(QStringLiteral("(\\d+)"));
    if (!param || !param->isPointer())
        return 4;
    const QString type = param->type.mid(1);
    if (type.startsWith(QLatin1String("fp8")) || type == QLatin1String("i1") || type == QLatin1String("i8") || type == QLatin1String("u8"))
        return 1;
    const QRegularExpressionMatch match = bits.match(type);
    return match.hasMatch() ? std::max(1, match.captured(1).toInt() / 8) : 4;
}

namespace {

// The names added, unscaled, into a pointer expression (following names assigned once).
void addedNames(const KernelView &kernel, const Node &expr, int depth, QSet<QString> &names)
{
    if (isType(expr, "BinOp") && isType(child(expr, "op"), "Add")) {
        addedNames(kernel, child(expr, "left"), depth, names);
        addedNames(kernel, child(expr, "right"), depth, names);
        return;
    }
    if (!isType(expr, "Name"))
        return;
    const QString name = expr.value(QStringLiteral("id")).toString();
    names.insert(name);
    const QVector<Node> values = kernel.assignmentsOf(name);
    if (values.size() == 1 && depth < 4)
        addedNames(kernel, values.first(), depth + 1, names);
}

// A strided access inside a unit-step loop that adds its induction variable to the same pointer
// walks the columns between its lanes: over the loop each row's touched bytes are one run of
// trips x element bytes, so whole sectors come from DRAM once (the column walk of a tile, the
// interleaved fields of a row). Returns that run in bytes (0 when the trip count is not known),
// or -1 when there is no such loop or the run covers neither a 32-byte sector nor every column
// between two lanes (`stride` elements).
qint64 columnWalkBytes(const KernelView &kernel, const LocatedNode &call, qint64 stride)
{
    QSet<QString> added;
    addedNames(kernel, argument(call.node, 0, "pointer"), 0, added);
    for (const LoopInfo *loop : kernel.enclosingLoops(call.ancestors)) {
        const QJsonArray args = children(loop->iteratorCall, "args");
        const std::optional<qint64> step = args.size() < 3 ? std::optional<qint64>(1) : kernel.constValue(args[2].toObject());
        const bool unitStep = step && std::abs(*step) == 1;  // a walk down the columns covers them too
        if (!unitStep || loop->iterator == QLatin1String("while") || loop->inductionNames.size() != 1
            || !added.contains(loop->inductionNames.first()))
            continue;
        const std::optional<qint64> trips = constantTripCount(kernel, *loop);
        if (!trips)
            return 0;
        QSet<QString> bases = kernel.addressDependencies(argument(call.node, 0, "pointer"));
        int bytes = 4;
        for (const KernelParam &param : kernel.params())
            if (param.isPointer() && bases.contains(param.name))
                bytes = pointeeBytes(&param);
        const qint64 run = *trips * bytes;
        return run >= 32 || *trips >= stride ? run : -1;
    }
    return -1;
}

} // namespace

QVector<Finding> stridedAccess(const KernelView &kernel)
{
    QVector<Finding> findings;
    QSet<int> reported;  // one finding per strided expression line
    for (const LocatedNode &call : kernel.calls()) {
        if (!isMemoryCall(call.node))
            continue;
        StrideTerms terms;
        collectStrideTerms(kernel, argument(call.node, 0, "pointer"), 0, terms);
        if (terms.strided.isEmpty() || terms.contiguous || reported.contains(lineOf(terms.strided.first())))
            continue;
        reported.insert(lineOf(terms.strided.first()));
        const qint64 stride = std::abs(terms.stride);
        Finding finding = makeFinding(
            kernel, QStringLiteral("L1.strided-access"), QStringLiteral("Strided access: elements %1 apart").arg(stride),
            Severity::High, 0.7, terms.strided.first(),
            QStringLiteral("Every per-element offset of this pointer is scaled by the constant %1 and none steps by 1, so "
                           "neighbouring lanes touch addresses %1 elements apart: each access is uncoalesced and most "
                           "of every memory sector fetched is wasted.").arg(stride),
            {QStringLiteral("load-contiguous-axis"), QStringLiteral("transpose-tile-order")});
        finding.evidence.append(Evidence::metric(QStringLiteral("element_stride"), double(stride), QStringLiteral("elements")));
        if (const qint64 run = columnWalkBytes(kernel, call, stride); run >= 0) {
            finding.severity = Severity::Low;
            finding.gapShare = GapShare{0.05, true};
            finding.cause = QStringLiteral("Present, not the cause (estimated: an enclosing loop adds its induction variable "
                                           "to this pointer, so over its iterations the lanes walk the columns between them "
                                           "and each sector is fetched from DRAM once%1): ")
                                .arg(run > 0 ? QStringLiteral(", %1-byte runs per row").arg(run) : QString()) + finding.cause;
        }
        const SourceSpan access = kernel.span(call.node);
        if (access.line != finding.span.line)
            finding.evidence.append(Evidence::span(access, QString::fromLatin1(kFedAccessNote)));
        findings.append(finding);
    }
    return findings;
}

} // namespace strata::diagnosis::rules
