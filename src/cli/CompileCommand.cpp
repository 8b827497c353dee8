// strata-cli compile: runs the local agent on one kernel, leaves the artifacts in --out, records
// the compile (or its failure) in the store and prints a summary or the result JSON.
#include "cli/CliCommon.h"

#include "compile/CompileFolder.h"
#include "compile/CompileResult.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "store/Store.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

namespace strata::cli {

namespace {

const char *const kUsage =
    "strata-cli compile KERNEL.py --kernel NAME --spec SPEC --out DIR [options]\n"
    "Compiles one Triton kernel through the host agent. SPEC is a .spec.json file or inline JSON\n"
    "starting with '{'. Artifacts go to DIR (with DIR/compile.json); the compile is recorded in\n"
    "the store unless --no-store.";

struct CompileArgs {
    QString sourcePath, kernel, target, outDir, dbPath;
    QString specPath;   // empty for inline JSON
    QJsonObject spec;
    int timeoutSeconds = 300;
    bool json = false, verbose = false, store = true;
};

// Fills `args` from the command line; returns -1 to go on, else an exit code.
int parseArgs(const QStringList &argv, CompileArgs *args)
{
    QCommandLineParser parser;
    const QCommandLineOption kernel(QStringLiteral("kernel"), QStringLiteral("Kernel function name (default: the spec's \"kernel\")."), QStringLiteral("NAME"));
    const QCommandLineOption spec(QStringLiteral("spec"), QStringLiteral("Spec file or inline JSON."), QStringLiteral("SPEC"));
    const QCommandLineOption target(QStringLiteral("target"), QStringLiteral("Target (default: the spec's, else sm_90): a GPU (sm_80, sm_90, sm_100) or an Ascend NPU (ascend910_95, ascend910b3); `strata-cli info` shows the agent's backends."), QStringLiteral("TARGET"));
    const QCommandLineOption outDir(QStringLiteral("out"), QStringLiteral("Folder for the artifacts."), QStringLiteral("DIR"));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store file (default: $XDG_DATA_HOME/strata/strata.db)."), QStringLiteral("FILE"));
    const QCommandLineOption noStore(QStringLiteral("no-store"), QStringLiteral("Do not record the compile."));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("Compile timeout in seconds (default 300)."), QStringLiteral("SECONDS"), QStringLiteral("300"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the compile result JSON instead of a summary."));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Print the agent's progress on stderr."));
    parser.addOptions({kernel, spec, target, outDir, db, noStore, timeout, json, verbose});
    parser.addPositionalArgument(QStringLiteral("KERNEL.py"), QStringLiteral("The Python file holding the kernel."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(kUsage)); code >= 0)
        return code;

    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("compile takes exactly one KERNEL.py (see --help)"));
    if (!parser.isSet(spec) || !parser.isSet(outDir))
        return fail(ExitUsage, QStringLiteral("compile needs --spec and --out (see --help)"));
    bool timeoutOk = false;
    args->timeoutSeconds = parser.value(timeout).toInt(&timeoutOk);
    if (!timeoutOk || args->timeoutSeconds <= 0)
        return fail(ExitUsage, QStringLiteral("--timeout wants a positive number of seconds"));

    const QFileInfo source(parser.positionalArguments().first());
    if (!source.isFile())
        return fail(ExitBadInput, ReadError{source.filePath(), 0, 0, QStringLiteral("no such kernel file")});
    args->sourcePath = source.absoluteFilePath();
    Expected<QJsonObject> specJson = readSpec(parser.value(spec));
    if (!specJson)
        return fail(ExitBadInput, specJson.error());
    args->spec = *specJson;
    args->specPath = specFilePath(parser.value(spec));
    args->kernel = parser.isSet(kernel) ? parser.value(kernel) : args->spec.value(QStringLiteral("kernel")).toString();
    if (args->kernel.isEmpty())
        return fail(ExitUsage, QStringLiteral("no kernel name: pass --kernel or put \"kernel\" in the spec"));
    args->spec.insert(QStringLiteral("kernel"), args->kernel);
    args->target = parser.isSet(target) ? parser.value(target)
                                        : args->spec.value(QStringLiteral("target")).toString(QStringLiteral("sm_90"));
    args->spec.insert(QStringLiteral("target"), args->target);
    args->outDir = QFileInfo(parser.value(outDir)).absoluteFilePath();
    if (!QDir().mkpath(args->outDir))
        return fail(ExitBadInput, ReadError{args->outDir, 0, 0, QStringLiteral("cannot create the output folder")});
    args->dbPath = parser.isSet(db) ? parser.value(db) : defaultStorePath();
    args->store = !parser.isSet(noStore);
    args->json = parser.isSet(json);
    args->verbose = parser.isSet(verbose);
    return -1;
}

// One line of the "Stages:" list: the artifact, or why the backend's stage did not run.
void printStage(const CompileResult &result, const QString &stage)
{
    QTextStream &o = out();
    if (const auto it = result.artifacts.constFind(stage); it != result.artifacts.cend()) {
        o << "  " << stage.leftJustified(7) << humanSize(it->size).rightJustified(10) << "  " << it->path << "\n";
        return;
    }
    if (const StageRun *run = result.stageRun(stage); run && !run->ran)
        o << "  " << stage.leftJustified(7) << "   skipped  " << run->reason << "\n";
}

// `backend` null (its plugin is not installed): the artifacts are listed as they come, and what
// only the backend knows how to summarise is left out, with a note saying so.
void printSummary(const CompileResult &result, const BackendPlugin *backend)
{
    QTextStream &o = out();
    o << "Compiled " << result.kernel << " (" << QFileInfo(result.sourcePath).fileName() << ") for "
      << result.target << " in " << QString::number(result.durationSeconds, 'f', 2) << " s -> "
      << result.workDir << "\n";
    o << "Stages:\n";
    const QStringList order = backend ? backend->summaryArtifacts(result.target) : result.artifacts.keys();
    for (const QString &stage : order)
        printStage(result, stage);
    if (backend) {
        for (const QString &line : backend->summaryLines(result))
            o << line << "\n";
    } else {
        o << "(no backend plugin for " << result.target << " in " << PluginRegistry::defaultPluginDir()
          << ": its summary is left out)\n";
    }
    int warnings = 0;
    for (const Remark &remark : result.remarks)
        warnings += remark.severity == QLatin1String("warning");
    o << "Remarks: " << result.remarks.size() << " (" << warnings << " warnings)\n";
    o << "Pass dumps: " << result.passDumps.size() << "\n";
}

// Records the outcome; a store failure is reported but does not undo the compile.
bool record(const CompileArgs &args, const std::function<Expected<qint64>(Store &)> &write, qint64 *id)
{
    Expected<std::unique_ptr<Store>> store = Store::open(args.dbPath);
    if (!store) {
        fail(ExitStoreFailed, store.error());
        return false;
    }
    Expected<qint64> recorded = write(**store);
    if (!recorded) {
        fail(ExitStoreFailed, recorded.error());
        return false;
    }
    *id = *recorded;
    return true;
}

int reportFailure(const CompileArgs &args, const RpcError &error, double seconds)
{
    const int code = fail(exitCodeFor(error), describeRpcError(error));
    const QString tail = error.data.value(QStringLiteral("stderr_tail")).toString().trimmed();
    if (args.verbose && !tail.isEmpty())
        err() << tail << Qt::endl;
    if (args.store && error.code != RpcCode::NotRunning) {
        FailedCompile failure{args.kernel, args.sourcePath, {}, args.target, args.spec, args.outDir, seconds,
                              ReadError{error.data.value(QStringLiteral("file")).toString(),
                                        error.data.value(QStringLiteral("line")).toInt(), 0, error.message}};
        qint64 id = 0;
        record(args, [&](Store &store) { return store.recordFailedCompile(failure); }, &id);
    }
    return code;
}

} // namespace

int runCompile(const QStringList &argv)
{
    CompileArgs args;
    if (const int code = parseArgs(argv, &args); code >= 0)
        return code;
    std::unique_ptr<HostConnection> agent = startAgent(args.verbose);
    if (!agent)
        return ExitAgentFailed;
    QJsonObject params{{QStringLiteral("source_path"), args.sourcePath},
                       {QStringLiteral("kernel"), args.kernel},
                       {QStringLiteral("spec"), args.spec},
                       {QStringLiteral("target"), args.target},
                       {QStringLiteral("work_dir"), args.outDir},
                       {QStringLiteral("timeout_s"), args.timeoutSeconds}};
    if (!args.specPath.isEmpty())
        params.insert(QStringLiteral("spec_path"), args.specPath);   // the agent's spec errors name it
    QElapsedTimer clock;
    clock.start();
    // The agent enforces timeout_s itself; the extra minute covers its start-up and clean-up.
    const RpcReply reply = agent->callBlocking(QStringLiteral("compile"), params, (args.timeoutSeconds + 60) * 1000);
    agent->stop();
    if (!reply.ok)
        return reportFailure(args, reply.error, clock.elapsed() / 1000.0);

    Expected<CompileResult> result = parseCompileResult(reply.result.toObject(), args.outDir);
    if (!result)
        return fail(ExitAgentFailed, QStringLiteral("the agent's compile result is malformed: ") + result.error().toString());
    // The agent writes DIR/compile.json itself; an agent that did not still leaves `map` its input.
    const QString resultFile = args.outDir + QStringLiteral("/compile.json");
    if (!QFile::exists(resultFile)) {
        if (const QString why = writeCompileResultFile(*result, args.outDir); !why.isEmpty())
            err() << "strata-cli: warning: cannot write " << resultFile << ": " << why << Qt::endl;
    }
    qint64 compileId = 0;
    const bool stored = args.store && record(args, [&](Store &store) { return store.recordCompile(*result); }, &compileId);
    if (args.json) {
        out() << QJsonDocument(reply.result.toObject()).toJson(QJsonDocument::Indented);
    } else {
        const std::unique_ptr<PluginRegistry> plugins = loadPlugins(args.verbose);
        printSummary(*result, plugins->backendForTarget(result->target));
        if (stored)
            out() << "Stored: compile #" << compileId << " in " << args.dbPath << "\n";
    }
    out().flush();
    return (args.store && !stored) ? ExitStoreFailed : ExitOk;
}

} // namespace strata::cli
