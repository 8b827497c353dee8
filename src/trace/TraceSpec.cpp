#include "trace/TraceSpec.h"

#include <QHash>
#include <QJsonArray>
#include <QRegularExpression>

namespace strata::trace {

namespace {

const QHash<QString, QString> &scalarTypes()
{
    static const QHash<QString, QString> types{
        {QStringLiteral("i1"), QStringLiteral("i1")},       {QStringLiteral("i8"), QStringLiteral("i8")},
        {QStringLiteral("i16"), QStringLiteral("i16")},     {QStringLiteral("i32"), QStringLiteral("i32")},
        {QStringLiteral("i64"), QStringLiteral("i64")},     {QStringLiteral("f16"), QStringLiteral("fp16")},
        {QStringLiteral("bf16"), QStringLiteral("bf16")},   {QStringLiteral("f32"), QStringLiteral("fp32")},
        {QStringLiteral("f64"), QStringLiteral("fp64")},    {QStringLiteral("f8E4M3FN"), QStringLiteral("fp8e4nv")},
        {QStringLiteral("f8E5M2"), QStringLiteral("fp8e5")}, {QStringLiteral("f8E4M3FNUZ"), QStringLiteral("fp8e4b8")},
        {QStringLiteral("f8E5M2FNUZ"), QStringLiteral("fp8e5b16")}, {QStringLiteral("f8E4M3B11FNUZ"), QStringLiteral("fp8e4b15")}};
    return types;
}

// Bracket depth while scanning code; quotes hide brackets. `angles` counts <> too (MLIR types).
class Scanner {
public:
    explicit Scanner(bool angles) : m_angles(angles) {}
    // Feeds one character; returns the depth after it.
    int step(QChar c)
    {
        if (m_quote != QChar()) {
            if (c == m_quote)
                m_quote = QChar();
            return m_depth;
        }
        if (c == u'"' || c == u'\'')
            m_quote = c;
        else if (c == u'(' || c == u'[' || c == u'{' || (m_angles && c == u'<'))
            ++m_depth;
        else if (c == u')' || c == u']' || c == u'}' || (m_angles && c == u'>'))
            --m_depth;
        return m_depth;
    }
    int depth() const { return m_depth; }
    bool inQuote() const { return m_quote != QChar(); }

private:
    bool m_angles;
    int m_depth = 0;
    QChar m_quote;
};

// The text between the '(' at `open` and its matching ')'; empty if unbalanced.
QString parenthesised(const QString &text, qsizetype open, bool angles)
{
    Scanner scanner(angles);
    for (qsizetype i = open; i < text.size(); ++i) {
        if (scanner.step(text[i]) == 0)
            return text.mid(open + 1, i - open - 1);
    }
    return {};
}

QStringList splitTopLevel(const QString &text, QChar separator, bool angles)
{
    QStringList parts;
    Scanner scanner(angles);
    qsizetype start = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const bool atSeparator = text[i] == separator && scanner.depth() == 0 && !scanner.inQuote();
        scanner.step(text[i]);
        if (atSeparator) {
            parts.append(text.mid(start, i - start).trimmed());
            start = i + 1;
        }
    }
    parts.append(text.mid(start).trimmed());
    return parts;
}

// `# ...` comments out, string contents kept (a '#' in a string is not a comment).
QString withoutComments(const QString &code)
{
    QString out;
    out.reserve(code.size());
    QChar quote;
    bool inComment = false;
    for (const QChar c : code) {
        if (inComment) {
            if (c == u'\n') {
                inComment = false;
                out.append(c);
            }
            continue;
        }
        if (quote != QChar()) {
            if (c == quote)
                quote = QChar();
        } else if (c == u'"' || c == u'\'') {
            quote = c;
        } else if (c == u'#') {
            inComment = true;
            continue;
        }
        out.append(c);
    }
    return out;
}

// "(4,)" -> 4; -1 for keys of nested (tuple) parameters, which specs cannot name.
int parameterIndex(const QString &key)
{
    QString inner = key.trimmed();
    if (!inner.startsWith(u'(') || !inner.endsWith(u')'))
        return -1;
    inner = inner.mid(1, inner.size() - 2);
    const QStringList parts = inner.split(u',', Qt::SkipEmptyParts);
    if (parts.size() != 1)
        return -1;
    bool ok = false;
    const int index = parts.first().trimmed().toInt(&ok);
    return ok ? index : -1;
}

QHash<int, QJsonValue> byParameterIndex(const QJsonObject &object)
{
    QHash<int, QJsonValue> values;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (const int index = parameterIndex(it.key()); index >= 0)
            values.insert(index, it.value());
    return values;
}

bool hasDivisibility16(const QJsonValue &attrs)
{
    for (const QJsonValue &attr : attrs.toArray()) {
        const QJsonArray pair = attr.toArray();
        if (pair.size() == 2 && pair.at(0).toString() == QLatin1String("tt.divisibility") && pair.at(1).toInt() == 16)
            return true;
    }
    return false;
}

QString fileContent(const QJsonObject &payload, const QString &suffix)
{
    const QJsonObject files = payload.value(QStringLiteral("file_content")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it)
        if (it.key().endsWith(suffix))
            return it.value().toString();
    return {};
}

QJsonObject compileOptions(const QJsonObject &metadata)
{
    QJsonObject options{{QStringLiteral("num_warps"), metadata.value(QStringLiteral("num_warps")).toInt(4)},
                        {QStringLiteral("num_stages"), metadata.value(QStringLiteral("num_stages")).toInt(3)}};
    if (const int ctas = metadata.value(QStringLiteral("num_ctas")).toInt(1); ctas != 1)
        options.insert(QStringLiteral("num_ctas"), ctas);
    if (const QJsonValue maxnreg = metadata.value(QStringLiteral("maxnreg")); maxnreg.isDouble())
        options.insert(QStringLiteral("maxnreg"), maxnreg);
    return options;
}

} // namespace

QVector<PythonParam> pythonParams(const QString &code, const QString &kernel)
{
    const QString clean = withoutComments(code);
    const QRegularExpression def(QStringLiteral("\\bdef\\s+%1\\s*\\(").arg(QRegularExpression::escape(kernel)));
    const QRegularExpressionMatch match = def.match(clean);
    if (!match.hasMatch())
        return {};
    const QString inside = parenthesised(clean, match.capturedEnd() - 1, false);
    QVector<PythonParam> params;
    for (QString part : splitTopLevel(inside, u',', false)) {
        part = part.simplified();
        if (part.isEmpty() || part == QLatin1String("*") || part == QLatin1String("/"))
            continue;
        while (part.startsWith(u'*'))
            part.remove(0, 1);
        const QStringList byEquals = splitTopLevel(part, u'=', false);
        const QStringList byColon = splitTopLevel(byEquals.first(), u':', false);
        params.append(PythonParam{byColon.first().trimmed(), byColon.value(1).trimmed()});
    }
    return params;
}

QString specType(const QString &mlirType)
{
    const QString type = mlirType.trimmed();
    if (type.startsWith(QLatin1String("!tt.ptr<")) && type.endsWith(u'>')) {
        const QString element = splitTopLevel(type.mid(8, type.size() - 9), u',', true).first();
        const QString scalar = scalarTypes().value(element);
        return scalar.isEmpty() ? QString() : u'*' + scalar;
    }
    static const QRegularExpression descriptor(QStringLiteral("^!tt\\.tensordesc<tensor<((?:\\d+x)+)([A-Za-z0-9]+)"));
    if (const QRegularExpressionMatch match = descriptor.match(type); match.hasMatch()) {
        const QString scalar = scalarTypes().value(match.captured(2));
        QStringList dims = match.captured(1).split(u'x', Qt::SkipEmptyParts);
        return scalar.isEmpty() ? QString() : QStringLiteral("tensordesc<%1[%2]>").arg(scalar, dims.join(QStringLiteral(", ")));
    }
    return scalarTypes().value(type);
}

QHash<QString, QString> ttirParamTypes(const QString &ttir, const QString &kernel, QStringList *unsupported)
{
    QHash<QString, QString> types;
    const qsizetype at = ttir.indexOf(u'@' + kernel + u'(');
    if (at < 0)
        return types;
    const QString arguments = parenthesised(ttir, at + kernel.size() + 1, true);
    static const QRegularExpression locName(QStringLiteral("loc\\(\"([A-Za-z_][A-Za-z0-9_]*)\""));
    for (const QString &argument : splitTopLevel(arguments, u',', true)) {
        const QStringList nameAndRest = splitTopLevel(argument, u':', true);
        if (nameAndRest.size() < 2)
            continue;
        const QRegularExpressionMatch named = locName.match(argument);
        const QString name = named.hasMatch() ? named.captured(1) : nameAndRest.first().mid(1);
        const QString mlirType = splitTopLevel(nameAndRest.at(1), u' ', true).first();
        const QString type = specType(mlirType);
        if (type.isEmpty() && unsupported)
            unsupported->append(QStringLiteral("%1: %2").arg(name, mlirType));
        types.insert(name, type);
    }
    return types;
}

QString targetName(const QJsonObject &metadata, const TargetNamer &namer)
{
    const QJsonObject target = metadata.value(QStringLiteral("target")).toObject();
    if (namer)
        if (const QString named = namer(target); !named.isEmpty())
            return named;
    const QJsonValue arch = target.value(QStringLiteral("arch"));
    return arch.isString() ? arch.toString() : QString();  // "gfx942" for hip
}

Expected<QJsonObject> specFromCompilation(const QJsonObject &payload, const TargetNamer &namer)
{
    const QJsonObject metadata = payload.value(QStringLiteral("metadata")).toObject();
    const QString kernel = metadata.value(QStringLiteral("name")).toString();
    const QVector<PythonParam> params =
        pythonParams(payload.value(QStringLiteral("python_source")).toObject().value(QStringLiteral("code")).toString(), kernel);
    if (params.isEmpty())
        return ReadError{{}, 0, 0, QStringLiteral("no `def %1(...)` in the event's python_source").arg(kernel)};
    const QString ttir = fileContent(payload, QStringLiteral(".ttir"));
    if (ttir.isEmpty())
        return ReadError{{}, 0, 0, QStringLiteral("the event has no TTIR to read the parameter types from")};
    QStringList unsupported;
    const QHash<QString, QString> runtimeTypes = ttirParamTypes(ttir, kernel, &unsupported);
    const QHash<int, QJsonValue> constants = byParameterIndex(metadata.value(QStringLiteral("src_constants")).toObject());
    const QHash<int, QJsonValue> attrs = byParameterIndex(metadata.value(QStringLiteral("src_attrs")).toObject());

    QJsonObject signature, constexprs;
    QJsonArray divisible, equalToOne;
    for (int i = 0; i < params.size(); ++i) {
        const PythonParam &param = params[i];
        if (constants.contains(i)) {
            const QJsonValue value = constants.value(i);
            // The JIT specialises an int argument equal to 1 into a constant of a plain parameter.
            if (!param.isConstexpr() && value.isDouble() && value.toDouble() == 1.0) {
                signature.insert(param.name, QStringLiteral("i32"));
                equalToOne.append(param.name);
            } else {
                signature.insert(param.name, QStringLiteral("constexpr"));
                constexprs.insert(param.name, value);
            }
            continue;
        }
        const QString type = runtimeTypes.value(param.name);
        if (type.isEmpty())
            return ReadError{{}, 0, 0, unsupported.isEmpty()
                                 ? QStringLiteral("parameter %1 of %2 is neither a constant nor a TTIR argument").arg(param.name, kernel)
                                 : QStringLiteral("TTIR types a spec cannot name: %1").arg(unsupported.join(QStringLiteral(", ")))};
        signature.insert(param.name, type);
        if (hasDivisibility16(attrs.value(i)))
            divisible.append(param.name);
    }
    return QJsonObject{{QStringLiteral("kernel"), kernel},
                       {QStringLiteral("signature"), signature},
                       {QStringLiteral("constexprs"), constexprs},
                       {QStringLiteral("divisibility_16"), divisible},
                       {QStringLiteral("equal_to_1"), equalToOne},
                       {QStringLiteral("options"), compileOptions(metadata)},
                       {QStringLiteral("target"), targetName(metadata, namer)}};
}

} // namespace strata::trace
