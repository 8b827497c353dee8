#pragma once
// A place in a source file as compilers record it. Every IR reader reduces its stage to
// "IR line -> chain of SourceLocations"; the location map joins stages on these.
#include <QString>
#include <QVector>
#include <QHashFunctions>

namespace strata {

struct SourceLocation {
    QString file;    // as the compiler wrote it (usually absolute)
    int line = 0;    // 1-based; 0 means unknown
    int column = 0;  // 1-based; 0 means unknown (SASS and some PTX carry none)

    bool isValid() const { return line > 0; }
    friend bool operator==(const SourceLocation &a, const SourceLocation &b) = default;
};

// Innermost first: frames[0] is where the code is; frames[1] the call site it was inlined into, ...
using LocationChain = QVector<SourceLocation>;

// True when `recorded` (a path from the IR) names the same file as `kernelFile`. Compilers write
// absolute paths, SASS sometimes only the base name, so both forms match.
bool sameSourceFile(const QString &recorded, const QString &kernelFile);

// The frame of `chain` that lies in `kernelFile`, innermost first; invalid when none does.
// This is how `tl.sum` code inlined from triton/language/standard.py lands on the user's line.
SourceLocation frameInFile(const LocationChain &chain, const QString &kernelFile);

QString toString(const SourceLocation &loc);  // "file:line:col"

} // namespace strata
