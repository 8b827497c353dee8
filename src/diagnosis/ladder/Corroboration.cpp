#include "diagnosis/ladder/Corroboration.h"

#include "diagnosis/l1_triage/Triage.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace strata::diagnosis {

namespace {

// Which source causes can produce each compiler fact (Triton 3.6, NVIDIA backend).
const QHash<QString, QSet<QString>> &causesOfFacts()
{
    static const QHash<QString, QSet<QString>> table{
        // contiguity unknown (run-time or constant non-unit stride), a gather index, a scalar loop
        {QStringLiteral("L3.scalar-global-access"),
         {QStringLiteral("L1.runtime-unit-stride"), QStringLiteral("L1.strided-access"), QStringLiteral("L1.per-element-divmod"),
          QStringLiteral("L1.scalar-load-loop"), QStringLiteral("L1.tiny-block")}},  // a tiny tile: one element per thread
        // loads that cannot be vectorized are not pipelined; num_stages <= 1 or a loop shape
        {QStringLiteral("L3.unpipelined-loop-load"),
         {QStringLiteral("L1.runtime-unit-stride"), QStringLiteral("L1.unpipelined-dot-loop"), QStringLiteral("L1.strided-access")}},
        // an ieee fp32 dot or a tile under the MMA minimum falls back to FMA
        {QStringLiteral("L3.fma-dot"), {QStringLiteral("L1.fp32-dot-precision"), QStringLiteral("L1.small-dot-tile")}},
        // atomics and transposed stores need their values in another layout
        {QStringLiteral("L3.smem-layout-conversion"), {QStringLiteral("L1.atomic-in-loop")}},
        // too many elements per thread
        {QStringLiteral("L3.register-spill"), {QStringLiteral("L1.num-warps-mismatch")}},
    };
    return table;
}

QString factRule(const Finding &finding)
{
    if (finding.level == Level::L3)
        return finding.ruleId;
    static const QString prefix = QStringLiteral("examines ");
    if (finding.level == Level::L4 && !finding.evidence.isEmpty() && finding.evidence.first().note.startsWith(prefix))
        return finding.evidence.first().note.mid(prefix.size());
    return {};
}

// The L1 finding's own line and the lines of the accesses its code feeds.
QSet<int> causeLines(const Finding &cause)
{
    QSet<int> lines{cause.span.line};
    for (const Evidence &evidence : cause.evidence) {
        if (const auto *span = std::get_if<SpanEvidence>(&evidence.data); span && evidence.note == QLatin1String(kFedAccessNote))
            lines.insert(span->span.line);
    }
    return lines;
}

} // namespace

bool canExplain(const QString &cause, const QString &fact)
{
    return causesOfFacts().value(fact).contains(cause);
}

void corroborateSourceCauses(Diagnosis &diagnosis)
{
    QVector<Finding> facts = diagnosis.findings(Level::L3);
    facts += diagnosis.findings(Level::L4);
    for (LevelFindings &level : diagnosis.levels) {
        if (level.level != Level::L1)
            continue;
        for (Finding &cause : level.findings) {
            const QSet<int> lines = causeLines(cause);
            QSet<QString> cited;
            for (const Finding &fact : facts) {
                const QString rule = factRule(fact);
                if (!lines.contains(fact.span.line) || !canExplain(cause.ruleId, rule) || cited.contains(rule + QString::number(fact.span.line)))
                    continue;
                cited.insert(rule + QString::number(fact.span.line));
                cause.evidence.append(Evidence::span(fact.span, QString::fromLatin1(kCorroboratedNote) + rule));
                cause.severity = std::max(cause.severity, fact.severity);
            }
        }
    }
}

bool isCorroborated(const Finding &finding)
{
    return finding.level == Level::L1 && std::any_of(finding.evidence.cbegin(), finding.evidence.cend(), [](const Evidence &evidence) {
        return evidence.note.startsWith(QLatin1String(kCorroboratedNote));
    });
}

} // namespace strata::diagnosis
