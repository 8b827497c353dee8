#pragma once
// `verify` (agent/PROTOCOL.md, "Task methods"): is the task's Triton candidate correct and honest?
// A verdict, the reasons behind a "fail" (wrong result, cheats, crashes) and every check it ran.
#include "core/Expected.h"
#include "tasks/TaskRun.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMap>
#include <QString>
#include <QVector>
#include <optional>

namespace strata {

struct VerifyReason {
    QString kind;              // "wrong_result", "torch_compute_in_candidate", "timeout", ...
    QString severity;          // "fail" or "warning"
    QString message;
    int shape = -1;            // where it was first seen; -1 when not tied to one
    int draw = -1;
    int group = -1;
    int occurrences = 1;
    QString file;              // the task file line it points at, when the agent named one
    int line = 0;
    QJsonObject detail;        // the whole reason: ops, first_bad_index, signal, stderr_tail, ...

    bool isFailure() const { return severity == QLatin1String("fail"); }
    // "task.py:41: message" when a line is known, else the message.
    QString located() const;
};

struct OutputCheck {
    int output = 0;
    QVector<qint64> shape;
    QString dtype;
    std::optional<double> tolerance;
    int nonFinite = 0;
    std::optional<double> relError;          // null when the output could not be compared
    std::optional<double> referenceRelError;
};

struct VerifyCheck {
    int shape = 0;
    int draw = 0;
    int group = 0;
    qint64 seed = 0;
    QString order;             // "reference_first" / "candidate_first"
    int launches = 0;
    QMap<QString, int> torchOps;
    QVector<OutputCheck> outputs;
};

struct Verdict {
    int protocol = 0;
    QString task;
    QString verdict;           // "pass" or "fail"
    int drawsPerShape = 0;     // 0 when the worker failed before drawing
    QJsonArray shapes;         // [{}, {"N": 5003}]: the overrides of each checked shape
    QVector<VerifyReason> reasons;
    QVector<VerifyCheck> checks;
    QVector<CapturedKernel> kernels;
    // Torch compute ops ModelNew ran (aten name -> most calls in one forward): the glue a starting
    // point keeps, and what the loop allows its candidates.
    QMap<QString, int> glueCalls;

    bool passed() const { return verdict == QLatin1String("pass"); }
    int failureCount() const;
};

// Parses a verify result. Checks that `verdict` is "pass" or "fail" and agrees with the reasons
// (a "pass" with a failing reason is malformed).
Expected<Verdict> parseVerdict(const QJsonObject &result);

} // namespace strata
