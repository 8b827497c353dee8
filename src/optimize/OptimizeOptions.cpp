#include "optimize/OptimizeOptions.h"

namespace strata::optimize {

QJsonObject OptimizeOptions::toJson() const
{
    return {{QStringLiteral("max_iterations"), maxIterations},
            {QStringLiteral("max_candidates_per_iteration"), maxCandidatesPerIteration},
            {QStringLiteral("wall_s"), wallSeconds},
            {QStringLiteral("token_budget"), double(tokenBudget)},
            {QStringLiteral("stop_at_roofline_pct"), stopAtRooflinePct},
            {QStringLiteral("min_gain"), minGain},
            {QStringLiteral("max_level"), diagnosis::levelName(maxLevel)},
            {QStringLiteral("time_cap_s"), timeCapSeconds},
            {QStringLiteral("target_ci"), targetCi},
            {QStringLiteral("baselines"), baselines},
            {QStringLiteral("final_check"), finalCheck},
            {QStringLiteral("call_timeout_s"), callTimeoutSeconds},
            {QStringLiteral("target"), target},
            {QStringLiteral("work_dir"), workDir}};
}

} // namespace strata::optimize
