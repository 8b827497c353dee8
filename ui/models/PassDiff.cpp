#include "models/PassDiff.h"

#include <QRegularExpression>

#include <dtl/dtl.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace strata {

namespace {

struct Edit {
    DiffLine::Kind kind;
    int beforeLine;
    int afterLine;
};

// The full edit script: every line of both texts, in order, tagged common/added/removed.
std::vector<Edit> editScript(const QStringList &before, const QStringList &after)
{
    // dtl compares elements with ==; std::string keeps the comparison cheap and exact.
    std::vector<std::string> a, b;
    a.reserve(before.size());
    b.reserve(after.size());
    for (const QString &line : before)
        a.push_back(line.toStdString());
    for (const QString &line : after)
        b.push_back(line.toStdString());

    dtl::Diff<std::string> diff(a, b);
    diff.onHuge();  // IR dumps can be long; this keeps dtl's memory in check
    diff.compose();

    std::vector<Edit> script;
    for (const auto &[text, info] : diff.getSes().getSequence()) {
        Q_UNUSED(text);
        switch (info.type) {
        case dtl::SES_ADD:
            script.push_back({DiffLine::Added, 0, int(info.afterIdx)});
            break;
        case dtl::SES_DELETE:
            script.push_back({DiffLine::Removed, int(info.beforeIdx), 0});
            break;
        default:
            script.push_back({DiffLine::Context, int(info.beforeIdx), int(info.afterIdx)});
        }
    }
    // dtl may put an addition before the deletion it replaces; diff -u shows "-" lines first
    // within each run of changes, which reads as "this became that".
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

PassDiff diffTexts(const QStringList &before, const QStringList &after, int contextLines)
{
    const std::vector<Edit> script = editScript(before, after);
    const int count = int(script.size());

    // Keep a common line only when a change lies within `contextLines` of it.
    std::vector<bool> keep(count, false);
    for (int i = 0; i < count; ++i) {
        if (script[i].kind == DiffLine::Context)
            continue;
        for (int j = std::max(0, i - contextLines); j <= std::min(count - 1, i + contextLines); ++j)
            keep[j] = true;
    }

    PassDiff result;
    bool inHunk = false;
    for (int i = 0; i < count; ++i) {
        if (!keep[i]) {
            inHunk = false;
            continue;
        }
        const Edit &edit = script[i];
        if (!inHunk) {
            const int beforeAt = edit.beforeLine ? edit.beforeLine : edit.afterLine;
            const int afterAt = edit.afterLine ? edit.afterLine : edit.beforeLine;
            result.lines.append({DiffLine::HunkHeader,
                                 QStringLiteral("@@ -%1 +%2 @@").arg(beforeAt).arg(afterAt), 0, 0});
            inHunk = true;
        }
        const QString &text = edit.kind == DiffLine::Added ? after[edit.afterLine - 1]
                                                           : before[edit.beforeLine - 1];
        result.lines.append({edit.kind, text, edit.beforeLine, edit.afterLine});
        result.added += edit.kind == DiffLine::Added;
        result.removed += edit.kind == DiffLine::Removed;
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
