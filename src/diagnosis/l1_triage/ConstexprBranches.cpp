#include "diagnosis/l1_triage/ConstexprBranches.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSet>

namespace strata::diagnosis {

using namespace pyast;

namespace {

constexpr int kMaxDepth = 32;

class ConstexprEvaluator {
public:
    ConstexprEvaluator(const ConstexprLookup &lookup, QSet<QString> reassigned)
        : m_lookup(lookup), m_reassigned(std::move(reassigned)) {}

    std::optional<bool> truth(const Node &test) const
    {
        const std::optional<QJsonValue> value = evaluate(test, 0);
        if (!value)
            return std::nullopt;
        return truthy(*value);
    }

private:
    static bool truthy(const QJsonValue &value)
    {
        if (value.isBool())
            return value.toBool();
        if (value.isDouble())
            return value.toDouble() != 0;
        if (value.isString())
            return !value.toString().isEmpty();
        return false;  // None
    }

    std::optional<QJsonValue> evaluate(const Node &expr, int depth) const
    {
        if (depth > kMaxDepth)
            return std::nullopt;
        const QString type = typeOf(expr);
        if (type == QLatin1String("Constant")) {
            const QJsonValue value = expr.value(QStringLiteral("value"));
            if (value.isObject())  // complex, bytes, ...: not a truth value we model
                return std::nullopt;
            return value;
        }
        if (type == QLatin1String("Name")) {
            const QString name = expr.value(QStringLiteral("id")).toString();
            if (m_reassigned.contains(name))
                return std::nullopt;
            return m_lookup(name);
        }
        if (type == QLatin1String("UnaryOp") && isType(child(expr, "op"), "Not")) {
            const auto operand = evaluate(child(expr, "operand"), depth + 1);
            return operand ? std::optional<QJsonValue>(!truthy(*operand)) : std::nullopt;
        }
        if (type == QLatin1String("BoolOp"))
            return boolOp(expr, depth);
        if (type == QLatin1String("Compare"))
            return compare(expr, depth);
        if (type == QLatin1String("Call") && dottedName(child(expr, "func")).endsWith(QLatin1String("constexpr"))
            && children(expr, "args").size() == 1)
            return evaluate(children(expr, "args").first().toObject(), depth + 1);
        return std::nullopt;
    }

    std::optional<QJsonValue> boolOp(const Node &expr, int depth) const
    {
        const bool isAnd = isType(child(expr, "op"), "And");
        for (const QJsonValue &item : children(expr, "values")) {
            const auto value = evaluate(item.toObject(), depth + 1);
            if (!value)
                return std::nullopt;
            if (truthy(*value) != isAnd)  // `and` stops at a false operand, `or` at a true one
                return QJsonValue(!isAnd);
        }
        return QJsonValue(isAnd);
    }

    std::optional<QJsonValue> compare(const Node &expr, int depth) const
    {
        const QJsonArray ops = children(expr, "ops");
        const QJsonArray comparators = children(expr, "comparators");
        if (ops.size() != 1 || comparators.size() != 1)
            return std::nullopt;
        const auto left = evaluate(child(expr, "left"), depth + 1);
        const auto right = evaluate(comparators.first().toObject(), depth + 1);
        if (!left || !right)
            return std::nullopt;
        const QString op = typeOf(ops.first().toObject());
        if (op == QLatin1String("Is") || op == QLatin1String("Eq"))
            return sameValue(*left, *right);
        if (op == QLatin1String("IsNot") || op == QLatin1String("NotEq")) {
            const auto same = sameValue(*left, *right);
            return same ? std::optional<QJsonValue>(!same->toBool()) : std::nullopt;
        }
        if (!isNumber(*left) || !isNumber(*right))
            return std::nullopt;
        const double a = number(*left), b = number(*right);
        if (op == QLatin1String("Lt")) return QJsonValue(a < b);
        if (op == QLatin1String("LtE")) return QJsonValue(a <= b);
        if (op == QLatin1String("Gt")) return QJsonValue(a > b);
        if (op == QLatin1String("GtE")) return QJsonValue(a >= b);
        return std::nullopt;
    }

    static bool isNumber(const QJsonValue &value) { return value.isDouble() || value.isBool(); }
    static double number(const QJsonValue &value) { return value.isBool() ? double(value.toBool()) : value.toDouble(); }

    static std::optional<QJsonValue> sameValue(const QJsonValue &a, const QJsonValue &b)
    {
        if (isNumber(a) && isNumber(b))
            return QJsonValue(number(a) == number(b));
        if (a.type() != b.type())
            return QJsonValue(false);
        return QJsonValue(a == b);
    }

    const ConstexprLookup &m_lookup;
    QSet<QString> m_reassigned;
};

QJsonValue prune(const QJsonValue &value, const ConstexprEvaluator &evaluator);

// A statement list with each decidable `if` replaced by its taken branch's statements.
QJsonArray pruneStatements(const QJsonArray &statements, const ConstexprEvaluator &evaluator)
{
    QJsonArray kept;
    for (const QJsonValue &item : statements) {
        const Node statement = item.toObject();
        const std::optional<bool> taken = isType(statement, "If") ? evaluator.truth(child(statement, "test"))
                                                                  : std::nullopt;
        if (!taken) {
            kept.append(prune(item, evaluator));
            continue;
        }
        const QJsonArray branch = children(statement, *taken ? "body" : "orelse");
        for (const QJsonValue &inner : pruneStatements(branch, evaluator))
            kept.append(inner);
    }
    return kept;
}

QJsonValue prune(const QJsonValue &value, const ConstexprEvaluator &evaluator)
{
    if (value.isArray())  // statement lists and expression lists alike: only `If` statements change
        return pruneStatements(value.toArray(), evaluator);
    if (!value.isObject())
        return value;
    Node node = value.toObject();
    for (auto it = node.begin(); it != node.end(); ++it)
        if (it.value().isArray() || it.value().isObject())
            it.value() = prune(it.value(), evaluator);
    return node;
}

} // namespace

Node pruneConstexprBranches(const Node &function, const ConstexprLookup &constexprOf)
{
    const ConstexprEvaluator evaluator(constexprOf, namesAssignedWithin(function));
    return prune(function, evaluator).toObject();
}

} // namespace strata::diagnosis
