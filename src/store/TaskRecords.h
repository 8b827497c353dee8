#pragma once
// What the store keeps of task-method calls (run_task, verify, time, profile, ceilings): the task
// file, and per call its outcome as it arrived. See Store::recordTaskResult.
#include "tasks/TaskRun.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata {

// One call to record. A failed call (an agent error, or a result that could not be read) has
// ok == false and the error fields set; `result` still holds whatever the agent sent.
struct TaskCallRecord {
    QString method;            // "run_task", "verify", "time", "profile", "ceilings"
    QString host;              // "local", "ssh:gpu-box"
    QString taskPath;          // empty for ceilings
    QString taskSha256;        // empty: computed from the file at taskPath; "" when it is not readable here
    QJsonObject taskMeta;      // STRATA_TASK, when the result carried it
    QJsonObject params;
    bool ok = true;
    QJsonObject result;
    QString verdict;           // verify only: "pass" / "fail"
    int errorCode = 0;         // JSON-RPC code, or 0 for a malformed result
    QString errorKind;         // data.kind: "timeout", "worker_killed", "malformed_result", ...
    QString errorMessage;
    QJsonObject errorData;
    QString device;            // "NVIDIA H200", "cuda", "cpu"
    double durationSeconds = 0;
    QVector<CapturedKernel> kernels;
};

struct TaskRecord {
    qint64 id = 0;
    QString path;
    QString sha256;
    QJsonObject meta;
    QDateTime created;
};

struct TaskKernelRecord {
    QString kernel;
    QString sourcePath;
    int line = 0;
    QVector<qint64> grid;
    QJsonObject spec;
    int launches = 0;
    QString ptxSha256;
};

struct TaskRunRecord {
    qint64 id = 0;
    qint64 taskId = 0;         // 0 for ceilings
    QString method;
    QString host;
    bool ok = false;
    QJsonObject params;
    QJsonObject result;
    QString verdict;
    int errorCode = 0;
    QString errorKind;
    QString errorMessage;
    QJsonObject errorData;
    QString device;
    double durationSeconds = 0;
    QDateTime created;
    QVector<TaskKernelRecord> kernels;
};

} // namespace strata
