#include "tasks/TaskJson.h"

#include <cmath>

namespace strata::taskjson {

QString typeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return QStringLiteral("a boolean");
    case QJsonValue::Double: return QStringLiteral("a number");
    case QJsonValue::String: return QStringLiteral("a string");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

QString Fields::pathOf(const QString &key) const
{
    if (key.startsWith(QLatin1Char('[')))
        return m_path + key;
    return m_path.isEmpty() ? key : m_path + QLatin1Char('.') + key;
}

bool Fields::has(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    return !value.isUndefined() && !value.isNull();
}

void Fields::fail(const QString &key, const QString &problem) const
{
    throw MalformedField{key.isEmpty() ? m_path : pathOf(key), problem};
}

namespace {

QString wanted(const char *what, const QJsonValue &got)
{
    return got.isUndefined() ? QStringLiteral("missing (expected %1)").arg(QLatin1String(what))
                             : QStringLiteral("expected %1, got %2").arg(QLatin1String(what), typeName(got));
}

} // namespace

QString Fields::string(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    if (!value.isString())
        fail(key, wanted("a string", value));
    return value.toString();
}

QString Fields::optionalString(const QString &key, const QString &fallback) const
{
    if (!has(key))
        return fallback;
    return string(key);
}

double Fields::number(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    if (!value.isDouble())
        fail(key, wanted("a number", value));
    return value.toDouble();
}

std::optional<double> Fields::optionalNumber(const QString &key) const
{
    if (!has(key))
        return std::nullopt;
    return number(key);
}

qint64 Fields::integer(const QString &key) const
{
    const double value = number(key);
    if (value != std::floor(value))
        fail(key, QStringLiteral("expected a whole number, got %1").arg(value));
    return qint64(value);
}

qint64 Fields::optionalInteger(const QString &key, qint64 fallback) const
{
    return has(key) ? integer(key) : fallback;
}

bool Fields::optionalBool(const QString &key, bool fallback) const
{
    if (!has(key))
        return fallback;
    const QJsonValue value = m_object.value(key);
    if (!value.isBool())
        fail(key, wanted("a boolean", value));
    return value.toBool();
}

Fields Fields::child(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    if (!value.isObject())
        fail(key, wanted("an object", value));
    return Fields(value.toObject(), pathOf(key));
}

Fields Fields::optionalChild(const QString &key) const
{
    return has(key) ? child(key) : Fields(QJsonObject(), pathOf(key));
}

QJsonArray Fields::array(const QString &key) const
{
    const QJsonValue value = m_object.value(key);
    if (!value.isArray())
        fail(key, wanted("an array", value));
    return value.toArray();
}

QJsonArray Fields::optionalArray(const QString &key) const
{
    return has(key) ? array(key) : QJsonArray();
}

QStringList Fields::optionalStrings(const QString &key) const
{
    QStringList strings;
    const QJsonArray values = optionalArray(key);
    for (int i = 0; i < values.size(); ++i) {
        if (!values[i].isString())
            fail(QStringLiteral("%1[%2]").arg(key).arg(i), wanted("a string", values[i]));
        strings.append(values[i].toString());
    }
    return strings;
}

QVector<qint64> Fields::optionalIntegers(const QString &key) const
{
    QVector<qint64> numbers;
    const QJsonArray values = optionalArray(key);
    for (int i = 0; i < values.size(); ++i) {
        const double value = values[i].toDouble(std::nan(""));
        if (!values[i].isDouble() || value != std::floor(value))
            fail(QStringLiteral("%1[%2]").arg(key).arg(i), wanted("an integer", values[i]));
        numbers.append(qint64(value));
    }
    return numbers;
}

void Fields::forEachObject(const QJsonArray &array, const QString &key,
                           const std::function<void(const Fields &)> &visit) const
{
    for (int i = 0; i < array.size(); ++i) {
        const QString at = QStringLiteral("%1[%2]").arg(pathOf(key)).arg(i);
        if (!array[i].isObject())
            throw MalformedField{at, wanted("an object", array[i])};
        visit(Fields(array[i].toObject(), at));
    }
}

void Fields::forEachMember(const QString &key,
                           const std::function<void(const QString &, const Fields &)> &visit) const
{
    const Fields members = optionalChild(key);
    for (auto it = members.object().begin(); it != members.object().end(); ++it) {
        if (!it.value().isObject())
            members.fail(it.key(), wanted("an object", it.value()));
        visit(it.key(), Fields(it.value().toObject(), members.pathOf(it.key())));
    }
}

QString taskOrigin(const QJsonObject &result)
{
    const QString task = result.value(QStringLiteral("task")).toString();
    if (!task.isEmpty())
        return task;
    return result.value(QStringLiteral("tasks")).toArray().at(0).toString();
}

} // namespace strata::taskjson
