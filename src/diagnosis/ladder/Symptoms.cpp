#include "diagnosis/ladder/Symptoms.h"

#include <algorithm>
#include <functional>

namespace strata::diagnosis {

namespace {

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 0) + u'%';
}

bool isMechanism(const Finding &finding)
{
    return !isSymptomRule(finding.ruleId);
}

// The kernel-source lines a finding names: its own line and the lines its evidence points at
// (each pass's load of a re-read, the other uses of a stride, the accesses a value feeds). Its
// measured cost is the time of all of them: a mechanism costs where its instructions run, which
// is often not the one line it is reported at.
QVector<int> findingLines(const Finding &finding)
{
    QVector<int> lines;
    if (finding.span.line > 0)
        lines.append(finding.span.line);
    for (const Evidence &item : finding.evidence) {
        const SpanEvidence *span = std::get_if<SpanEvidence>(&item.data);
        if (!span || span->span.line <= 0 || lines.contains(span->span.line))
            continue;
        const QString &file = span->span.file;
        if (file.isEmpty() || finding.span.file.isEmpty() || file == finding.span.file)
            lines.append(span->span.line);
    }
    return lines;
}

// The measured time share of a finding's lines (0 when none was sampled); `sampled` says whether any was.
double linesShare(const L2Analysis &measured, const Finding &finding, bool *sampled = nullptr)
{
    double share = 0;
    bool any = false;
    for (int line : findingLines(finding))
        if (const LineCost *cost = measured.line(line)) {
            share += cost->timeShare;
            any = true;
        }
    if (sampled)
        *sampled = any;
    return std::min(share, 1.0);
}

// Mechanisms of the launch as a whole (grid, warps, tile, occupancy, glue): their cost is not on
// the line they are reported at, so a line's small share of the samples says nothing of it; only
// the gap to the bound does.
bool costsTheWholeLaunch(const Finding &finding)
{
    static const QStringList launchRules{
        QStringLiteral("L1.under-filled-grid"), QStringLiteral("L1.host-launch-loop"), QStringLiteral("L1.torch-glue"),
        QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L1.tiny-block"), QStringLiteral("L3.low-occupancy"),
        QStringLiteral("L3.wave-tail"), QStringLiteral("L3.register-spill")};
    return launchRules.contains(finding.ruleId) || finding.span.line <= 0;
}

// A demoted finding keeps its evidence and says why it is not the cause.
void demote(Finding &finding, const QString &why)
{
    if (finding.severity > Severity::Low)
        finding.severity = Severity::Low;
    if (!finding.cause.startsWith(QLatin1String(kPresentNotCause)))
        finding.cause = QLatin1String(kPresentNotCause) + why + QStringLiteral(". ") + finding.cause;
}

// The mechanism a hot line's samples belong to: the most severe one reported at that line, else
// the most severe one whose evidence names it and that its measured cost left at medium or more
// (a fact demoted as cheap does not absorb a hot line: that line stays unexplained).
Finding *mechanismOnLine(Diagnosis &diagnosis, int line)
{
    Finding *best = nullptr;
    bool bestAtLine = false;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (!isMechanism(finding) || finding.level == Level::L2 || !findingLines(finding).contains(line))
                continue;
            const bool atLine = finding.span.line == line;
            if (!atLine && finding.severity < Severity::Medium)
                continue;
            const bool better = !best || (atLine && !bestAtLine) ||
                                (atLine == bestAtLine && (finding.severity > best->severity ||
                                                          (finding.severity == best->severity && finding.level > best->level)));
            if (better) {
                best = &finding;
                bestAtLine = atLine;
            }
        }
    }
    return best;
}

// Gives every finding on a sampled line the time it could save: its line's share of the time,
// never more than the gap to the bound. A mechanism of the whole launch that names no line where
// its cost lands (an under-filled grid idles SMs, which no sample sees; glue runs outside the
// kernel) keeps its estimate, capped at the gap: the samples of the line it is reported at are
// not its cost. One that names such lines (a tiny block's fed accesses) is measured there.
int joinLineShares(const L2Analysis &measured, std::optional<double> gap, Diagnosis &diagnosis)
{
    int joined = 0;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level == Level::L2)
            continue;
        for (Finding &finding : level.findings) {
            if (costsTheWholeLaunch(finding) && findingLines(finding).size() <= 1) {
                if (gap && finding.gapShare && finding.gapShare->share > *gap)
                    finding.gapShare->share = *gap;
                continue;
            }
            bool sampled = false;
            const double share = linesShare(measured, finding, &sampled);
            if (!sampled)
                continue;
            finding.gapShare = GapShare{gap ? std::min(share, *gap) : share, false};
            const int lines = int(findingLines(finding).size());
            finding.evidence.append(Evidence::metric(QStringLiteral("lines_time_share_pct"), share * 100, QStringLiteral("%"),
                                                     lines > 1 ? QStringLiteral("measured: the time of the %1 lines it names").arg(lines)
                                                               : QStringLiteral("measured: this line's share of the time")));
            ++joined;
        }
    }
    return joined;
}

// A hot line no mechanism explains could save at most its share of the time and never more
// than the whole gap to the bound: its severity follows that, as a finding's does from its
// cost (the share of the stall samples says where the work is, not what is lost there).
void capUnexplainedHotLine(Finding &hot, std::optional<double> gap)
{
    if (!gap || !hot.gapShare)
        return;
    const double saving = std::min(hot.gapShare->share, *gap);
    const Severity bySaving = hotLineSeverity(saving);
    if (bySaving >= hot.severity)
        return;
    hot.severity = bySaving;
    hot.gapShare = GapShare{saving, false};
    hot.cause = QStringLiteral("The gap to the bound is %1 of the time, so this line can save at most %2. ")
                    .arg(percent(*gap), percent(saving)) + hot.cause;
}

// Moves each L2 finding `mechanismFor` places on a mechanism into that mechanism's evidence, each
// item noted by `noteOf`; returns how many moved.
int foldSymptoms(Diagnosis &diagnosis, const std::function<Finding *(const Finding &)> &mechanismFor,
                 const std::function<QString(const Finding &, const Evidence &)> &noteOf)
{
    int folded = 0;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level != Level::L2)
            continue;
        QVector<Finding> kept;
        for (const Finding &finding : std::as_const(level.findings)) {
            Finding *mechanism = mechanismFor(finding);
            if (!mechanism) {
                kept.append(finding);
                continue;
            }
            for (Evidence item : finding.evidence) {
                item.note = QLatin1String(kSymptomNote) + noteOf(finding, item);
                mechanism->evidence.append(item);
            }
            ++folded;
        }
        level.findings = kept;
    }
    return folded;
}

// Moves each hot line onto the mechanism on its line; returns how many moved. The ones left
// are capped by what they could save.
int foldHotLines(Diagnosis &diagnosis, std::optional<double> gap)
{
    const int folded = foldSymptoms(
        diagnosis,
        [&diagnosis](const Finding &finding) {
            return finding.ruleId == QLatin1String("L2.hot-line") ? mechanismOnLine(diagnosis, finding.span.line) : nullptr;
        },
        [](const Finding &finding, const Evidence &item) { return item.note.isEmpty() ? finding.title : item.note; });
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (finding.ruleId != QLatin1String("L2.hot-line"))
                continue;
            finding.title = QStringLiteral("Hot line no mechanism explains: ") + finding.title;
            capUnexplainedHotLine(finding, gap);
        }
    }
    return folded;
}

bool isBoundClass(const QString &rule)
{
    return rule == QLatin1String("L2.latency-bound") || rule == QLatin1String("L2.memory-bound")
           || rule == QLatin1String("L2.compute-bound");
}

// The mechanism that explains most of the gap: of medium severity or more, not of L2, with the
// largest measured share, which must be at least half the gap (a bound class says how the kernel
// spends the whole gap; a mechanism holding less of it does not explain it). Null when none does.
Finding *mechanismExplainingGap(Diagnosis &diagnosis, double gap)
{
    Finding *best = nullptr;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level == Level::L2)
            continue;
        for (Finding &finding : level.findings) {
            if (!isMechanism(finding) || finding.severity < Severity::Medium || !finding.gapShare || finding.gapShare->estimate)
                continue;
            if (finding.gapShare->share >= 0.5 * gap && (!best || finding.gapShare->share > best->gapShare->share))
                best = &finding;
        }
    }
    return best;
}

// Moves the bound class (latency-, memory-, compute-bound) onto the mechanism that explains most
// of the gap, as symptom evidence; returns how many moved (0 or 1).
int foldBoundClass(Diagnosis &diagnosis, std::optional<double> gap)
{
    if (!gap || *gap <= 0)
        return 0;
    Finding *mechanism = mechanismExplainingGap(diagnosis, *gap);
    if (!mechanism)
        return 0;
    return foldSymptoms(
        diagnosis, [mechanism](const Finding &finding) { return isBoundClass(finding.ruleId) ? mechanism : nullptr; },
        [](const Finding &finding, const Evidence &item) {
            return finding.title + (item.note.isEmpty() ? QString() : QStringLiteral(": ") + item.note);
        });
}

// Facts that cost little by measurement stay visible at low severity; near the bound every
// finding (symptoms too) is.
int demoteCheapFacts(const L2Analysis &measured, std::optional<double> gap, Diagnosis &diagnosis)
{
    const bool nearBound = gap && *gap <= 1.0 - kNearBoundFraction;
    int demoted = 0;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (finding.ruleId == QLatin1String("L2.launch-bound"))
                continue;
            // Near the bound a hot line or a stall mix says where the work itself is, not a loss.
            if (nearBound && finding.severity > Severity::Low) {
                demote(finding, QStringLiteral("the kernel already runs at %1 of its bound").arg(percent(1.0 - *gap)));
                ++demoted;
                continue;
            }
            if (!isMechanism(finding) || nearBound || costsTheWholeLaunch(finding))
                continue;
            if (level.level == Level::L2 || finding.span.line <= 0 || measured.lines.isEmpty())
                continue;
            const double share = linesShare(measured, finding);
            if (share < kCheapLineShare) {
                demote(finding, QStringLiteral("its lines hold %1 of the measured time").arg(percent(share)));
                finding.gapShare = GapShare{share, false};
                ++demoted;
            }
        }
    }
    return demoted;
}

} // namespace

// A kernel whose dots run on the matrix unit's MMA tiles (the backend's dot kinds say which) is
// built for one or two large programs per compute unit and hides latency with its tiles and
// software pipelining; a measured low occupancy is its design, not its loss (L3.low-occupancy
// leaves such kernels out for the same reason). Returns how many L2 findings it demoted.
int demoteOccupancyOfMmaKernels(const KernelIrFacts &facts, Diagnosis &diagnosis)
{
    if (!facts.hasMmaDot())
        return 0;
    int demoted = 0;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level != Level::L2)
            continue;
        for (Finding &finding : level.findings) {
            if (finding.ruleId != QLatin1String("L2.low-occupancy") || finding.severity <= Severity::Low)
                continue;
            finding.severity = Severity::Low;
            finding.cause = QLatin1String(kPresentNotCause)
                            + QStringLiteral("the kernel's dots run on MMA tiles, which hide latency by tile size and "
                                             "pipelining, so few resident CTAs are their norm. ")
                            + finding.cause;
            ++demoted;
        }
    }
    return demoted;
}

bool isSymptomRule(const QString &rule)
{
    static const QStringList symptoms{QStringLiteral("L2.hot-line"), QStringLiteral("L2.stall-mix"),
                                      QStringLiteral("L2.memory-bound"), QStringLiteral("L2.compute-bound"),
                                      QStringLiteral("L2.latency-bound")};
    return symptoms.contains(rule);
}

std::optional<double> measuredGap(const L2Analysis &measured)
{
    if (measured.gapFraction)
        return measured.gapFraction;
    if (measured.memoryFraction || measured.computeFraction)
        return std::clamp(1.0 - std::max(measured.memoryFraction.value_or(0), measured.computeFraction.value_or(0)), 0.0, 1.0);
    return std::nullopt;
}

QStringList attachMeasuredCosts(const L2Analysis &measured, Diagnosis &diagnosis)
{
    QStringList log;
    const std::optional<double> gap = measuredGap(measured);
    if (const int joined = joinLineShares(measured, gap, diagnosis))
        log << QStringLiteral("%1 findings take their line's measured share of the time%2").arg(joined)
                   .arg(gap ? QStringLiteral(", capped at the gap to the bound (%1)").arg(percent(*gap)) : QString());
    if (const int demoted = demoteCheapFacts(measured, gap, diagnosis))
        log << QStringLiteral("%1 findings demoted to low: present, not the cause (measured cost small)").arg(demoted);
    if (const int folded = foldHotLines(diagnosis, gap))
        log << QStringLiteral("%1 hot lines attached as symptoms to the mechanism that names their line").arg(folded);
    if (foldBoundClass(diagnosis, gap))
        log << QStringLiteral("the bound class attached as a symptom to the mechanism that explains most of the gap");
    return log;
}

} // namespace strata::diagnosis
