#include "diagnosis/l1_triage/PyAst.h"

#include <QJsonDocument>

namespace strata::diagnosis::pyast {

namespace {

const QString kType = QStringLiteral("_type");

bool isSpanKey(const QString &key)
{
    return key == QLatin1String("lineno") || key == QLatin1String("col_offset")
           || key == QLatin1String("end_lineno") || key == QLatin1String("end_col_offset");
}

void walkValue(const QJsonValue &value, QVector<Node> &ancestors, const Visitor &visit);

void walkNode(const Node &node, QVector<Node> &ancestors, const Visitor &visit)
{
    visit(node, ancestors);
    ancestors.append(node);
    for (auto it = node.begin(); it != node.end(); ++it) {
        if (it.key() != kType)
            walkValue(it.value(), ancestors, visit);
    }
    ancestors.removeLast();
}

void walkValue(const QJsonValue &value, QVector<Node> &ancestors, const Visitor &visit)
{
    if (value.isObject()) {
        const Node node = value.toObject();
        if (node.contains(kType))
            walkNode(node, ancestors, visit);
    } else if (value.isArray()) {
        for (const QJsonValue &item : value.toArray())
            walkValue(item, ancestors, visit);
    }
}

QJsonValue stripSpans(const QJsonValue &value)
{
    if (value.isArray()) {
        QJsonArray out;
        for (const QJsonValue &item : value.toArray())
            out.append(stripSpans(item));
        return out;
    }
    if (!value.isObject())
        return value;
    QJsonObject out;
    const QJsonObject object = value.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (!isSpanKey(it.key()))
            out.insert(it.key(), stripSpans(it.value()));
    }
    return out;
}

} // namespace

QString typeOf(const Node &node)
{
    return node.value(kType).toString();
}

bool isType(const Node &node, const char *type)
{
    return typeOf(node) == QLatin1String(type);
}

Node child(const Node &node, const char *field)
{
    return node.value(QLatin1String(field)).toObject();
}

QJsonArray children(const Node &node, const char *field)
{
    return node.value(QLatin1String(field)).toArray();
}

SourceSpan spanOf(const Node &node, const QString &file)
{
    const auto number = [&node](const char *key) { return node.value(QLatin1String(key)).toInt(-1); };
    if (number("lineno") <= 0)
        return {file, 0, 0, 0, 0};
    return {file, number("lineno"), number("col_offset") + 1, number("end_lineno"), number("end_col_offset") + 1};
}

int lineOf(const Node &node)
{
    return node.value(QStringLiteral("lineno")).toInt(0);
}

QString dottedName(const Node &node)
{
    if (isType(node, "Name"))
        return node.value(QStringLiteral("id")).toString();
    if (isType(node, "Attribute")) {
        const QString base = dottedName(child(node, "value"));
        return base.isEmpty() ? QString() : base + u'.' + node.value(QStringLiteral("attr")).toString();
    }
    return {};
}

bool isTritonCall(const Node &call, const char *function)
{
    if (!isType(call, "Call"))
        return false;
    const QString name = dottedName(child(call, "func"));
    const int dot = name.lastIndexOf(u'.');
    if (name.mid(dot + 1) != QLatin1String(function))
        return false;
    if (dot < 0)
        return true;
    const QString prefix = name.left(dot);
    return prefix == QLatin1String("tl") || prefix.endsWith(QLatin1String(".tl"))
           || prefix.endsWith(QLatin1String("language"));
}

bool isMethodCall(const Node &call, const char *method)
{
    if (!isType(call, "Call"))
        return false;
    const Node func = child(call, "func");
    return isType(func, "Attribute") && func.value(QStringLiteral("attr")).toString() == QLatin1String(method);
}

Node keyword(const Node &call, const char *name)
{
    for (const QJsonValue &item : children(call, "keywords")) {
        const Node kw = item.toObject();
        if (kw.value(QStringLiteral("arg")).toString() == QLatin1String(name))
            return child(kw, "value");
    }
    return {};
}

Node argument(const Node &call, int index, const char *keywordName)
{
    const QJsonArray args = children(call, "args");
    if (index >= 0 && index < args.size())
        return args[index].toObject();
    return keywordName ? keyword(call, keywordName) : Node();
}

void walk(const Node &root, const Visitor &visit)
{
    QVector<Node> ancestors;
    walkNode(root, ancestors, visit);
}

QSet<QString> namesRead(const Node &node)
{
    QSet<QString> names;
    walk(node, [&names](const Node &n, const QVector<Node> &) {
        if (isType(n, "Name") && isType(child(n, "ctx"), "Load"))
            names.insert(n.value(QStringLiteral("id")).toString());
    });
    return names;
}

QSet<QString> namesReadOutsideLoads(const Node &node)
{
    QSet<QString> names;
    walk(node, [&names](const Node &n, const QVector<Node> &ancestors) {
        if (!isType(n, "Name") || !isType(child(n, "ctx"), "Load"))
            return;
        const bool loaded = std::any_of(ancestors.cbegin(), ancestors.cend(),
                                        [](const Node &a) { return isTritonCall(a, "load"); });
        if (!loaded)
            names.insert(n.value(QStringLiteral("id")).toString());
    });
    return names;
}

QStringList namesAssignedBy(const Node &statement)
{
    if (isType(statement, "AugAssign") || isType(statement, "AnnAssign"))
        return targetNames(child(statement, "target"));
    QStringList names;
    if (isType(statement, "Assign"))
        for (const QJsonValue &target : children(statement, "targets"))
            names += targetNames(target.toObject());
    return names;
}

QSet<QString> namesAssignedWithin(const Node &root)
{
    QSet<QString> names;
    walk(root, [&names](const Node &node, const QVector<Node> &) {
        for (const QString &name : namesAssignedBy(node))
            names.insert(name);
        if (isType(node, "For"))
            for (const QString &name : targetNames(child(node, "target")))
                names.insert(name);
    });
    return names;
}

QStringList targetNames(const Node &target)
{
    if (isType(target, "Name"))
        return {target.value(QStringLiteral("id")).toString()};
    QStringList names;
    if (isType(target, "Tuple") || isType(target, "List")) {
        for (const QJsonValue &item : children(target, "elts"))
            names += targetNames(item.toObject());
    }
    return names;
}

QString canonicalText(const Node &node)
{
    return QString::fromUtf8(QJsonDocument(stripSpans(node).toObject()).toJson(QJsonDocument::Compact));
}

bool isPowerOfTwo(qint64 value)
{
    return value > 0 && (value & (value - 1)) == 0;
}

bool containsCall(const Node &root, const char *function)
{
    bool found = false;
    walk(root, [&](const Node &node, const QVector<Node> &) { found = found || isTritonCall(node, function); });
    return found;
}

bool containsType(const Node &root, const char *type)
{
    bool found = false;
    walk(root, [&](const Node &node, const QVector<Node> &) { found = found || isType(node, type); });
    return found;
}

} // namespace strata::diagnosis::pyast
