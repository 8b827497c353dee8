#include "diagnosis/l2_profile/Measurements.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonParseError>

namespace strata::diagnosis {

namespace {

Expected<QJsonObject> readResultObject(const QString &path, const char *requiredKey, const char *method)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read the saved %1 reply: %2").arg(QLatin1String(method), file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject())
        return ReadError{path, 0, 0, QStringLiteral("not a JSON object (%1)").arg(parseError.errorString())};
    QJsonObject object = document.object();
    if (object.value(QStringLiteral("reply")).isObject())
        object = object.value(QStringLiteral("reply")).toObject();
    if (object.value(QStringLiteral("error")).isObject())
        return ReadError{path, 0, 0, QStringLiteral("the saved %1 reply is an error: %2").arg(QLatin1String(method),
                             object.value(QStringLiteral("error")).toObject().value(QStringLiteral("message")).toString())};
    if (object.value(QStringLiteral("result")).isObject())
        object = object.value(QStringLiteral("result")).toObject();
    if (!object.contains(QLatin1String(requiredKey)))
        return ReadError{path, 0, 0, QStringLiteral("not a `%1` reply (no \"%2\" field)").arg(QLatin1String(method), QLatin1String(requiredKey))};
    return object;
}

// Parse errors name the reply's own origin; give them the file instead.
template <typename T>
Expected<T> named(Expected<T> parsed, const QString &path)
{
    if (parsed)
        return parsed;
    ReadError error = parsed.error();
    if (!error.file.isEmpty() && error.file != path)
        error.message = QStringLiteral("%1 (%2)").arg(error.message, error.file);
    error.file = path;
    return error;
}

} // namespace

const Ceilings *Measurements::bestCeilings() const
{
    if (ceilings && ceilings->error.isEmpty())
        return &*ceilings;
    if (timing && timing->roofline && timing->roofline->ceilings.error.isEmpty())
        return &timing->roofline->ceilings;
    return nullptr;
}

Expected<Timing> readTimingFile(const QString &path)
{
    Expected<QJsonObject> object = readResultObject(path, "candidates", "time");
    if (!object)
        return object.error();
    return named(parseTiming(*object), path);
}

Expected<ProfileResult> readProfileFile(const QString &path)
{
    Expected<QJsonObject> object = readResultObject(path, "ncu", "profile");
    if (!object)
        return object.error();
    return named(parseProfileResult(*object), path);
}

Expected<CeilingsResult> readCeilingsFile(const QString &path)
{
    Expected<QJsonObject> object = readResultObject(path, "ceilings", "ceilings");
    if (!object)
        return object.error();
    return named(parseCeilingsResult(*object), path);
}

} // namespace strata::diagnosis
