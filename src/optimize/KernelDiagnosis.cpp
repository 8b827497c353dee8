#include "optimize/KernelDiagnosis.h"

#include "diagnosis/l4_compiler/CounterfactualRunner.h"
#include "host/BackendPlugin.h"
#include "host/PluginRegistry.h"
#include "optimize/AgentSession.h"

#include <QDir>
#include <algorithm>

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
    compiled.rules = backend->irRules();
    Expected<KernelIrFacts> facts = collectIrFacts(*compiled.compile, compiled.rules ? *compiled.rules : gpuIrOnlyRules());
    if (!facts)
        return facts.error();
    compiled.facts = std::move(*facts);
    return compiled;
}

Expected<DiagnosedKernel> diagnoseKernel(AgentSession &agent, const PluginRegistry &plugins, const CapturedKernel &launch,
                                         const QString &workDir, Level maxLevel, const Measurements *measurements)
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
    // The launch rules (grid against SMs, launches per forward) need the captured launch, which
    // the compile's spec does not carry.
    inputs.spec = compile.result.spec;
    const QJsonObject withLaunch = launch.specWithLaunch();
    for (const QString &key : launchSpecKeys())
        inputs.spec.insert(key, withLaunch.value(key));
    inputs.compile = &compile;
    inputs.backend = plugins.backendForTarget(compile.result.target);   // its own L3 where it has one
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
            agent.connection(),
            CounterfactualKernel{launch.sourcePath, launch.kernel, compile.result.target, compile.stages, diagnosed.compiled.rules},
            2, agent.timeoutSeconds());
    inputs.runner = runner.get();
    if (measurements && !measurements->isEmpty()) {
        inputs.measurements = measurements;
        inputs.gpuHostConnected = true;
    }
    LadderOptions options;
    options.maxLevel = maxLevel;
    options.maxCounterfactuals = kLoopCounterfactuals;
    diagnosed.ladder = runLadder(inputs, options);
    return diagnosed;
}

RoundDiagnosis roundDiagnosis(const LadderResult &ladder, int iteration, qint64 candidateId, const QStringList &measured)
{
    RoundDiagnosis round;
    round.iteration = iteration;
    round.candidateId = candidateId;
    round.kernel = ladder.diagnosis.kernel;
    round.measured = measured;
    round.rankingIsEstimate = ladder.rankingIsEstimate;
    round.warnings = ladder.diagnosis.warnings;
    for (const EscalationStep &step : ladder.diagnosis.escalation)
        round.escalation.append(QStringLiteral("%1: %2").arg(step.step, step.reason));
    for (const RankedFinding &ranked : ladder.ranking) {
        const Finding &finding = ranked.finding;
        RoundFinding entry;
        entry.ruleId = finding.ruleId;
        entry.title = finding.title;
        entry.severity = severityName(finding.severity);
        entry.line = finding.span.line;
        entry.status = ranked.status;
        if (finding.gapShare) {
            entry.share = std::clamp(finding.gapShare->share, 0.0, 1.0);
            entry.shareMeasured = !finding.gapShare->estimate;
        }
        round.findings.append(entry);
    }
    return round;
}

Timing timingOfOne(const Timing &timing, const QString &label)
{
    Timing one = timing;
    one.candidates.clear();
    for (const CandidateTiming &candidate : timing.candidates)
        if (candidate.name == label) {
            one.candidates.append(candidate);
            one.candidates.last().name = QStringLiteral("triton");
        }
    if (one.roofline) {
        one.roofline->perCandidate.clear();
        for (const RooflineEstimate &estimate : timing.roofline->perCandidate)
            if (estimate.candidate == label) {
                one.roofline->perCandidate.append(estimate);
                one.roofline->perCandidate.last().candidate = QStringLiteral("triton");
            }
    }
    return one;
}

} // namespace strata::optimize
