// strata-cli diagnose: runs the diagnosis ladder (L1 AST triage, L3 IR attribution, L4 pass
// attribution + counterfactual compiles) on a kernel it compiles now, or on a compile folder.
#include "cli/DiagnoseCommand.h"

#include "cli/CliCommon.h"
#include "compile/LoadedCompile.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "tasks/TaskRun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>

namespace strata::cli {

using namespace strata::diagnosis;

namespace {

const char *const kUsage =
    "strata-cli diagnose KERNEL.py --kernel NAME --spec SPEC [options]\n"
    "strata-cli diagnose TASK.py [options]\n"
    "strata-cli diagnose COMPILE_DIR [options]\n"
    "strata-cli diagnose TRACE --kernel NAME [--out DIR] [options]\n"
    "Explains why a Triton kernel is slow: L1 pattern rules on its AST, L2 the GPU host's\n"
    "measurements (saved `time` / `profile` / `ceilings` replies), L3 facts from its IR, L4 pass\n"
    "attribution and one-change counterfactual compiles that confirm a cause. With a profile's\n"
    "per-line cost the ranking follows the measured time; without, it is a static estimate.\n"
    "COMPILE_DIR is a folder from `strata-cli compile --out` (its spec and source are reused).\n"
    "TRACE is a tritonparse trace: the kernel NAME picks (see `strata-cli trace`) is imported as\n"
    "a compile folder (kept in --out DIR) with the spec and launch grid the trace recorded.\n"
    "TASK.py is a KernelBench-format task (it defines ModelNew): its forward runs once on CPU\n"
    "tensors at the task's real shapes with every Triton launch recorded and skipped (no GPU\n"
    "needed; --run-task runs it for real on a GPU host), and each captured kernel is diagnosed\n"
    "with its launch: grid and launches per forward join the spec.";

constexpr int kAstTimeoutMs = 60 * 1000;

struct DiagnoseArgs {
    QString input;             // KERNEL.py, or a compile folder / compile.json
    bool fromCompile = false;
    bool fromTrace = false;    // a tritonparse trace: its kernel --kernel is imported first
    bool fromTask = false;     // a KernelBench-format task: capture its launches first
    bool runTask = false;      // capture by running the task (GPU host) instead of capture-only
    QString kernel, target, jsonPath, outDir;
    QString specPath;          // empty for inline JSON
    QJsonObject spec;
    LadderOptions ladder;
    int timeoutSeconds = 300;
    bool verbose = false;
    QString timingPath, profilePath, ceilingsPath;  // saved replies of the GPU host
};

std::optional<Level> parseLevel(QString text)
{
    if (text.startsWith(u'L') || text.startsWith(u'l'))
        text.remove(0, 1);
    bool ok = false;
    const int level = text.toInt(&ok);
    if (!ok || level < 1 || level > 4)
        return std::nullopt;
    return Level(level);
}

bool positiveInt(const QString &text, int *value)
{
    bool ok = false;
    *value = text.toInt(&ok);
    return ok && *value > 0;
}

// A KernelBench-format task defines the candidate model at module level.
bool definesModelNew(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;
    static const QRegularExpression modelNew(QStringLiteral("^class\\s+ModelNew\\b"), QRegularExpression::MultilineOption);
    return modelNew.match(QString::fromUtf8(file.readAll())).hasMatch();
}

// Fills `args`; returns -1 to go on, else an exit code.
int parseArgs(const QStringList &argv, DiagnoseArgs *args)
{
    QCommandLineParser parser;
    const QCommandLineOption kernel(QStringLiteral("kernel"), QStringLiteral("Kernel function name (default: the spec's \"kernel\")."), QStringLiteral("NAME"));
    const QCommandLineOption spec(QStringLiteral("spec"), QStringLiteral("Spec file or inline JSON (KERNEL.py form)."), QStringLiteral("SPEC"));
    const QCommandLineOption target(QStringLiteral("target"), QStringLiteral("GPU target (default: the spec's, else sm_90)."), QStringLiteral("TARGET"));
    const QCommandLineOption maxLevel(QStringLiteral("max-level"), QStringLiteral("Deepest level to climb to, 1-4 (default 4)."), QStringLiteral("N"), QStringLiteral("4"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Write the diagnosis JSON to FILE ('-': stdout, instead of the text)."), QStringLiteral("FILE"));
    const QCommandLineOption outDir(QStringLiteral("out"), QStringLiteral("Keep the compile in DIR (KERNEL.py form; default: a temporary folder)."), QStringLiteral("DIR"));
    const QCommandLineOption top(QStringLiteral("top"), QStringLiteral("L3 findings L4 must confirm, by severity (default 5)."), QStringLiteral("N"), QStringLiteral("5"));
    const QCommandLineOption compiles(QStringLiteral("max-compiles"), QStringLiteral("Counterfactual compiles at most (default 8)."), QStringLiteral("N"), QStringLiteral("8"));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Timeout of each compile in seconds (default 300)."), QStringLiteral("SECONDS"), QStringLiteral("300"));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Print the agent's progress on stderr."));
    const QCommandLineOption timing(QStringLiteral("timing"), QStringLiteral("A saved `time` reply (strata-cli time --json) for L2."), QStringLiteral("FILE"));
    const QCommandLineOption profile(QStringLiteral("profile"), QStringLiteral("A saved `profile` reply (strata-cli profile --json) for L2."), QStringLiteral("FILE"));
    const QCommandLineOption ceilings(QStringLiteral("ceilings"), QStringLiteral("A saved `ceilings` reply for L2 (default: the timing's)."), QStringLiteral("FILE"));
    const QCommandLineOption runTask(QStringLiteral("run-task"), QStringLiteral("TASK.py form: capture the launches by running the task (needs a GPU) instead of capture-only."));
    parser.addOptions({kernel, spec, target, maxLevel, json, outDir, top, compiles, timeout, verbose, timing, profile, ceilings, runTask});
    parser.addPositionalArgument(QStringLiteral("KERNEL.py|COMPILE_DIR"), QStringLiteral("The kernel file, or a compile folder."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(kUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("diagnose takes exactly one KERNEL.py or COMPILE_DIR (see --help)"));
    const std::optional<Level> level = parseLevel(parser.value(maxLevel));
    if (!level)
        return fail(ExitUsage, QStringLiteral("--max-level wants 1, 2, 3 or 4 (or L1..L4)"));
    args->ladder.maxLevel = *level;
    if (!positiveInt(parser.value(top), &args->ladder.topFindings) || !positiveInt(parser.value(compiles), &args->ladder.maxCounterfactuals)
        || !positiveInt(parser.value(timeout), &args->timeoutSeconds))
        return fail(ExitUsage, QStringLiteral("--top, --max-compiles and --timeout want positive numbers"));

    const QFileInfo input(parser.positionalArguments().first());
    if (!input.exists())
        return fail(ExitBadInput, ReadError{input.filePath(), 0, 0, QStringLiteral("no such kernel file or compile folder")});
    args->input = input.absoluteFilePath();
    args->fromTrace = isTracePath(input.filePath());
    args->fromCompile = input.isDir() || input.suffix() == QLatin1String("json") || args->fromTrace;
    args->jsonPath = parser.value(json);
    args->verbose = parser.isSet(verbose);
    args->timingPath = parser.value(timing);
    args->profilePath = parser.value(profile);
    args->ceilingsPath = parser.value(ceilings);
    args->kernel = parser.value(kernel);
    args->target = parser.value(target);
    if (args->fromTrace) {
        if (parser.isSet(spec))
            return fail(ExitUsage, QStringLiteral("--spec belongs to the KERNEL.py form; a trace records each kernel's specialisation"));
        if (parser.isSet(outDir))
            args->outDir = QFileInfo(parser.value(outDir)).absoluteFilePath();
        return -1;
    }
    if (args->fromCompile) {
        if (parser.isSet(spec) || parser.isSet(outDir))
            return fail(ExitUsage, QStringLiteral("--spec and --out belong to the KERNEL.py form; a compile folder has its spec"));
        return -1;
    }
    if (parser.isSet(outDir))
        args->outDir = QFileInfo(parser.value(outDir)).absoluteFilePath();
    if (!parser.isSet(spec) && definesModelNew(args->input)) {
        args->fromTask = true;
        args->runTask = parser.isSet(runTask);
        return -1;
    }
    if (!parser.isSet(spec))
        return fail(ExitUsage, QStringLiteral("diagnose KERNEL.py needs --spec (see --help); a task file defines ModelNew"));
    Expected<QJsonObject> specJson = readSpec(parser.value(spec));
    if (!specJson)
        return fail(ExitBadInput, specJson.error());
    args->spec = *specJson;
    args->specPath = specFilePath(parser.value(spec));
    if (args->kernel.isEmpty())
        args->kernel = args->spec.value(QStringLiteral("kernel")).toString();
    if (args->kernel.isEmpty())
        return fail(ExitUsage, QStringLiteral("no kernel name: pass --kernel or put \"kernel\" in the spec"));
    if (args->target.isEmpty())
        args->target = args->spec.value(QStringLiteral("target")).toString(QStringLiteral("sm_90"));
    args->spec.insert(QStringLiteral("kernel"), args->kernel);
    args->spec.insert(QStringLiteral("target"), args->target);
    return -1;
}

// What the ladder reads, gathered from the agent and the compile.
struct Gathered {
    std::unique_ptr<PluginRegistry> plugins;
    const BackendPlugin *backend = nullptr;   // the compile's: its stages, and L3 for non-NVIDIA backends
    std::unique_ptr<HostConnection> agent;
    QString agentMissing;                  // why there is no agent (compile-folder form only)
    std::optional<LoadedCompile> compile;
    std::optional<QJsonObject> ast;
    QString astMissing;
    QString sourcePath;                    // what the agent compiles counterfactuals from
};

// Asks the agent for the kernel's AST; an unknown kernel or unreadable file is fatal (returned
// as an exit code), any other failure only costs L1.
int requestAst(const QString &sourcePath, const QString &kernel, Gathered &gathered)
{
    if (!gathered.agent) {
        gathered.astMissing = gathered.agentMissing;
        return -1;
    }
    const RpcReply reply = gathered.agent->callBlocking(QStringLiteral("ast"),
        {{QStringLiteral("source_path"), sourcePath}, {QStringLiteral("kernel"), kernel}}, kAstTimeoutMs);
    if (reply.ok) {
        gathered.ast = reply.result.toObject();
        return -1;
    }
    if (reply.error.code == RpcCode::BadInput)
        return fail(ExitBadInput, describeRpcError(reply.error));
    gathered.astMissing = QStringLiteral("the agent's ast failed: ") + describeRpcError(reply.error);
    return -1;
}

int loadInto(const CompileResult &result, Gathered &gathered)
{
    const BackendPlugin *backend = gathered.plugins->backendForTarget(result.target);
    if (!backend)
        return fail(ExitAgentFailed, QStringLiteral("no backend plugin for target %1 in %2 (set STRATA_PLUGIN_DIR)")
                                         .arg(result.target, PluginRegistry::defaultPluginDir()));
    Expected<LoadedCompile> loaded = loadCompile(result, backend->stagesFor(result.target));
    if (!loaded)
        return fail(ExitBadInput, loaded.error());
    for (const QString &warning : std::as_const(result.warnings))
        err() << "strata-cli: warning: " << warning << Qt::endl;
    for (const StageProblem &problem : loaded->problems)
        err() << "strata-cli: warning: " << problem.toString() << Qt::endl;
    gathered.compile = std::move(*loaded);
    gathered.backend = backend;
    return -1;
}

int gatherFromKernel(const DiagnoseArgs &args, const QString &workDir, Gathered &gathered)
{
    gathered.agent = startAgent(args.verbose);
    if (!gathered.agent)
        return ExitAgentFailed;
    gathered.sourcePath = args.input;
    if (const int code = requestAst(args.input, args.kernel, gathered); code >= 0)
        return code;
    QJsonObject params{{QStringLiteral("source_path"), args.input},
                       {QStringLiteral("kernel"), args.kernel},
                       {QStringLiteral("spec"), args.spec},
                       {QStringLiteral("target"), args.target},
                       {QStringLiteral("work_dir"), workDir},
                       {QStringLiteral("timeout_s"), args.timeoutSeconds}};
    // The per-pass IR dumps serve L4 (and a kept --out folder, for a later diagnose of it); below
    // L4 without --out nothing reads them, and they cost a third of the compile.
    params.insert(QStringLiteral("pass_dumps"), args.ladder.maxLevel >= Level::L4 || !args.outDir.isEmpty());
    if (!args.specPath.isEmpty())
        params.insert(QStringLiteral("spec_path"), args.specPath);
    const RpcReply reply = gathered.agent->callBlocking(QStringLiteral("compile"), params, (args.timeoutSeconds + 60) * 1000);
    if (!reply.ok)
        return fail(exitCodeFor(reply.error), describeRpcError(reply.error));
    Expected<CompileResult> result = parseCompileResult(reply.result.toObject(), workDir);
    if (!result)
        return fail(ExitAgentFailed, QStringLiteral("the agent's compile result is malformed: ") + result.error().toString());
    return loadInto(*result, gathered);
}

int gatherFromCompile(const DiagnoseArgs &args, Gathered &gathered)
{
    const QString path = QFileInfo(args.input).isDir() ? args.input + QStringLiteral("/compile.json") : args.input;
    if (!QFileInfo::exists(path))
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("no compile result here (run strata-cli compile --out first)")});
    Expected<CompileResult> result = readCompileResultFile(path);
    if (!result)
        return fail(ExitBadInput, result.error());
    if (const int code = loadInto(*result, gathered); code >= 0)
        return code;
    // The source artifact is exactly what was compiled; counterfactuals recompile it.
    const ArtifactRef source = result->artifacts.value(QStringLiteral("source"));
    gathered.sourcePath = QFileInfo::exists(source.path) ? source.path : result->sourcePath;
    // Without an agent the compile is still diagnosed: L1 and the counterfactuals are skipped.
    auto agent = std::make_unique<HostConnection>(std::make_unique<LocalProcessTransport>());
    QString why;
    if (agent->start(&why)) {
        gathered.agent = std::move(agent);
    } else {
        gathered.agentMissing = QStringLiteral("the agent could not start: ") + why;
        err() << "strata-cli: warning: " << gathered.agentMissing << "; diagnosing without it" << Qt::endl;
    }
    return requestAst(gathered.sourcePath, result->kernel, gathered);
}

// The saved replies named on the command line; a bad file is fatal (it names the file).
int readMeasurements(const DiagnoseArgs &args, Measurements &measurements)
{
    if (!args.timingPath.isEmpty()) {
        Expected<Timing> timing = readTimingFile(args.timingPath);
        if (!timing)
            return fail(ExitBadInput, timing.error());
        measurements.timing = std::move(*timing);
        measurements.origins << QStringLiteral("timing: ") + QFileInfo(args.timingPath).fileName();
    }
    if (!args.profilePath.isEmpty()) {
        Expected<ProfileResult> profile = readProfileFile(args.profilePath);
        if (!profile)
            return fail(ExitBadInput, profile.error());
        measurements.profile = std::move(*profile);
        measurements.origins << QStringLiteral("profile: ") + QFileInfo(args.profilePath).fileName();
    }
    if (!args.ceilingsPath.isEmpty()) {
        Expected<CeilingsResult> ceilings = readCeilingsFile(args.ceilingsPath);
        if (!ceilings)
            return fail(ExitBadInput, ceilings.error());
        measurements.ceilings = ceilings->ceilings;
        measurements.origins << QStringLiteral("ceilings: ") + QFileInfo(args.ceilingsPath).fileName();
    }
    return -1;
}

int writeJson(const QString &path, const QJsonObject &json)
{
    const QByteArray bytes = QJsonDocument(json).toJson(QJsonDocument::Indented);
    if (path == QLatin1String("-")) {
        out() << bytes;
        return -1;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("cannot write the diagnosis: %1").arg(file.errorString())});
    return -1;
}

// The ladder over what was gathered; stops the agent.
LadderResult diagnoseGathered(const DiagnoseArgs &args, Gathered &gathered, const Measurements &measurements)
{
    const LoadedCompile &compile = *gathered.compile;
    std::unique_ptr<AgentCounterfactualRunner> runner;
    if (gathered.agent)
        runner = std::make_unique<AgentCounterfactualRunner>(
            *gathered.agent, CounterfactualKernel{gathered.sourcePath, compile.result.kernel, compile.result.target,
                                                  compile.stages, gathered.backend ? gathered.backend->irRules() : nullptr}, 2, args.timeoutSeconds);
    LadderInputs inputs;
    inputs.kernel = compile.result.kernel;
    inputs.sourcePath = compile.result.sourcePath;
    inputs.astReply = gathered.ast;
    inputs.astMissingReason = gathered.astMissing;
    inputs.spec = compile.result.spec;
    // The compile's spec is what rebuilds the kernel; the launch rules also need what the
    // captured launch (or a spec file) says of the grid and the launches per forward.
    for (const QString &key : launchSpecKeys())
        if (args.spec.contains(key))
            inputs.spec.insert(key, args.spec.value(key));
    inputs.compile = &compile;
    inputs.backend = gathered.backend;
    inputs.runner = runner.get();
    inputs.measurements = &measurements;
    const LadderResult result = runLadder(inputs, args.ladder);
    if (gathered.agent)
        gathered.agent->stop();
    return result;
}

// The spec a captured launch rebuilds the kernel with, plus what L1's launch rules read.
QJsonObject launchSpec(const CapturedKernel &launch, const QString &targetOverride)
{
    QJsonObject spec = launch.specWithLaunch();
    if (!targetOverride.isEmpty())
        spec.insert(QStringLiteral("target"), targetOverride);
    else if (spec.value(QStringLiteral("target")).toString().isEmpty())
        spec.insert(QStringLiteral("target"), QStringLiteral("sm_90"));
    return spec;
}

Expected<TaskRun> captureLaunches(const DiagnoseArgs &args)
{
    std::unique_ptr<HostConnection> agent = startAgent(args.verbose);
    if (!agent)
        return ReadError{args.input, 0, 0, QStringLiteral("the agent could not start")};
    QJsonObject params{{QStringLiteral("task"), args.input}, {QStringLiteral("timeout_s"), args.timeoutSeconds}};
    if (!args.runTask)
        params.insert(QStringLiteral("capture_only"), true);
    const RpcReply reply = agent->callBlocking(QStringLiteral("run_task"), params, (args.timeoutSeconds + 60) * 1000);
    agent->stop();
    if (!reply.ok)
        return ReadError{args.input, 0, 0, QStringLiteral("capturing the task's launches failed: ") + describeRpcError(reply.error)};
    return parseTaskRun(reply.result.toObject());
}

QJsonObject launchJson(const CapturedKernel &launch, const QJsonObject &spec)
{
    return {{QStringLiteral("kernel"), launch.kernel}, {QStringLiteral("source_path"), launch.sourcePath},
            {QStringLiteral("line"), launch.line}, {QStringLiteral("launches"), launch.launches},
            {QStringLiteral("grid"), spec.value(QStringLiteral("grid"))}, {QStringLiteral("mode"), launch.mode},
            {QStringLiteral("spec"), spec}};
}

// diagnose TASK.py: every distinct captured kernel, each with its launch.
int runDiagnoseTask(const DiagnoseArgs &taskArgs, const Measurements &measurements)
{
    Expected<TaskRun> run = captureLaunches(taskArgs);
    if (!run)
        return fail(ExitBadInput, run.error());
    if (run->kernels.isEmpty())
        return fail(ExitBadInput, ReadError{taskArgs.input, 0, 0, QStringLiteral("the task's forward launched no Triton kernel%1")
                                                             .arg(run->captureErrors.isEmpty() ? QString()
                                                                  : QStringLiteral(" (") + run->captureErrors.join(QStringLiteral("; ")) + u')')});
    const bool text = taskArgs.jsonPath != QLatin1String("-");
    if (text)
        out() << "Task " << taskArgs.input << ": " << run->kernels.size() << " kernels captured ("
              << (taskArgs.runTask ? "run" : "capture only: launches recorded, not run") << ")\n\n";
    QTemporaryDir scratch;
    QJsonArray kernels;
    QStringList failures;
    for (int i = 0; i < run->kernels.size(); ++i) {
        const CapturedKernel &launch = run->kernels[i];
        DiagnoseArgs args = taskArgs;
        args.fromTask = false;
        args.input = launch.sourcePath;
        args.kernel = launch.kernel;
        args.spec = launchSpec(launch, taskArgs.target);
        args.target = args.spec.value(QStringLiteral("target")).toString();
        const QString workDir = (args.outDir.isEmpty() ? scratch.path() : args.outDir) + QStringLiteral("/%1-%2").arg(i).arg(launch.kernel);
        Gathered gathered;
        gathered.plugins = loadPlugins(args.verbose);
        if (!QDir().mkpath(workDir) || gatherFromKernel(args, workDir, gathered) >= 0) {
            failures << QStringLiteral("%1:%2: kernel %3 could not be compiled").arg(launch.sourcePath).arg(launch.line).arg(launch.kernel);
            continue;
        }
        const LadderResult result = diagnoseGathered(args, gathered, measurements);
        kernels.append(QJsonObject{{QStringLiteral("launch"), launchJson(launch, args.spec)},
                                   {QStringLiteral("diagnosis"), toJson(result)}});
        if (text) {
            out() << "== " << launch.summary() << ", " << launch.launches << " launches per forward\n";
            printDiagnosis(out(), result, gathered.compile->sourceText);
            out() << "\n";
        }
    }
    const QJsonObject json{{QStringLiteral("schema"), QStringLiteral("strata.task-diagnosis")},
                           {QStringLiteral("version"), 1},
                           {QStringLiteral("task"), taskArgs.input},
                           {QStringLiteral("capture"), taskArgs.runTask ? QStringLiteral("run") : QStringLiteral("capture_only")},
                           {QStringLiteral("kernels"), kernels},
                           {QStringLiteral("capture_errors"), QJsonArray::fromStringList(run->captureErrors)},
                           {QStringLiteral("failures"), QJsonArray::fromStringList(failures)}};
    if (!taskArgs.jsonPath.isEmpty())
        if (const int code = writeJson(taskArgs.jsonPath, json); code >= 0)
            return code;
    out().flush();
    for (const QString &failure : failures)
        err() << "strata-cli: " << failure << Qt::endl;
    return kernels.isEmpty() ? ExitBadInput : ExitOk;
}

} // namespace

int runDiagnose(const QStringList &argv)
{
    DiagnoseArgs args;
    if (const int code = parseArgs(argv, &args); code >= 0)
        return code;
    Measurements measurements;
    if (const int code = readMeasurements(args, measurements); code >= 0)
        return code;
    if (args.fromTask)
        return runDiagnoseTask(args, measurements);
    Gathered gathered;
    gathered.plugins = loadPlugins(args.verbose);
    QTemporaryDir scratch;
    if (args.fromTrace) {
        const QString dir = args.outDir.isEmpty() ? scratch.filePath(QStringLiteral("traced-kernel")) : args.outDir;
        Expected<QString> compileJson = importTraceKernel(args.input, args.kernel, dir, *gathered.plugins);
        if (!compileJson)
            return fail(ExitBadInput, compileJson.error());
        args.input = *compileJson;
    }
    if (!args.fromCompile) {
        const QString workDir = args.outDir.isEmpty() ? scratch.path() : args.outDir;
        if (!QDir().mkpath(workDir))
            return fail(ExitBadInput, ReadError{workDir, 0, 0, QStringLiteral("cannot create the output folder")});
        if (const int code = gatherFromKernel(args, workDir, gathered); code >= 0)
            return code;
    } else if (const int code = gatherFromCompile(args, gathered); code >= 0) {
        return code;
    }

    const LadderResult result = diagnoseGathered(args, gathered, measurements);
    if (!args.jsonPath.isEmpty())
        if (const int code = writeJson(args.jsonPath, toJson(result)); code >= 0)
            return code;
    if (args.jsonPath != QLatin1String("-"))
        printDiagnosis(out(), result, gathered.compile->sourceText);
    out().flush();
    return ExitOk;
}

} // namespace strata::cli
