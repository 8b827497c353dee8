#pragma once
// The data of a per-suite report, assembled once and rendered by every format: the summary
// figures, the per-kernel speedups sorted for the bar chart (failures kept, at 1.0x), the
// speedup vs %-of-roofline points, and the tasks in table order.
#include "optimize/Outcome.h"

#include <QString>
#include <QVector>

namespace strata::report {

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

struct SuiteReport {
    optimize::SuiteOutcome suite;
    SuiteSummary summary;
    QVector<SpeedupBar> bars;          // fastest first; unmeasured tasks last
    QVector<RooflinePoint> roofline;   // tasks with a speedup and a roofline share
    QVector<int> failed;               // indices into suite.tasks of failed tasks, in order

    const optimize::TaskOutcome *task(const QString &taskId) const;
};

SuiteSummary summarize(const optimize::SuiteOutcome &suite);
SuiteReport buildSuiteReport(const optimize::SuiteOutcome &suite);

} // namespace strata::report
