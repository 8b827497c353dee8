#pragma once
// Line diff between two IR dumps (dtl's O(ND) algorithm), grouped into hunks with context the
// way `diff -u` shows them, so a 600-line dump with 10 changed lines reads as 10 lines.
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

struct DiffLine {
    enum Kind { Context, Added, Removed, HunkHeader };
    Kind kind = Context;
    QString text;
    int beforeLine = 0;  // 1-based line in the "before" text; 0 for added lines and headers
    int afterLine = 0;   // 1-based line in the "after" text; 0 for removed lines and headers
};

struct PassDiff {
    QVector<DiffLine> lines;
    int added = 0;
    int removed = 0;

    bool isEmpty() const { return added == 0 && removed == 0; }
    QString toUnifiedText() const;  // "+"/"-"/" " prefixed, "@@" hunk headers
};

// MLIR dump text prepared for diffing: the dump header, `#locN = loc(...)` definitions and
// trailing ` loc(...)` references are dropped. Location numbers shift between dumps (and the
// pipeliner's snapshots print none), so they would bury the real changes.
QStringList withoutLocations(const QString &mlirText);

PassDiff diffTexts(const QStringList &before, const QStringList &after, int contextLines = 3);

} // namespace strata
