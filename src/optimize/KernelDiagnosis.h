#pragma once
// Diagnosis of one launched kernel of a task, as the loop needs it: compile the captured launch
// spec through the agent (no pass dumps: the loop needs the stages, not the pass timeline), read
// the stages, collect the L3 facts and run the ladder up to the configured level.
#include "compile/LoadedCompile.h"
#include "core/Expected.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/ladder/Ladder.h"
#include "diagnosis/l2_profile/Measurements.h"
#include "optimize/Outcome.h"
#include "tasks/TaskRun.h"

#include <QJsonObject>
#include <memory>

namespace strata {
class PluginRegistry;
}

namespace strata::optimize {

class AgentSession;

struct CompiledKernel {
    CapturedKernel launch;
    std::unique_ptr<LoadedCompile> compile;  // owned on the heap: the ladder keeps a pointer
    diagnosis::KernelIrFacts facts;
    // The compile's backend's L3 rules (BackendPlugin::irRules(), owned by the plugin): what L4's
    // compiles and the fact check compare. Null when the backend has none: then `facts` hold only
    // what Triton's GPU IR and metadata say, and the fact check reports its facts unavailable.
    const diagnosis::BackendIrRules *rules = nullptr;
};

struct DiagnosedKernel {
    CompiledKernel compiled;
    QJsonObject ast;                   // the agent's `ast` reply; empty when it failed
    diagnosis::LadderResult ladder;
};

// Compiles `launch` into `workDir` and reads its facts. Errors name the kernel's file and line.
Expected<CompiledKernel> compileKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                       const QString &workDir);

// compileKernel, the AST, and the ladder (L1, L3; L4 when maxLevel is 4: counterfactual compiles).
// `measurements` (the current best's timing and profile, on a GPU host) let L2 rank by measured
// costs; null or empty: a static diagnosis.
Expected<DiagnosedKernel> diagnoseKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                         const QString &workDir, diagnosis::Level maxLevel,
                                         const diagnosis::Measurements *measurements = nullptr);

// The compact record of one round's diagnosis that the results and the Suite dock show.
RoundDiagnosis roundDiagnosis(const diagnosis::LadderResult &ladder, int iteration, qint64 candidateId,
                              const QStringList &measured);

// `timing` with only the candidate `label` kept, renamed "triton": the name L2 reads the measured
// kernel under (an interleaved loop timing names each candidate by its file).
Timing timingOfOne(const Timing &timing, const QString &label);

} // namespace strata::optimize
