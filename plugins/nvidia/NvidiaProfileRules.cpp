// The NVIDIA backend's L2 (NvidiaProfileRules.h): Nsight Compute's figures of a launch in the core's
// measurement model, and the occupancy rule.
#include "NvidiaProfileRules.h"

#include "NvidiaOccupancy.h"

#include <QMap>

namespace strata::nvidia {

using namespace diagnosis;

namespace {

constexpr double kLowOccupancy = 0.5;      // theoretical occupancy under this limits latency hiding

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 0) + u'%';
}

// ncu prints durations in the unit it likes ("us", "ms", "ns", "usecond", ...).
std::optional<double> microseconds(const NcuMetric *metric)
{
    if (!metric || !metric->number())
        return std::nullopt;
    const double value = *metric->number();
    const QString unit = metric->unit.toLower();
    if (unit.startsWith(u'm'))
        return value * 1000.0;
    if (unit.startsWith(u'n'))
        return value / 1000.0;
    if (unit == QLatin1String("s") || unit == QLatin1String("second"))
        return value * 1e6;
    return value;
}

std::optional<double> fraction(const ProfiledKernel &kernel, const char *section, const char *metric)
{
    const NcuMetric *found = kernel.find(QString::fromLatin1(section), QString::fromLatin1(metric));
    if (!found || !found->number())
        return std::nullopt;
    return *found->number() / 100.0;
}

} // namespace

QString NvidiaProfileRules::profiler() const
{
    return QStringLiteral("ncu");
}

ProfiledFigures NvidiaProfileRules::readLaunch(const ProfiledKernel &launch) const
{
    ProfiledFigures figures;
    const NcuSection *sol = launch.section(QStringLiteral("GPU Speed Of Light Throughput"));
    figures.durationUs = sol ? microseconds(sol->metric(QStringLiteral("Duration"))) : std::nullopt;
    // DRAM's share of its peak, the bandwidth the kernel's lower bound is priced in. ncu's "Memory
    // Throughput" is the busiest memory unit's (L1, L2 or DRAM): a kernel whose narrow loads keep
    // L1 at 93% read as 93% of its bound and had every finding demoted, while DRAM ran at 60%
    // (maxpool2d, H100, 2026-12-06) and a vectorizing rewrite gained 1.47x. That figure only when
    // the profile has no DRAM one.
    figures.memoryFraction = fraction(launch, "Speed Of Light", "DRAM Throughput");
    if (!figures.memoryFraction)
        figures.memoryFraction = fraction(launch, "Speed Of Light", "Memory Throughput");
    figures.computeFraction = fraction(launch, "Speed Of Light", "Compute (SM) Throughput");
    figures.occupancy = occupancyFromProfile(launch);
    return figures;
}

// Registers from ptxas, shared memory from ptxas plus the launch's dynamic shared memory (the
// compile metadata's "shared"), warps from the metadata; nothing without registers or warps.
std::optional<Occupancy> NvidiaProfileRules::staticOccupancy(const CompileResult &compile, QString &note) const
{
    const int registers = compile.ptxas.registers;
    const int sharedBytes = compile.ptxas.sharedBytes + compile.metadata.value(QStringLiteral("shared")).toInt();
    const int numWarps = compile.metadata.value(QStringLiteral("num_warps")).toInt();
    if (registers <= 0 || numWarps <= 0)
        return std::nullopt;
    note = QStringLiteral("occupancy computed from ptxas registers, shared memory and num_warps");
    return computeOccupancy(registers, sharedBytes, numWarps, SmLimits::forTarget(compile.target));
}

// What each stall reason means, for the stall-mix finding's cause.
QString NvidiaProfileRules::stallMeaning(const QString &reason) const
{
    static const QMap<QString, QString> meanings{
        {QStringLiteral("long_sb"), QStringLiteral("waiting for global or local memory (long scoreboard)")},
        {QStringLiteral("short_sb"), QStringLiteral("waiting for shared memory or special math (short scoreboard)")},
        {QStringLiteral("barrier"), QStringLiteral("waiting at a CTA barrier")},
        {QStringLiteral("mio"), QStringLiteral("the shared-memory / special-function queue is full")},
        {QStringLiteral("lg"), QStringLiteral("the local/global memory queue is full (too many memory instructions)")},
        {QStringLiteral("math"), QStringLiteral("a math pipe is busy")},
        {QStringLiteral("wait"), QStringLiteral("a fixed-latency dependency")},
        {QStringLiteral("drain"), QStringLiteral("stores draining to memory at exit")},
        {QStringLiteral("membar"), QStringLiteral("a memory barrier")},
        {QStringLiteral("imc"), QStringLiteral("a constant-cache miss")},
        {QStringLiteral("branch_resolving"), QStringLiteral("resolving branch targets")},
        {QStringLiteral("no_inst"), QStringLiteral("an instruction-cache miss")},
        {QStringLiteral("selected"), QStringLiteral("issuing (not a stall)")},
        {QStringLiteral("not_selected"), QStringLiteral("ready but another warp issued (enough parallelism)")},
    };
    return meanings.value(reason, QStringLiteral("stall reason %1").arg(reason));
}

// L2.low-occupancy: under half the SM's warps resident; high when the kernel is latency-bound
// (the warps wait and too few are there to hide it). ncu's figure is trusted more than the
// computed one.
QVector<Finding> NvidiaProfileRules::occupancyFindings(const Occupancy &o, const OccupancyContext &context) const
{
    if (o.theoretical >= kLowOccupancy)
        return {};
    const bool waiting = context.bound == QLatin1String("latency");
    Finding finding = newFinding(QStringLiteral("L2.low-occupancy"), Level::L2, QStringLiteral("Occupancy limited by %1").arg(o.limiter),
                                 waiting ? Severity::High : Severity::Medium, o.source == QLatin1String("ncu") ? 0.9 : 0.75,
                                 SourceSpan{context.sourcePath, 0, 0, 0, 0},   // line 0: the whole kernel
                                 QStringLiteral("%1 is the binding limit: %2 CTAs (%3 warps) fit on an SM, %4 theoretical "
                                                "occupancy%5.").arg(o.limiter).arg(o.activeBlocks).arg(o.activeWarps)
                                     .arg(percent(o.theoretical))
                                     .arg(o.achieved ? QStringLiteral(", %1 achieved").arg(percent(*o.achieved)) : QString()),
                                 {QStringLiteral("shrink-tile"), QStringLiteral("retune-num-warps"), QStringLiteral("fewer-stages")});
    finding.evidence.append(Evidence::metric(QStringLiteral("theoretical_occupancy_pct"), o.theoretical * 100, QStringLiteral("%"), o.source));
    finding.evidence.append(Evidence::metric(QStringLiteral("blocks_by_registers"), o.blocksByRegisters, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("blocks_by_shared_memory"), o.blocksBySharedMemory, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("blocks_by_warps"), o.blocksByWarps, QString()));
    return {finding};
}

// A CUDA graph replays a captured sequence of launches with one submission.
QStringList NvidiaProfileRules::launchOverheadRecipes() const
{
    return {QStringLiteral("cuda-graphs")};
}

const NvidiaProfileRules &nvidiaProfileRules()
{
    static const NvidiaProfileRules rules;
    return rules;
}

} // namespace strata::nvidia

const strata::diagnosis::BackendProfileRules &strata::diagnosis::defaultProfileRules()
{
    return strata::nvidia::nvidiaProfileRules();
}
