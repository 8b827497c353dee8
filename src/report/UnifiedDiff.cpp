#include "report/UnifiedDiff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace strata::report {

namespace {

struct Edit {
    DiffLine::Kind kind;
    int beforeIndex;  // 0-based line in `before` (Context, Removed)
    int afterIndex;   // 0-based line in `after` (Context, Added)
};

QStringList linesOf(const QString &text)
{
    QStringList lines = text.split(u'\n');
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();  // a final newline ends the last line, it does not start one
    return lines;
}

std::vector<Edit> editScript(const QStringList &before, const QStringList &after)
{
    std::vector<std::string> a, b;
    for (const QString &line : before)
        a.push_back(line.toStdString());
    for (const QString &line : after)
        b.push_back(line.toStdString());
    dtl::Diff<std::string> diff(a, b);
    diff.compose();
    std::vector<Edit> script;
    for (const auto &[text, info] : diff.getSes().getSequence()) {
        Q_UNUSED(text);
        if (info.type == dtl::SES_ADD)
            script.push_back({DiffLine::Added, -1, int(info.afterIdx) - 1});
        else if (info.type == dtl::SES_DELETE)
            script.push_back({DiffLine::Removed, int(info.beforeIdx) - 1, -1});
        else
            script.push_back({DiffLine::Context, int(info.beforeIdx) - 1, int(info.afterIdx) - 1});
    }
    // Within a run of changes, removed lines first: reads as "this became that", like diff -u.
    auto run = script.begin();
    while (run != script.end()) {
        if (run->kind == DiffLine::Context) {
            ++run;
            continue;
        }
        auto end = std::find_if(run, script.end(), [](const Edit &e) { return e.kind == DiffLine::Context; });
        std::stable_partition(run, end, [](const Edit &e) { return e.kind == DiffLine::Removed; });
        run = end;
    }
    return script;
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
    const std::vector<Edit> script = editScript(beforeLines, afterLines);
    const int count = int(script.size());
    UnifiedDiff diff{beforeLabel, afterLabel, {}, 0, 0};

    // A common line is shown when a change lies within `contextLines` of it.
    std::vector<bool> shown(count, false);
    for (int i = 0; i < count; ++i) {
        if (script[i].kind == DiffLine::Context)
            continue;
        for (int j = std::max(0, i - contextLines); j <= std::min(count - 1, i + contextLines); ++j)
            shown[j] = true;
    }
    // Position in both texts of the next line, to start hunks (1-based like diff -u).
    int beforeNext = 1, afterNext = 1;
    for (int i = 0; i < count; ++i) {
        const Edit &edit = script[i];
        if (shown[i]) {
            if (i == 0 || !shown[i - 1])
                diff.hunks.append(DiffHunk{beforeNext, 0, afterNext, 0, {}});
            DiffHunk &hunk = diff.hunks.last();
            const QString text = edit.kind == DiffLine::Added ? afterLines[edit.afterIndex] : beforeLines[edit.beforeIndex];
            hunk.lines.append({edit.kind, text});
            if (edit.kind != DiffLine::Added)
                ++hunk.beforeCount;
            if (edit.kind != DiffLine::Removed)
                ++hunk.afterCount;
            diff.added += edit.kind == DiffLine::Added;
            diff.removed += edit.kind == DiffLine::Removed;
        }
        beforeNext += edit.kind != DiffLine::Added;
        afterNext += edit.kind != DiffLine::Removed;
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
