#pragma once
// What every strata-cli command shares: exit codes, output streams, the agent and the plugins.
#include "core/Expected.h"
#include "host/AgentRpc.h"

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>
#include <memory>

namespace strata {
class HostConnection;
class PluginRegistry;
}

namespace strata::cli {

// Documented in docs/cli.md; scripts depend on them, so never renumber.
enum ExitCode : int {
    ExitOk = 0,
    ExitUsage = 1,          // unknown command or option, missing argument
    ExitBadInput = 2,       // missing or unreadable file, bad spec, unknown kernel, line out of range
    ExitCompileFailed = 3,  // the kernel does not compile (syntax, type or pass errors)
    ExitAgentFailed = 4,    // agent cannot start, died, timed out; no backend plugin for the target
    ExitStoreFailed = 5,    // the compile worked but the store could not record it
    ExitTaskFailed = 6,     // the task's candidate failed: verify verdict "fail", or it raised,
                            // crashed or hung in run/time/profile (agent errors -32002, -32004)
};

QTextStream &out();
QTextStream &err();

// Prints "strata-cli: error: <message>" on stderr and returns `code`.
int fail(ExitCode code, const QString &message);
int fail(ExitCode code, const ReadError &error);

// Parses `args` (the command's own, command name first); handles --help. Returns -1 to go on,
// else the exit code to return.
int parseOrExit(QCommandLineParser &parser, const QStringList &args, const QString &usage);

// Starts the local agent; on failure prints why and returns nullptr.
std::unique_ptr<HostConnection> startAgent(bool verbose);

// Loads the backend plugins; prints broken ones as warnings when `verbose`.
std::unique_ptr<PluginRegistry> loadPlugins(bool verbose);

// Exit code for an agent error reply (compile error, bad input, timeout, agent death).
ExitCode exitCodeFor(const RpcError &error);
// "file:line: message (kernel K)" with the parts the error carries.
QString describeRpcError(const RpcError &error);

QString humanSize(qint64 bytes);

// A --spec argument: a spec file (suites/samples/README.md), or inline JSON starting with '{',
// checked (compile/CompileSpec.h): errors name the file, the key and its line.
Expected<QJsonObject> readSpec(const QString &spec);
// The spec file a --spec argument names, absolute, for the agent's errors; empty for inline JSON.
QString specFilePath(const QString &spec);

// tritonparse traces (TraceCommand.cpp): whether `path` names one, and the compile folder's
// compile.json after importing the kernel `selector` picks (empty: the only one) into `outDir`,
// its target named by the backend that claims it.
bool isTracePath(const QString &path);
Expected<QString> importTraceKernel(const QString &tracePath, const QString &selector, const QString &outDir,
                                    const PluginRegistry &plugins);

int runCompile(const QStringList &args);
int runTrace(const QStringList &args);
int runMap(const QStringList &args);
int runInfo(const QStringList &args);
int runHistory(const QStringList &args);
// The task commands: run, verify, time, profile, ceilings (TaskCommands.cpp).
int runTaskCommand(const QString &command, const QStringList &args);

} // namespace strata::cli
