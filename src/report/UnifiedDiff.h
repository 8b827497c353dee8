#pragma once
// A line diff of two texts in unified form (diff -u): hunks of context, removed and added lines.
// Used for a task's winning change (initial kernel vs best candidate).
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::report {

struct DiffLine {
    enum Kind { Context, Removed, Added };
    Kind kind = Context;
    QString text;
};

struct DiffHunk {
    int beforeStart = 0, beforeCount = 0;  // 1-based, as in "@@ -a,b +c,d @@"
    int afterStart = 0, afterCount = 0;
    QVector<DiffLine> lines;

    QString header() const;  // "@@ -a,b +c,d @@"
};

struct UnifiedDiff {
    QString beforeLabel, afterLabel;
    QVector<DiffHunk> hunks;
    int added = 0, removed = 0;

    bool isEmpty() const { return hunks.isEmpty(); }
    QString toText() const;  // "--- a\n+++ b\n@@ ... @@\n-old\n+new\n ctx\n"
};

UnifiedDiff diffTexts(const QString &before, const QString &after, const QString &beforeLabel,
                      const QString &afterLabel, int contextLines = 3);

} // namespace strata::report
