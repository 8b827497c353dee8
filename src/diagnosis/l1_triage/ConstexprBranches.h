#pragma once
// Triton resolves an `if` whose condition is a compile-time constant while it generates code: only
// the taken branch is compiled. L1 reads the Python source, so it drops the other branch first,
// or its rules would report loops, loads and index math that never reach the GPU at this launch.
#include "diagnosis/l1_triage/PyAst.h"

#include <QJsonValue>

#include <functional>
#include <optional>

namespace strata::diagnosis {

// The compile-time value of a kernel parameter at this launch (a spec constexpr, or 1 for a
// parameter the JIT folded), or nullopt when it is a run-time value or unknown.
using ConstexprLookup = std::function<std::optional<QJsonValue>(const QString &name)>;

// `function` with every `if` statement whose test is decidable from `constexprOf` (names not
// reassigned in the body, literals, not/and/or, comparisons, tl.constexpr(...)) replaced by the
// statements of its taken branch. Undecidable tests are kept as they are.
pyast::Node pruneConstexprBranches(const pyast::Node &function, const ConstexprLookup &constexprOf);

} // namespace strata::diagnosis
