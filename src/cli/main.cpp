// strata-cli: compile a Triton kernel through the host agent, map source lines to IR lines,
// ask the agent what it can do. Documented in docs/cli.md.
#include "cli/CliCommon.h"
#include "cli/ClusterCommand.h"
#include "cli/DiagnoseCommand.h"
#include "cli/ReportCommand.h"
#include "cli/OptimizeCommand.h"

#include <QCoreApplication>

namespace {

const char *const kUsage =
    "Usage: strata-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  compile KERNEL.py --kernel NAME --spec SPEC --out DIR   compile and record a kernel\n"
    "  map COMPILE_DIR_OR_JSON --line N | --ir STAGE:LINE      source line <-> IR lines\n"
    "  trace TRACE [--kernel NAME --out DIR]                   a tritonparse trace's kernels, as compiles\n"
    "  info                                                    what the agent and its triton offer\n"
    "  history [--db FILE] [--kernel NAME]                     the kernels and compiles in the store\n"
    "  diagnose KERNEL.py --kernel NAME --spec SPEC | COMPILE_DIR | TRACE --kernel NAME   why the kernel is slow\n"
    "  run TASK.py [--host local|ssh:HOST]                     run a task, list the Triton kernels it launched\n"
    "  verify TASK.py [--host ...]                             check the task's candidate: results, cheats, crashes\n"
    "  time TASK.py [--candidates a,b] [--self-check]          time the candidate against its baselines\n"
    "  profile TASK.py [--sections a,b]                        Nsight Compute: SOL, occupancy, stalls, lines\n"
    "  ceilings [--host ...]                                   the GPU's copy bandwidth and matmul rates\n"
    "  report RESULTS.json|DIAGNOSIS.json --format F --out FILE   suite or kernel report (html, md, json, csv, sarif, pdf)\n"
    "  optimize TASK.py [--host ...] [--iterations N]          diagnose, rewrite, verify, time: keep real wins\n"
    "  bench SUITE_DIR [--host ...] [--jobs N] [--json FILE]   the optimization loop on every task of a suite\n"
    "        (--hosts ssh:a,ssh:b,local: over several hosts; --slurm: as a Slurm array job, docs/cluster.md)\n"
    "  merge RUN_DIR [--json FILE]                             a Slurm run's stores merged into one results file\n"
    "\n"
    "Run 'strata-cli <command> --help' for a command's options. Exit codes: 0 ok, 1 usage,\n"
    "2 bad input, 3 compile failed, 4 agent or plugin failure, 5 store failure, 6 the task's\n"
    "candidate failed (verify verdict fail, or it raised, crashed or hung).\n";

} // namespace

int main(int argc, char **argv)
{
    if (argc > 1 && qstrcmp(argv[1], "report") == 0)
        return strata::cli::runReportMain(argc, argv);  // makes its own QGuiApplication (PDF fonts)
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    using namespace strata::cli;

    QStringList args = QCoreApplication::arguments();
    const QString command = args.value(1);
    if (command.isEmpty() || command == QLatin1String("--help") || command == QLatin1String("-h")) {
        out() << kUsage;
        return command.isEmpty() ? ExitUsage : ExitOk;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        out() << "strata-cli " << STRATA_VERSION << Qt::endl;
        return ExitOk;
    }
    args.removeAt(0);   // the command's parser sees "compile ..." like a program name
    if (command == QLatin1String("compile"))
        return runCompile(args);
    if (command == QLatin1String("map"))
        return runMap(args);
    if (command == QLatin1String("trace"))
        return runTrace(args);
    if (command == QLatin1String("info"))
        return runInfo(args);
    if (command == QLatin1String("history"))
        return runHistory(args);
    if (command == QLatin1String("diagnose"))
        return runDiagnose(args);
    if (command == QLatin1String("optimize") || command == QLatin1String("bench"))
        return runOptimizeCommand(command, args);
    if (command == QLatin1String("merge"))
        return runMergeCommand(args);
    for (const char *task : {"run", "verify", "time", "profile", "ceilings"}) {
        if (command == QLatin1String(task))
            return runTaskCommand(command, args);
    }
    return fail(ExitUsage, QStringLiteral("unknown command \"%1\" (see strata-cli --help)").arg(command));
}
