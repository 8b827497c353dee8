#pragma once
// Diagnosis of one launched kernel of a task, as the loop needs it: compile the captured launch
// spec through the agent (no pass dumps: the loop needs the stages, not the pass timeline), read
// the stages, collect the L3 facts and run the ladder up to the configured level.
#include "compile/LoadedCompile.h"
#include "core/Expected.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/ladder/Ladder.h"
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
Expected<DiagnosedKernel> diagnoseKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                         const QString &workDir, diagnosis::Level maxLevel);

} // namespace strata::optimize
