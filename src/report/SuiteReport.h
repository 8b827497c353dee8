#pragma once
// The data of a per-suite report, assembled in one pass over the tasks and rendered by every
// format: the summary figures, the chart data and where the tasks come from. A report built
// from a results file keeps no task: each section that lists tasks reads the file again, so
// memory stays a constant plus one task (and 8 bytes per task for the exact median).
// Up to kPerTaskChartLimit tasks the charts show every task (one bar, one point each); above it
// they show distributions: a histogram of speedups and a density grid of speedup vs roofline.
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QVector>

#include <array>
#include <functional>
#include <memory>

namespace strata::report {

inline constexpr int kPerTaskChartLimit = 200;

struct SuiteSummary {
    int tasks = 0;
    double geomean = 0, median = 0;  // initial / best; failed or unmeasured tasks count as 1.0x
    int over2x = 0, over5x = 0, failures = 0;
    double geomeanVsBestBaseline = 0;  // min(eager, torch.compile) / best, over measured tasks
    int measuredVsBaseline = 0;        // tasks that have a baseline and a best time
};

// One bar of the per-kernel chart.
struct SpeedupBar {
    QString taskId;
    double speedup = 1.0;  // 1.0 for a task without both times
    bool measured = false; // false: failed or unmeasured, drawn as a marker at 1.0x
    QString status;        // the task's status ("failed", "no_gain", ...)
};

struct RooflinePoint {
    QString taskId;
    double speedup = 1.0;
    double rooflinePct = 0;
    QString bound;         // "memory", "compute", "latency", "launch", "" when unknown
};

// Speedups on a log axis in fixed bins: kBinsPerDecade bins per decade from kLowestDecade up,
// values outside clamped into the end bins. Unmeasured (failed) tasks are counted apart.
struct SpeedupHistogram {
    static constexpr int kBinsPerDecade = 10;
    static constexpr int kLowestDecade = -3;   // 0.001x
    static constexpr int kDecades = 6;         // up to 1000x
    static constexpr int kBins = kBinsPerDecade * kDecades;
    std::array<qint64, kBins> counts{};
    qint64 unmeasured = 0;

    static int binOf(double speedup);
    static double binLow(int bin);    // the speedup at the bin's lower edge
    static double binHigh(int bin);
    void add(double speedup) { ++counts[binOf(speedup)]; }
};

// Tasks with a speedup and a roofline share, counted in cells of 5% roofline by one speedup
// histogram bin, per bound (memory, compute, latency, launch, unknown).
struct RooflineDensity {
    static constexpr int kShareBins = 20;
    static constexpr int kBounds = 5;
    std::array<std::array<std::array<qint64, kBounds>, SpeedupHistogram::kBins>, kShareBins> cells{};
    qint64 points = 0;

    static int boundIndex(const QString &bound);
    static QString boundName(int index);  // "memory" ... "unknown"
    void add(double rooflinePct, double speedup, const QString &bound);
};

// Where a report's tasks come from: the suite in memory, or a results file read once more for
// each pass. Returns the error that stopped a pass, if any.
class TaskSource {
public:
    using Visitor = std::function<void(const optimize::TaskOutcome &)>;
    virtual ~TaskSource() = default;
    virtual std::optional<ReadError> forEach(const Visitor &visit) const = 0;
};

struct SuiteReport {
    optimize::SuiteOutcome suite;      // the header; its tasks only when built in memory
    SuiteSummary summary;
    QVector<SpeedupBar> bars;          // fastest first, unmeasured last; empty above kPerTaskChartLimit
    QVector<RooflinePoint> roofline;   // tasks with a speedup and a roofline share; same limit
    SpeedupHistogram histogram;        // every task
    RooflineDensity density;           // every task with a speedup and a roofline share
    QVector<int> failed;               // indices (in task order) of failed tasks
    std::shared_ptr<const TaskSource> source;  // null: suite.tasks

    bool perTaskCharts() const { return summary.tasks <= kPerTaskChartLimit; }
    // Every task in order, from memory or from the file.
    std::optional<ReadError> forEachTask(const TaskSource::Visitor &visit) const;
    // A task of an in-memory report (null when absent or when the report streams from a file).
    const optimize::TaskOutcome *task(const QString &taskId) const;
};

SuiteSummary summarize(const optimize::SuiteOutcome &suite);
SuiteReport buildSuiteReport(const optimize::SuiteOutcome &suite);
// Reads the results file once for the figures (and checks it whole); the tasks are read again
// when the report is rendered.
Expected<SuiteReport> readSuiteReport(const QString &resultsPath);

} // namespace strata::report
