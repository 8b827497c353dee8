#include "report/SuiteReport.h"

#include "optimize/ResultsFile.h"

#include <algorithm>
#include <cmath>

namespace strata::report {

using optimize::SuiteOutcome;
using optimize::TaskOutcome;

namespace {

const QStringList kBoundNames{QStringLiteral("memory"), QStringLiteral("compute"), QStringLiteral("latency"),
                              QStringLiteral("launch"), QStringLiteral("unknown")};

// The suite figures and chart data, one task at a time. The sums run in task order, as
// SuiteOutcome's own figures do, so both give the same numbers to the last bit.
class SuiteDigest {
public:
    void add(const TaskOutcome &task)
    {
        const std::optional<double> speedup = task.speedup();
        const double counted = speedup.value_or(1.0);
        const bool failed = task.status == QLatin1String("failed");
        m_speedups.append(counted);
        m_logSum += std::log(counted);
        m_summary.over2x += counted >= 2.0;
        m_summary.over5x += counted >= 5.0;
        if (failed) {
            ++m_summary.failures;
            m_report.failed.append(m_summary.tasks);
        }
        if (const std::optional<double> baseline = task.speedupVsBestBaseline()) {
            m_baselineLogSum += std::log(*baseline);
            ++m_summary.measuredVsBaseline;
        }
        ++m_summary.tasks;
        const bool measured = speedup.has_value() && !failed;
        if (measured)
            m_report.histogram.add(*speedup);
        else
            ++m_report.histogram.unmeasured;
        if (speedup && task.rooflinePct)
            m_report.density.add(*task.rooflinePct, *speedup, task.bound);
        if (m_summary.tasks > kPerTaskChartLimit) {
            m_report.bars.clear();
            m_report.roofline.clear();
            return;
        }
        m_report.bars.append({task.taskId, counted, measured, task.status});
        if (speedup && task.rooflinePct)
            m_report.roofline.append({task.taskId, *speedup, *task.rooflinePct, task.bound});
    }

    SuiteReport finish(SuiteOutcome suite)
    {
        m_summary.geomean = m_summary.tasks ? std::exp(m_logSum / m_summary.tasks) : 0;
        m_summary.geomeanVsBestBaseline = m_summary.measuredVsBaseline ? std::exp(m_baselineLogSum / m_summary.measuredVsBaseline) : 0;
        m_summary.median = median();
        // Fastest first; unmeasured (failed) tasks after the measured ones so they stay visible.
        std::stable_sort(m_report.bars.begin(), m_report.bars.end(), [](const SpeedupBar &a, const SpeedupBar &b) {
            if (a.measured != b.measured)
                return a.measured;
            return a.speedup > b.speedup;
        });
        m_report.summary = m_summary;
        m_report.suite = std::move(suite);
        return std::move(m_report);
    }

private:
    double median()
    {
        if (m_speedups.isEmpty())
            return 0;
        std::sort(m_speedups.begin(), m_speedups.end());
        const qsizetype middle = m_speedups.size() / 2;
        return m_speedups.size() % 2 ? m_speedups[middle] : (m_speedups[middle - 1] + m_speedups[middle]) / 2;
    }

    SuiteReport m_report;
    SuiteSummary m_summary;
    QVector<double> m_speedups;
    double m_logSum = 0, m_baselineLogSum = 0;
};

class FileTasks : public TaskSource {
public:
    explicit FileTasks(QString path) : m_path(std::move(path)) {}
    std::optional<ReadError> forEach(const Visitor &visit) const override
    {
        Expected<SuiteOutcome> read = optimize::readResultsFile(m_path, [&visit](TaskOutcome &&task) { visit(task); });
        if (!read)
            return read.error();
        return std::nullopt;
    }

private:
    QString m_path;
};

} // namespace

int SpeedupHistogram::binOf(double speedup)
{
    const double position = (std::log10(std::max(speedup, 1e-300)) - kLowestDecade) * kBinsPerDecade;
    // A small nudge so that 2.0 and 5.0 land in the bin they open, not the one below.
    return std::clamp(int(std::floor(position + 1e-9)), 0, kBins - 1);
}

double SpeedupHistogram::binLow(int bin) { return std::pow(10.0, kLowestDecade + double(bin) / kBinsPerDecade); }
double SpeedupHistogram::binHigh(int bin) { return binLow(bin + 1); }

int RooflineDensity::boundIndex(const QString &bound)
{
    const qsizetype index = kBoundNames.indexOf(bound);
    return index < 0 ? kBounds - 1 : int(index);
}

QString RooflineDensity::boundName(int index) { return kBoundNames.value(index); }

void RooflineDensity::add(double rooflinePct, double speedup, const QString &bound)
{
    const int share = std::clamp(int(rooflinePct / (100.0 / kShareBins)), 0, kShareBins - 1);
    ++cells[share][SpeedupHistogram::binOf(speedup)][boundIndex(bound)];
    ++points;
}

std::optional<ReadError> SuiteReport::forEachTask(const TaskSource::Visitor &visit) const
{
    if (source)
        return source->forEach(visit);
    for (const TaskOutcome &task : suite.tasks)
        visit(task);
    return std::nullopt;
}

SuiteSummary summarize(const SuiteOutcome &suite)
{
    return buildSuiteReport(suite).summary;
}

SuiteReport buildSuiteReport(const SuiteOutcome &suite)
{
    SuiteDigest digest;
    for (const TaskOutcome &task : suite.tasks)
        digest.add(task);
    return digest.finish(suite);
}

Expected<SuiteReport> readSuiteReport(const QString &resultsPath)
{
    SuiteDigest digest;
    Expected<SuiteOutcome> header = optimize::readResultsFile(resultsPath, [&digest](TaskOutcome &&task) { digest.add(task); });
    if (!header)
        return header.error();
    SuiteReport report = digest.finish(*header);
    report.source = std::make_shared<FileTasks>(resultsPath);
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
