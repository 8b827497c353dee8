#include "diagnosis/l2_profile/MeasurementAnalysis.h"

#include <QFileInfo>

#include <algorithm>

namespace strata::diagnosis {

namespace {

constexpr double kBusyFraction = 0.6;      // a unit at >= 60% of its ceiling bounds the kernel
constexpr double kHotLineShare = 0.10;     // lines with >= 10% of the samples get a finding
constexpr int kMaxHotLines = 3;

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 0) + u'%';
}

const ProfiledKernel *profiledKernel(const Measurements &m, const QString &kernel)
{
    if (!m.profile || !m.profile->ok())
        return nullptr;
    for (const ProfiledKernel &candidate : m.profile->profiled) {
        if (candidate.kernel == kernel)
            return &candidate;
    }
    return m.profile->profiled.size() == 1 ? &m.profile->profiled.first() : nullptr;
}

Finding kernelFinding(const L2Context &context, const QString &rule, const QString &title, Severity severity,
                      double confidence, const QString &cause, const QStringList &recipes = {})
{
    // Line 0: the whole kernel.
    return newFinding(rule, Level::L2, title, severity, confidence, SourceSpan{context.sourcePath, 0, 0, 0, 0}, cause, recipes);
}

// The rules of the backend's profiler; null when the backend has none (its profileFindings()
// read its measurements).
const BackendProfileRules *profileRulesOf(const L2Context &context)
{
    return context.backend ? context.backend->profileRules() : &defaultProfileRules();
}

QString stallMeaning(const BackendProfileRules *rules, const QString &reason)
{
    return rules ? rules->stallMeaning(reason) : QStringLiteral("stall reason %1").arg(reason);
}

// The timing's roofline against the measured ceilings first; the profiler's own figures where
// the timing has none.
void readTiming(const Measurements &m, const ProfiledFigures &profiled, L2Analysis &a)
{
    a.durationUs = profiled.durationUs;
    const CandidateTiming *triton = m.timing ? m.timing->candidate(QStringLiteral("triton")) : nullptr;
    if (!a.durationUs && triton && triton->ok()) {
        a.durationUs = *triton->medianMs * 1000.0;
        a.notes << QStringLiteral("duration from the timing median (the whole forward)");
    }
    const RooflineEstimate *roofline = m.timing && m.timing->roofline ? m.timing->roofline->estimate(QStringLiteral("triton")) : nullptr;
    const Ceilings *ceilings = m.bestCeilings();
    if (roofline && roofline->achievedGbs && ceilings && ceilings->copyBandwidthGbs && *ceilings->copyBandwidthGbs > 0)
        a.memoryFraction = *roofline->achievedGbs / *ceilings->copyBandwidthGbs;
    if (roofline && roofline->achievedTflops && ceilings && ceilings->matmulTflops.contains(roofline->precisionCeiling))
        a.computeFraction = *roofline->achievedTflops / ceilings->matmulTflops.value(roofline->precisionCeiling);
    if (!a.memoryFraction)
        a.memoryFraction = profiled.memoryFraction;
    if (!a.computeFraction)
        a.computeFraction = profiled.computeFraction;
    if (roofline && roofline->solPct)
        a.gapFraction = std::clamp(1.0 - *roofline->solPct / 100.0, 0.0, 1.0);
    else if (a.memoryFraction || a.computeFraction)
        a.gapFraction = std::clamp(1.0 - std::max(a.memoryFraction.value_or(0), a.computeFraction.value_or(0)), 0.0, 1.0);
}

void classifyBound(L2Analysis &a)
{
    if (a.durationUs && *a.durationUs < kLaunchBoundUs) {
        a.bound = QStringLiteral("launch");
        a.launchShare = kLaunchOverheadUs / (kLaunchOverheadUs + *a.durationUs);
        return;
    }
    if (a.durationUs)
        a.launchShare = kLaunchOverheadUs / (kLaunchOverheadUs + *a.durationUs);
    const double memory = a.memoryFraction.value_or(-1), compute = a.computeFraction.value_or(-1);
    if (memory < 0 && compute < 0)
        return;
    if (memory >= kBusyFraction && memory >= compute)
        a.bound = QStringLiteral("memory");
    else if (compute >= kBusyFraction)
        a.bound = QStringLiteral("compute");
    else
        a.bound = QStringLiteral("latency");
}

Severity gapSeverity(double gap)
{
    return gap >= 0.5 ? Severity::High : gap >= 0.2 ? Severity::Medium : gap >= 0.1 ? Severity::Low : Severity::Info;
}

void boundFinding(const L2Context &context, const BackendProfileRules *rules, L2Analysis &a)
{
    if (a.bound.isEmpty())
        return;
    const double gap = a.gapFraction.value_or(0);
    Finding finding;
    if (a.bound == QLatin1String("launch")) {
        finding = kernelFinding(context, QStringLiteral("L2.launch-bound"), QStringLiteral("Launch-bound: the kernel is shorter than its launch"),
                                Severity::High, 0.8,
                                QStringLiteral("The kernel runs %1 us, about as long as a launch costs (~%2 us): %3 of the time "
                                               "is launch overhead, which no change inside the kernel removes.")
                                    .arg(*a.durationUs, 0, 'f', 1).arg(kLaunchOverheadUs).arg(percent(a.launchShare)),
                                QStringList{QStringLiteral("fuse-kernels")}
                                    + (rules ? rules->launchOverheadRecipes() : QStringList{})
                                    + QStringList{QStringLiteral("batch-work")});
        finding.gapShare = GapShare{a.launchShare, false};
    } else if (a.bound == QLatin1String("latency")) {
        finding = kernelFinding(context, QStringLiteral("L2.latency-bound"), QStringLiteral("Latency-bound: neither memory nor compute is busy"),
                                gapSeverity(gap), 0.7,
                                QStringLiteral("Memory runs at %1 and compute at %2 of their ceilings: the warps mostly wait "
                                               "(too few in flight, or dependent accesses); the stall mix says on what.")
                                    .arg(percent(a.memoryFraction.value_or(0)), percent(a.computeFraction.value_or(0))),
                                {QStringLiteral("more-parallelism"), QStringLiteral("tl-range-num-stages")});
    } else {
        const bool memory = a.bound == QLatin1String("memory");
        const double achieved = memory ? *a.memoryFraction : *a.computeFraction;
        finding = kernelFinding(context, memory ? QStringLiteral("L2.memory-bound") : QStringLiteral("L2.compute-bound"),
                                memory ? QStringLiteral("Memory-bound") : QStringLiteral("Compute-bound"), gapSeverity(gap), 0.8,
                                QStringLiteral("%1 runs at %2 of its measured ceiling; %3")
                                    .arg(memory ? QStringLiteral("Memory bandwidth") : QStringLiteral("The FLOP rate"), percent(achieved),
                                         gap < 0.1 ? QStringLiteral("there is little left to gain from any compiler fact.")
                                                   : QStringLiteral("the findings on the costliest lines explain the rest.")));
    }
    if (a.durationUs)
        finding.evidence.append(Evidence::metric(QStringLiteral("duration_us"), *a.durationUs, QStringLiteral("us")));
    if (a.memoryFraction)
        finding.evidence.append(Evidence::metric(QStringLiteral("memory_throughput_pct"), *a.memoryFraction * 100, QStringLiteral("%"),
                                                 QStringLiteral("of the copy-bandwidth ceiling")));
    if (a.computeFraction)
        finding.evidence.append(Evidence::metric(QStringLiteral("compute_throughput_pct"), *a.computeFraction * 100, QStringLiteral("%"),
                                                 QStringLiteral("of the compute ceiling")));
    if (a.gapFraction)
        finding.evidence.append(Evidence::metric(QStringLiteral("gap_to_roofline_pct"), *a.gapFraction * 100, QStringLiteral("%")));
    a.findings.append(finding);
}

void occupancyFindings(const L2Context &context, const BackendProfileRules *rules, L2Analysis &a)
{
    if (rules && a.occupancy)
        a.findings += rules->occupancyFindings(*a.occupancy, {context.sourcePath, a.bound});
}

// Adds `samples` of `stalls` to the cost of kernel line `line` (creating it when new).
void addLineSamples(QVector<LineCost> &lines, int line, const QString &source, double samples, const StallCounts &stalls)
{
    auto it = std::find_if(lines.begin(), lines.end(), [&](const LineCost &cost) { return cost.line == line; });
    if (it == lines.end()) {
        lines.append({line, source, samples, 0, 0, stalls});
        return;
    }
    it->samples += samples;
    if (it->source.isEmpty())
        it->source = source;
    for (const auto &[reason, count] : stalls) {
        auto same = std::find_if(it->stalls.begin(), it->stalls.end(), [&](const auto &entry) { return entry.first == reason; });
        if (same == it->stalls.end())
            it->stalls.append({reason, count});
        else
            same->second += count;
    }
    std::stable_sort(it->stalls.begin(), it->stalls.end(), [](const auto &x, const auto &y) { return x.second > y.second; });
}

StallCounts scaled(const StallCounts &stalls, double factor)
{
    StallCounts out;
    for (const auto &[reason, count] : stalls)
        out.append({reason, count * factor});
    return out;
}

void readStalls(const Measurements &m, const L2Context &context, L2Analysis &a)
{
    const SourceView *view = m.profile && m.profile->ok() ? m.profile->sourceFor(context.kernel) : nullptr;
    if (!view) {
        if (m.profile)
            a.notes << QStringLiteral("the profile has no source view of %1: no per-line cost").arg(context.kernel);
        return;
    }
    a.stallMix = view->stallTotals();
    const QString ownFile = QFileInfo(context.sourcePath).fileName();
    double lineSamples = 0, unplaced = 0;
    int folded = 0;
    for (const SourceLineCost &cost : view->lines) {
        if (cost.line <= 0 || (cost.function != context.kernel && QFileInfo(cost.file).fileName() != ownFile))
            continue;
        lineSamples += cost.stallSamples;
        if (cost.file.isEmpty() || QFileInfo(cost.file).fileName() == ownFile) {
            addLineSamples(a.lines, cost.line, cost.source, cost.stallSamples, cost.stalls);
            continue;
        }
        // Library code inlined into the kernel: its line numbers belong to another file, so its
        // samples go to the kernel lines that call it (split evenly when several do).
        const QVector<int> callers = context.inlinedCallers.value(QFileInfo(cost.file).fileName() + u':' + QString::number(cost.line));
        if (callers.isEmpty()) {
            unplaced += cost.stallSamples;
            continue;
        }
        for (const int caller : callers)
            addLineSamples(a.lines, caller, QString(), cost.stallSamples / callers.size(), scaled(cost.stalls, 1.0 / callers.size()));
        ++folded;
    }
    if (folded > 0)
        a.notes << QStringLiteral("%1 inlined library lines folded onto the kernel lines that call them").arg(folded);
    if (unplaced > 0)
        a.notes << QStringLiteral("%1 stall samples on inlined library lines with no known call site are left out of the "
                                  "per-line costs").arg(unplaced);
    a.totalSamples = view->totalStallSamples > 0 ? view->totalStallSamples : lineSamples;
    for (LineCost &line : a.lines) {
        line.share = a.totalSamples > 0 ? line.samples / a.totalSamples : 0;
        line.timeShare = line.share * (1.0 - a.launchShare);
    }
    std::stable_sort(a.lines.begin(), a.lines.end(), [](const LineCost &x, const LineCost &y) { return x.samples > y.samples; });
}

void stallFindings(const L2Context &context, const BackendProfileRules *rules, L2Analysis &a)
{
    double total = 0;
    for (const auto &[reason, samples] : a.stallMix)
        total += samples;
    if (total <= 0)
        return;
    const auto &[top, topSamples] = a.stallMix.first();
    Finding mix = kernelFinding(context, QStringLiteral("L2.stall-mix"), QStringLiteral("Warps mostly stall on %1").arg(top),
                                Severity::Info, 0.9,
                                QStringLiteral("%1 of the stall samples are %2: %3.").arg(percent(topSamples / total), top, stallMeaning(rules, top)));
    for (int i = 0; i < std::min<int>(4, a.stallMix.size()); ++i)
        mix.evidence.append(Evidence::metric(QStringLiteral("stall_") + a.stallMix[i].first, a.stallMix[i].second / total * 100,
                                             QStringLiteral("%"), stallMeaning(rules, a.stallMix[i].first)));
    a.findings.append(mix);
    for (int i = 0; i < std::min<int>(kMaxHotLines, a.lines.size()); ++i) {
        const LineCost &line = a.lines[i];
        if (line.share < kHotLineShare)
            break;
        const QString reason = line.stalls.isEmpty() ? QString() : line.stalls.first().first;
        Finding hot = kernelFinding(context, QStringLiteral("L2.hot-line"), QStringLiteral("%1 of the stall samples").arg(percent(line.share)),
                                    hotLineSeverity(line.share), 0.9,
                                    QStringLiteral("This line holds %1 of the kernel's stall samples%2.").arg(percent(line.share))
                                        .arg(reason.isEmpty() ? QString() : QStringLiteral(", mostly %1 (%2)").arg(reason, stallMeaning(rules, reason))));
        hot.span = SourceSpan{context.sourcePath, line.line, 0, line.line, 0};
        hot.gapShare = GapShare{line.timeShare, false};
        hot.evidence.append(Evidence::metric(QStringLiteral("stall_samples"), line.samples, QString()));
        hot.evidence.append(Evidence::metric(QStringLiteral("line_stall_share_pct"), line.share * 100, QStringLiteral("%")));
        for (int s = 0; s < std::min<int>(3, line.stalls.size()); ++s)
            hot.evidence.append(Evidence::metric(QStringLiteral("stall_") + line.stalls[s].first, line.stalls[s].second, QString()));
        a.findings.append(hot);
    }
}

// Measured by the profiler, else computed by the backend from the compile's resources.
void readOccupancy(const ProfiledFigures &profiled, const L2Context &context, const BackendProfileRules *rules, L2Analysis &a)
{
    a.occupancy = profiled.occupancy;
    if (a.occupancy || !rules || !context.compile)
        return;
    QString note;
    a.occupancy = rules->staticOccupancy(*context.compile, note);
    if (a.occupancy && !note.isEmpty())
        a.notes << note;
}

// A backend reads what the core's model does not cover itself (Ascend: msprof's figures).
void backendFindings(const Measurements &m, const L2Context &context, L2Analysis &a)
{
    BackendProfileInput input;
    input.profile = m.profile && m.profile->ok() ? &*m.profile : nullptr;
    input.timing = m.timing ? &*m.timing : nullptr;
    input.kernel = context.kernel;
    input.sourcePath = context.sourcePath;
    input.target = context.target;
    const QVector<Finding> findings = context.backend->profileFindings(input);
    a.findings += findings;
    a.notes << QStringLiteral("the %1 backend read its own measurements: %2 findings").arg(context.backend->displayName()).arg(findings.size());
}

} // namespace

const LineCost *L2Analysis::line(int sourceLine) const
{
    for (const LineCost &cost : lines) {
        if (cost.line == sourceLine)
            return &cost;
    }
    return nullptr;
}

L2Analysis analyzeMeasurements(const Measurements &given, const L2Context &context)
{
    L2Analysis analysis;
    const BackendProfileRules *rules = profileRulesOf(context);
    Measurements measurements = given;
    if (given.profile && (!rules || given.profile->profiler != rules->profiler())) {
        measurements.profile.reset();   // not the figures the backend's rules read: its plugin's to read
        if (!context.backend)
            analysis.notes << QStringLiteral("a %1 profile is left unread: no backend plugin to read it").arg(given.profile->profiler);
    }
    const ProfiledKernel *launch = profiledKernel(measurements, context.kernel);
    if (measurements.profile && !measurements.profile->ok())
        analysis.notes << QStringLiteral("the profile is not usable (%1 status %2)").arg(rules->profiler(), measurements.profile->status);
    else if (measurements.profile && !launch)
        analysis.notes << QStringLiteral("%1 profiled no kernel named %2").arg(rules->profiler(), context.kernel);
    const ProfiledFigures profiled = launch ? rules->readLaunch(*launch) : ProfiledFigures{};
    readTiming(measurements, profiled, analysis);
    classifyBound(analysis);
    readOccupancy(profiled, context, rules, analysis);
    readStalls(measurements, context, analysis);
    boundFinding(context, rules, analysis);
    occupancyFindings(context, rules, analysis);
    stallFindings(context, rules, analysis);
    if (context.backend)
        backendFindings(given, context, analysis);
    return analysis;
}

Severity hotLineSeverity(double share)
{
    return share >= 0.5 ? Severity::High : share >= 0.25 ? Severity::Medium : Severity::Low;
}

} // namespace strata::diagnosis
