#pragma once
// The data of a per-kernel report: the task's times and speedups, the candidates tried, the
// winning change (initial kernel vs best candidate, as a unified diff), and the diagnosis
// findings in rank order, each with the source lines it points at and, when a compile is given,
// the IR lines those source lines became in every stage.
#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/Ladder.h"
#include "optimize/Outcome.h"
#include "report/UnifiedDiff.h"

#include <QString>
#include <QVector>
#include <optional>

namespace strata::report {

struct ExcerptLine {
    int number = 0;        // 1-based line number in its text
    QString text;
    bool focus = false;    // the line the finding is on (source) / an evidence line (IR)
};

// The IR lines of one stage that come from a finding's source line.
struct IrExcerpt {
    QString stage;          // "ttgir"
    QString stageName;      // "TTGIR"
    QVector<ExcerptLine> lines;
    int omitted = 0;        // lines of this stage from that source line left out for length
};

struct FindingEntry {
    int rank = 0;           // 1-based
    QString status;         // "confirmed", "unconfirmed", "untested", "not examined", ...
    diagnosis::Finding finding;
    QVector<ExcerptLine> source;  // the finding's lines with a little context
    QVector<IrExcerpt> ir;        // stage order; empty without a compile
};

struct KernelReportInputs {
    const optimize::TaskOutcome *task = nullptr;          // absent: a diagnosis-only report
    const diagnosis::LadderResult *diagnosis = nullptr;   // absent: an outcome-only report
    const LoadedCompile *compile = nullptr;               // absent: no IR excerpts
    QString sourceText;     // the diagnosed source; default: the compile's, else the initial candidate's
    // The backend and target the kernel ran or compiled for: a task report's suite run's
    // (SuiteOutcome::backend/target); default: the compile's.
    QString backend, target;
    int contextLines = 1;   // source lines shown around a finding's line
    int maxIrLines = 12;    // IR lines shown per stage and finding
};

struct KernelReport {
    QString title;                                  // task id, else the diagnosed kernel's name
    std::optional<optimize::TaskOutcome> task;
    std::optional<diagnosis::LadderResult> diagnosis;
    std::optional<optimize::CandidateRecord> initial, best;
    UnifiedDiff winningDiff;                        // empty when there is no better candidate
    QVector<FindingEntry> findings;                 // rank order
    QString sourcePath;                             // the diagnosed source file, when known
    QString backend, target;                        // empty: not recorded

    // "ascend, target ascend910_95"; "not recorded" when neither is known.
    QString backendText() const;
};

KernelReport buildKernelReport(const KernelReportInputs &inputs);

// The candidate each report calls "initial" (the unchanged kernel) and "best" (fastest accepted).
std::optional<optimize::CandidateRecord> initialCandidate(const optimize::TaskOutcome &task);
std::optional<optimize::CandidateRecord> bestCandidate(const optimize::TaskOutcome &task);

} // namespace strata::report
