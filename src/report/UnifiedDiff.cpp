#include "report/UnifiedDiff.h"

#include "core/LineDiff.h"

namespace strata::report {

namespace {

QStringList linesOf(const QString &text)
{
    QStringList lines = text.split(u'\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();  // a final newline ends the last line, it does not start one
    return lines;
}

DiffLine::Kind kindOf(LineEdit::Kind kind)
{
    return kind == LineEdit::Added ? DiffLine::Added : kind == LineEdit::Removed ? DiffLine::Removed : DiffLine::Context;
}

} // namespace

QString DiffHunk::header() const
{
    return QStringLiteral("@@ -%1,%2 +%3,%4 @@").arg(beforeStart).arg(beforeCount).arg(afterStart).arg(afterCount);
}

QString UnifiedDiff::toText() const
{
    if (hunks.isEmpty())
        return {};
    QString text = QStringLiteral("--- %1\n+++ %2\n").arg(beforeLabel, afterLabel);
    for (const DiffHunk &hunk : hunks) {
        text += hunk.header() + u'\n';
        for (const DiffLine &line : hunk.lines) {
            const QChar mark = line.kind == DiffLine::Added ? u'+' : line.kind == DiffLine::Removed ? u'-' : u' ';
            text += mark + line.text + u'\n';
        }
    }
    return text;
}

UnifiedDiff diffTexts(const QString &before, const QString &after, const QString &beforeLabel,
                      const QString &afterLabel, int contextLines)
{
    const QStringList beforeLines = linesOf(before), afterLines = linesOf(after);
    const std::vector<LineEdit> script = lineEditScript(beforeLines, afterLines);
    const std::vector<bool> shown = shownInHunks(script, contextLines);
    const int count = int(script.size());
    UnifiedDiff diff{beforeLabel, afterLabel, {}, 0, 0};

    // Position in both texts of the next line, to start hunks (1-based like diff -u).
    int beforeNext = 1, afterNext = 1;
    for (int i = 0; i < count; ++i) {
        const LineEdit &edit = script[i];
        const DiffLine::Kind kind = kindOf(edit.kind);
        if (shown[i]) {
            if (i == 0 || !shown[i - 1])
                diff.hunks.append(DiffHunk{beforeNext, 0, afterNext, 0, {}});
            DiffHunk &hunk = diff.hunks.last();
            const QString text = kind == DiffLine::Added ? afterLines[edit.afterLine - 1] : beforeLines[edit.beforeLine - 1];
            hunk.lines.append({kind, text});
            if (kind != DiffLine::Added)
                ++hunk.beforeCount;
            if (kind != DiffLine::Removed)
                ++hunk.afterCount;
            diff.added += kind == DiffLine::Added;
            diff.removed += kind == DiffLine::Removed;
        }
        beforeNext += kind != DiffLine::Added;
        afterNext += kind != DiffLine::Removed;
    }
    // diff -u writes an empty side's start as the line before it.
    for (DiffHunk &hunk : diff.hunks) {
        if (hunk.beforeCount == 0)
            --hunk.beforeStart;
        if (hunk.afterCount == 0)
            --hunk.afterStart;
    }
    return diff;
}

} // namespace strata::report
