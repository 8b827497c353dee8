// strata-cli diagnose: runs the diagnosis ladder (L1 AST triage, L3 IR attribution, L4 pass
// attribution + counterfactual compiles) on a kernel it compiles now, or on a compile folder.
#include "cli/DiagnoseCommand.h"

#include "cli/CliCommon.h"
#include "compile/LoadedCompile.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>

namespace strata::cli {

using namespace strata::diagnosis;

namespace {

const char *const kUsage =
    "strata-cli diagnose KERNEL.py --kernel NAME --spec SPEC [options]\n"
    "strata-cli diagnose COMPILE_DIR [options]\n"
    "Explains why a Triton kernel is slow: L1 pattern rules on its AST, L2 the GPU host's\n"
    "measurements (saved `time` / `profile` / `ceilings` replies), L3 facts from its IR, L4 pass\n"
    "attribution and one-change counterfactual compiles that confirm a cause. With a profile's\n"
    "per-line cost the ranking follows the measured time; without, it is a static estimate.\n"
    "COMPILE_DIR is a folder from `strata-cli compile --out` (its spec and source are reused).";

constexpr int kAstTimeoutMs = 60 * 1000;

struct DiagnoseArgs {
    QString input;             // KERNEL.py, or a compile folder / compile.json
    bool fromCompile = false;
    QString kernel, target, jsonPath, outDir;
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
    parser.addOptions({kernel, spec, target, maxLevel, json, outDir, top, compiles, timeout, verbose, timing, profile, ceilings});
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
    args->fromCompile = input.isDir() || input.suffix() == QLatin1String("json");
    args->jsonPath = parser.value(json);
    args->verbose = parser.isSet(verbose);
    args->timingPath = parser.value(timing);
    args->profilePath = parser.value(profile);
    args->ceilingsPath = parser.value(ceilings);
    args->kernel = parser.value(kernel);
    args->target = parser.value(target);
    if (args->fromCompile) {
        if (parser.isSet(spec) || parser.isSet(outDir))
            return fail(ExitUsage, QStringLiteral("--spec and --out belong to the KERNEL.py form; a compile folder has its spec"));
        return -1;
    }
    if (!parser.isSet(spec))
        return fail(ExitUsage, QStringLiteral("diagnose KERNEL.py needs --spec (see --help)"));
    Expected<QJsonObject> specJson = readSpec(parser.value(spec));
    if (!specJson)
        return fail(ExitBadInput, specJson.error());
    args->spec = *specJson;
    if (args->kernel.isEmpty())
        args->kernel = args->spec.value(QStringLiteral("kernel")).toString();
    if (args->kernel.isEmpty())
        return fail(ExitUsage, QStringLiteral("no kernel name: pass --kernel or put \"kernel\" in the spec"));
    if (args->target.isEmpty())
        args->target = args->spec.value(QStringLiteral("target")).toString(QStringLiteral("sm_90"));
    args->spec.insert(QStringLiteral("kernel"), args->kernel);
    args->spec.insert(QStringLiteral("target"), args->target);
    if (parser.isSet(outDir))
        args->outDir = QFileInfo(parser.value(outDir)).absoluteFilePath();
    return -1;
}

// What the ladder reads, gathered from the agent and the compile.
struct Gathered {
    std::unique_ptr<PluginRegistry> plugins;
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
    Expected<LoadedCompile> loaded = loadCompile(result, backend->stages());
    if (!loaded)
        return fail(ExitBadInput, loaded.error());
    for (const ReadError &problem : loaded->problems)
        err() << "strata-cli: warning: stage not read: " << problem.toString() << Qt::endl;
    gathered.compile = std::move(*loaded);
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
    const QJsonObject params{{QStringLiteral("source_path"), args.input},
                             {QStringLiteral("kernel"), args.kernel},
                             {QStringLiteral("spec"), args.spec},
                             {QStringLiteral("target"), args.target},
                             {QStringLiteral("work_dir"), workDir},
                             {QStringLiteral("timeout_s"), args.timeoutSeconds}};
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

int writeJson(const QString &path, const LadderResult &result)
{
    const QByteArray bytes = QJsonDocument(toJson(result)).toJson(QJsonDocument::Indented);
    if (path == QLatin1String("-")) {
        out() << bytes;
        return -1;
    }
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("cannot write the diagnosis: %1").arg(file.errorString())});
    return -1;
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
    Gathered gathered;
    gathered.plugins = loadPlugins(args.verbose);
    QTemporaryDir scratch;
    if (!args.fromCompile) {
        const QString workDir = args.outDir.isEmpty() ? scratch.path() : args.outDir;
        if (!QDir().mkpath(workDir))
            return fail(ExitBadInput, ReadError{workDir, 0, 0, QStringLiteral("cannot create the output folder")});
        if (const int code = gatherFromKernel(args, workDir, gathered); code >= 0)
            return code;
    } else if (const int code = gatherFromCompile(args, gathered); code >= 0) {
        return code;
    }

    const LoadedCompile &compile = *gathered.compile;
    std::unique_ptr<AgentCounterfactualRunner> runner;
    if (gathered.agent)
        runner = std::make_unique<AgentCounterfactualRunner>(
            *gathered.agent, CounterfactualKernel{gathered.sourcePath, compile.result.kernel, compile.result.target,
                                                  compile.stages}, 2, args.timeoutSeconds);
    LadderInputs inputs;
    inputs.kernel = compile.result.kernel;
    inputs.sourcePath = compile.result.sourcePath;
    inputs.astReply = gathered.ast;
    inputs.astMissingReason = gathered.astMissing;
    inputs.spec = compile.result.spec;
    inputs.compile = &compile;
    inputs.runner = runner.get();
    inputs.measurements = &measurements;
    const LadderResult result = runLadder(inputs, args.ladder);
    if (gathered.agent)
        gathered.agent->stop();

    if (!args.jsonPath.isEmpty())
        if (const int code = writeJson(args.jsonPath, result); code >= 0)
            return code;
    if (args.jsonPath != QLatin1String("-"))
        printDiagnosis(out(), result, compile.sourceText);
    out().flush();
    return ExitOk;
}

} // namespace strata::cli
