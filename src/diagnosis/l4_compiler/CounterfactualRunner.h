#pragma once
// Compiles counterfactual specs and reads their L3 facts. The agent serves each request on its
// own thread (agent/PROTOCOL.md) and compiles in a worker process, so several compiles can be in
// flight on one connection; a cap keeps a small machine responsive.
#include "core/Stage.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/l4_compiler/Counterfactual.h"

#include <optional>

namespace strata {
class HostConnection;
}

namespace strata::diagnosis {

struct CounterfactualCompile {
    SpecChange change;
    std::optional<KernelIrFacts> facts;  // absent when the compile or its reading failed
    QString error;                       // why, naming the kernel (and file:line when known)
    double seconds = 0;
};

class CounterfactualRunner {
public:
    virtual ~CounterfactualRunner() = default;
    // One result per change, in the order given.
    virtual QVector<CounterfactualCompile> compileAll(const QVector<SpecChange> &changes) = 0;
};

// What to compile: the kernel source (the original file or a compile's source artifact), the
// kernel, the target, and the stages the backend declares and its L3 rules (to read the results).
struct CounterfactualKernel {
    QString sourcePath;
    QString kernel;
    QString target;
    QVector<StageDescriptor> stages;
    const BackendIrRules *rules = nullptr;  // BackendPlugin::irRules(); null: the default backend's
};

class AgentCounterfactualRunner final : public CounterfactualRunner {
public:
    // `agent` must be started and outlive the runner.
    AgentCounterfactualRunner(HostConnection &agent, CounterfactualKernel kernel, int maxConcurrent = 2,
                              int timeoutSeconds = 300);

    QVector<CounterfactualCompile> compileAll(const QVector<SpecChange> &changes) override;

private:
    HostConnection &m_agent;
    CounterfactualKernel m_kernel;
    int m_maxConcurrent;
    int m_timeoutSeconds;
};

} // namespace strata::diagnosis
