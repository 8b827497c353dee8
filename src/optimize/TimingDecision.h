#pragma once
// When is a candidate faster than the current best? Both are timed in the same interleaved call;
// a win must be at least `minGain` faster and its median must stay faster once each median's 95%
// confidence half-width (median_ci_rel, from the agent) is taken against it.
#include "tasks/Timing.h"

#include <QString>
#include <optional>

namespace strata::optimize {

struct Comparison {
    bool win = false;
    std::optional<double> speedup;  // best median / candidate median
    QString verdict;                // "accepted", "slower", "not_significant", "no_time"
    QString detail;                 // "0.412 ms vs 0.655 ms (1.59x, CI 0.4% / 0.3%)"
};

Comparison compareTimings(const CandidateTiming *best, const CandidateTiming *candidate, double minGain);

} // namespace strata::optimize
