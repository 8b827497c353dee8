#pragma once
// Compile specs (suites/samples/README.md: NAME.VARIANT.spec.json), checked before they are sent
// to the agent so that a wrong value is an error naming the spec file, the key's JSON path and
// its line, not a Python exception from deep inside the compiler. Only the shape and JSON types
// are checked here; type names and the kernel's signature are the agent's to check.
#include "core/Expected.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace strata {

// Reads, parses and checks a spec file.
Expected<QJsonObject> readCompileSpec(const QString &path);
// Parses and checks spec text; `origin` is what errors name (the file, or "--spec" for inline JSON).
Expected<QJsonObject> parseCompileSpec(const QByteArray &text, const QString &origin);
// Checks a parsed spec. `text`, when known, lets the error carry the key's line.
std::optional<ReadError> checkCompileSpec(const QJsonObject &spec, const QString &origin,
                                          const QByteArray &text = {});

// The 1-based line where the dotted JSON path (e.g. "options.num_warps") is first written in
// `text`, 0 when not found. Good enough for the small, hand-written files specs are.
int lineOfJsonPath(const QByteArray &text, const QString &path);

} // namespace strata
