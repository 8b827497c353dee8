// The text form of a diagnosis for the terminal (the JSON form is diagnosis::toJson).
#include "cli/DiagnoseCommand.h"
#include "diagnosis/model/EvidenceText.h"

#include <QFileInfo>

namespace strata::cli {

using namespace strata::diagnosis;

namespace {

void printFinding(QTextStream &o, int rank, const RankedFinding &ranked, const QStringList &sourceLines)
{
    const Finding &finding = ranked.finding;
    o << QStringLiteral("%1. [%2] %3 (%4, %5)").arg(rank).arg(severityName(finding.severity), finding.title,
                                                           levelName(finding.level), ranked.status)
      << "\n";
    if (finding.span.isValid()) {
        const QString line = sourceLines.value(finding.span.line - 1).trimmed();
        o << "   " << QString::number(finding.span.line).rightJustified(4) << " | " << line << "\n";
    }
    o << "   rule: " << finding.ruleId;
    if (!ranked.examines.isEmpty())
        o << " (examines " << ranked.examines << ")";
    o << ", confidence " << QString::number(finding.confidence, 'f', 2);
    if (finding.gapShare)
        o << QStringLiteral(", %1 of the time (%2)").arg(QString::number(finding.gapShare->share * 100, 'f', 0) + u'%',
                                                       finding.gapShare->estimate ? QStringLiteral("estimate") : QStringLiteral("measured"));
    o << "\n";
    if (!finding.cause.isEmpty())
        o << "   cause: " << finding.cause << "\n";
    for (const Evidence &evidence : finding.evidence) {
        if (std::holds_alternative<SpanEvidence>(evidence.data) && evidence.note.startsWith(QLatin1String("examines ")))
            o << "   " << evidence.note << "\n";  // which lower-level finding this one confirms
        else
            o << "   - " << evidence.kindName() << ": " << evidenceText(evidence) << "\n";
    }
    if (!finding.recipes.isEmpty())
        o << "   recipes: " << finding.recipes.join(QStringLiteral(", ")) << "\n";
}

void printMeasured(QTextStream &o, const L2Analysis &measured)
{
    o << "Measured: bound " << (measured.bound.isEmpty() ? QStringLiteral("unknown") : measured.bound);
    if (measured.durationUs)
        o << ", " << compactNumber(*measured.durationUs) << " us";
    if (measured.gapFraction)
        o << ", " << QString::number(*measured.gapFraction * 100, 'f', 0) << "% below the roofline";
    if (measured.occupancy)
        o << ", occupancy " << QString::number(measured.occupancy->theoretical * 100, 'f', 0) << "% (limit: "
          << measured.occupancy->limiter << ")";
    o << "\n";
    for (int i = 0; i < std::min<int>(5, measured.lines.size()); ++i)
        o << "  line " << measured.lines[i].line << ": " << QString::number(measured.lines[i].share * 100, 'f', 1)
          << "% of stall samples  | " << measured.lines[i].source.trimmed() << "\n";
}

} // namespace

void printDiagnosis(QTextStream &o, const LadderResult &result, const QString &sourceText)
{
    const Diagnosis &diagnosis = result.diagnosis;
    o << "Diagnosis of " << diagnosis.kernel;
    if (!diagnosis.sourcePath.isEmpty())
        o << " (" << diagnosis.sourcePath << ")";
    o << "\n";
    o << "Ranking: " << result.rankingBasis << "\n";
    for (const QString &warning : diagnosis.warnings)
        o << "Warning: " << warning << "\n";
    if (result.measured)
        printMeasured(o, *result.measured);
    o << "\n";
    const QStringList sourceLines = sourceText.split(u'\n');
    if (result.ranking.isEmpty())
        o << "No findings.\n";
    for (int i = 0; i < result.ranking.size(); ++i) {
        printFinding(o, i + 1, result.ranking[i], sourceLines);
        o << "\n";
    }
    o << "Escalation:\n";
    for (const EscalationStep &step : diagnosis.escalation)
        o << "  " << step.step << ": " << step.reason << "\n";
}

} // namespace strata::cli
