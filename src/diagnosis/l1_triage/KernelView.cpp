#include "diagnosis/l1_triage/KernelView.h"

#include "diagnosis/l1_triage/ConstexprBranches.h"

#include <algorithm>

#include <QJsonArray>
#include <QRegularExpression>

namespace strata::diagnosis {

using namespace pyast;

namespace {

constexpr int kMaxConstDepth = 16;

const char *const kAtomics[] = {"atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
                                "atomic_xor", "atomic_xchg", "atomic_cas"};

std::optional<qint64> applyBinOp(const QString &op, qint64 a, qint64 b)
{
    if (op == QLatin1String("Add")) return a + b;
    if (op == QLatin1String("Sub")) return a - b;
    if (op == QLatin1String("Mult")) return a * b;
    if (op == QLatin1String("FloorDiv") && b != 0) return a / b;
    if (op == QLatin1String("Mod") && b != 0) return a % b;
    if (op == QLatin1String("LShift") && b >= 0 && b < 62) return a << b;
    if (op == QLatin1String("RShift") && b >= 0 && b < 62) return a >> b;
    return std::nullopt;
}

QStringList stringList(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray())
        out.append(item.toString());
    return out;
}

// The compile-time value of each parameter at this launch: a spec constexpr (ints, bools,
// strings, None) or 1 for an int the JIT folded.
ConstexprLookup launchConstexprs(const QVector<KernelParam> &params, const QJsonObject &spec)
{
    const QJsonObject constexprs = spec.value(QStringLiteral("constexprs")).toObject();
    return [params, constexprs](const QString &name) -> std::optional<QJsonValue> {
        for (const KernelParam &param : params) {
            if (param.name != name)
                continue;
            if (param.equalToOne)
                return QJsonValue(1);
            if (param.isConstexpr && constexprs.contains(name))
                return constexprs.value(name);
            return std::nullopt;
        }
        return std::nullopt;
    };
}

} // namespace

bool KernelParam::isRuntimeInteger() const
{
    static const QRegularExpression intType(QStringLiteral("^[iu](8|16|32|64)$"));
    return !isConstexpr && !equalToOne && intType.match(type).hasMatch();
}

bool isAtomicCall(const Node &call)
{
    for (const char *name : kAtomics) {
        if (isTritonCall(call, name))
            return true;
    }
    return false;
}

bool isMemoryCall(const Node &call)
{
    return isTritonCall(call, "load") || isTritonCall(call, "store") || isAtomicCall(call);
}

Expected<KernelView> KernelView::build(const QJsonObject &astResult, const QJsonObject &spec)
{
    KernelView view;
    view.m_file = astResult.value(QStringLiteral("source_path")).toString();
    view.m_function = astResult.value(QStringLiteral("ast")).toObject();
    if (!isType(view.m_function, "FunctionDef"))
        return ReadError{view.m_file, 0, 0,
                         QStringLiteral("the AST given to L1 triage is not one kernel function (got '%1'); "
                                        "ask the agent's `ast` method with `kernel` set")
                             .arg(typeOf(view.m_function))};
    view.m_kernel = view.m_function.value(QStringLiteral("name")).toString();
    view.m_decorators = stringList(astResult.value(QStringLiteral("decorators")));
    for (const QJsonValue &arg : children(child(view.m_function, "args"), "args")) {
        const Node node = arg.toObject();
        KernelParam param;
        param.name = node.value(QStringLiteral("arg")).toString();
        param.isConstexpr = dottedName(child(node, "annotation")).endsWith(QLatin1String("constexpr"));
        param.span = view.span(node);
        view.m_params.append(param);
    }
    view.readSpec(spec);
    view.m_function = pruneConstexprBranches(view.m_function, launchConstexprs(view.m_params, spec));
    view.collect();
    return view;
}

void KernelView::readSpec(const QJsonObject &spec)
{
    m_hasSpec = !spec.isEmpty();
    const QJsonObject signature = spec.value(QStringLiteral("signature")).toObject();
    const QJsonObject constexprs = spec.value(QStringLiteral("constexprs")).toObject();
    const QStringList equalToOne = stringList(spec.value(QStringLiteral("equal_to_1")));
    const QStringList divisible = stringList(spec.value(QStringLiteral("divisibility_16")));
    const QJsonObject scalarArgs = spec.value(QStringLiteral("scalar_args")).toObject();
    const QJsonObject tensorElements = spec.value(QStringLiteral("tensor_elements")).toObject();
    for (KernelParam &param : m_params) {
        param.type = signature.value(param.name).toString();
        param.isConstexpr = param.isConstexpr || param.type == QLatin1String("constexpr");
        param.equalToOne = equalToOne.contains(param.name);
        param.divisibleBy16 = divisible.contains(param.name);
        const QJsonValue value = constexprs.value(param.name);
        if (value.isDouble() && value.toDouble() == double(qint64(value.toDouble())))
            param.value = qint64(value.toDouble());
        if (param.equalToOne)
            param.value = 1;
        const QJsonValue atLaunch = scalarArgs.value(param.name);
        if (atLaunch.isDouble())
            param.launchValue = atLaunch.toInteger();
        const QJsonValue elements = tensorElements.value(param.name);
        if (elements.isDouble())
            param.tensorElements = elements.toInteger();
    }
    const QJsonObject options = spec.value(QStringLiteral("options")).toObject();
    m_numWarps = options.value(QStringLiteral("num_warps")).toInt(4);
    m_numStages = options.value(QStringLiteral("num_stages")).toInt(3);
    m_target = spec.value(QStringLiteral("target")).toString();
    const QJsonArray grid = spec.value(QStringLiteral("grid")).toArray();
    if (!grid.isEmpty()) {
        m_programs = 1;
        for (const QJsonValue &dim : grid) {
            m_grid.append(qMax<qint64>(1, dim.toInteger()));
            m_programs *= m_grid.last();
        }
    }
    m_launches = spec.value(QStringLiteral("launches")).toInt(0);
    m_tensorBytes = spec.value(QStringLiteral("tensor_bytes")).toInteger(0);
    m_forwardGlue = spec.value(QStringLiteral("forward_glue")).toObject();
}

void KernelView::collect()
{
    walk(m_function, [this](const Node &node, const QVector<Node> &ancestors) {
        const QString type = typeOf(node);
        if (type == QLatin1String("Assign") || type == QLatin1String("AugAssign") || type == QLatin1String("AnnAssign")) {
            for (const QString &name : namesAssignedBy(node))
                m_assignments[name].append(child(node, "value"));
        } else if (type == QLatin1String("For")) {
            const Node call = child(node, "iter");
            const QString callee = dottedName(child(call, "func"));
            const QStringList names = targetNames(child(node, "target"));
            for (const QString &name : names)
                m_assignments[name].append(call);
            QString iterator = callee;
            if (isTritonCall(call, "range")) iterator = QStringLiteral("tl.range");
            else if (isTritonCall(call, "static_range")) iterator = QStringLiteral("tl.static_range");
            m_loops.append({node, iterator, call, names});
        } else if (type == QLatin1String("While")) {
            m_loops.append({node, QStringLiteral("while"), {}, {}});
        } else if (type == QLatin1String("Call")) {
            m_calls.append({node, ancestors});
        }
    });
    // Per-element names: a fixpoint over assignments, seeded by tl.arange calls.
    for (bool changed = true; changed;) {
        changed = false;
        for (auto it = m_assignments.cbegin(); it != m_assignments.cend(); ++it) {
            if (m_perElementNames.contains(it.key()))
                continue;
            for (const Node &value : it.value()) {
                if (isPerElement(value)) {
                    m_perElementNames.insert(it.key());
                    changed = true;
                    break;
                }
            }
        }
    }
    for (const LocatedNode &call : m_calls) {
        if (isMemoryCall(call.node))
            m_pointerNames += dependencies(argument(call.node, 0, "pointer"));
    }
}

const KernelParam *KernelView::param(const QString &name) const
{
    for (const KernelParam &param : m_params) {
        if (param.name == name)
            return &param;
    }
    return nullptr;
}

QVector<LocatedNode> KernelView::callsOf(const char *tritonFunction) const
{
    QVector<LocatedNode> found;
    for (const LocatedNode &call : m_calls) {
        if (isTritonCall(call.node, tritonFunction))
            found.append(call);
    }
    return found;
}

QVector<const LoopInfo *> KernelView::enclosingLoops(const QVector<Node> &ancestors) const
{
    QVector<const LoopInfo *> loops;
    for (const Node &ancestor : ancestors) {
        for (const LoopInfo &loop : m_loops) {
            if (loop.node == ancestor)
                loops.append(&loop);
        }
    }
    return loops;
}

namespace {

std::optional<qint64> constValueAt(const KernelView &view, const Node &expr, int depth)
{
    if (depth > kMaxConstDepth)
        return std::nullopt;
    if (isType(expr, "Constant")) {
        const QJsonValue value = expr.value(QStringLiteral("value"));
        if (value.isDouble() && value.toDouble() == double(qint64(value.toDouble())))
            return qint64(value.toDouble());
        return std::nullopt;
    }
    if (isType(expr, "Name")) {
        const QString name = expr.value(QStringLiteral("id")).toString();
        if (const KernelParam *param = view.param(name))
            return param->value;
        const QVector<Node> values = view.assignmentsOf(name);
        if (values.size() == 1)
            return constValueAt(view, values.first(), depth + 1);
        return std::nullopt;
    }
    if (isType(expr, "BinOp")) {
        const auto left = constValueAt(view, child(expr, "left"), depth + 1);
        const auto right = constValueAt(view, child(expr, "right"), depth + 1);
        if (left && right)
            return applyBinOp(typeOf(child(expr, "op")), *left, *right);
    }
    if (isType(expr, "UnaryOp") && isType(child(expr, "op"), "USub")) {  // `range(n - 1, -1, -1)`
        if (const auto operand = constValueAt(view, child(expr, "operand"), depth + 1))
            return -*operand;
    }
    if (isType(expr, "Call") && dottedName(child(expr, "func")).endsWith(QLatin1String("cdiv"))) {
        const auto numerator = constValueAt(view, argument(expr, 0, nullptr), depth + 1);
        const auto denominator = constValueAt(view, argument(expr, 1, nullptr), depth + 1);
        if (numerator && denominator && *denominator > 0)
            return (*numerator + *denominator - 1) / *denominator;
    }
    return std::nullopt;
}

} // namespace

std::optional<qint64> KernelView::constValue(const Node &expr) const
{
    return constValueAt(*this, expr, 0);
}

QSet<int> KernelView::programAxes(const Node &expr) const
{
    QVector<Node> sources{expr};
    for (const QString &name : dependencies(expr))
        sources += m_assignments.value(name);
    QSet<int> axes;
    for (const Node &source : sources) {
        walk(source, [&](const Node &node, const QVector<Node> &) {
            if (!isTritonCall(node, "program_id"))
                return;
            const std::optional<qint64> axis = constValue(argument(node, 0, "axis"));
            if (axis)
                axes.insert(int(*axis));
            else
                axes += {0, 1, 2};
        });
    }
    return axes;
}

QSet<QString> KernelView::dependencies(const Node &expr) const
{
    return closure(expr, namesRead);
}

QSet<QString> KernelView::addressDependencies(const Node &expr) const
{
    return closure(expr, namesReadOutsideLoads);
}

QSet<QString> KernelView::closure(const Node &expr, QSet<QString> (*read)(const Node &)) const
{
    QSet<QString> seen;
    const QSet<QString> direct = read(expr);
    QVector<QString> pending(direct.cbegin(), direct.cend());
    while (!pending.isEmpty()) {
        const QString name = pending.takeLast();
        if (seen.contains(name))
            continue;
        seen.insert(name);
        for (const Node &value : m_assignments.value(name))
            for (const QString &next : read(value))
                pending.append(next);
    }
    return seen;
}

bool KernelView::isPerElement(const Node &expr) const
{
    bool found = false;
    walk(expr, [this, &found](const Node &node, const QVector<Node> &) {
        if (isTritonCall(node, "arange"))
            found = true;
        else if (isType(node, "Name") && m_perElementNames.contains(node.value(QStringLiteral("id")).toString()))
            found = true;
    });
    return found;
}

std::optional<qint64> KernelView::arangeExtent(const Node &call) const
{
    const auto start = constValue(argument(call, 0, "start"));
    const auto end = constValue(argument(call, 1, "end"));
    if (start && end)
        return *end - *start;
    return std::nullopt;
}

QVector<qint64> KernelView::arangeExtents(const Node &expr) const
{
    QVector<qint64> extents;
    const auto collectFrom = [this, &extents](const Node &root) {
        walk(root, [this, &extents](const Node &node, const QVector<Node> &) {
            if (isTritonCall(node, "arange"))
                if (const auto extent = arangeExtent(node))
                    extents.append(*extent);
        });
    };
    collectFrom(expr);
    for (const QString &name : dependencies(expr))
        for (const Node &value : m_assignments.value(name))
            collectFrom(value);
    return extents;
}

qint64 KernelView::shapeElements(const Node &shape) const
{
    const QJsonArray dims = (isType(shape, "Tuple") || isType(shape, "List")) ? children(shape, "elts")
                                                                              : QJsonArray{shape};
    qint64 product = 1;
    for (const QJsonValue &dim : dims)
        product *= constValue(dim.toObject()).value_or(0);
    return product;
}

KernelView::Tile KernelView::broadcastTile() const
{
    // rank -> per-axis largest arange extent seen on that axis (`x[:, None]` is axis 0 of rank 2)
    QHash<int, QVector<qint64>> axes;
    QHash<int, Node> example;
    walk(m_function, [&](const Node &node, const QVector<Node> &) {
        const Node slice = child(node, "slice");
        if (!isType(node, "Subscript") || !isType(slice, "Tuple") || !isPerElement(child(node, "value")))
            return;
        const QJsonArray elements = children(slice, "elts");
        const QVector<qint64> extents = arangeExtents(child(node, "value"));
        if (extents.isEmpty())
            return;
        QVector<qint64> &perAxis = axes[elements.size()];
        perAxis.resize(elements.size());
        for (int axis = 0; axis < elements.size(); ++axis) {
            if (isType(elements[axis].toObject(), "Slice"))
                perAxis[axis] = std::max(perAxis[axis], *std::max_element(extents.cbegin(), extents.cend()));
        }
        example.insert(elements.size(), node);
    });
    Tile best;
    for (auto it = axes.cbegin(); it != axes.cend(); ++it) {
        qint64 product = 1;
        for (const qint64 extent : it.value())
            product *= extent;
        if (product > best.elements)
            best = {example.value(it.key()), product};
    }
    return best;
}

KernelView::Tile KernelView::largestTile(bool accumulatorsOnly) const
{
    Tile best = accumulatorsOnly ? Tile{} : broadcastTile();
    for (const LocatedNode &call : m_calls) {
        qint64 elements = 0;
        if (isTritonCall(call.node, "zeros") || isTritonCall(call.node, "full"))
            elements = shapeElements(argument(call.node, 0, "shape"));
        else if (!accumulatorsOnly && isTritonCall(call.node, "arange"))
            elements = arangeExtent(call.node).value_or(0);
        if (elements > best.elements)
            best = {call.node, elements};
    }
    return best;
}

// The names the statement enclosing a node assigns; sets *insideMemoryCall when the node sits in
// a load / store / atomic before any statement.
QStringList KernelView::assignedBy(const QVector<Node> &ancestors, const Node **insideMemoryCall) const
{
    for (auto it = ancestors.crbegin(); it != ancestors.crend(); ++it) {
        if (isMemoryCall(*it)) {
            if (insideMemoryCall)
                *insideMemoryCall = &*it;
            return {};
        }
        if (isType(*it, "Assign") || isType(*it, "AugAssign") || isType(*it, "AnnAssign"))
            return namesAssignedBy(*it);
    }
    return {};
}

bool KernelView::flowsIntoPointer(const QVector<Node> &ancestors) const
{
    const Node *memoryCall = nullptr;
    const QStringList names = assignedBy(ancestors, &memoryCall);
    if (memoryCall)
        return true;
    return std::any_of(names.cbegin(), names.cend(), [this](const QString &name) { return m_pointerNames.contains(name); });
}

QVector<LocatedNode> KernelView::memoryCallsFedBy(const QVector<Node> &ancestors) const
{
    const Node *memoryCall = nullptr;
    const QStringList names = assignedBy(ancestors, &memoryCall);
    QVector<LocatedNode> fed;
    for (const LocatedNode &call : m_calls) {
        if (!isMemoryCall(call.node))
            continue;
        const QSet<QString> reads = dependencies(argument(call.node, 0, "pointer"));
        const bool feeds = memoryCall ? call.node == *memoryCall
                                      : std::any_of(names.cbegin(), names.cend(), [&](const QString &name) { return reads.contains(name); });
        if (feeds)
            fed.append(call);
    }
    return fed;
}

} // namespace strata::diagnosis
