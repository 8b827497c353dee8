#pragma once
// What a suite run's figures belong to, read from the agent's `info` reply: backend, target,
// device, driver and versions (agent/PROTOCOL.md, `info`).

#include "optimize/Outcome.h"

#include <QJsonObject>

namespace strata::optimize {

// The requested target, else the host GPU's, else the agent's default; the backend is the one
// of `info.backends` that lists the target. Then triton (the backend's own when it names one,
// as triton-ascend does), torch, and the device: the first GPU, else the device the backend's
// entry names (an NPU host), else "cpu (no GPU)".
void describeEnvironment(const QJsonObject &info, const QString &requestedTarget, SuiteOutcome &suite);

} // namespace strata::optimize
