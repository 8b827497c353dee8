#pragma once
// Fixture loading shared by the diagnosis tests: a compile from tests/fixtures read into stages
// and a location map, and source lines found by their text (so tests survive sample edits).
#include "NvidiaStages.h"
#include "compile/LoadedCompile.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>

namespace strata::testing {

// `sampleVariant`: "vector_add/aligned" (tests/fixtures) or "ast/compiles/<bad kernel>".
inline LoadedCompile loadFixtureCompile(const QString &sampleVariant)
{
    const QString path = QStringLiteral(STRATA_FIXTURES_DIR "/") + sampleVariant + QStringLiteral("/compile.json");
    Expected<CompileResult> result = readCompileResultFile(path);
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().toString()));
    return std::move(*loaded);
}

// 1-based line of the first line of the compile's own source.py containing `needle`.
inline int sourceLineContaining(const LoadedCompile &compile, const QString &needle)
{
    const QStringList lines = compile.sourceText.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].contains(needle))
            return i + 1;
    }
    qFatal("no source line contains %s", qPrintable(needle));
}

} // namespace strata::testing
