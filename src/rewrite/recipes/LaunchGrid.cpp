#include "rewrite/recipes/LaunchGrid.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

// Program-id axes `expr` reads: tl.program_id calls in it and names in `names`.
QSet<int> programIdAxesOf(const diagnosis::KernelView &kernel, const Node &expr, const QHash<QString, QSet<int>> &names)
{
    QSet<int> found;
    walk(expr, [&](const Node &node, const QVector<Node> &) {
        if (isTritonCall(node, "program_id"))
            found.insert(int(kernel.constValue(argument(node, 0, "axis")).value_or(-1)));
    });
    for (const QString &name : namesRead(expr))
        found.unite(names.value(name));
    return found;
}

// Program-id axes each assigned name derives from, to a fixed point over the kernel's
// assignments (`pid = tl.program_id(0)`, `pid_m = group_first + pid % group`, ...). Axis -1
// stands for a program_id call whose axis is not a constant.
QHash<QString, QSet<int>> programIdAxesOfNames(const diagnosis::KernelView &kernel)
{
    QVector<QPair<QStringList, Node>> assignments;
    walk(kernel.function(), [&assignments](const Node &node, const QVector<Node> &) {
        if (!isType(node, "Assign") && !isType(node, "AugAssign") && !isType(node, "AnnAssign"))
            return;
        QStringList targets;
        if (isType(node, "Assign")) {
            for (const QJsonValue &target : children(node, "targets"))
                targets += targetNames(target.toObject());
        } else {
            targets = targetNames(child(node, "target"));
        }
        assignments.append({targets, child(node, "value")});
    });
    QHash<QString, QSet<int>> axes;
    bool changed = true;
    while (changed) {
        changed = false;
        for (const auto &[targets, value] : assignments) {
            const QSet<int> found = programIdAxesOf(kernel, value, axes);
            for (const QString &target : targets) {
                const qsizetype before = axes.value(target).size();
                axes[target].unite(found);
                changed = changed || axes.value(target).size() != before;
            }
        }
    }
    return axes;
}

} // namespace

QHash<QString, int> programBlockAxes(const diagnosis::KernelView &kernel)
{
    const QHash<QString, QSet<int>> names = programIdAxesOfNames(kernel);
    QHash<QString, int> blocks;
    walk(kernel.function(), [&](const Node &node, const QVector<Node> &) {
        if (!isType(node, "BinOp") || !isType(child(node, "op"), "Mult"))
            return;
        for (const auto &[side, other] : {std::pair{"left", "right"}, std::pair{"right", "left"}}) {
            const QString name = child(node, side).value(QLatin1String("id")).toString();
            const diagnosis::KernelParam *param = kernel.param(name);
            if (!param || !param->isConstexpr)
                continue;
            const QSet<int> axes = programIdAxesOf(kernel, child(node, other), names);
            if (axes.isEmpty())
                continue;
            const int axis = axes.size() == 1 ? *axes.begin() : -1;
            blocks.insert(name, blocks.contains(name) && blocks.value(name) != axis ? -1 : axis);
        }
    });
    return blocks;
}

int gridElementOf(const SourceText &source, const QJsonObject &gridNode, const QJsonObject &literal)
{
    const QString text = source.slice(gridNode);
    const int at = source.startOf(literal) - source.startOf(gridNode);
    if (text.isEmpty() || (text.front() != u'(' && text.front() != u'[') || at <= 0 || at >= text.size())
        return -1;
    int depth = 0, element = 0, elements = 1, literalElement = -1;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (i == at)
            literalElement = element;
        if (c == u'(' || c == u'[' || c == u'{')
            ++depth;
        else if (c == u')' || c == u']' || c == u'}')
            --depth;
        else if (c == u',' && depth == 1 && !text.mid(i + 1).trimmed().startsWith(text.front() == u'(' ? u')' : u']')) {
            ++element;
            ++elements;
        }
        if (depth == 0 && i < text.size() - 1)
            return -1;  // `(a) * (b)`: not one tuple
    }
    return elements >= 2 ? literalElement : -1;
}

} // namespace strata::rewrite::recipes
