// strata-cli optimize TASK / strata-cli bench SUITE: the optimization loop on one task or on a
// whole suite folder, with a progress display, results in the store and as JSON/CSV.
#include "cli/CliCommon.h"
#include "cli/ClusterCommand.h"
#include "cli/OptimizeCommand.h"

#include "cluster/HostPool.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "optimize/LevelAblation.h"
#include "optimize/OutcomeJson.h"
#include "optimize/SuiteBench.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QRegularExpression>

#include <chrono>
#include <csignal>
#include <thread>
#include <optional>

using namespace Qt::StringLiterals;

namespace strata::cli {

using namespace strata::optimize;

namespace {

const char *const kOptimizeUsage =
    "strata-cli optimize TASK.py [options]\n"
    "Runs the optimization loop on one KernelBench-format task: diagnose, propose rewrites (recipes,\n"
    "then an LLM when one is configured), compile check, verify, time against the current best,\n"
    "accept only significant wins. Every candidate is stored as it happens; running the same\n"
    "command again resumes an interrupted run.";
const char *const kBenchUsage =
    "strata-cli bench SUITE_DIR [options]\n"
    "Runs the optimization loop on every task of a suite folder and prints the suite figures\n"
    "(geomean and median speedup, over 2x / 5x, failures, against eager and torch.compile).\n"
    "With --ablate-levels it runs the suite once per ladder cap (L1..L4) and reports what each\n"
    "level adds: marginal geomean, wall time, tokens, and the level behind each task's best.\n"
    "With --hosts it spreads the tasks over several hosts; with --slurm it submits the suite as a\n"
    "Slurm array job and a merge job (docs/cluster.md), --status shows that run's progress.";

std::atomic_bool g_cancel = false;
std::atomic_bool g_drain = false;

void onInterrupt(int)
{
    g_cancel = true;  // finish the current step, store it, stop
}

void onDrain(int)
{
    g_drain = true;  // start nothing new; what runs finishes and is stored
}

// --stop-starting-after: a deadline's soft stop, SECONDS after the start.
void drainAfter(double seconds)
{
    std::thread([seconds] {
        std::this_thread::sleep_for(std::chrono::milliseconds(qint64(seconds * 1000)));
        g_drain = true;
    }).detach();
}

struct OptimizeArgs {
    BenchSetup setup;
    QString jsonPath, csvPath;
    bool withSources = true;
    bool verbose = false;
    bool ablateLevels = false;
    double stopStartingAfter = 0;  // seconds; 0: never
    ProviderChoice providers;
    QString hosts;                // --hosts LIST
    std::optional<SlurmCommand> slurm;
};

bool readPositive(const QCommandLineParser &parser, const QCommandLineOption &option, double *value)
{
    if (!parser.isSet(option))
        return true;
    bool ok = false;
    *value = parser.value(option).toDouble(&ok);
    return ok && *value > 0;
}

// Fills `args`; returns -1 to go on, else an exit code.
int parseArgs(const QString &command, const QStringList &argv, OptimizeArgs *args)
{
    const bool bench = command == QLatin1String("bench");
    QCommandLineParser parser;
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("local (default) or ssh:HOST."), QStringLiteral("HOST"), QStringLiteral("local"));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store file (default: %1).").arg(defaultStorePath()), QStringLiteral("FILE"));
    const QCommandLineOption workDir(QStringLiteral("work-dir"), QStringLiteral("Where candidate files and compiles go (default: out/optimize)."), QStringLiteral("DIR"), QStringLiteral("out/optimize"));
    const QCommandLineOption iterations(QStringLiteral("iterations"), QStringLiteral("Rounds per task (default 4)."), QStringLiteral("N"));
    const QCommandLineOption perRound(QStringLiteral("candidates"), QStringLiteral("Proposals checked per round (default 6)."), QStringLiteral("N"));
    const QCommandLineOption budget(QStringLiteral("budget"), QStringLiteral("Wall-time budget per task in seconds (default 1800)."), QStringLiteral("SECONDS"));
    const QCommandLineOption tokens(QStringLiteral("tokens"), QStringLiteral("LLM token budget per task (default 200000)."), QStringLiteral("N"));
    const QCommandLineOption level(QStringLiteral("max-level"), QStringLiteral("Diagnosis depth in the loop, 1-4 (default 3)."), QStringLiteral("N"), QStringLiteral("3"));
    const QCommandLineOption timeCap(QStringLiteral("time-cap"), QStringLiteral("Seconds per timing call (default 2)."), QStringLiteral("SECONDS"));
    const QCommandLineOption noBaselines(QStringLiteral("no-baselines"), QStringLiteral("Do not time eager and torch.compile."));
    const QCommandLineOption noProfile(QStringLiteral("no-profile"),
                                       QStringLiteral("Do not profile each new best with Nsight Compute (the diagnosis then ranks by timing and IR facts)."));
    const QCommandLineOption fresh(QStringLiteral("fresh"), QStringLiteral("Start a new run instead of resuming an unfinished one."));
    const QCommandLineOption jobs(QStringLiteral("jobs"), QStringLiteral("Tasks at a time (bench; default 1). GPU timing stays exclusive."), QStringLiteral("N"), QStringLiteral("1"));
    const QCommandLineOption only(QStringLiteral("only"), QStringLiteral("Comma-separated task names to run (bench)."), QStringLiteral("NAMES"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Write the results JSON (schema strata.bench) to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption csv(QStringLiteral("csv"), QStringLiteral("Write one CSV row per task to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption noSources(QStringLiteral("no-sources"), QStringLiteral("Leave candidate sources out of the JSON."));
    const QCommandLineOption interpret(QStringLiteral("interpret"), QStringLiteral("Run and verify under Triton's CPU interpreter (no timing: checks only)."));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Print each step of the loop."));
    const QCommandLineOption target(QStringLiteral("target"),
                                    QStringLiteral("Target the loop runs, checks and times on (default: the host GPU's): sm_80, "
                                                   "sm_90, sm_100, or an Ascend NPU (ascend910_95, ascend910b3)."),
                                    QStringLiteral("TARGET"));
    const QCommandLineOption proposals(QStringLiteral("proposals"), QStringLiteral("Also propose what DIR (or DIR/<task>/ when it exists) holds: task files (*.py) and model answers (*.md), checked like any other."), QStringLiteral("DIR"));
    const QCommandLineOption saveAnswers(QStringLiteral("save-answers"), QStringLiteral("Keep each raw LLM answer as DIR/<task>/NNN-<model>.md (replay them with --proposals DIR)."), QStringLiteral("DIR"));
    const QCommandLineOption noRecipes(QStringLiteral("no-recipes"), QStringLiteral("Do not use the built-in recipes."));
    const QCommandLineOption manual(QStringLiteral("manual"), QStringLiteral("Also ask a person: each prompt goes to WORK_DIR/manual-N/llm-prompt.md; the loop waits for llm-answer.md beside it."));
    const QCommandLineOption ablate(QStringLiteral("ablate-levels"),
                                    QStringLiteral("Run the suite once per ladder cap, L1 to --max-level (default all four), each in its own "
                                                   "store (DB-L1.db ..) and work folder, and report what each level adds (bench)."));
    const QCommandLineOption llm(QStringLiteral("llm"), QStringLiteral("Also ask an LLM, configured by the JSON FILE (docs/llm.md; keys come from the environment)."), QStringLiteral("FILE"));
    const QCommandLineOption hosts(QStringLiteral("hosts"),
                                   QStringLiteral("Spread the tasks over these hosts: local or ssh:HOST, comma-separated, each with --jobs "
                                                  "tasks at a time per GPU unless it says HOST=N (bench)."),
                                   QStringLiteral("LIST"));
    const QCommandLineOption slurm(QStringLiteral("slurm"), QStringLiteral("Submit the suite as a Slurm array job plus a merge job; the same command again resumes (bench)."));
    const QCommandLineOption status(QStringLiteral("status"), QStringLiteral("With --slurm: the run's progress from squeue, sacct and its stores."));
    const QCommandLineOption slurmDir(QStringLiteral("slurm-dir"), QStringLiteral("The Slurm run's folder (default out/slurm/<suite>)."), QStringLiteral("DIR"));
    const QCommandLineOption partition(QStringLiteral("partition"), QStringLiteral("sbatch --partition."), QStringLiteral("P"));
    const QCommandLineOption gres(QStringLiteral("gres"), QStringLiteral("sbatch --gres for each element (gpu:1)."), QStringLiteral("GRES"));
    const QCommandLineOption timeLimit(QStringLiteral("time"), QStringLiteral("sbatch --time for each element."), QStringLiteral("LIMIT"));
    const QCommandLineOption arrayMax(QStringLiteral("array-max"), QStringLiteral("At most N array elements: the tasks are split into N batches (default: one task each)."), QStringLiteral("N"));
    const QCommandLineOption stopStarting(QStringLiteral("stop-starting-after"),
                                          QStringLiteral("After SECONDS no task, round, check or timing starts; what runs then finishes and is "
                                                         "stored, so the same command on the same --db resumes without redoing it (for a "
                                                         "deadline: leave room for the longest step). SIGUSR1 does the same at once."),
                                          QStringLiteral("SECONDS"));
    const QCommandLineOption sbatchArg(QStringLiteral("sbatch-arg"), QStringLiteral("One more sbatch option for both jobs (repeatable): --sbatch-arg=--account=X."), QStringLiteral("ARG"));
    parser.addOptions({host, db, workDir, iterations, perRound, budget, tokens, level, timeCap, noBaselines, noProfile, fresh, jobs, only,
                       json, csv, noSources, interpret, verbose, target, proposals, saveAnswers, noRecipes, llm, manual, ablate,
                       hosts, slurm, status, slurmDir, partition, gres, timeLimit, arrayMax, sbatchArg, stopStarting});
    parser.addPositionalArgument(bench ? QStringLiteral("SUITE_DIR") : QStringLiteral("TASK.py"),
                                 bench ? QStringLiteral("A folder of task files.") : QStringLiteral("The task file."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(bench ? kBenchUsage : kOptimizeUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("%1 takes exactly one %2 (see --help)").arg(command, bench ? QStringLiteral("SUITE_DIR") : QStringLiteral("TASK.py")));
    const QFileInfo input(parser.positionalArguments().first());
    if (!input.exists() || input.isDir() != bench)
        return fail(ExitBadInput, ReadError{input.filePath(), 0, 0, bench ? QStringLiteral("no such suite folder") : QStringLiteral("no such task file")});

    BenchSetup &setup = args->setup;
    OptimizeOptions &options = setup.options;
    setup.suiteDir = bench ? input.absoluteFilePath() : input.absolutePath();
    if (!bench)
        setup.only = {input.completeBaseName()};
    else if (parser.isSet(only))
        setup.only = parser.value(only).split(u',', Qt::SkipEmptyParts);
    setup.host = parser.value(host);
    if (setup.host != QLatin1String("local") && !setup.host.startsWith(QLatin1String("ssh:")))
        return fail(ExitUsage, QStringLiteral("--host wants local or ssh:HOST"));
    setup.storePath = parser.isSet(db) ? parser.value(db) : defaultStorePath();
    setup.interpret = parser.isSet(interpret);
    options.target = parser.value(target);
    options.workDir = QFileInfo(parser.value(workDir)).absoluteFilePath();
    options.baselines = !parser.isSet(noBaselines) && !setup.interpret;
    options.profileRounds = !parser.isSet(noProfile);
    options.timing = !setup.interpret;  // the interpreter cannot be timed: checks only
    options.resume = !parser.isSet(fresh);
    double iterationsValue = options.maxIterations, perRoundValue = options.maxCandidatesPerIteration,
           tokensValue = double(options.tokenBudget), jobsValue = 1, levelValue = 3;
    if (!readPositive(parser, iterations, &iterationsValue) || !readPositive(parser, perRound, &perRoundValue)
        || !readPositive(parser, budget, &options.wallSeconds) || !readPositive(parser, tokens, &tokensValue)
        || !readPositive(parser, timeCap, &options.timeCapSeconds) || !readPositive(parser, jobs, &jobsValue)
        || !readPositive(parser, level, &levelValue) || levelValue > 4
        || !readPositive(parser, stopStarting, &args->stopStartingAfter))
        return fail(ExitUsage, QStringLiteral("--iterations, --candidates, --budget, --tokens, --time-cap, --jobs, --stop-starting-after want "
                                              "positive numbers; --max-level 1-4"));
    options.maxIterations = int(iterationsValue);
    options.maxCandidatesPerIteration = int(perRoundValue);
    options.tokenBudget = qint64(tokensValue);
    options.maxLevel = diagnosis::Level(int(levelValue));
    args->ablateLevels = parser.isSet(ablate);
    if (args->ablateLevels && !bench)
        return fail(ExitUsage, QStringLiteral("--ablate-levels runs a suite: use it with bench"));
    if (args->ablateLevels && !parser.isSet(level))
        options.maxLevel = diagnosis::Level::L4;  // every level, unless capped
    setup.jobs = int(jobsValue);
    args->jsonPath = parser.value(json);
    args->csvPath = parser.value(csv);
    args->withSources = !parser.isSet(noSources);
    args->verbose = parser.isSet(verbose);
    args->providers.proposalsDir = parser.value(proposals);
    args->providers.recipes = !parser.isSet(noRecipes);
    args->providers.llmConfigPath = parser.value(llm);
    if (parser.isSet(saveAnswers))
        args->providers.saveAnswersDir = QFileInfo(parser.value(saveAnswers)).absoluteFilePath();
    args->providers.manual = parser.isSet(manual);
    args->providers.manualRoot = options.workDir;
    args->providers.cancel = &g_cancel;
    args->hosts = parser.value(hosts);
    if (!args->hosts.isEmpty() && (!bench || parser.isSet(host)))
        return fail(ExitUsage, QStringLiteral("--hosts spreads a suite over hosts: use it with bench, instead of --host"));
    if (!parser.isSet(slurm)) {
        for (const QCommandLineOption *slurmOnly : {&status, &slurmDir, &partition, &gres, &timeLimit, &arrayMax, &sbatchArg})
            if (parser.isSet(*slurmOnly))
                return fail(ExitUsage, QStringLiteral("--%1 goes with --slurm").arg(slurmOnly->names().first()));
        return -1;
    }
    // --slurm: each element runs bench on its node with the loop's options given here.
    if (!bench)
        return fail(ExitUsage, QStringLiteral("--slurm submits a suite: use it with bench"));
    for (const QCommandLineOption *notHere : {&host, &hosts, &db, &workDir, &csv, &manual, &ablate, &fresh, &stopStarting})
        if (parser.isSet(*notHere))
            return fail(ExitUsage, QStringLiteral("--%1 does not go with --slurm (each element has its own store and work folder "
                                                  "in the run folder; docs/cluster.md)").arg(notHere->names().first()));
    SlurmCommand submission;
    submission.status = parser.isSet(status);
    submission.suiteDir = setup.suiteDir;
    submission.only = setup.only;
    submission.runDir = QFileInfo(parser.isSet(slurmDir) ? parser.value(slurmDir)
                                                      : QStringLiteral("out/slurm/") + input.fileName()).absoluteFilePath();
    submission.resultsCopy = args->jsonPath.isEmpty() ? QString() : QFileInfo(args->jsonPath).absoluteFilePath();
    submission.resources = {parser.value(partition), parser.value(gres), parser.value(timeLimit), parser.values(sbatchArg)};
    if (parser.isSet(arrayMax) && (submission.arrayMax = parser.value(arrayMax).toInt()) < 1)
        return fail(ExitUsage, QStringLiteral("--array-max wants a positive number"));
    for (const QCommandLineOption *forwarded : {&iterations, &perRound, &budget, &tokens, &level, &timeCap, &noBaselines, &noProfile,
                                                &jobs, &noSources, &interpret, &verbose, &noRecipes})
        if (parser.isSet(*forwarded))
            submission.benchArgs += forwarded->valueName().isEmpty() ? QStringList{u"--"_s + forwarded->names().first()}
                                                                  : QStringList{u"--"_s + forwarded->names().first(), parser.value(*forwarded)};
    for (const QCommandLineOption *path : {&proposals, &saveAnswers, &llm})  // the nodes start elsewhere: absolute
        if (parser.isSet(*path))
            submission.benchArgs += {u"--"_s + path->names().first(), QFileInfo(parser.value(*path)).absoluteFilePath()};
    args->slurm = submission;
    return -1;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    if (path.isEmpty())
        return true;
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size())
        return true;
    fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("cannot write: ") + file.errorString()});
    return false;
}

QString ratio(std::optional<double> value)
{
    return value ? QStringLiteral("%1x").arg(*value, 0, 'f', 2) : QStringLiteral("-");
}

void printSuite(const SuiteOutcome &suite)
{
    out() << "\n" << suite.suite << " on " << suite.device << " (triton " << suite.triton << ", torch " << suite.torch << ")\n";
    out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n").arg(QStringLiteral("task"), -28).arg(QStringLiteral("status"), -9)
                 .arg(QStringLiteral("initial ms"), 11).arg(QStringLiteral("best ms"), 10).arg(QStringLiteral("speedup"), 8)
                 .arg(QStringLiteral("vs eager"), 9).arg(QStringLiteral("vs compile"), 10);
    for (const TaskOutcome &task : suite.tasks) {
        auto ms = [](std::optional<double> value) { return value ? QString::number(*value, 'f', 4) : QStringLiteral("-"); };
        out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7").arg(task.taskId.left(28), -28).arg(task.status, -9)
                     .arg(ms(task.initialMs), 11).arg(ms(task.bestMs), 10).arg(ratio(task.speedup()), 8)
                     .arg(ratio(task.speedupVsEager()), 9).arg(ratio(task.speedupVsCompile()), 10);
        if (!task.winningRecipes.isEmpty())
            out() << "  via " << task.winningRecipes.join(QStringLiteral(" -> "));
        else if (!task.failure.isEmpty())
            out() << "  (" << task.failure.left(120) << ")";
        out() << "\n";
    }
    out() << QStringLiteral("\ngeomean %1x, median %2x, over 2x: %3, over 5x: %4, failures: %5, geomean vs best of eager/torch.compile: %6x\n")
                 .arg(suite.geomeanSpeedup(), 0, 'f', 2).arg(suite.medianSpeedup(), 0, 'f', 2).arg(suite.countOver(2))
                 .arg(suite.countOver(5)).arg(suite.failures()).arg(suite.geomeanVsBestBaseline(), 0, 'f', 2);
    if (const int unfinished = suite.interrupted())
        out() << QStringLiteral("%1 task(s) interrupted before they finished: their figures are partial; run again "
                                "with the same --db to resume\n").arg(unfinished);
}

QString gitCommit()
{
    return QProcessEnvironment::systemEnvironment().value(QStringLiteral("STRATA_GIT_COMMIT"));
}

// bench --ablate-levels: the suite once per cap; each cap's results (and CSV) beside the
// ablation file (results.json -> results-L1.json ...), the ablation figures in the file itself.
int runAblation(OptimizeArgs &args)
{
    bool written = true;
    Expected<Ablation> ablation = runLevelAblation(args.setup, [&](LevelRun &run) {
        run.suite.commit = gitCommit();
        out() << "\n--max-level " << diagnosis::levelName(run.maxLevel) << ":";
        printSuite(run.suite);
        if (!args.jsonPath.isEmpty()) {
            run.resultsPath = pathForLevel(args.jsonPath, run.maxLevel);
            written = written && writeFile(run.resultsPath, QJsonDocument(toJson(run.suite, args.withSources)).toJson(QJsonDocument::Indented));
        }
        if (!args.csvPath.isEmpty())
            written = written && writeFile(pathForLevel(args.csvPath, run.maxLevel), toCsv(run.suite).toUtf8());
        out().flush();
    });
    if (!ablation)
        return fail(ExitBadInput, ablation.error());
    out() << "\nablation of " << QFileInfo(args.setup.suiteDir).fileName() << " (same tasks, recipes and budgets per cap)\n"
          << ablation->table();
    if (!written || !writeFile(args.jsonPath, QJsonDocument(ablation->toJson()).toJson(QJsonDocument::Indented)))
        return ExitBadInput;
    out().flush();
    return g_cancel ? ExitTaskFailed : ExitOk;
}

} // namespace

int runOptimizeCommand(const QString &command, const QStringList &argv)
{
    OptimizeArgs args;
    if (const int code = parseArgs(command, argv, &args); code >= 0)
        return code;
    if (args.slurm)
        return runSlurmCommand(*args.slurm);
    if (!args.ablateLevels) {  // an ablation opens one store per cap
        Expected<std::unique_ptr<Store>> store = Store::open(args.setup.storePath);  // migrate once, up front
        if (!store)
            return fail(ExitStoreFailed, store.error());
        store->reset();
    }
    std::unique_ptr<PluginRegistry> plugins = loadPlugins(args.verbose);
    BenchSetup &setup = args.setup;
    setup.plugins = plugins.get();
    // One host (--host) or a pool (--hosts); on a host with several GPUs, workers per GPU.
    const QVector<DeviceMask> masks = cluster::deviceMasks(*plugins, setup.options.target);
    if (args.hosts.isEmpty()) {
        setup.hosts = {cluster::benchHost(setup.host, setup.jobs, masks)};
    } else if (Expected<QVector<BenchHost>> pool = cluster::parseHosts(args.hosts, setup.jobs, masks)) {
        setup.hosts = *pool;
    } else {
        return fail(ExitUsage, pool.error());
    }
    QString providerError;
    args.providers.plugins = plugins.get();  // the recipes of the task's backend
    setup.providerFactory = makeProviders(args.providers, &providerError);
    if (args.providers.manual)
        err() << "strata-cli: manual rewrites: prompts appear as " << args.providers.manualRoot
              << "/manual-N/llm-prompt.md; write the answer to llm-answer.md beside it" << Qt::endl;
    if (!providerError.isEmpty())
        return fail(ExitUsage, providerError);
    setup.cancel = &g_cancel;
    setup.drain = &g_drain;
    const bool verbose = args.verbose;
    // Quiet: only the per-task result lines ("[3/40] softmax: improved 2.1x"); verbose: every step.
    // Also a pool's host lines ("[host ssh:b] dropped out during ...").
    static const QRegularExpression taskDone(QStringLiteral("^\\[(\\d+/\\d+|host [^\\]]+)\\] "));
    setup.progress = [verbose](const QString &line) {
        if (verbose || taskDone.match(line).hasMatch())
            err() << line << Qt::endl;
    };
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    std::signal(SIGUSR1, onDrain);
    if (args.stopStartingAfter > 0)
        drainAfter(args.stopStartingAfter);
    if (args.ablateLevels)
        return runAblation(args);
    Expected<SuiteOutcome> suite = runSuite(setup);
    if (!suite)
        return fail(ExitBadInput, suite.error());
    suite->commit = gitCommit();
    printSuite(*suite);
    if (!writeFile(args.jsonPath, QJsonDocument(toJson(*suite, args.withSources)).toJson(QJsonDocument::Indented))
        || !writeFile(args.csvPath, toCsv(*suite).toUtf8()))
        return ExitBadInput;
    out().flush();
    if (g_cancel)
        return ExitTaskFailed;
    return suite->failures() == suite->tasks.size() ? ExitTaskFailed : ExitOk;
}

} // namespace strata::cli
