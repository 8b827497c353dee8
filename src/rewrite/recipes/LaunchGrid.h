#pragma once
// How a kernel's launch grid relates to its constexprs: which block parameters scale a program
// id (and on which grid axis), and which element of a grid tuple a literal sits in. This is what
// lets a recipe change BLOCK_M and BLOCK_N to different values when the launch wrote both as the
// same literal (`grid = (cdiv(M, 64), cdiv(N, 64))`), and leave BLOCK_K's equal literal alone.
#include "diagnosis/l1_triage/KernelView.h"
#include "rewrite/recipes/SourceEdit.h"

#include <QHash>

namespace strata::rewrite::recipes {

// Constexpr parameters multiplied with a value derived from tl.program_id (`pid_m * BLOCK_M`,
// `tl.program_id(0) * BLOCK`), each with the program-id axis it follows; -1 when the value mixes
// axes (a swizzled program order) or the axis is not a constant.
QHash<QString, int> programBlockAxes(const diagnosis::KernelView &kernel);

// The element index of `literal` inside the grid tuple `gridNode` (`(a, b, c)` or `[a, b]`);
// -1 when the grid is no tuple of two or more elements.
int gridElementOf(const SourceText &source, const QJsonObject &gridNode, const QJsonObject &literal);

} // namespace strata::rewrite::recipes
