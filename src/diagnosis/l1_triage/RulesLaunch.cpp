// L1 rules on the captured launch (`diagnose TASK.py` adds the grid and the launches per forward
// to the spec): parallelism that the grid cannot give, and a host loop of small launches.
#include "diagnosis/l1_triage/TriageRules.h"

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

// Streaming multiprocessors of the GPUs each target names (the H100/H200 SXM for sm_90).
int smCount(const QString &target)
{
    if (target.startsWith(QLatin1String("sm_100")))
        return 148;
    if (target.startsWith(QLatin1String("sm_90")))
        return 132;
    if (target.startsWith(QLatin1String("sm_80")))
        return 108;
    return 0;
}

// A launch this short of work pays its ~4 us of launch overhead for each call.
constexpr int kHostLoopLaunches = 8;

} // namespace

// Fewer programs than SMs leave SMs idle for the whole kernel, whatever each program does; a
// loop inside each program makes it worse, since the few programs run long.
QVector<Finding> underFilledGrid(const KernelView &kernel)
{
    const int sms = smCount(kernel.target());
    if (kernel.programs() <= 0 || sms == 0 || kernel.programs() >= sms)
        return {};
    const bool looped = !kernel.loops().isEmpty();
    const double idle = 1.0 - double(kernel.programs()) / sms;
    Finding finding = makeFinding(kernel, QStringLiteral("L1.under-filled-grid"),
                                  QStringLiteral("%1 programs for %2 SMs").arg(kernel.programs()).arg(sms),
                                  looped ? Severity::High : Severity::Medium, 0.85, kernel.function(),
                                  QStringLiteral("The launch makes %1 programs, so %2 of the GPU's %3 SMs have nothing to do "
                                                 "for the whole kernel%4. Split the work further: smaller blocks on the "
                                                 "gridded axis, a split-K/split-row reduction, or more rows per launch.")
                                      .arg(kernel.programs()).arg(sms - kernel.programs()).arg(sms)
                                      .arg(looped ? QStringLiteral(" while each program loops over its share") : QString()),
                                  {QStringLiteral("more-programs"), QStringLiteral("split-reduction")});
    finding.span.endLine = finding.span.line;
    finding.span.endColumn = 0;
    finding.evidence.append(Evidence::metric(QStringLiteral("programs"), double(kernel.programs()), QString(), QStringLiteral("grid of the captured launch")));
    finding.evidence.append(Evidence::metric(QStringLiteral("sm_count"), sms, QString(), kernel.target()));
    finding.gapShare = GapShare{idle, true};  // the idle SMs' part of the machine
    return {finding};
}

// Many launches of one kernel per forward: a host loop over rows or chunks, each launch paying
// its overhead and its own ramp-up and tail.
QVector<Finding> hostLaunchLoop(const KernelView &kernel)
{
    if (kernel.launchesPerForward() < kHostLoopLaunches)
        return {};
    Finding finding = makeFinding(kernel, QStringLiteral("L1.host-launch-loop"),
                                  QStringLiteral("Launched %1 times per forward").arg(kernel.launchesPerForward()),
                                  Severity::High, 0.85, kernel.function(),
                                  QStringLiteral("The forward launches this kernel %1 times with the same specialization: a "
                                                 "host loop over rows or chunks. Each launch costs a few microseconds and "
                                                 "its own ramp-up and tail; one launch over all of them (a grid axis for the "
                                                 "loop) removes that.").arg(kernel.launchesPerForward()),
                                  {QStringLiteral("fuse-launches"), QStringLiteral("grid-over-host-loop")});
    finding.span.endLine = finding.span.line;
    finding.span.endColumn = 0;
    finding.evidence.append(Evidence::metric(QStringLiteral("launches_per_forward"), kernel.launchesPerForward(), QString()));
    if (kernel.programs() > 0)
        finding.evidence.append(Evidence::metric(QStringLiteral("programs"), double(kernel.programs()), QString()));
    return {finding};
}

} // namespace strata::diagnosis::rules
