#pragma once
// The optimization loop of one task, shared by the files that implement it:
// TaskLoopStart.cpp (store rows, start/resume/reuse, the initial kernel) and OptimizeLoop.cpp
// (rounds, timing, the final check, the outcome). Internal to strata_optimize.
#include "optimize/KernelDiagnosis.h"
#include "optimize/OptimizeLoop.h"
#include "rewrite/RewriteProvider.h"
#include "store/OptimizeRecords.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonObject>
#include <optional>
#include <vector>

namespace strata::optimize::detail {

// Kernels of one task the loop diagnoses per round (most tasks launch one).
constexpr int kKernelsPerRound = 2;

QString sha256(const QString &text);  // hex, of the UTF-8 text
QJsonObject expectedJson(const QVector<rewrite::ExpectedFact> &facts);

// What the loop knows of the current best between rounds.
struct BestState {
    int row = -1;                    // index into rows
    std::optional<double> medianMs;
    std::optional<double> rooflinePct;
    QString bound;
    QVector<CapturedKernel> kernels; // its launches (from its last run_task)
    double outputTolerance = 0;      // the tightest tolerance of its outputs (run_task); 0: unknown
    // What L2 is given about it each round (GPU host only): its last timing, as the candidate
    // "triton", and its profile, taken once per best candidate.
    std::optional<Timing> timing;
    std::optional<ProfileResult> profile;
};

// Cut: a cancel or a drain stopped the round before it checked and timed all its proposals.
enum class RoundResult { Won, NoWin, NoProposals, Failed, CheckedOnly, Cut };

class TaskLoop {
public:
    TaskLoop(QString taskPath, const OptimizeOptions &options, LoopContext &context)
        : m_taskPath(QFileInfo(taskPath).absoluteFilePath()), m_options(options), m_context(context)
    {
        m_stem = QFileInfo(m_taskPath).completeBaseName();
        m_workDir = QDir(options.workDir.isEmpty() ? QDir::tempPath() + QStringLiteral("/strata-optimize") : options.workDir)
                        .filePath(m_stem);
    }

    TaskOutcome run();

private:
    void say(const QString &line) const
    {
        if (m_context.progress)
            m_context.progress(QStringLiteral("[%1] %2").arg(m_stem, line));
    }
    bool cancelled() const { return m_context.cancel && m_context.cancel->load(); }
    // A cancel, or a drain (a deadline's soft stop): no new round, candidate or timing starts; the
    // step in flight was let finish, so a resume redoes nothing.
    bool stopping() const { return cancelled() || (m_context.drain && m_context.drain->load()); }
    bool startOrResume(QString *why);
    bool startFresh(QString *why);
    bool restoreCandidateFiles(QString *why);
    bool ensureInitial(QString *why);
    // What a candidate may keep of the initial's torch ops: its verdict's glue_calls ({} if none).
    QJsonObject initialGlue() const;
    QString stopReason() const;
    RoundResult round(QString *why);
    CandidateRow proposedRow(const rewrite::RewriteProposal &proposal, qint64 parentId) const;
    QVector<rewrite::RewriteProposal> propose(const std::vector<DiagnosedKernel> &diagnosed, int iteration, bool *moreWaiting);
    void timeSurvivors(const QVector<int> &survivors);
    void timeCheckedBeforeStop();
    void finalCheck();
    TaskOutcome finish(const QString &runStatus, const QString &failure);
    bool save(CandidateRow &row);
    std::optional<TaskOutcome> reuseFinishedRun();
    bool refreshBestKernels(QString *why);
    bool lastRoundWasCut() const;
    diagnosis::Measurements measurementsOfBest();
    void recordRound(const DiagnosedKernel &kernel, const QStringList &measured);

    QString m_taskPath, m_stem, m_workDir;
    OptimizeOptions m_options;
    LoopContext &m_context;
    qint64 m_runId = 0;
    QVector<CandidateRow> m_rows;
    QVector<RoundDiagnosis> m_rounds;  // each round's diagnosis, as stored in opt_rounds
    BestState m_best;
    std::optional<double> m_initialMs, m_eagerMs, m_compileMs;
    qint64 m_tokens = 0;
    QString m_initialText;        // the task file as read when the run started or resumed
    qint64 m_finishedRunId = 0;   // a finished run on the same content: reused, not redone
    int m_iteration = 0;
    std::optional<Timing> m_initialTiming;  // this process's timing of the initial kernel
    bool m_profilerUnavailable = false;     // ncu said no once: not asked again in this run
    QElapsedTimer m_clock;
    QString m_stop;
};

} // namespace strata::optimize::detail
