#include "diagnosis/ladder/Symptoms.h"

#include <algorithm>

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

// A demoted finding keeps its evidence and says why it is not the cause.
void demote(Finding &finding, const QString &why)
{
    if (finding.severity > Severity::Low)
        finding.severity = Severity::Low;
    if (!finding.cause.startsWith(QLatin1String(kPresentNotCause)))
        finding.cause = QLatin1String(kPresentNotCause) + why + QStringLiteral(". ") + finding.cause;
}

// The mechanism a hot line's samples belong to: the most severe one on that line.
Finding *mechanismOnLine(Diagnosis &diagnosis, int line)
{
    Finding *best = nullptr;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (finding.span.line != line || !isMechanism(finding) || finding.level == Level::L2)
                continue;
            if (!best || finding.severity > best->severity || (finding.severity == best->severity && finding.level > best->level))
                best = &finding;
        }
    }
    return best;
}

// Gives every finding on a sampled line the time it could save: its line's share of the time,
// never more than the gap to the bound.
int joinLineShares(const L2Analysis &measured, std::optional<double> gap, Diagnosis &diagnosis)
{
    int joined = 0;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level == Level::L2)
            continue;
        for (Finding &finding : level.findings) {
            const LineCost *cost = measured.line(finding.span.line);
            if (!cost)
                continue;
            finding.gapShare = GapShare{gap ? std::min(cost->timeShare, *gap) : cost->timeShare, false};
            finding.evidence.append(Evidence::metric(QStringLiteral("line_stall_share_pct"), cost->share * 100, QStringLiteral("%"),
                                                     QStringLiteral("measured: this line's share of the stall samples")));
            ++joined;
        }
    }
    return joined;
}

// Moves each hot line onto the mechanism on its line; returns how many moved.
int foldHotLines(Diagnosis &diagnosis)
{
    int folded = 0;
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level != Level::L2)
            continue;
        QVector<Finding> kept;
        for (const Finding &finding : std::as_const(level.findings)) {
            Finding *mechanism = finding.ruleId == QLatin1String("L2.hot-line") ? mechanismOnLine(diagnosis, finding.span.line) : nullptr;
            if (!mechanism) {
                kept.append(finding);
                continue;
            }
            for (Evidence item : finding.evidence) {
                item.note = QLatin1String(kSymptomNote) + (item.note.isEmpty() ? finding.title : item.note);
                mechanism->evidence.append(item);
            }
            ++folded;
        }
        level.findings = kept;
    }
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (finding.ruleId == QLatin1String("L2.hot-line"))
                finding.title = QStringLiteral("Hot line no mechanism explains: ") + finding.title;
        }
    }
    return folded;
}

// Facts that cost little by measurement stay visible at low severity.
int demoteCheapFacts(const L2Analysis &measured, std::optional<double> gap, Diagnosis &diagnosis)
{
    const bool nearBound = gap && *gap <= 1.0 - kNearBoundFraction;
    int demoted = 0;
    for (LevelFindings &level : diagnosis.levels) {
        for (Finding &finding : level.findings) {
            if (!isMechanism(finding) || finding.ruleId == QLatin1String("L2.launch-bound"))
                continue;
            if (nearBound) {
                demote(finding, QStringLiteral("the kernel already runs at %1 of its bound").arg(percent(1.0 - *gap)));
                ++demoted;
                continue;
            }
            if (level.level == Level::L2 || finding.span.line <= 0 || measured.lines.isEmpty())
                continue;
            const LineCost *cost = measured.line(finding.span.line);
            const double share = cost ? cost->timeShare : 0.0;
            if (share < kCheapLineShare) {
                demote(finding, QStringLiteral("its line holds %1 of the measured time").arg(percent(share)));
                finding.gapShare = GapShare{share, false};
                ++demoted;
            }
        }
    }
    return demoted;
}

} // namespace

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
    if (const int folded = foldHotLines(diagnosis))
        log << QStringLiteral("%1 hot lines attached as symptoms to the mechanism on their line").arg(folded);
    if (const int demoted = demoteCheapFacts(measured, gap, diagnosis))
        log << QStringLiteral("%1 findings demoted to low: present, not the cause (measured cost small)").arg(demoted);
    return log;
}

} // namespace strata::diagnosis
