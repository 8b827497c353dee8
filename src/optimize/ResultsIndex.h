#pragma once
// The explorer's view of a suite results file (schema "strata.bench", optimize/OutcomeJson.h)
// that stays small however large the file is. One pass over the file records where each task's
// object lies and keeps only the task's summary: every field but "candidates" and "rounds", which
// hold the candidates' sources and the per-round diagnoses and make up nearly all of the bytes.
// A task's whole record is read back from its offset when someone looks at it, and a review is
// written by splicing that one task's new text into the file, atomically.
//
// Checks: the summary fields are checked at open by the same rules as suiteOutcomeFromJson (an
// error names the file, the JSON path and its line, from the streaming reader); a task's
// candidates and rounds are checked when the task is loaded. A file changed on disk since it was
// opened is refused at load and at write, so a review never overwrites someone else's file.
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QDateTime>

namespace strata::optimize {

struct TaskSpan {
    qint64 offset = 0;  // of the task object's '{'
    qint64 length = 0;  // through its '}'
    int line = 1;       // of the '{'
};

class ResultsIndex {
public:
    static Expected<ResultsIndex> open(const QString &path);

    const QString &path() const { return m_path; }
    // The header and every task in file order, each without candidates or rounds.
    const SuiteOutcome &summary() const { return m_summary; }
    int taskCount() const { return int(m_spans.size()); }
    TaskSpan span(int task) const { return m_spans.value(task); }

    // One task whole, read from the file.
    Expected<TaskOutcome> loadTask(int task) const;
    // Writes `whole` in place of task `task`'s record (the rest of the file byte for byte) and
    // moves the later tasks' spans. Empty on success, else why (the file is left as it was).
    QString replaceTask(int task, const TaskOutcome &whole);

private:
    QString changedOnDisk() const;  // empty when the file is as it was indexed
    void rememberFileState();

    QString m_path;
    SuiteOutcome m_summary;
    QVector<TaskSpan> m_spans;
    qint64 m_fileSize = 0;
    QDateTime m_fileModified;
};

// `task` without the parts the index leaves in the file.
TaskOutcome taskSummary(TaskOutcome task);

} // namespace strata::optimize
