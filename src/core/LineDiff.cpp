#include "core/LineDiff.h"

#include <dtl/dtl.hpp>

#include <algorithm>
#include <string>

namespace strata {

std::vector<LineEdit> lineEditScript(const QStringList &before, const QStringList &after)
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

    std::vector<LineEdit> script;
    for (const auto &[text, info] : diff.getSes().getSequence()) {
        Q_UNUSED(text);
        if (info.type == dtl::SES_ADD)
            script.push_back({LineEdit::Added, 0, int(info.afterIdx)});
        else if (info.type == dtl::SES_DELETE)
            script.push_back({LineEdit::Removed, int(info.beforeIdx), 0});
        else
            script.push_back({LineEdit::Same, int(info.beforeIdx), int(info.afterIdx)});
    }
    // dtl may put an addition before the deletion it replaces.
    auto run = script.begin();
    while (run != script.end()) {
        if (run->kind == LineEdit::Same) {
            ++run;
            continue;
        }
        auto end = std::find_if(run, script.end(), [](const LineEdit &e) { return e.kind == LineEdit::Same; });
        std::stable_partition(run, end, [](const LineEdit &e) { return e.kind == LineEdit::Removed; });
        run = end;
    }
    return script;
}

std::vector<bool> shownInHunks(const std::vector<LineEdit> &script, int contextLines)
{
    const int count = int(script.size());
    std::vector<bool> shown(count, false);
    for (int i = 0; i < count; ++i) {
        if (script[i].kind == LineEdit::Same)
            continue;
        for (int j = std::max(0, i - contextLines); j <= std::min(count - 1, i + contextLines); ++j)
            shown[j] = true;
    }
    return shown;
}

} // namespace strata
