#include "models/PassDiff.h"

#include "core/LineDiff.h"

#include <QRegularExpression>

namespace strata {

namespace {

DiffLine::Kind kindOf(LineEdit::Kind kind)
{
    return kind == LineEdit::Added ? DiffLine::Added : kind == LineEdit::Removed ? DiffLine::Removed : DiffLine::Context;
}

} // namespace

PassDiff diffTexts(const QStringList &before, const QStringList &after, int contextLines)
{
    const std::vector<LineEdit> script = lineEditScript(before, after);
    const std::vector<bool> keep = shownInHunks(script, contextLines);
    const int count = int(script.size());

    PassDiff result;
    bool inHunk = false;
    for (int i = 0; i < count; ++i) {
        if (!keep[i]) {
            inHunk = false;
            continue;
        }
        const LineEdit &edit = script[i];
        if (!inHunk) {
            const int beforeAt = edit.beforeLine ? edit.beforeLine : edit.afterLine;
            const int afterAt = edit.afterLine ? edit.afterLine : edit.beforeLine;
            result.lines.append({DiffLine::HunkHeader,
                                 QStringLiteral("@@ -%1 +%2 @@").arg(beforeAt).arg(afterAt), 0, 0});
            inHunk = true;
        }
        const QString &text = edit.kind == LineEdit::Added ? after[edit.afterLine - 1] : before[edit.beforeLine - 1];
        result.lines.append({kindOf(edit.kind), text, edit.beforeLine, edit.afterLine});
        result.added += edit.kind == LineEdit::Added;
        result.removed += edit.kind == LineEdit::Removed;
    }
    return result;
}

QStringList withoutLocations(const QString &mlirText)
{
    static const QRegularExpression trailingLoc(QStringLiteral("\\s+loc\\((?:[^()]|\\([^()]*\\))*\\)\\s*$"));
    static const QRegularExpression locDefinition(QStringLiteral("^#loc\\d*\\s*="));
    QStringList lines;
    for (QString line : mlirText.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("// -----//")) || locDefinition.match(line).hasMatch())
            continue;
        line.remove(trailingLoc);
        lines.append(line);
    }
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    return lines;
}

QString PassDiff::toUnifiedText() const
{
    QStringList out;
    out.reserve(lines.size());
    for (const DiffLine &line : lines) {
        switch (line.kind) {
        case DiffLine::HunkHeader: out.append(line.text); break;
        case DiffLine::Added: out.append(QLatin1Char('+') + line.text); break;
        case DiffLine::Removed: out.append(QLatin1Char('-') + line.text); break;
        case DiffLine::Context: out.append(QLatin1Char(' ') + line.text); break;
        }
    }
    return out.join(QLatin1Char('\n'));
}

} // namespace strata
