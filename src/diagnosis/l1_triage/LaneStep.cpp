#include "diagnosis/l1_triage/LaneStep.h"

#include "diagnosis/l1_triage/TriageRules.h"

#include <QSet>

#include <algorithm>
#include <cstdlib>

namespace strata::diagnosis::rules {

using pyast::Node;
using namespace pyast;

namespace {

// A scalar's value at the launch: a constexpr, a captured run-time int, or +, -, *, // of them.
std::optional<qint64> launchScalar(const KernelView &kernel, const Node &expr, int depth = 0)
{
    if (const std::optional<qint64> constant = kernel.constValue(expr))
        return constant;
    if (isType(expr, "Name")) {
        const QString name = expr.value(QStringLiteral("id")).toString();
        if (const KernelParam *param = kernel.param(name); param && param->launchValue)
            return param->launchValue;
        const QVector<Node> values = kernel.assignmentsOf(name);
        return values.size() == 1 && depth < 6 ? launchScalar(kernel, values.first(), depth + 1) : std::nullopt;
    }
    if (!isType(expr, "BinOp"))
        return std::nullopt;
    const std::optional<qint64> left = launchScalar(kernel, child(expr, "left"), depth + 1);
    const std::optional<qint64> right = launchScalar(kernel, child(expr, "right"), depth + 1);
    if (!left || !right)
        return std::nullopt;
    const Node op = child(expr, "op");
    if (isType(op, "Add"))
        return *left + *right;
    if (isType(op, "Sub"))
        return *left - *right;
    if (isType(op, "Mult"))
        return *left * *right;
    if (isType(op, "FloorDiv") && *right != 0)
        return *left / *right;
    return std::nullopt;
}

LaneStep combine(const LaneStep &a, const LaneStep &b, qint64 sign)
{
    return {a.step + sign * b.step, std::min(a.run, b.run)};
}

std::optional<LaneStep> binOpStep(const KernelView &kernel, const Node &expr, int depth)
{
    const Node op = child(expr, "op"), leftNode = child(expr, "left"), rightNode = child(expr, "right");
    if (isType(op, "Add") || isType(op, "Sub")) {
        const std::optional<LaneStep> left = laneStepAtLaunch(kernel, leftNode, depth + 1);
        const std::optional<LaneStep> right = laneStepAtLaunch(kernel, rightNode, depth + 1);
        if (!left || !right)
            return std::nullopt;
        return combine(*left, *right, isType(op, "Add") ? 1 : -1);
    }
    if (isType(op, "Mult")) {
        for (const auto &[scalarSide, elementSide] : {std::pair{leftNode, rightNode}, std::pair{rightNode, leftNode}}) {
            if (kernel.isPerElement(scalarSide))
                continue;
            const std::optional<LaneStep> inner = laneStepAtLaunch(kernel, elementSide, depth + 1);
            if (inner && inner->step == 0)
                return inner;   // constant over its run whatever scales it
            const std::optional<qint64> scale = launchScalar(kernel, scalarSide);
            if (!inner || !scale)
                return std::nullopt;
            return LaneStep{inner->step * *scale, inner->run};
        }
        return std::nullopt;   // per-element times per-element: not a stride
    }
    const bool mod = isType(op, "Mod"), div = isType(op, "FloorDiv");
    if (!mod && !div)
        return std::nullopt;
    const std::optional<LaneStep> inner = laneStepAtLaunch(kernel, leftNode, depth + 1);
    const std::optional<qint64> divisor = launchScalar(kernel, rightNode);
    if (!inner || !divisor || *divisor <= 0)
        return std::nullopt;
    if (inner->step == 0)
        return inner;
    const qint64 magnitude = std::abs(inner->step);
    // `x % d` keeps x's step until it wraps, every d / |step| lanes; `x // d` is constant that long.
    const qint64 run = std::min(inner->run, std::max<qint64>(1, *divisor / magnitude));
    if (mod)
        return LaneStep{inner->step, run};
    return magnitude < *divisor ? std::optional<LaneStep>(LaneStep{0, run}) : std::nullopt;
}

// Bytes of one element behind the pointer parameter a memory op addresses (following names
// assigned once); 0 when none is found.
int elementBytesOf(const KernelView &kernel, const Node &expr, int depth = 0)
{
    int bytes = 0;
    walk(expr, [&](const Node &node, const QVector<Node> &) {
        if (bytes || !isType(node, "Name"))
            return;
        const QString name = node.value(QStringLiteral("id")).toString();
        if (const KernelParam *param = kernel.param(name); param && param->isPointer()) {
            bytes = pointeeBytes(param);
            return;
        }
        const QVector<Node> values = kernel.assignmentsOf(name);
        if (values.size() == 1 && depth < 6)
            bytes = elementBytesOf(kernel, values.first(), depth + 1);
    });
    return bytes;
}

} // namespace

std::optional<double> stridedWasteShare(const KernelView &kernel, const QVector<LocatedNode> &strided, qint64 stride)
{
    constexpr double kSectorBytes = 32;
    double fetched = 0, wasted = 0;
    for (const LocatedNode &call : kernel.calls()) {
        if (!isMemoryCall(call.node))
            continue;
        const int bytes = elementBytesOf(kernel, argument(call.node, 0, "pointer"));
        if (bytes <= 0)
            return std::nullopt;
        const bool isStrided = std::any_of(strided.cbegin(), strided.cend(), [&](const LocatedNode &s) { return s.node == call.node; });
        const double perUseful = isStrided ? std::min(kSectorBytes, double(std::abs(stride)) * bytes) / bytes : 1.0;
        fetched += bytes * perUseful;
        wasted += bytes * (perUseful - 1.0);
    }
    return fetched > 0 ? std::optional<double>(wasted / fetched) : std::nullopt;
}

std::optional<double> tensorWeightedWasteShare(const KernelView &kernel, const QVector<LocatedNode> &strided, qint64 stride)
{
    constexpr double kSectorBytes = 32;
    double fetched = 0, wasted = 0;
    QSet<QString> counted;  // a tensor loaded and stored, or loaded twice, is one tensor's traffic
    for (const LocatedNode &call : kernel.calls()) {
        if (!isMemoryCall(call.node))
            continue;
        const KernelParam *tensor = nullptr;
        for (const QString &name : kernel.addressDependencies(argument(call.node, 0, "pointer"))) {
            const KernelParam *param = kernel.param(name);
            if (!param || !param->isPointer())
                continue;
            if (tensor)
                return std::nullopt;  // two tensors behind one address: whose bytes is not clear
            tensor = param;
        }
        const int bytes = tensor ? pointeeBytes(tensor) : 0;
        if (!tensor || bytes <= 0 || !tensor->tensorElements)
            return std::nullopt;
        const bool isStrided = std::any_of(strided.cbegin(), strided.cend(), [&](const LocatedNode &s) { return s.node == call.node; });
        const double perUseful = isStrided ? std::min(kSectorBytes, double(std::abs(stride)) * bytes) / bytes : 1.0;
        if (counted.contains(tensor->name) && !isStrided)
            continue;
        counted.insert(tensor->name);
        const double tensorBytes = double(*tensor->tensorElements) * bytes;
        fetched += tensorBytes * perUseful;
        wasted += tensorBytes * (perUseful - 1.0);
    }
    return fetched > 0 ? std::optional<double>(wasted / fetched) : std::nullopt;
}

std::optional<LaneStep> laneStepAtLaunch(const KernelView &kernel, const Node &expr, int depth)
{
    if (depth > 12)
        return std::nullopt;
    if (!kernel.isPerElement(expr))
        return LaneStep{};
    if (isTritonCall(expr, "arange"))
        return LaneStep{1};
    if (isType(expr, "Name")) {
        const QVector<Node> values = kernel.assignmentsOf(expr.value(QStringLiteral("id")).toString());
        return values.size() == 1 ? laneStepAtLaunch(kernel, values.first(), depth + 1) : std::nullopt;
    }
    if (isType(expr, "UnaryOp") && isType(child(expr, "op"), "USub")) {
        std::optional<LaneStep> inner = laneStepAtLaunch(kernel, child(expr, "operand"), depth + 1);
        if (inner)
            inner->step = -inner->step;
        return inner;
    }
    if (isType(expr, "BinOp"))
        return binOpStep(kernel, expr, depth);
    return std::nullopt;   // a subscript (2-D tile: which axis the lanes walk is the compiler's), a call, a load
}

// Offsets that step by +-1 from lane to lane over runs of at least half a warp at the launch,
// scaled by a stride whose launch value is not +-1, into pointers that step by the same amount
// (no other term moves with the lanes): neighbouring lanes are that stride apart.
bool lanesStepByStride(const KernelView &kernel, const KernelParam &stride, const Node &offsets, const QVector<Node> &ancestors)
{
    if (!stride.launchValue || std::abs(*stride.launchValue) == 1)
        return false;
    const std::optional<LaneStep> step = laneStepAtLaunch(kernel, offsets);
    if (!step || std::abs(step->step) != 1 || step->run < kMinLaneRun)
        return false;
    const QVector<LocatedNode> calls = kernel.memoryCallsFedBy(ancestors);
    return !calls.isEmpty() && std::all_of(calls.cbegin(), calls.cend(), [&](const LocatedNode &call) {
        const std::optional<LaneStep> pointer = laneStepAtLaunch(kernel, argument(call.node, 0, "pointer"));
        return pointer && std::abs(pointer->step) == std::abs(*stride.launchValue) && pointer->run >= kMinLaneRun;
    });
}

void noteUsesOfFedLoads(Finding &finding, const KernelView &kernel, const QVector<Node> &ancestors)
{
    for (const LocatedNode &call : kernel.memoryCallsFedBy(ancestors)) {
        if (!isTritonCall(call.node, "load"))
            continue;
        const QStringList assigned = namesAssignedAround(call.ancestors);
        const int loadLine = lineOf(call.node);
        walk(kernel.function(), [&](const Node &node, const QVector<Node> &) {
            if ((!isType(node, "Assign") && !isType(node, "AugAssign") && !isType(node, "Expr")) || lineOf(node) == loadLine)
                return;
            const QSet<QString> read = namesRead(child(node, "value"));
            if (std::any_of(assigned.cbegin(), assigned.cend(), [&](const QString &name) { return read.contains(name); }))
                finding.evidence.append(Evidence::span(kernel.span(node), QStringLiteral("where the loaded data is used (the load's wait is sampled there)")));
        });
    }
}

} // namespace strata::diagnosis::rules
