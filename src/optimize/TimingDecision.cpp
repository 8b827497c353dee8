#include "optimize/TimingDecision.h"

namespace strata::optimize {

Comparison compareTimings(const CandidateTiming *best, const CandidateTiming *candidate, double minGain)
{
    Comparison comparison;
    if (!candidate || !candidate->ok()) {
        comparison.verdict = QStringLiteral("no_time");
        comparison.detail = candidate ? QStringLiteral("no time: ") + candidate->error : QStringLiteral("not timed");
        return comparison;
    }
    if (!best || !best->ok()) {
        comparison.verdict = QStringLiteral("no_time");
        comparison.detail = QStringLiteral("the current best has no time to compare with");
        return comparison;
    }
    const double bestMs = *best->medianMs;
    const double candidateMs = *candidate->medianMs;
    const double bestCi = best->medianCiRel.value_or(0);
    const double candidateCi = candidate->medianCiRel.value_or(0);
    comparison.speedup = bestMs / candidateMs;
    comparison.detail = QStringLiteral("%1 ms vs %2 ms (%3x, CI %4% / %5%)")
                            .arg(candidateMs, 0, 'g', 4).arg(bestMs, 0, 'g', 4).arg(*comparison.speedup, 0, 'f', 3)
                            .arg(candidateCi * 100, 0, 'f', 1).arg(bestCi * 100, 0, 'f', 1);
    const bool clearlyFaster = candidateMs * (1 + candidateCi) < bestMs * (1 - bestCi);
    if (*comparison.speedup >= 1 + minGain && clearlyFaster) {
        comparison.win = true;
        comparison.verdict = QStringLiteral("accepted");
    } else {
        comparison.verdict = candidateMs < bestMs ? QStringLiteral("not_significant") : QStringLiteral("slower");
    }
    return comparison;
}

} // namespace strata::optimize
