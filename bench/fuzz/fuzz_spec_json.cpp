// fuzz_spec_json: arbitrary bytes as a compile spec (NAME.VARIANT.spec.json, or --spec inline
// JSON), parsed and checked by parseCompileSpec as `strata-cli compile` and `diagnose` do before
// a spec goes to the agent; then lineOfJsonPath, the hand-written scanner behind every error's
// line, is asked for each key path the text holds, as errors on those keys would ask.
#include "compile/CompileSpec.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace strata;

namespace {

constexpr int kMaxPathDepth = 8;  // specs nest 2 deep; deeper paths add nothing the scanner reads

void askLineOfEveryPath(const QByteArray &text, const QJsonValue &value, const QString &path, int depth)
{
    if (depth > kMaxPathDepth)
        return;
    if (!path.isEmpty())
        (void)lineOfJsonPath(text, path);
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            askLineOfEveryPath(text, it.value(), path.isEmpty() ? it.key() : path + u'.' + it.key(), depth + 1);
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (int i = 0; i < array.size(); ++i)
            askLineOfEveryPath(text, array[i], QStringLiteral("%1[%2]").arg(path).arg(i), depth + 1);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray text(reinterpret_cast<const char *>(data), qsizetype(size));
    Expected<QJsonObject> spec = parseCompileSpec(text, QStringLiteral("fuzz.spec.json"));
    if (spec)
        (void)QJsonDocument(*spec).toJson(QJsonDocument::Compact);  // as sent to the agent
    else
        (void)spec.error().toString();
    const QJsonDocument document = QJsonDocument::fromJson(text);
    if (document.isObject())
        askLineOfEveryPath(text, document.object(), {}, 0);
    return 0;
}
