// Readable summaries of time and profile results: a table of candidates against the roofline,
// and per profiled kernel its speed of light, occupancy, stalls and costliest source lines.
#include "cli/TaskCommon.h"

#include "tasks/ProfileResult.h"
#include "tasks/Timing.h"

namespace strata::cli {

namespace {

QString number(const std::optional<double> &value, int decimals)
{
    return value ? QString::number(*value, 'f', decimals) : QStringLiteral("-");
}

QString milliseconds(const std::optional<double> &value)
{
    return value ? QString::number(*value, 'g', 4) : QStringLiteral("-");
}

void printDevice(const Timing &t)
{
    QTextStream &o = out();
    o << "Device: " << t.device.name << " (" << t.device.capability << ", " << t.device.multiprocessors << " SMs)";
    if (!t.clocksBefore.isEmpty() && t.clocksBefore.first().smMhz) {
        const ClockReading &before = t.clocksBefore.first();
        o << ", SM clock " << *before.smMhz << " MHz";
        if (!t.clocksAfter.isEmpty() && t.clocksAfter.first().smMhz)
            o << " -> " << *t.clocksAfter.first().smMhz << " MHz";
    }
    o << "\nVersions: torch " << t.versions.value(QStringLiteral("torch")) << ", triton "
      << t.versions.value(QStringLiteral("triton")) << ", cuda " << t.versions.value(QStringLiteral("cuda")) << "\n";
    o << "Stopped: " << t.stopReason << " after " << QString::number(t.timingSeconds, 'f', 2) << " s";
    if (t.l2FlushBytes > 0)
        o << "; L2 flushed with " << humanSize(t.l2FlushBytes) << " before each repetition";
    o << "\n";
}

// "1.23x": how many times faster the Triton candidate is than `c` (>1: Triton wins).
QString tritonSpeedup(const Timing &t, const CandidateTiming &c)
{
    const CandidateTiming *triton = t.candidate(QStringLiteral("triton"));
    if (!triton || !triton->ok() || !c.ok() || *triton->medianMs <= 0)
        return QStringLiteral("-");
    return QString::number(*c.medianMs / *triton->medianMs, 'f', 2) + QLatin1Char('x');
}

void printCandidateRow(const Timing &t, const CandidateTiming &c)
{
    QTextStream &o = out();
    o << c.name.leftJustified(22);
    if (!c.ok()) {
        o << "failed: " << (c.error.isEmpty() ? QStringLiteral("no time") : c.error) << "\n";
        return;
    }
    const RooflineEstimate *e = t.roofline ? t.roofline->estimate(c.name) : nullptr;
    o << milliseconds(c.medianMs).rightJustified(10) << milliseconds(c.iqrMs).rightJustified(10)
      << milliseconds(c.minMs).rightJustified(10) << QString::number(c.n).rightJustified(6)
      << tritonSpeedup(t, c).rightJustified(10)
      << (e ? number(e->solPct, 1) : QStringLiteral("-")).rightJustified(7) << "  "
      << (e && e->error.isEmpty() ? e->bound : QStringLiteral("-")) << "\n";
    if (e && !e->implausible.isEmpty())
        o << "    implausible: " << e->implausible << "\n";
    for (const QString &note : c.notes)
        o << "    note: " << note << "\n";
}

void printRoofline(const Roofline &r)
{
    QTextStream &o = out();
    if (!r.error.isEmpty()) {
        o << "Roofline: not available: " << r.error << "\n";
        return;
    }
    o << "Roofline: " << number(r.flops ? std::optional<double>(*r.flops / 1e6) : std::nullopt, 1) << " MFLOP, "
      << number(r.bytes ? std::optional<double>(*r.bytes / 1e6) : std::nullopt, 1) << " MB";
    if (!r.bytesSource.isEmpty())
        o << " (" << r.bytesSource << ")";
    o << " against copy " << number(r.ceilings.copyBandwidthGbs, 0) << " GB/s";
    for (auto it = r.ceilings.matmulTflops.cbegin(); it != r.ceilings.matmulTflops.cend(); ++it)
        o << ", " << it.key() << " " << QString::number(it.value(), 'f', 1);
    o << " TFLOP/s\n";
}

QString metricText(const NcuMetric *metric)
{
    if (!metric)
        return QStringLiteral("-");
    const QString value = metric->number() ? QString::number(*metric->number(), 'g', 4)
                                           : metric->value.toVariant().toString();
    return metric->unit.isEmpty() ? value : value + QLatin1Char(' ') + metric->unit;
}

void printStallsAndLines(const SourceView &view)
{
    QTextStream &o = out();
    const StallCounts stalls = view.stallTotals();
    if (!stalls.isEmpty()) {
        o << "  Top stalls:";
        for (int i = 0; i < stalls.size() && i < 4; ++i) {
            const double share = view.totalStallSamples > 0 ? 100.0 * stalls[i].second / view.totalStallSamples : 0;
            o << (i ? ", " : " ") << stalls[i].first << " " << QString::number(share, 'f', 1) << " %";
        }
        o << "  (" << QString::number(view.totalStallSamples, 'f', 0) << " samples)\n";
    }
    if (!view.lines.isEmpty())
        o << "  Top source lines (" << view.costColumn << "):\n";
    for (int i = 0; i < view.lines.size() && i < 5; ++i) {
        const SourceLineCost &line = view.lines[i];
        o << "    " << shortLocation(line.file, line.line).leftJustified(20)
          << QString::number(line.stallSamples, 'f', 0).rightJustified(8) << "  " << line.source.trimmed() << "\n";
    }
}

void printProfiledKernel(const ProfileResult &p, const ProfiledKernel &k)
{
    QTextStream &o = out();
    o << "Kernel " << k.kernel << " (ncu id " << k.id << "), grid " << k.grid << ", block " << k.block << "\n";
    o << "  Speed of light: memory " << metricText(k.find(QStringLiteral("Speed Of Light"), QStringLiteral("Memory Throughput")))
      << ", compute " << metricText(k.find(QStringLiteral("Speed Of Light"), QStringLiteral("Compute (SM) Throughput")))
      << ", duration " << metricText(k.find(QStringLiteral("Speed Of Light"), QStringLiteral("Duration"))) << "\n";
    o << "  Occupancy: achieved " << metricText(k.find(QStringLiteral("Occupancy"), QStringLiteral("Achieved Occupancy")))
      << ", theoretical " << metricText(k.find(QStringLiteral("Occupancy"), QStringLiteral("Theoretical Occupancy"))) << "\n";
    if (const SourceView *view = p.sourceFor(k.kernel))
        printStallsAndLines(*view);
    for (const NcuRule &rule : k.rules) {
        if (rule.type != QLatin1String("OPT"))
            continue;
        o << "  [" << rule.section << "/" << rule.rule << "]";
        if (rule.estimatedSpeedup)
            o << " (est. speedup " << QString::number(*rule.estimatedSpeedup, 'f', 1) << " %)";
        o << " " << rule.description.section(QLatin1String(". "), 0, 0) << ".\n";
    }
}

} // namespace

int printTiming(const Timing &t)
{
    QTextStream &o = out();
    printDevice(t);
    o << QStringLiteral("candidate").leftJustified(22) << QStringLiteral("median ms").rightJustified(10)
      << QStringLiteral("IQR ms").rightJustified(10) << QStringLiteral("min ms").rightJustified(10)
      << QStringLiteral("n").rightJustified(6) << QStringLiteral("triton x").rightJustified(10)
      << QStringLiteral("SOL %").rightJustified(7) << "  bound\n";
    for (const CandidateTiming &c : t.candidates)
        printCandidateRow(t, c);
    if (!t.comparisons.isEmpty()) {
        o << "Comparisons:";
        for (auto it = t.comparisons.cbegin(); it != t.comparisons.cend(); ++it)
            o << " " << it.key() << " " << QString::number(it.value(), 'g', 4) << (std::next(it) != t.comparisons.cend() ? "," : "");
        o << "\n";
    }
    if (t.roofline)
        printRoofline(*t.roofline);
    const CandidateTiming *triton = t.candidate(QStringLiteral("triton"));
    return (triton && !triton->ok()) ? ExitTaskFailed : ExitOk;
}

int printProfile(const ProfileResult &p)
{
    QTextStream &o = out();
    o << "ncu: " << p.status;
    if (!p.ncuVersion.isEmpty())
        o << " (" << p.ncuVersion << ")";
    o << "\n";
    if (!p.ok()) {
        o << "  " << p.message << "\n";
        return ExitAgentFailed;
    }
    o << "Report: " << p.report << "\n";
    if (!p.detailsError.isEmpty())
        o << "Details page unreadable: " << p.detailsError << "\n";
    for (const ProfiledKernel &k : p.profiled)
        printProfiledKernel(p, k);
    for (const SourceView &view : p.source) {
        if (!view.error.isEmpty())
            o << "Source view " << view.view << " unavailable: " << view.error << "\n";
    }
    return ExitOk;
}

} // namespace strata::cli
