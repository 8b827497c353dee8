// Command-line options of the task commands (strata-cli run|verify|time|profile|ceilings).
#include "cli/TaskCommon.h"

#include "store/Store.h"

#include <QFileInfo>
#include <QJsonArray>

namespace strata::cli {

namespace {

struct MethodInfo {
    const char *command;
    const char *method;
    int defaultTimeout;        // the agent's own default timeout_s (agent/PROTOCOL.md)
    const char *summary;
};

const MethodInfo kMethods[] = {
    {"run", "run_task", 60, "Runs the task's ModelNew once and lists every Triton kernel it launched, with the spec that rebuilds it."},
    {"verify", "verify", 60, "Checks the task's Triton candidate against the reference: results, cheats, crashes. Exit 6 when the verdict is \"fail\"."},
    {"time", "time", 600, "Times the candidate against its baselines (interleaved, device events, L2 flushed) with speedups and the roofline."},
    {"profile", "profile", 300, "Runs Nsight Compute on one forward: SOL, occupancy, stall reasons, costliest source lines."},
    {"ceilings", "ceilings", 300, "Measures (or reads the cached) copy bandwidth and matmul rates of the host's GPU."},
};

const MethodInfo *methodFor(const QString &command)
{
    for (const MethodInfo &info : kMethods) {
        if (command == QLatin1String(info.command))
            return &info;
    }
    return nullptr;
}

QString usageFor(const MethodInfo &info)
{
    const bool needsTask = qstrcmp(info.command, "ceilings") != 0;
    return QStringLiteral("strata-cli %1 %2--host local|ssh:HOST [options]\n%3\nResults are recorded in the "
                          "store unless --no-store; progress goes to stderr.")
        .arg(QLatin1String(info.command), needsTask ? QStringLiteral("TASK.py ") : QString(),
             QLatin1String(info.summary));
}

QStringList splitList(const QString &value)
{
    QStringList items;
    for (const QString &item : value.split(QLatin1Char(','), Qt::SkipEmptyParts))
        items.append(item.trimmed());
    return items;
}

// Options only some commands have; returns -1 to go on, else an exit code.
int readMethodOptions(const QCommandLineParser &parser, TaskArgs *args)
{
    if (args->command == QLatin1String("time")) {
        if (parser.isSet(QStringLiteral("candidates"))) {
            const QStringList names = splitList(parser.value(QStringLiteral("candidates")));
            if (names.isEmpty())
                return fail(ExitUsage, QStringLiteral("--candidates wants a comma-separated list (triton,eager,...)"));
            args->params.insert(QStringLiteral("candidates"), QJsonArray::fromStringList(names));
        }
        if (parser.isSet(QStringLiteral("self-check")))
            args->params.insert(QStringLiteral("self_check"), true);
        if (parser.isSet(QStringLiteral("warm-l2")))
            args->params.insert(QStringLiteral("warm_l2"), QJsonArray{QStringLiteral("triton")});
    }
    if (args->command == QLatin1String("profile") && parser.isSet(QStringLiteral("sections"))) {
        const QStringList sections = splitList(parser.value(QStringLiteral("sections")));
        if (sections.isEmpty())
            return fail(ExitUsage, QStringLiteral("--sections wants a comma-separated list (SpeedOfLight,Occupancy,...)"));
        args->params.insert(QStringLiteral("sections"), QJsonArray::fromStringList(sections));
    }
    if (args->command == QLatin1String("verify") && parser.isSet(QStringLiteral("initial")))
        args->params.insert(QStringLiteral("glue"), QStringLiteral("initial"));
    if (args->command == QLatin1String("ceilings") && parser.isSet(QStringLiteral("refresh")))
        args->params.insert(QStringLiteral("refresh"), true);
    return -1;
}

void addMethodOptions(const QString &command, QCommandLineParser *parser)
{
    if (command == QLatin1String("time")) {
        parser->addOption({QStringLiteral("candidates"), QStringLiteral("Candidates to time, comma-separated "
                           "(default: triton,eager,compile,compile-max-autotune)."), QStringLiteral("LIST")});
        parser->addOption({QStringLiteral("self-check"), QStringLiteral("Also time the Triton candidate a second "
                           "time, independently (triton#2): the spread between the two is the noise.")});
        parser->addOption({QStringLiteral("warm-l2"), QStringLiteral("Also time the Triton candidate without the "
                           "L2 flush (triton/warm-l2).")});
    }
    if (command == QLatin1String("profile"))
        parser->addOption({QStringLiteral("sections"), QStringLiteral("Nsight Compute sections, comma-separated "
                           "(default: the agent's seven)."), QStringLiteral("LIST")});
    if (command == QLatin1String("verify"))
        parser->addOption({QStringLiteral("initial"), QStringLiteral("The task is a starting point, not a candidate: "
                           "torch ops in ModelNew.forward are its glue (reported), not a failure.")});
    if (command == QLatin1String("ceilings"))
        parser->addOption({QStringLiteral("refresh"), QStringLiteral("Measure again instead of reading the cache.")});
}

// --host: "local" or "ssh:HOST"; returns -1 to go on, else an exit code.
int readHost(const QString &host, TaskArgs *args)
{
    if (host == QLatin1String("local") || (host.startsWith(QLatin1String("ssh:")) && host.size() > 4)) {
        args->host = host;
        return -1;
    }
    return fail(ExitUsage, QStringLiteral("--host wants \"local\" or \"ssh:HOST\", not \"%1\"").arg(host));
}

// TASK.py: checked here when local; on an ssh host the path is the remote machine's.
int readTask(const QStringList &positional, TaskArgs *args)
{
    const bool needsTask = args->command != QLatin1String("ceilings");
    if (positional.size() != (needsTask ? 1 : 0))
        return fail(ExitUsage, needsTask ? QStringLiteral("%1 takes exactly one TASK.py (see --help)").arg(args->command)
                                         : QStringLiteral("ceilings takes no task file (see --help)"));
    if (!needsTask)
        return -1;
    args->taskPath = positional.first();
    if (args->host == QLatin1String("local")) {
        const QFileInfo task(args->taskPath);
        if (!task.isFile())
            return fail(ExitBadInput, ReadError{task.absoluteFilePath(), 0, 0, QStringLiteral("no such task file")});
        args->taskPath = task.absoluteFilePath();
    }
    args->params.insert(QStringLiteral("task"), args->taskPath);
    return -1;
}

} // namespace

int parseTaskArgs(const QString &command, const QStringList &argv, TaskArgs *args)
{
    const MethodInfo *info = methodFor(command);
    Q_ASSERT(info);
    args->command = command;
    args->method = QLatin1String(info->method);
    QCommandLineParser parser;
    const QCommandLineOption host(QStringLiteral("host"), QStringLiteral("Where the agent runs: local (default) or ssh:HOST."), QStringLiteral("HOST"), QStringLiteral("local"));
    const QCommandLineOption python(QStringLiteral("remote-python"), QStringLiteral("Python on the ssh host (default python3)."), QStringLiteral("PYTHON"), QStringLiteral("python3"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the agent's result JSON instead of a summary."));
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store file (default: $XDG_DATA_HOME/strata/strata.db)."), QStringLiteral("FILE"));
    const QCommandLineOption noStore(QStringLiteral("no-store"), QStringLiteral("Do not record the result."));
    const QCommandLineOption interpret(QStringLiteral("interpret"), QStringLiteral("Run under Triton's CPU interpreter (TRITON_INTERPRET=1): no GPU needed, small shapes."));
    const QCommandLineOption timeout(QStringLiteral("timeout"), QStringLiteral("The agent's timeout in seconds (default %1).").arg(info->defaultTimeout), QStringLiteral("SECONDS"), QString::number(info->defaultTimeout));
    const QCommandLineOption quiet(QStringLiteral("quiet"), QStringLiteral("Do not print the agent's progress on stderr."));
    const QCommandLineOption target(QStringLiteral("target"),
                                    QStringLiteral("The target whose backend runs the task (default: the host GPU's): an Ascend NPU "
                                                   "(ascend910_95, ascend910b3) runs it under triton-ascend."),
                                    QStringLiteral("TARGET"));
    parser.addOptions({host, python, json, db, noStore, interpret, timeout, quiet, target});
    addMethodOptions(command, &parser);
    if (command != QLatin1String("ceilings"))
        parser.addPositionalArgument(QStringLiteral("TASK.py"), QStringLiteral("The task file (KernelBench format)."));
    if (const int code = parseOrExit(parser, argv, usageFor(*info)); code >= 0)
        return code;

    bool timeoutOk = false;
    args->timeoutSeconds = parser.value(timeout).toInt(&timeoutOk);
    if (!timeoutOk || args->timeoutSeconds <= 0)
        return fail(ExitUsage, QStringLiteral("--timeout wants a positive number of seconds"));
    if (const int code = readHost(parser.value(host), args); code >= 0)
        return code;
    if (const int code = readTask(parser.positionalArguments(), args); code >= 0)
        return code;
    if (const int code = readMethodOptions(parser, args); code >= 0)
        return code;
    args->remotePython = parser.value(python);
    args->dbPath = parser.isSet(db) ? parser.value(db) : defaultStorePath();
    args->store = !parser.isSet(noStore);
    args->json = parser.isSet(json);
    args->quiet = parser.isSet(quiet);
    args->params.insert(QStringLiteral("timeout_s"), args->timeoutSeconds);
    if (parser.isSet(interpret))
        args->params.insert(QStringLiteral("interpret"), true);
    if (parser.isSet(target))
        args->params.insert(QStringLiteral("target"), parser.value(target));
    return -1;
}

QString shortLocation(const QString &file, int line)
{
    const QString name = QFileInfo(file).fileName();
    return line > 0 ? QStringLiteral("%1:%2").arg(name).arg(line) : name;
}

} // namespace strata::cli
