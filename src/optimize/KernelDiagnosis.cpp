#include "optimize/KernelDiagnosis.h"

#include "diagnosis/l4_compiler/CounterfactualRunner.h"
#include "host/BackendPlugin.h"
#include "host/PluginRegistry.h"
#include "optimize/AgentSession.h"

#include <QDir>

namespace strata::optimize {

using namespace strata::diagnosis;

namespace {

// Counterfactual compiles the loop allows itself per diagnosis (each is a full compile).
constexpr int kLoopCounterfactuals = 4;

ReadError kernelError(const CapturedKernel &launch, const QString &message)
{
    return ReadError{launch.sourcePath, launch.line, 0, QStringLiteral("kernel %1: %2").arg(launch.kernel, message)};
}

} // namespace

Expected<CompiledKernel> compileKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                       const QString &workDir)
{
    if (!launch.problems.isEmpty())
        return kernelError(launch, QStringLiteral("its launch cannot be recompiled: ") + launch.problems.join(QStringLiteral("; ")));
    if (!QDir().mkpath(workDir))
        return ReadError{workDir, 0, 0, QStringLiteral("cannot create the compile folder")};
    Expected<CompileResult> result = agent.compile(launch.sourcePath, launch.kernel, launch.spec, workDir);
    if (!result)
        return result.error();
    const BackendPlugin *backend = plugins.backendForTarget(result->target);
    if (!backend)
        return kernelError(launch, QStringLiteral("no backend plugin for target ") + result->target);
    Expected<LoadedCompile> loaded = loadCompile(*result, backend->stages());
    if (!loaded)
        return loaded.error();
    CompiledKernel compiled;
    compiled.launch = launch;
    compiled.compile = std::make_unique<LoadedCompile>(std::move(*loaded));
    Expected<KernelIrFacts> facts = collectIrFacts(*compiled.compile);
    if (!facts)
        return facts.error();
    compiled.facts = std::move(*facts);
    return compiled;
}

Expected<DiagnosedKernel> diagnoseKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                         const QString &workDir, Level maxLevel)
{
    Expected<CompiledKernel> compiled = compileKernel(agent, plugins, launch, workDir);
    if (!compiled)
        return compiled.error();
    DiagnosedKernel diagnosed;
    diagnosed.compiled = std::move(*compiled);
    const LoadedCompile &compile = *diagnosed.compiled.compile;

    LadderInputs inputs;
    inputs.kernel = launch.kernel;
    inputs.sourcePath = compile.result.sourcePath;
    inputs.spec = compile.result.spec;
    inputs.compile = &compile;
    Expected<QJsonObject> ast = agent.ast(launch.sourcePath, launch.kernel);
    if (ast) {
        diagnosed.ast = *ast;
        inputs.astReply = *ast;
    } else {
        inputs.astMissingReason = ast.error().toString();
    }
    std::unique_ptr<AgentCounterfactualRunner> runner;
    if (maxLevel >= Level::L4)
        runner = std::make_unique<AgentCounterfactualRunner>(
            agent.connection(), CounterfactualKernel{launch.sourcePath, launch.kernel, compile.result.target, compile.stages},
            2, agent.timeoutSeconds());
    inputs.runner = runner.get();
    LadderOptions options;
    options.maxLevel = maxLevel;
    options.maxCounterfactuals = kLoopCounterfactuals;
    diagnosed.ladder = runLadder(inputs, options);
    return diagnosed;
}

} // namespace strata::optimize
