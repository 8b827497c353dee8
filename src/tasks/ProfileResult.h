#pragma once
// `profile` (agent/PROTOCOL.md, "Task methods"): Nsight Compute on one forward of the task.
// Whether ncu could run (status), and when it could: per profiled kernel its sections' metrics
// and rule results, and the costliest SASS / CUDA source rows.
#include "core/Expected.h"
#include "tasks/TaskRun.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QPair>
#include <QVector>
#include <optional>

namespace strata {

struct NcuMetric {
    QString name;              // "Memory Throughput"
    QJsonValue value;          // a number, or text when ncu printed text ("n/a", "(5, 1, 1)")
    QString unit;              // "%", "Gbyte/second", ""

    std::optional<double> number() const
    {
        return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
    }
};

struct NcuSection {
    QString name;              // "GPU Speed Of Light Throughput"
    QVector<NcuMetric> metrics;

    const NcuMetric *metric(const QString &name) const;
};

struct NcuRule {
    QString section;           // "WarpStateStats"
    QString rule;              // "CPIStall"
    QString type;              // "OPT", "WRN", "INF"
    QString description;
    std::optional<double> estimatedSpeedup;
    QString estimatedSpeedupType;   // "local", "global"
};

struct ProfiledKernel {
    qint64 id = 0;             // ncu's launch id
    QString kernel;            // the name ncu reports
    QString grid, block;       // as ncu prints them: "(5, 1, 1)"
    QVector<NcuSection> sections;
    QVector<NcuRule> rules;

    const NcuSection *section(const QString &name) const;
    // The first metric called `metric` in a section whose name contains `sectionPart`.
    const NcuMetric *find(const QString &sectionPart, const QString &metric) const;
};

// Where the warps of a kernel stalled, by stall reason ("long_sb": 3930 samples), largest first.
using StallCounts = QVector<QPair<QString, double>>;

// The sampled cost of one Python source line (view "cuda,sass").
struct SourceLineCost {
    QString file;
    QString function;
    int line = 0;
    QString source;
    double stallSamples = 0;
    double instructionsExecuted = 0;
    StallCounts stalls;
    // msprof's simulator (view "code_exe", Ascend): the line's cycles and calls, summed over cores.
    double cycles = 0;
    qint64 callCount = 0;
};

// The sampled cost of one SASS instruction, with the source line it belongs to when known.
struct InstructionCost {
    QString address;
    QString sass;
    QString file;
    int line = 0;
    double stallSamples = 0;
    double instructionsExecuted = 0;
    StallCounts stalls;
};

// One `--page source` view ("sass" or "cuda,sass") of one kernel.
struct SourceView {
    QString view;
    QString kernel;
    QStringList columns;
    QString costColumn;        // "Warp Stall Sampling (All Samples)"
    double totalStallSamples = 0;
    int instructionCount = 0;
    QVector<SourceLineCost> lines;               // costliest first ("cuda,sass" only)
    QVector<InstructionCost> topInstructions;    // costliest first
    QString error;             // ncu could not print this view

    // Stall reasons summed over the source lines (complete), else over the top instructions.
    StallCounts stallTotals() const;
};

struct ProfileResult {
    int protocol = 0;
    QString task;
    // Which profiler filled the `ncu` object: "ncu" (Nsight Compute, also when the agent does not
    // say) or "msprof" (an Ascend target; same shape, its own section and metric names).
    QString profiler;
    QString backend, target;   // set by backends other than the CUDA one ("ascend", "ascend910_95")
    QString reason;            // status "unavailable": what the host lacks ("no_cann", "no_npu", "no_msprof", ...)
    QJsonObject device;        // what the worker read of the device (Ascend: num_aicore, num_vectorcore)
    QVector<CapturedKernel> kernels;   // what run_task would capture
    QString status;            // "ok", "unavailable", "counters_unavailable", "profiler_failed", "no_report"
    QString message;
    QString ncuPath, ncuVersion, report;
    QStringList sections, files;
    QVector<ProfiledKernel> profiled;
    QVector<SourceView> source;
    QString detailsError;

    bool ok() const { return status == QLatin1String("ok"); }
    // The source view for `kernel`, "cuda,sass" preferred; nullptr when there is none.
    const SourceView *sourceFor(const QString &kernel) const;
};

Expected<ProfileResult> parseProfileResult(const QJsonObject &result);

} // namespace strata
