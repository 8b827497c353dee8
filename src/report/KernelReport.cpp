#include "report/KernelReport.h"

#include <QFile>
#include <algorithm>

namespace strata::report {

using namespace strata::diagnosis;
using optimize::CandidateRecord;
using optimize::TaskOutcome;

namespace {

QVector<ExcerptLine> sourceExcerpt(const QStringList &lines, const SourceSpan &span, int context)
{
    QVector<ExcerptLine> excerpt;
    if (!span.isValid() || span.line > lines.size())
        return excerpt;
    const int last = std::max(span.line, std::min(span.endLine, span.line + 8));  // long spans are cut
    for (int line = std::max(1, span.line - context); line <= std::min<int>(lines.size(), last + context); ++line)
        excerpt.append({line, lines[line - 1], line >= span.line && line <= last});
    return excerpt;
}

// IR lines (0-based) the finding's evidence names in `stage`, to mark them in the excerpt.
QVector<int> evidenceLines(const Finding &finding, const QString &stage)
{
    QVector<int> lines;
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *op = std::get_if<IrOpEvidence>(&evidence.data); op && op->stage == stage)
            lines.append(op->irLine);
    }
    return lines;
}

QVector<IrExcerpt> irExcerpts(const LoadedCompile &compile, const Finding &finding, int maxLines)
{
    QVector<IrExcerpt> excerpts;
    if (!finding.span.isValid())
        return excerpts;
    for (int s = 0; s < compile.stages.size(); ++s) {
        const StageDescriptor &stage = compile.stages[s];
        const StageListing &listing = compile.listings[s];
        if (stage.format == StageFormat::PythonSource)
            continue;
        const QVector<int> marked = evidenceLines(finding, stage.id);
        QVector<int> irLines = compile.map.linesForSource(stage.id, finding.span.line);
        if (irLines.isEmpty())
            continue;
        // Evidence lines first so a cut never hides them, then the rest in listing order.
        std::stable_partition(irLines.begin(), irLines.end(), [&](int line) { return marked.contains(line); });
        IrExcerpt excerpt{stage.id, stage.displayName, {}, 0};
        const int shown = std::min<int>(irLines.size(), maxLines);
        QVector<int> kept(irLines.begin(), irLines.begin() + shown);
        std::sort(kept.begin(), kept.end());
        for (int line : kept) {
            if (line >= 0 && line < listing.lines.size())
                excerpt.lines.append({line + 1, listing.lines[line].text.trimmed(), marked.contains(line)});
        }
        excerpt.omitted = irLines.size() - shown;
        excerpts.append(excerpt);
    }
    return excerpts;
}

QString readSource(const QString &path)
{
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

QString sourceFor(const KernelReportInputs &inputs, const KernelReport &report)
{
    if (!inputs.sourceText.isEmpty())
        return inputs.sourceText;
    if (inputs.compile && !inputs.compile->sourceText.isEmpty())
        return inputs.compile->sourceText;
    if (report.initial && !report.initial->sourceText.isEmpty())
        return report.initial->sourceText;
    return readSource(report.sourcePath);
}

} // namespace

std::optional<CandidateRecord> initialCandidate(const TaskOutcome &task)
{
    for (const CandidateRecord &candidate : task.candidates) {
        if (candidate.provider == QLatin1String("initial") || candidate.parentId == 0)
            return candidate;
    }
    return std::nullopt;
}

std::optional<CandidateRecord> bestCandidate(const TaskOutcome &task)
{
    std::optional<CandidateRecord> best;
    for (const CandidateRecord &candidate : task.candidates) {
        if (candidate.state != QLatin1String("accepted") || !candidate.medianMs || candidate.provider == QLatin1String("initial"))
            continue;
        if (!best || *candidate.medianMs < *best->medianMs)
            best = candidate;
    }
    return best;
}

QString KernelReport::backendText() const
{
    optimize::SuiteOutcome run;   // one wording for suite and kernel reports
    run.backend = backend;
    run.target = target;
    return run.backendText();
}

KernelReport buildKernelReport(const KernelReportInputs &inputs)
{
    KernelReport report;
    if (inputs.task) {
        report.task = *inputs.task;
        report.title = inputs.task->taskId;
        report.sourcePath = inputs.task->taskPath;
        report.initial = initialCandidate(*inputs.task);
        report.best = bestCandidate(*inputs.task);
        if (report.initial && report.best)
            report.winningDiff = diffTexts(report.initial->sourceText, report.best->sourceText,
                                           QStringLiteral("initial/%1").arg(inputs.task->taskId),
                                           QStringLiteral("best/%1 (candidate %2)").arg(inputs.task->taskId).arg(report.best->id));
    }
    if (inputs.diagnosis) {
        report.diagnosis = *inputs.diagnosis;
        if (report.title.isEmpty())
            report.title = inputs.diagnosis->diagnosis.kernel;
        if (!inputs.diagnosis->diagnosis.sourcePath.isEmpty())
            report.sourcePath = inputs.diagnosis->diagnosis.sourcePath;
    }
    if (inputs.compile && report.sourcePath.isEmpty())
        report.sourcePath = inputs.compile->result.sourcePath;
    report.backend = inputs.backend;
    report.target = inputs.target;
    if (inputs.compile && report.backend.isEmpty())
        report.backend = inputs.compile->result.backend;
    if (inputs.compile && report.target.isEmpty())
        report.target = inputs.compile->result.target;
    if (!inputs.diagnosis)
        return report;
    const QStringList sourceLines = sourceFor(inputs, report).split(u'\n');
    const QVector<RankedFinding> &ranking = inputs.diagnosis->ranking;
    for (int i = 0; i < ranking.size(); ++i) {
        FindingEntry entry{i + 1, ranking[i].status, ranking[i].finding, {}, {}};
        entry.source = sourceExcerpt(sourceLines, entry.finding.span, inputs.contextLines);
        if (inputs.compile)
            entry.ir = irExcerpts(*inputs.compile, entry.finding, inputs.maxIrLines);
        report.findings.append(entry);
    }
    return report;
}

} // namespace strata::report
