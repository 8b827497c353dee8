#pragma once
// What the task commands (run, verify, time, profile, ceilings) share: their options, the agent
// call, and the readable summaries of each method's result. Internal to strata-cli.
#include "cli/CliCommon.h"

#include <QJsonObject>
#include <QString>

namespace strata {
class Store;
struct TaskRun;
struct Verdict;
struct Timing;
struct CeilingsResult;
struct ProfileResult;
}

namespace strata::cli {

struct TaskArgs {
    QString method;            // the agent method: run_task, verify, time, profile, ceilings
    QString command;           // the strata-cli command: run, verify, ...
    QString taskPath;          // empty for ceilings; absolute for --host local
    QString host = QStringLiteral("local");   // "local" or "ssh:HOST"
    QString remotePython = QStringLiteral("python3");
    QString dbPath;
    bool store = true;
    bool json = false;
    bool quiet = false;
    int timeoutSeconds = 0;    // the agent's timeout_s
    QJsonObject params;        // everything sent to the agent
};

// Fills `args` from the command line; returns -1 to go on, else an exit code.
int parseTaskArgs(const QString &command, const QStringList &argv, TaskArgs *args);

// Readable summaries on out(); each returns the command's exit code for what it printed.
int printTaskRun(const TaskRun &run);
int printVerdict(const Verdict &verdict);
int printTiming(const Timing &timing);
int printCeilings(const CeilingsResult &ceilings);
int printProfile(const ProfileResult &profile);

// history --tasks: the task files in the store and the calls made on them (TaskHistory.cpp).
int printTaskHistory(Store &store, const QString &path, bool json);

// "vector_add.py:19" (the file name only: full paths make the tables unreadable).
QString shortLocation(const QString &file, int line);

} // namespace strata::cli
