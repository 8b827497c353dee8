#include "AscendProfile.h"

#include "AscendParts.h"

#include <QFileInfo>

#include <algorithm>
#include <cmath>

namespace strata::ascend {

using diagnosis::Evidence;
using diagnosis::Finding;
using diagnosis::GapShare;
using diagnosis::Level;
using diagnosis::Severity;
using diagnosis::SourceSpan;

namespace {

const QString kPipes = QStringLiteral("PipeUtilization");
const QString kBasic = QStringLiteral("OpBasicInfo");
constexpr int kMaxHotLines = 3;
// msprof names a kernel by the last 49 characters of its name (triton-ascend's pack_metadata).
constexpr int kMsprofNameLength = 49;

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 0) + u'%';
}

std::optional<double> metric(const ProfiledKernel &kernel, const QString &section, const QString &name)
{
    const NcuSection *found = kernel.section(section);
    const NcuMetric *value = found ? found->metric(name) : nullptr;
    return value ? value->number() : std::nullopt;
}

// The profiled launch of `kernel`: by name (msprof's truncated name, a mix kernel's suffix after
// it), else the only one.
const ProfiledKernel *launchOf(const ProfileResult &profile, const QString &kernel)
{
    const QString tail = kernel.right(kMsprofNameLength);
    for (const ProfiledKernel &candidate : profile.profiled)
        if (!tail.isEmpty() && candidate.kernel.startsWith(tail))
            return &candidate;
    return profile.profiled.size() == 1 ? &profile.profiled.first() : nullptr;
}

class ProfileRules {
public:
    explicit ProfileRules(const BackendProfileInput &input) : m_input(input)
    {
        if (input.profile && input.profile->profiler == QLatin1String("msprof"))
            m_launch = launchOf(*input.profile, input.kernel);
    }

    QVector<Finding> run() const
    {
        QVector<Finding> findings;
        if (m_launch) {
            const bool scalar = add(findings, scalarFallback());
            const bool mte2 = add(findings, mte2Bound());
            if (!scalar && !mte2)
                add(findings, vectorIdle());
            add(findings, blockDim());
        }
        findings += hotLines();
        add(findings, lowerBound());
        return findings;
    }

private:
    static bool add(QVector<Finding> &findings, std::optional<Finding> finding)
    {
        if (finding)
            findings.append(*finding);
        return finding.has_value();
    }

    Finding kernelFinding(const char *rule, const QString &title, Severity severity, double confidence, const QString &cause) const
    {
        return diagnosis::newFinding(QString::fromLatin1(rule), Level::L2, title, severity, confidence,
                                     SourceSpan{m_input.sourcePath, 0, 0, 0, 0}, cause);
    }

    std::optional<double> pipe(const char *name) const { return metric(*m_launch, kPipes, QString::fromLatin1(name)); }

    void addPipeEvidence(Finding &finding, const char *name, const QString &note) const
    {
        if (const std::optional<double> ratio = pipe(name))
            finding.evidence.append(Evidence::metric(QString::fromLatin1(name), *ratio * 100, QStringLiteral("%"), note));
    }

    // The vector cores' time on the scalar unit: ops the vector unit lacks for their types run
    // element by element there (hivm-lower-to-loops: i64 arithmetic, integer compares, >> and &).
    std::optional<Finding> scalarFallback() const
    {
        const std::optional<double> ratio = pipe("aiv_scalar_ratio");
        if (!ratio || *ratio < kScalarRatio)
            return std::nullopt;
        Finding finding = kernelFinding(
            kScalarFallbackMeasuredRule, QStringLiteral("Scalar fallback: %1 of the vector cores' time on the scalar unit").arg(percent(*ratio)),
            *ratio >= kHighScalarRatio ? Severity::High : Severity::Medium, 0.8,
            QStringLiteral("msprof measured the vector cores busy on the scalar unit for %1 of their time. Ops the vector "
                           "unit has no instruction for at these types (int64 add, int32/int64 compares in masks and "
                           "tl.where, shifts and bitwise ops) are lowered to element-by-element scalar loops "
                           "(triton-ascend's profiling guide: high aiv_scalar_ratio = scalar fallback). The L3 "
                           "scalar-fallback-risk findings name the lines that may cause it.").arg(percent(*ratio)));
        finding.gapShare = GapShare{*ratio, true};
        addPipeEvidence(finding, "aiv_scalar_ratio", QStringLiteral("mean over the profiled vector cores"));
        addPipeEvidence(finding, "aiv_vec_ratio", QStringLiteral("the vector unit, for comparison"));
        return finding;
    }

    // GM -> UB copies (MTE2) dominate: the kernel waits for memory.
    std::optional<Finding> mte2Bound() const
    {
        const double mte2 = std::max(pipe("aiv_mte2_ratio").value_or(0), pipe("aic_mte2_ratio").value_or(0));
        const double vec = pipe("aiv_vec_ratio").value_or(0);
        if (mte2 < kMte2Ratio || mte2 < vec)
            return std::nullopt;
        Finding finding = kernelFinding(
            kMte2BoundRule, QStringLiteral("Memory-bound: %1 of the time in GM-to-UB copies (MTE2)").arg(percent(mte2)),
            Severity::Medium, 0.7,
            QStringLiteral("The copy engine that loads global memory into the unified buffer (MTE2) is busy %1 of the "
                           "time, the vector unit %2. Either the kernel moves as many bytes as it must (see the lower "
                           "bound) or its tiles are small or re-read (triton-ascend's profiling guide: high MTE2 = small "
                           "or redundant tiles); strided access along a non-contiguous axis fragments the copies "
                           "(triton-ascend#1610).").arg(percent(mte2), percent(vec)));
        addPipeEvidence(finding, "aiv_mte2_ratio", QStringLiteral("mean over the profiled vector cores"));
        addPipeEvidence(finding, "aic_mte2_ratio", QStringLiteral("cube cores (mix kernels)"));
        addPipeEvidence(finding, "aiv_vec_ratio", QString());
        addPipeEvidence(finding, "aiv_mte3_ratio", QStringLiteral("UB to GM (stores)"));
        return finding;
    }

    // Neither the vector unit, the scalar unit nor MTE2 is busy: the time goes to waits between
    // pipes (set_flag/wait_flag), stores (MTE3) or instruction fetch.
    std::optional<Finding> vectorIdle() const
    {
        const std::optional<double> vec = pipe("aiv_vec_ratio");
        if (!vec || *vec >= kIdleVectorRatio)
            return std::nullopt;
        Finding finding = kernelFinding(
            kVectorIdleRule, QStringLiteral("Vector unit busy only %1 of the time").arg(percent(*vec)), Severity::Low, 0.6,
            QStringLiteral("The vector cores compute %1 of the time and no single pipe (scalar, MTE2) takes the rest: "
                           "the pipes wait on each other (synchronisation between copy and compute), on stores (MTE3) or "
                           "on instruction fetch. Larger tiles per copy, or multi-buffering where UB allows, overlap "
                           "copy and compute.").arg(percent(*vec)));
        for (const char *name : {"aiv_vec_ratio", "aiv_scalar_ratio", "aiv_mte2_ratio", "aiv_mte3_ratio", "icache_miss_rate"})
            addPipeEvidence(finding, name, QString());
        return finding;
    }

    // The cores this kernel's blocks run on: the host's own count when the worker read it,
    // else the target's published range.
    CoreCounts cores() const
    {
        CoreCounts counts = coreCounts(m_input.target);
        const QJsonObject device = m_input.profile ? m_input.profile->device : QJsonObject();
        const int cube = device.value(QStringLiteral("num_aicore")).toInt();
        const int vector = device.value(QStringLiteral("num_vectorcore")).toInt();
        if (cube > 0 && vector > 0)
            counts = {cube, cube, vector, vector};
        return counts;
    }

    // Block Dim against the AI cores: a vector kernel's blocks run on the vector cores, a mix
    // kernel's on cube + vector groups (1 AIC : 2 AIV), counted by the cube cores. Blocks beyond
    // the cores run in rounds (scheduling overhead); fewer leave cores idle.
    std::optional<Finding> blockDim() const
    {
        const std::optional<double> blocks = metric(*m_launch, kBasic, QStringLiteral("Block Dim"));
        const CoreCounts counts = cores();
        if (!blocks || *blocks <= 0 || !counts.isKnown())
            return std::nullopt;
        const NcuSection *basic = m_launch->section(kBasic);
        const NcuMetric *type = basic ? basic->metric(QStringLiteral("Op Type")) : nullptr;
        const bool mix = type && type->value.toString().contains(QLatin1String("mix"), Qt::CaseInsensitive);
        const int fewest = mix ? counts.minCube : counts.minVector;
        const int most = mix ? counts.maxCube : counts.maxVector;
        const QString unit = mix ? QStringLiteral("AI cube cores (mix kernel)") : QStringLiteral("AI vector cores");
        const QString coreText = fewest == most ? QString::number(most) : QStringLiteral("%1-%2").arg(fewest).arg(most);
        const int n = int(*blocks);
        std::optional<Finding> finding;
        if (n > fewest) {
            const bool always = n > most;
            const int rounds = int(std::ceil(double(n) / most));
            finding = kernelFinding(
                kBlockDimOverCoresRule, QStringLiteral("%1 blocks on %2 %3: they run in rounds").arg(n).arg(coreText, unit),
                always ? Severity::Medium : Severity::Info, always ? 0.8 : 0.5,
                QStringLiteral("The launch asks for %1 blocks and the %2 has %3 %4, so %5 run in rounds, each round a "
                               "scheduling cost (triton-ascend's profiling guide: Block Dim > cores = scheduling "
                               "overhead). A grid of the core count with a loop over the work inside "
                               "(`for i in range(pid, n, tl.num_programs(0))`) runs one block per core.")
                    .arg(n).arg(m_input.target, coreText, unit)
                    .arg(always ? QStringLiteral("the blocks (at least %1 rounds)").arg(rounds)
                                : QStringLiteral("on the parts with fewer cores the blocks")));
        } else if (n < fewest) {
            const double idle = 1.0 - double(n) / fewest;
            finding = kernelFinding(
                kBlockDimUnderCoresRule, QStringLiteral("%1 blocks leave %2 of the %3 %4 idle").arg(n).arg(percent(idle), coreText, unit),
                idle >= 0.5 ? Severity::Medium : Severity::Low, 0.7,
                QStringLiteral("The launch asks for %1 blocks and the %2 has at least %3 %4: at least %5 of them get no "
                               "work. Splitting the work into more, smaller blocks (or a second grid axis) uses them.")
                    .arg(n).arg(m_input.target).arg(fewest).arg(unit, percent(idle)));
            finding->gapShare = GapShare{idle, true};
        }
        if (finding) {
            finding->evidence.append(Evidence::metric(QStringLiteral("block_dim"), n, QString(), QStringLiteral("msprof OpBasicInfo")));
            finding->evidence.append(Evidence::metric(mix ? QStringLiteral("ai_cube_cores") : QStringLiteral("ai_vector_cores"), most, QString(),
                                                      counts.isExact() ? QStringLiteral("as read on the host or published for the part")
                                                                       : QStringLiteral("the largest published part; smallest %1").arg(fewest)));
        }
        return finding;
    }

    // The simulator's cycles per source line (msprof op simulator, code_exe.csv), summed over
    // cores: the kernel's own lines with at least kHotLineShare of the cycles.
    QVector<Finding> hotLines() const
    {
        QVector<Finding> findings;
        if (!m_input.profile || m_input.profile->profiler != QLatin1String("msprof"))
            return findings;
        const QString ownFile = QFileInfo(m_input.sourcePath).fileName();
        for (const SourceView &view : m_input.profile->source) {
            if (view.costColumn != QLatin1String("cycles"))
                continue;
            double total = 0;
            for (const SourceLineCost &line : view.lines)
                total += line.cycles;
            QVector<SourceLineCost> own;
            for (const SourceLineCost &line : view.lines)
                if (line.line > 0 && QFileInfo(line.file).fileName() == ownFile)
                    own.append(line);
            std::stable_sort(own.begin(), own.end(), [](const auto &a, const auto &b) { return a.cycles > b.cycles; });
            for (int i = 0; i < std::min<int>(kMaxHotLines, own.size()) && total > 0; ++i) {
                const double share = own[i].cycles / total;
                if (share < kHotLineShare)
                    break;
                Finding finding = diagnosis::newFinding(
                    QString::fromLatin1(kHotLineRule), Level::L2, QStringLiteral("%1 of the simulated cycles").arg(percent(share)),
                    share >= 0.5 ? Severity::High : share >= 0.25 ? Severity::Medium : Severity::Low, 0.8,
                    SourceSpan{m_input.sourcePath, own[i].line, 0, own[i].line, 0},
                    QStringLiteral("The msprof simulator attributes %1 of the kernel's cycles to this line (%2 cycles in %3 "
                                   "calls, summed over the simulated cores).").arg(percent(share)).arg(own[i].cycles).arg(own[i].callCount));
                finding.gapShare = GapShare{share, false};
                finding.evidence.append(Evidence::metric(QStringLiteral("cycles"), own[i].cycles, QStringLiteral("cycle")));
                finding.evidence.append(Evidence::metric(QStringLiteral("line_cycle_share_pct"), share * 100, QStringLiteral("%")));
                findings.append(finding);
            }
        }
        return findings;
    }

    // The forward's time against the least it could take on the part: its bytes at the published
    // bandwidth and its FLOPs at the published peak of its precision, where published. Unknown
    // figures leave their floor out (the bound is then lower than the true one) and say so.
    std::optional<Finding> lowerBound() const
    {
        const Timing *timing = m_input.timing;
        const CandidateTiming *triton = timing ? timing->candidate(QStringLiteral("triton")) : nullptr;
        if (!triton || !triton->ok() || !timing->roofline)
            return std::nullopt;
        const Roofline &roofline = *timing->roofline;
        const BackendCeilings published = ceilings(m_input.target);
        std::optional<double> memoryFloorUs, computeFloorUs;
        if (roofline.bytes && published.copyBandwidthGbs)
            memoryFloorUs = *roofline.bytes / (*published.copyBandwidthGbs * 1e9) * 1e6;
        const bool hasFlops = roofline.flops && *roofline.flops > 0;
        if (hasFlops && published.peakTflops.contains(roofline.precision))
            computeFloorUs = *roofline.flops / (published.peakTflops.value(roofline.precision) * 1e12) * 1e6;
        if (!memoryFloorUs && !computeFloorUs)
            return std::nullopt;
        const double measuredUs = *triton->medianMs * 1000.0;
        const double floorUs = std::max(memoryFloorUs.value_or(0), computeFloorUs.value_or(0));
        const double fraction = floorUs / measuredUs;
        const double gap = std::clamp(1.0 - fraction, 0.0, 1.0);
        const bool computeUnknown = hasFlops && !computeFloorUs;
        const Severity severity = computeUnknown || fraction > 1.1 ? Severity::Info
            : gap >= 0.5                                            ? Severity::Medium
            : gap >= 0.2                                            ? Severity::Low
                                                                    : Severity::Info;
        QString cause = QStringLiteral("The forward takes %1 us; moving its %2 bytes at the %3's %4 GB/s takes at least %5 us")
                            .arg(measuredUs, 0, 'f', 1).arg(roofline.bytes.value_or(0), 0, 'f', 0)
                            .arg(published.part).arg(published.copyBandwidthGbs.value_or(0), 0, 'f', 0)
                            .arg(memoryFloorUs.value_or(0), 0, 'f', 1);
        if (computeFloorUs)
            cause += QStringLiteral(", its FLOPs at the %1 peak %2 us").arg(roofline.precision).arg(*computeFloorUs, 0, 'f', 1);
        cause += QStringLiteral(" (%1).").arg(published.source);
        if (computeUnknown)
            cause += QStringLiteral(" The %1 peak is unpublished, so the compute floor is unknown and the true bound may be "
                                    "higher: the gap is an upper estimate.").arg(roofline.precision.isEmpty() ? QStringLiteral("task's") : roofline.precision);
        if (fraction > 1.1)
            cause += QStringLiteral(" The time is under the bound: the part is faster than the one assumed (the 950DT has 4 TB/s) "
                                    "or the byte count is too high.");
        Finding finding = kernelFinding(kLowerBoundRule, QStringLiteral("%1 of the published lower bound").arg(percent(std::min(fraction, 9.99))),
                                        severity, computeUnknown ? 0.5 : 0.7, cause);
        finding.gapShare = GapShare{gap, true};
        finding.evidence.append(Evidence::metric(QStringLiteral("duration_us"), measuredUs, QStringLiteral("us"), QStringLiteral("torch.npu events, median")));
        if (memoryFloorUs)
            finding.evidence.append(Evidence::metric(QStringLiteral("memory_floor_us"), *memoryFloorUs, QStringLiteral("us"),
                                                     QStringLiteral("bytes / %1 GB/s").arg(*published.copyBandwidthGbs, 0, 'f', 0)));
        if (computeFloorUs)
            finding.evidence.append(Evidence::metric(QStringLiteral("compute_floor_us"), *computeFloorUs, QStringLiteral("us")));
        finding.evidence.append(Evidence::metric(QStringLiteral("bound_fraction_pct"), fraction * 100, QStringLiteral("%")));
        return finding;
    }

    const BackendProfileInput &m_input;
    const ProfiledKernel *m_launch = nullptr;
};

} // namespace

QVector<Finding> profileFindings(const BackendProfileInput &input)
{
    return ProfileRules(input).run();
}

} // namespace strata::ascend
