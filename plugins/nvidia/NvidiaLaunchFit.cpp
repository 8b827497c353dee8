// The NVIDIA backend's launch rule (NvidiaIrRules::launchFindings): L3.wave-tail, the captured grid
// against the SM count of the target and how many CTAs of this compile an SM holds (registers,
// shared memory and warps from ptxas and the metadata).
#include "NvidiaIrRules.h"
#include "NvidiaOccupancy.h"

#include "diagnosis/l3_ir/LaunchFit.h"
#include "tasks/TaskRun.h"

#include "NvidiaTargets.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace strata::nvidia {

using namespace diagnosis;

namespace {

// Below this a tail costs a fifth of the kernel or more; above four waves it cannot.
constexpr double kTailEfficiency = 0.8;

const SourceLineFacts *loopDotLine(const KernelIrFacts &facts)
{
    const auto found = std::find_if(facts.lines.cbegin(), facts.lines.cend(), [](const SourceLineFacts &line) {
        return line.inLoop && line.dotKind != DotKind::None;
    });
    return found == facts.lines.cend() ? nullptr : &*found;
}

} // namespace

// Programs of a dot loop are long and alike, so an SM's time is the number of programs it runs
// (co-resident CTAs share its tensor cores, so two at once take about as long as two in turn).
// The SMs that got one program fewer wait for the rest: that idle time is the tail's cost.
QVector<Finding> NvidiaIrRules::launchFindings(const KernelIrFacts &facts, const QJsonObject &spec) const
{
    const qint64 programs = launchPrograms(spec);
    const int sms = nvidiaTargetLimits(facts.target).computeUnits;
    const SourceLineFacts *dot = loopDotLine(facts);
    if (!dot || sms == 0 || programs < sms)
        return {};
    const double efficiency = waveEfficiency(programs, sms);
    if (efficiency >= kTailEfficiency)
        return {};
    const qint64 rounds = qint64(std::ceil(double(programs) / sms));
    const qint64 tail = programs - (rounds - 1) * sms;
    const double idle = 1.0 - efficiency;
    Finding finding = newFinding(QStringLiteral("L3.wave-tail"), Level::L3,
                                 QStringLiteral("Wave tail: %1 programs on %2 SMs, last round %3").arg(programs).arg(sms).arg(tail),
                                 idle >= 0.3 ? Severity::High : Severity::Medium, 0.75,
                                 SourceSpan{facts.sourcePath, dot->line, 0, dot->line, 0},
                                 QStringLiteral("Each program runs a whole dot loop, and %1 programs on %2 SMs take %3 rounds: "
                                                "in the last only %4 SMs work while %5 wait, so about %6% of the SM time is idle. "
                                                "Pick tiles that make a grid just under a multiple of the SM count (smaller "
                                                "tiles, or split-K), or a persistent grid of SM-count programs with a "
                                                "balanced tile order.")
                                     .arg(programs).arg(sms).arg(rounds).arg(tail).arg(sms - tail)
                                     .arg(qRound(idle * 100)),
                                 {QStringLiteral("retile-for-waves"), QStringLiteral("split-k"), QStringLiteral("persistent-grid")});
    finding.evidence.append(Evidence::metric(QStringLiteral("programs"), double(programs), QString(), QStringLiteral("grid of the captured launch")));
    finding.evidence.append(Evidence::metric(QStringLiteral("sm_count"), sms, QString(), facts.target));
    finding.evidence.append(Evidence::metric(QStringLiteral("wave_efficiency_pct"), efficiency * 100, QStringLiteral("%")));
    if (facts.registers > 0 && facts.numWarps > 0) {
        const Occupancy occupancy = computeOccupancy(facts.registers, facts.staticSharedBytes + facts.dynamicSharedBytes,
                                                     facts.numWarps, SmLimits::forTarget(facts.target));
        finding.evidence.append(Evidence::metric(QStringLiteral("blocks_per_sm"), occupancy.activeBlocks, QString(),
                                                 QStringLiteral("co-resident CTAs share the SM's tensor cores")));
    }
    finding.gapShare = GapShare{idle, true};
    return {finding};
}

} // namespace strata::nvidia
