#pragma once
// The SQLite store of kernels, their compiles and what each compile produced (QtSql, QSQLITE).
// One Store owns one connection, used from the thread that opened it (QSqlDatabase is per
// thread); open another Store for another thread. Writes are one transaction each: a failed
// write rolls back and leaves what was stored intact.
#include "compile/CompileResult.h"
#include "core/Expected.h"
#include "store/OptimizeRecords.h"
#include "store/TaskRecords.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>
#include <QVector>
#include <memory>

namespace strata {

struct KernelRecord {
    qint64 id = 0;
    QString sourcePath;
    QString kernelName;
    QString sourceSha256;
    QDateTime created;
};

struct CompileRecord {
    qint64 id = 0;
    qint64 kernelId = 0;
    QJsonObject spec;
    QString target;
    bool ok = false;            // status "ok" / "failed"
    QString errorMessage;       // failed compiles only
    QString errorFile;
    int errorLine = 0;
    QString workDir;
    double durationSeconds = 0;
    QDateTime created;
};

// A compile that did not produce a result (compile error, timeout, bad input).
struct FailedCompile {
    QString kernel;
    QString sourcePath;
    QString sourceSha256;       // empty: computed from the file at sourcePath when it exists
    QString target;
    QJsonObject spec;
    QString workDir;
    double durationSeconds = 0;
    ReadError error;            // message, file, line of the failure
};

class Store {
public:
    // Opens (creating if needed) the store at `path` and migrates it to the latest schema. A
    // store written by a newer Strata is refused and left untouched.
    static Expected<std::unique_ptr<Store>> open(const QString &path);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    QString path() const { return m_path; }
    int schemaVersion() const;

    // Returns the new compile's id.
    Expected<qint64> recordCompile(const CompileResult &result);
    Expected<qint64> recordFailedCompile(const FailedCompile &failure);

    Expected<QVector<KernelRecord>> listKernels() const;
    Expected<QVector<CompileRecord>> compilesForKernel(qint64 kernelId) const;
    // A successful compile, as it was recorded (artifact paths as stored).
    Expected<CompileResult> loadCompile(qint64 compileId) const;

    // One task-method call, ok or failed, in one transaction (the task row is created on first
    // use, keyed by path and content hash). Returns the new run's id.
    Expected<qint64> recordTaskResult(const TaskCallRecord &call);
    Expected<QVector<TaskRecord>> listTasks() const;
    // The task's runs, oldest first, each with its captured kernels.
    Expected<QVector<TaskRunRecord>> taskRuns(qint64 taskId) const;
    // Runs recorded without a task (ceilings), oldest first.
    Expected<QVector<TaskRunRecord>> hostRuns() const;

    // Optimization runs (StoreOptimize.cpp). A run is created "running"; its candidates are
    // inserted "proposed" and updated as they are checked; finishing stores the outcome.
    Expected<qint64> beginOptimizeRun(const OptimizeRunRecord &run);
    // The newest run of the task named `taskName` (file stem) whose initial text hashes to
    // `sha256` and whose status is one of `statuses`. Matched by name and content, not by path,
    // so a store carried to another checkout (a GPU host) still resumes.
    Expected<std::optional<OptimizeRunRecord>> latestOptimizeRun(const QString &taskName, const QString &sha256,
                                                                 const QStringList &statuses) const;
    Expected<bool> finishOptimizeRun(qint64 runId, const QString &status, const QJsonObject &outcome);
    Expected<QVector<OptimizeRunRecord>> listOptimizeRuns() const;
    Expected<qint64> insertCandidate(const CandidateRow &candidate);
    Expected<bool> updateCandidate(const CandidateRow &candidate);  // state, detail, times, evidence
    Expected<bool> setCandidateReview(qint64 candidateId, const QString &review);
    Expected<QVector<CandidateRow>> candidatesForRun(qint64 runId) const;
    Expected<qint64> insertRound(const RoundRow &round);
    Expected<QVector<RoundRow>> roundsForRun(qint64 runId) const;  // in the order they were recorded

private:
    Store(QString path, QString connectionName);
    QString m_path;
    QString m_connectionName;  // unique per instance
};

// The default database: $XDG_DATA_HOME/strata/strata.db (~/.local/share/strata/strata.db).
QString defaultStorePath();

} // namespace strata
