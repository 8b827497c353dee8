#include "compile/CompileSpec.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

#include <cmath>

namespace strata {

namespace {

// How a value is named in an error: the user sees what they wrote.
QString describeValue(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String: return QStringLiteral("the string \"%1\"").arg(value.toString().left(60));
    case QJsonValue::Bool: return value.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(value.toDouble());
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Array: return QStringLiteral("an array");
    case QJsonValue::Object: return QStringLiteral("an object");
    default: return QStringLiteral("nothing");
    }
}

bool isInteger(const QJsonValue &value)
{
    if (!value.isDouble())
        return false;
    const double number = value.toDouble();
    return std::isfinite(number) && number == std::floor(number) && std::abs(number) < 1e15;
}

struct IntegerOption {
    const char *name;
    int minimum;
    bool nullable;
    const char *example;
};

// Options every Triton backend takes; the others go to the backend as they are (the agent checks
// them against the backend's option list).
constexpr IntegerOption kIntegerOptions[] = {
    {"num_warps", 1, false, "8"},
    {"num_stages", 0, false, "3"},
    {"num_ctas", 1, false, "1"},
    {"maxnreg", 1, true, "128"},
};
constexpr const char *kBoolOptions[] = {"enable_fp_fusion"};

class SpecChecker {
public:
    SpecChecker(const QJsonObject &spec, const QString &origin, const QByteArray &text)
        : m_spec(spec), m_origin(origin), m_text(text) {}

    std::optional<ReadError> check()
    {
        if (checkNames() && checkSignature() && checkConstexprs()
            && checkNameList(QStringLiteral("divisibility_16")) && checkNameList(QStringLiteral("equal_to_1"))
            && checkOptions())
            return std::nullopt;
        return m_error;
    }

private:
    bool fail(const QString &path, const QString &message)
    {
        m_error = ReadError{m_origin, lineOfJsonPath(m_text, path), 0,
                            QStringLiteral("spec.%1 %2").arg(path, message)};
        return false;
    }

    bool checkNames()
    {
        for (const QString key : {QStringLiteral("kernel"), QStringLiteral("target")}) {
            const QJsonValue value = m_spec.value(key);
            if (!value.isUndefined() && (!value.isString() || value.toString().isEmpty()))
                return fail(key, QStringLiteral("must be a non-empty string, not %1").arg(describeValue(value)));
        }
        return true;
    }

    bool checkSignature()
    {
        const QJsonValue signature = m_spec.value(QStringLiteral("signature"));
        if (signature.isUndefined())
            return fail(QStringLiteral("signature"), QStringLiteral("is missing: give each kernel parameter its "
                                                                    "type, e.g. {\"x_ptr\": \"*fp32\", \"BLOCK\": \"constexpr\"}"));
        if (!signature.isObject() || signature.toObject().isEmpty())
            return fail(QStringLiteral("signature"), QStringLiteral("must be a non-empty object of parameter -> type, not %1")
                                                         .arg(describeValue(signature)));
        m_signature = signature.toObject();
        for (auto it = m_signature.begin(); it != m_signature.end(); ++it) {
            if (!it.value().isString() || it.value().toString().isEmpty())
                return fail(QStringLiteral("signature.") + it.key(),
                            QStringLiteral("must be a type name such as \"*fp16\", \"i32\" or \"constexpr\", not %1")
                                .arg(describeValue(it.value())));
        }
        return true;
    }

    bool checkConstexprs()
    {
        const QJsonValue constexprs = m_spec.value(QStringLiteral("constexprs"));
        if (constexprs.isUndefined())
            return true;
        if (!constexprs.isObject())
            return fail(QStringLiteral("constexprs"), QStringLiteral("must be an object of name -> value, not %1")
                                                          .arg(describeValue(constexprs)));
        const QJsonObject values = constexprs.toObject();
        for (auto it = values.begin(); it != values.end(); ++it) {
            const QString path = QStringLiteral("constexprs.") + it.key();
            if (!m_signature.contains(it.key()))
                return fail(path, QStringLiteral("names no parameter of the signature"));
            if (it.value().isArray() || it.value().isObject())
                return fail(path, QStringLiteral("must be a number, a string, true/false or null, not %1")
                                      .arg(describeValue(it.value())));
        }
        return true;
    }

    bool checkNameList(const QString &key)
    {
        const QJsonValue list = m_spec.value(key);
        if (list.isUndefined())
            return true;
        if (!list.isArray())
            return fail(key, QStringLiteral("must be a list of parameter names, not %1").arg(describeValue(list)));
        const QJsonArray names = list.toArray();
        for (qsizetype i = 0; i < names.size(); ++i) {
            const QString path = QStringLiteral("%1[%2]").arg(key).arg(i);
            if (!names[i].isString())
                return fail(path, QStringLiteral("must be a parameter name, not %1").arg(describeValue(names[i])));
            if (!m_signature.contains(names[i].toString()))
                return fail(path, QStringLiteral("names \"%1\", which is not in the signature").arg(names[i].toString()));
        }
        return true;
    }

    bool checkOptions()
    {
        const QJsonValue options = m_spec.value(QStringLiteral("options"));
        if (options.isUndefined())
            return true;
        if (!options.isObject())
            return fail(QStringLiteral("options"), QStringLiteral("must be an object such as {\"num_warps\": 4}, not %1")
                                                       .arg(describeValue(options)));
        const QJsonObject values = options.toObject();
        for (const IntegerOption &option : kIntegerOptions) {
            const QString name = QString::fromLatin1(option.name);
            const QJsonValue value = values.value(name);
            if (value.isUndefined() || (option.nullable && value.isNull()))
                continue;
            if (!isInteger(value) || value.toDouble() < option.minimum)
                return fail(QStringLiteral("options.") + name,
                            QStringLiteral("must be an integer of at least %1 (e.g. %2), not %3")
                                .arg(option.minimum).arg(QLatin1String(option.example), describeValue(value)));
        }
        for (const char *option : kBoolOptions) {
            const QJsonValue value = values.value(QLatin1String(option));
            if (!value.isUndefined() && !value.isBool())
                return fail(QStringLiteral("options.") + QLatin1String(option),
                            QStringLiteral("must be true or false, not %1").arg(describeValue(value)));
        }
        return true;
    }

    const QJsonObject &m_spec;
    QString m_origin;
    QByteArray m_text;
    QJsonObject m_signature;
    ReadError m_error;
};

} // namespace

int lineOfJsonPath(const QByteArray &text, const QString &path)
{
    if (text.isEmpty())
        return 0;
    qsizetype at = 0;
    for (const QString &part : path.split(u'.')) {
        const QString key = part.section(u'[', 0, 0);   // "divisibility_16[2]": the list's key
        const qsizetype found = text.indexOf(QByteArray("\"") + key.toUtf8() + "\"", at);
        if (found < 0)
            return 0;
        at = found;
    }
    return int(text.left(at).count('\n')) + 1;
}

std::optional<ReadError> checkCompileSpec(const QJsonObject &spec, const QString &origin, const QByteArray &text)
{
    return SpecChecker(spec, origin, text).check();
}

Expected<QJsonObject> parseCompileSpec(const QByteArray &text, const QString &origin)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        const int line = int(text.left(parseError.offset).count('\n')) + 1;
        return ReadError{origin, line, 0, QStringLiteral("spec is not valid JSON: %1").arg(parseError.errorString())};
    }
    if (!doc.isObject())
        return ReadError{origin, 0, 0, QStringLiteral("a spec must be a JSON object")};
    if (std::optional<ReadError> error = checkCompileSpec(doc.object(), origin, text))
        return *error;
    return doc.object();
}

Expected<QJsonObject> readCompileSpec(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read spec: %1").arg(file.errorString())};
    return parseCompileSpec(file.readAll(), path);
}

} // namespace strata
