#pragma once
// The edit script between the lines of two texts (dtl's O(ND) diff): the one base of every diff
// Strata shows, the app's pass diffs and rewrite review and the reports' winning change.
#include <QStringList>
#include <vector>

namespace strata {

struct LineEdit {
    enum Kind { Same, Added, Removed };
    Kind kind = Same;
    int beforeLine = 0;  // 1-based line in `before`; 0 for added lines
    int afterLine = 0;   // 1-based line in `after`; 0 for removed lines
};

// Every line of both texts in order. Within each run of changes the removed lines come first,
// which reads as "this became that", like diff -u.
std::vector<LineEdit> lineEditScript(const QStringList &before, const QStringList &after);

// Which edits a hunked diff shows: every change, and the common lines within `contextLines` of one.
std::vector<bool> shownInHunks(const std::vector<LineEdit> &script, int contextLines);

} // namespace strata
