// L1 rules on the captured launch (`diagnose TASK.py` adds the grid and the launches per forward
// to the spec): parallelism that the grid cannot give, a host loop of small launches, and torch
// work around the kernel that moves as much memory as the kernel itself.
#include "diagnosis/l1_triage/TriageRules.h"
#include "diagnosis/model/TargetFacts.h"

#include <QJsonArray>

namespace strata::diagnosis::rules {

using namespace pyast;

namespace {

// A launch this short of work pays its ~4 us of launch overhead for each call.
constexpr int kHostLoopLaunches = 8;
// Torch work moving half the kernel's bytes or more is a third of the forward's traffic or more.
constexpr double kGlueShare = 0.5;
constexpr int kGlueOpsShown = 3;

QString mebibytes(double bytes)
{
    return QString::number(bytes / (1024.0 * 1024.0), 'f', 1) + QStringLiteral(" MiB");
}

} // namespace

// Fewer programs than SMs leave SMs idle for the whole kernel, whatever each program does; a
// loop inside each program makes it worse, since the few programs run long.
QVector<Finding> underFilledGrid(const KernelView &kernel)
{
    const int sms = computeUnits(kernel.target());
    if (kernel.programs() <= 0 || sms == 0 || kernel.programs() >= sms)
        return {};
    const bool looped = !kernel.loops().isEmpty();
    const double idle = 1.0 - double(kernel.programs()) / sms;
    // A host loop of launches whose programs together would fill the GPU: the small grid is how
    // the loop splits the work, and L1.host-launch-loop carries it.
    const bool explainedByHostLoop = kernel.launchesPerForward() >= kHostLoopLaunches
                                     && kernel.programs() * kernel.launchesPerForward() >= sms;
    Finding finding = makeFinding(kernel, QStringLiteral("L1.under-filled-grid"),
                                  QStringLiteral("%1 programs for %2 compute units").arg(kernel.programs()).arg(sms),
                                  explainedByHostLoop ? Severity::Low : looped ? Severity::High : Severity::Medium,
                                  0.85, kernel.function(),
                                  QStringLiteral("The launch makes %1 programs, so %2 of the %3 compute units (%5) have nothing to do "
                                                 "for the whole kernel%4. Split the work further: smaller blocks on the "
                                                 "gridded axis, a split-K/split-row reduction, or more rows per launch.")
                                      .arg(kernel.programs()).arg(sms - kernel.programs()).arg(sms)
                                      .arg(looped ? QStringLiteral(" while each program loops over its share") : QString(),
                                           targetLimits(kernel.target()).part)
                                      + (explainedByHostLoop
                                             ? QStringLiteral(" The forward launches it %1 times, whose %2 programs together fill "
                                                              "the GPU: one launch over the host loop fixes this too.")
                                                   .arg(kernel.launchesPerForward())
                                                   .arg(kernel.programs() * kernel.launchesPerForward())
                                             : QString()),
                                  {QStringLiteral("more-programs"), QStringLiteral("split-reduction")});
    finding.span.endLine = finding.span.line;
    finding.span.endColumn = 0;
    finding.evidence.append(Evidence::metric(QStringLiteral("programs"), double(kernel.programs()), QString(), QStringLiteral("grid of the captured launch")));
    finding.evidence.append(Evidence::metric(QStringLiteral("compute_units"), sms, QString(), kernel.target()));
    finding.gapShare = GapShare{idle, true};  // the idle SMs' part of the machine
    return {finding};
}

// The part of a host loop's time one launch over all its programs would save, counting waves of
// programs: L launches of P programs take L x ceil(P / SMs) waves one after another, one launch
// of L x P programs takes ceil(L x P / SMs). Launch overhead would only add to it.
static std::optional<double> fusedLaunchShare(const KernelView &kernel)
{
    const int sms = computeUnits(kernel.target());
    const qint64 launches = kernel.launchesPerForward(), programs = kernel.programs();
    if (sms == 0 || programs <= 0 || launches <= 0)
        return std::nullopt;
    const auto waves = [sms](qint64 n) { return (n + sms - 1) / sms; };
    return 1.0 - double(waves(launches * programs)) / double(launches * waves(programs));
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
    if (const auto share = fusedLaunchShare(kernel))
        finding.gapShare = GapShare{*share, true};
    return {finding};
}

// The forward does torch work around the kernel (a transpose copy, a cast, an add before it, a
// cast after it): each op is its own launch that reads and writes whole tensors. When those bytes
// rival the kernel's own, fusing them into the kernel (or dropping a copy the kernel can read
// through strides) removes that traffic. Weighed by bytes, not by the number of ops.
QVector<Finding> torchGlue(const KernelView &kernel)
{
    const QJsonObject &glue = kernel.forwardGlue();
    const double glueBytes = glue.value(QStringLiteral("bytes")).toDouble();
    const double kernelBytes = double(kernel.tensorBytes());
    if (glueBytes <= 0 || kernelBytes <= 0 || glueBytes < kGlueShare * kernelBytes)
        return {};
    QStringList biggest;
    const QJsonArray ops = glue.value(QStringLiteral("ops")).toArray();
    for (qsizetype i = 0; i < ops.size() && i < kGlueOpsShown; ++i) {
        const QJsonObject op = ops[i].toObject();
        biggest << QStringLiteral("aten::%1 x%2 (%3)").arg(op.value(QStringLiteral("op")).toString())
                       .arg(op.value(QStringLiteral("count")).toInt()).arg(mebibytes(op.value(QStringLiteral("bytes")).toDouble()));
    }
    const double share = glueBytes / (glueBytes + kernelBytes);
    Finding finding = makeFinding(kernel, QStringLiteral("L1.torch-glue"),
                                  QStringLiteral("Torch work around the kernel moves %1 (the kernel's tensors: %2)")
                                      .arg(mebibytes(glueBytes), mebibytes(kernelBytes)),
                                  glueBytes >= kernelBytes ? Severity::High : Severity::Medium, 0.75, kernel.function(),
                                  QStringLiteral("Besides this kernel the forward runs torch ops that read and write %1, "
                                                 "about %2% of the forward's memory traffic: %3. Each is a separate launch "
                                                 "over whole tensors. Fuse them into the kernel (load the inputs and add or "
                                                 "cast in registers, store the final dtype), or pass strides instead of "
                                                 "making a contiguous copy.")
                                      .arg(mebibytes(glueBytes)).arg(qRound(share * 100)).arg(biggest.join(QStringLiteral(", "))),
                                  {QStringLiteral("fuse-glue-into-kernel"), QStringLiteral("strides-not-copies")});
    finding.span.endLine = finding.span.line;
    finding.span.endColumn = 0;
    finding.evidence.append(Evidence::metric(QStringLiteral("glue_bytes"), glueBytes, QStringLiteral("bytes"),
                                             QStringLiteral("aten ops of the forward outside Triton")));
    finding.evidence.append(Evidence::metric(QStringLiteral("kernel_tensor_bytes"), kernelBytes, QStringLiteral("bytes")));
    finding.gapShare = GapShare{share, true};
    return {finding};
}

} // namespace strata::diagnosis::rules
