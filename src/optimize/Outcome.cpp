#include "optimize/Outcome.h"

#include <algorithm>
#include <cmath>

namespace strata::optimize {

namespace {

std::optional<double> ratio(std::optional<double> numerator, std::optional<double> denominator)
{
    if (!numerator || !denominator || *denominator <= 0 || *numerator <= 0)
        return std::nullopt;
    return *numerator / *denominator;
}

// Speedups that count for the suite figures: a failed or unmeasured task is 1.0x (the initial
// kernel stays), so failures pull the geomean down instead of disappearing from it.
QVector<double> countedSpeedups(const QVector<TaskOutcome> &tasks)
{
    QVector<double> values;
    for (const TaskOutcome &task : tasks)
        values.append(task.speedup().value_or(1.0));
    return values;
}

double geomean(const QVector<double> &values)
{
    if (values.isEmpty())
        return 0;
    double logSum = 0;
    for (double value : values)
        logSum += std::log(value);
    return std::exp(logSum / values.size());
}

} // namespace

QString coverageName(Coverage coverage)
{
    switch (coverage) {
    case Coverage::Whole: return QStringLiteral("whole");
    case Coverage::Part: return QStringLiteral("part");
    case Coverage::Merged: return QStringLiteral("merged");
    case Coverage::Unknown: break;
    }
    return QStringLiteral("unknown");
}

std::optional<Coverage> coverageFromName(const QString &name)
{
    for (Coverage coverage : {Coverage::Whole, Coverage::Part, Coverage::Merged, Coverage::Unknown})
        if (name == coverageName(coverage))
            return coverage;
    return std::nullopt;
}

QString TaskOutcome::measuredInText() const
{
    if (measuredIn.isEmpty())
        return {};
    return QStringLiteral("%1 %2").arg(measuredIn.value(QLatin1String("commit")).toString().left(7),
                                       measuredIn.value(QLatin1String("date")).toString().left(10));
}

std::optional<double> TaskOutcome::speedup() const { return ratio(initialMs, bestMs); }
std::optional<double> TaskOutcome::speedupVsEager() const { return ratio(eagerMs, bestMs); }
std::optional<double> TaskOutcome::speedupVsCompile() const { return ratio(compileMs, bestMs); }

std::optional<double> TaskOutcome::speedupVsBestBaseline() const
{
    std::optional<double> baseline = eagerMs;
    if (compileMs && (!baseline || *compileMs < *baseline))
        baseline = compileMs;
    return ratio(baseline, bestMs);
}

double SuiteOutcome::geomeanSpeedup() const { return geomean(countedSpeedups(tasks)); }

double SuiteOutcome::medianSpeedup() const
{
    QVector<double> values = countedSpeedups(tasks);
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const qsizetype middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double SuiteOutcome::geomeanVsBestBaseline() const
{
    QVector<double> values;
    for (const TaskOutcome &task : tasks)
        if (const std::optional<double> value = task.speedupVsBestBaseline())
            values.append(*value);
    return geomean(values);
}

int SuiteOutcome::countOver(double factor) const
{
    return int(std::count_if(tasks.begin(), tasks.end(), [factor](const TaskOutcome &task) {
        return task.speedup().value_or(1.0) >= factor;
    }));
}

int SuiteOutcome::failures() const
{
    return int(std::count_if(tasks.begin(), tasks.end(),
                             [](const TaskOutcome &task) { return task.status == QLatin1String("failed"); }));
}

int SuiteOutcome::interrupted() const
{
    return int(std::count_if(tasks.begin(), tasks.end(),
                             [](const TaskOutcome &task) { return task.status == QLatin1String("interrupted"); }));
}

QString SuiteOutcome::backendText() const
{
    if (backend.isEmpty() && target.isEmpty())
        return QStringLiteral("not recorded");
    if (target.isEmpty())
        return backend;
    return QStringLiteral("%1, target %2").arg(backend.isEmpty() ? QStringLiteral("backend unknown") : backend, target);
}

} // namespace strata::optimize
