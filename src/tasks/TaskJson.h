#pragma once
// Reading the agent's task-method results (agent/PROTOCOL.md, "Task methods") field by field.
// Internal to strata_tasks. A field of the wrong type or a missing required one throws
// MalformedField, naming where it is ("kernels[0].grid"); each public parse function catches it
// at its boundary and turns it into a ReadError, so no exception leaves the library.
#include "core/Expected.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>
#include <optional>

namespace strata::taskjson {

struct MalformedField {
    QString path;      // "kernels[0].grid"
    QString problem;   // "expected an array of 3 integers, got a string"
};

QString typeName(const QJsonValue &value);

// One JSON object and where it sits in the result.
class Fields {
public:
    Fields(QJsonObject object, QString path) : m_object(std::move(object)), m_path(std::move(path)) {}

    const QJsonObject &object() const { return m_object; }
    QString pathOf(const QString &key) const;
    bool has(const QString &key) const;   // present and not null
    [[noreturn]] void fail(const QString &key, const QString &problem) const;

    QString string(const QString &key) const;                        // required
    QString optionalString(const QString &key, const QString &fallback = {}) const;
    double number(const QString &key) const;                         // required
    std::optional<double> optionalNumber(const QString &key) const;  // absent or null: nullopt
    qint64 integer(const QString &key) const;                        // required, whole number
    qint64 optionalInteger(const QString &key, qint64 fallback) const;
    bool optionalBool(const QString &key, bool fallback) const;
    Fields child(const QString &key) const;                          // required object
    Fields optionalChild(const QString &key) const;                  // absent or null: empty
    QJsonArray array(const QString &key) const;                      // required
    QJsonArray optionalArray(const QString &key) const;
    QStringList optionalStrings(const QString &key) const;           // an array of strings
    QVector<qint64> optionalIntegers(const QString &key) const;      // an array of integers
    // Each element of an array of objects, in order.
    void forEachObject(const QJsonArray &array, const QString &key,
                       const std::function<void(const Fields &)> &visit) const;
    // Each member of an object whose values are objects, in the object's (sorted) key order.
    void forEachMember(const QString &key, const std::function<void(const QString &, const Fields &)> &visit) const;

private:
    QJsonObject m_object;
    QString m_path;
};

// Runs `parse` on `result`; a MalformedField becomes "<what>: <path>: <problem>" in a ReadError
// whose file is `origin` (the task file, when known).
template <typename T>
Expected<T> parseGuarded(const QJsonObject &result, const QString &what, const QString &origin,
                         const std::function<T(const Fields &)> &parse)
{
    try {
        return parse(Fields(result, QString()));
    } catch (const MalformedField &bad) {
        const QString where = bad.path.isEmpty() ? QString() : bad.path + QStringLiteral(": ");
        return ReadError{origin, 0, 0, QStringLiteral("malformed %1: %2%3").arg(what, where, bad.problem)};
    }
}

// The task file a result names (its "task", else the first of "tasks"), for error messages.
QString taskOrigin(const QJsonObject &result);

} // namespace strata::taskjson
