#include "report/SuiteReport.h"

#include <algorithm>

namespace strata::report {

using optimize::SuiteOutcome;
using optimize::TaskOutcome;

SuiteSummary summarize(const SuiteOutcome &suite)
{
    SuiteSummary summary;
    summary.tasks = suite.tasks.size();
    summary.geomean = suite.geomeanSpeedup();
    summary.median = suite.medianSpeedup();
    summary.over2x = suite.countOver(2.0);
    summary.over5x = suite.countOver(5.0);
    summary.failures = suite.failures();
    summary.geomeanVsBestBaseline = suite.geomeanVsBestBaseline();
    summary.measuredVsBaseline = int(std::count_if(suite.tasks.begin(), suite.tasks.end(), [](const TaskOutcome &task) {
        return task.speedupVsBestBaseline().has_value();
    }));
    return summary;
}

SuiteReport buildSuiteReport(const SuiteOutcome &suite)
{
    SuiteReport report;
    report.suite = suite;
    report.summary = summarize(suite);
    for (int i = 0; i < report.suite.tasks.size(); ++i) {
        const TaskOutcome &task = report.suite.tasks[i];
        const std::optional<double> speedup = task.speedup();
        const bool failed = task.status == QLatin1String("failed");
        report.bars.append({task.taskId, speedup.value_or(1.0), speedup.has_value() && !failed, task.status});
        if (speedup && task.rooflinePct)
            report.roofline.append({task.taskId, *speedup, *task.rooflinePct, task.bound});
        if (failed)
            report.failed.append(i);
    }
    // Fastest first; unmeasured (failed) tasks after the measured ones so they stay visible.
    std::stable_sort(report.bars.begin(), report.bars.end(), [](const SpeedupBar &a, const SpeedupBar &b) {
        if (a.measured != b.measured)
            return a.measured;
        return a.speedup > b.speedup;
    });
    return report;
}

const TaskOutcome *SuiteReport::task(const QString &taskId) const
{
    for (const TaskOutcome &outcome : suite.tasks) {
        if (outcome.taskId == taskId)
            return &outcome;
    }
    return nullptr;
}

} // namespace strata::report
