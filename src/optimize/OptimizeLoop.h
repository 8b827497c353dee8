#pragma once
// The optimization loop on one task: diagnose the current best kernel -> ask the rewrite
// providers (recipes first, then an LLM when configured) -> compile check (the IR fact each
// recipe promised must change) -> verify -> time every survivor interleaved with the current best
// -> accept only a verified, significant win. Stops at the roofline target, a budget, or when a
// round brings no progress. Every candidate is written to the store as it moves, so a killed run
// resumes where it stopped without losing a finished candidate.
#include "optimize/OptimizeOptions.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QVector>
#include <atomic>
#include <functional>

namespace strata {
class PluginRegistry;
class Store;
}
namespace strata::rewrite {
class RewriteProvider;
}

namespace strata::optimize {

class AgentSession;

struct LoopContext {
    AgentSession &agent;
    Store &store;
    const PluginRegistry &plugins;
    QVector<rewrite::RewriteProvider *> providers;  // asked in this order
    QString host = QStringLiteral("local");
    QString suite;                                  // empty for a single task
    QString deviceName;                             // for the prompt: "NVIDIA H200"
    const std::atomic_bool *cancel = nullptr;       // set: stop after the current step, keep all
    const std::atomic_bool *drain = nullptr;        // set: start no new step, let the current one finish
    std::function<void(const QString &line)> progress;
};

// Runs (or resumes) the loop on `taskPath`; the outcome is also stored with the run.
TaskOutcome optimizeTask(const QString &taskPath, const OptimizeOptions &options, LoopContext &context);

} // namespace strata::optimize
