#include "diagnosis/l4_compiler/CompilerAnalysis.h"

#include "diagnosis/l4_compiler/CompilerTrace.h"
#include "diagnosis/l4_compiler/PassAttribution.h"

#include <QSet>

#include <algorithm>

namespace strata::diagnosis {

namespace {

// Remarks of the compile on the finding's line that the finding does not carry yet.
QVector<Evidence> newRemarks(const Finding &finding, const LoadedCompile &compile)
{
    QVector<Evidence> found;
    for (const Remark &remark : compile.result.remarks) {
        if (remark.loc.line != finding.span.line || !sameSourceFile(remark.loc.file, compile.result.sourcePath))
            continue;
        const Evidence evidence = Evidence::remark({remark.loc.file, remark.loc.line, remark.loc.column, 0, 0},
                                                   remark.severity, remark.message,
                                                   QStringLiteral("compiler remark on this line"));
        if (!finding.evidence.contains(evidence) && !found.contains(evidence))
            found.append(evidence);
    }
    return found;
}

// The distinct changes of all findings, in finding order, at most `cap`.
QVector<SpecChange> plannedChanges(const QVector<Finding> &examined, const QJsonObject &spec, const QString &sourceText,
                                   const BackendIrRules &rules, int cap, int *dropped)
{
    QVector<SpecChange> changes;
    QSet<QString> seen;
    *dropped = 0;
    for (const Finding &finding : examined) {
        for (const SpecChange &change : counterfactualChanges(finding, spec, sourceText, &rules)) {
            if (seen.contains(change.id))
                continue;
            seen.insert(change.id);
            if (changes.size() < cap)
                changes.append(change);
            else
                ++*dropped;
        }
    }
    return changes;
}

bool isOwnChange(const Finding &finding, const QJsonObject &spec, const QString &sourceText, const BackendIrRules &rules,
                 const QString &changeId)
{
    for (const SpecChange &change : counterfactualChanges(finding, spec, sourceText, &rules)) {
        if (change.id == changeId)
            return true;
    }
    return false;
}

// Counterfactual evidence for one finding: its own changes always, any other change that flipped
// its fact too (a unit stride can also fix a scalar load).
void addCounterfactuals(Finding &finding, const FactState &before, const QVector<CounterfactualCompile> &compiles,
                        const QString &sourceText, const QJsonObject &spec, const BackendIrRules &rules)
{
    for (const CounterfactualCompile &compile : compiles) {
        const bool own = isOwnChange(finding, spec, sourceText, rules, compile.change.id);
        if (!compile.facts) {
            if (own)
                finding.evidence.append(Evidence::counterfactual(compile.change.description, before.text,
                                                                 QStringLiteral("compile failed: ") + compile.error,
                                                                 QStringLiteral("no answer")));
            continue;
        }
        const std::optional<FactState> after = factOnLine(finding, *compile.facts, &rules);
        if (!after)
            continue;
        if (!after->holds)
            finding.evidence.append(Evidence::counterfactual(compile.change.description, before.text, after->text,
                                                             QString::fromLatin1(kFlippedNote)));
        else if (own)
            finding.evidence.append(Evidence::counterfactual(compile.change.description, before.text, after->text,
                                                             QStringLiteral("the fact still holds")));
    }
}

// L3 may already cite the same pass without saying what it did on the line; the traced item replaces it.
void addPassEvidence(Finding &finding, const Evidence &traced)
{
    const QString &argument = std::get<PassEvidence>(traced.data).argument;
    for (Evidence &evidence : finding.evidence) {
        const auto *pass = std::get_if<PassEvidence>(&evidence.data);
        if (pass && pass->argument == argument) {
            evidence = traced;
            return;
        }
    }
    finding.evidence.append(traced);
}

// The op of `kind` on the finding's line in TTGIR, as the tensor shape and element type the
// trace knows it by.
bool tracedOpOnLine(const Finding &finding, const KernelIrFacts &facts, const LoadedCompile &compile,
                    const QString &kind, QString *shape, QString *element)
{
    const SourceLineFacts *line = facts.line(finding.span.line);
    const StageListing *ttgir = compile.listing(QStringLiteral("ttgir"));
    if (!line || !ttgir)
        return false;
    for (const LineLayout &layout : line->layouts) {
        if (layout.op != kind || layout.irLine < 0 || layout.irLine >= ttgir->lineCount())
            continue;
        if (pointerTensorOf(ttgir->lines[layout.irLine].text, shape, element))
            return true;
    }
    return false;
}

QString listText(const QVector<int> &values)
{
    QStringList items;
    for (int value : values)
        items.append(QString::number(value));
    return u'[' + items.join(QStringLiteral(", ")) + u']';
}

// What the compiler said about this finding's op in its debug trace: the pointer facts behind a
// narrow access, or why a loop load was not pipelined. These name the analysis fact that caused
// the IR fact the finding reports.
QVector<Evidence> traceEvidence(const Finding &finding, const KernelIrFacts &facts, const LoadedCompile &compile,
                                const CompilerTrace &trace)
{
    QVector<Evidence> evidence;
    QString shape, element;
    if (finding.ruleId == QLatin1String("L3.scalar-global-access")) {
        for (const char *kind : {"tt.load", "tt.store"}) {
            const QString op = QString::fromLatin1(kind);
            if (!tracedOpOnLine(finding, facts, compile, op, &shape, &element))
                continue;
            if (const TracedAccess *access = trace.access(op, shape, element)) {
                evidence.append(Evidence::metric(QStringLiteral("pointer_contiguity"), access->contiguity.value(0), QStringLiteral("elements"),
                                                 QStringLiteral("tritongpu-coalesce: axis info of the %1 pointer, contiguity %2, divisibility %3 bytes")
                                                     .arg(op, listText(access->contiguity), listText(access->divisibility))));
                evidence.append(Evidence::metric(QStringLiteral("coalesce_per_thread"), access->perThread, QStringLiteral("elements"),
                                                 QStringLiteral("tritongpu-coalesce: elements per thread chosen from that axis info")));
            }
            break;
        }
        const auto narrowMask = std::find_if(trace.maskAlignments.cbegin(), trace.maskAlignments.cend(), [](int a) { return a <= 1; });
        if (narrowMask != trace.maskAlignments.cend())
            evidence.append(Evidence::metric(QStringLiteral("mask_alignment"), *narrowMask, QStringLiteral("elements"),
                                             QStringLiteral("axis-info at lowering: the mask's alignment caps the vector width")));
    } else if (finding.ruleId == QLatin1String("L3.unpipelined-loop-load")
               && tracedOpOnLine(finding, facts, compile, QStringLiteral("tt.load"), &shape, &element)) {
        if (const TracedPipelineLoad *load = trace.pipelineLoad(shape, element); load && !load->verdict.isEmpty())
            evidence.append(Evidence::metric(QStringLiteral("pipeline_copy_width"), load->widthBits, QStringLiteral("bits"),
                                             QStringLiteral("triton-loop-pipeline: the %1 load of %2x%3 %4")
                                                 .arg(load->value, shape, element, load->verdict)));
    }
    return evidence;
}

Finding l4Finding(const Finding &examined)
{
    Finding finding = examined;
    finding.level = Level::L4;
    finding.evidence.prepend(Evidence::span(examined.span, QStringLiteral("examines %1").arg(examined.ruleId)));
    return finding;
}

void settle(Finding &finding, bool tested)
{
    if (isConfirmed(finding)) {
        finding.ruleId = QString::fromLatin1(kConfirmedCauseRule);
        finding.status = FindingStatus::Confirmed;
        finding.confidence = 1.0;
    } else {
        finding.ruleId = QString::fromLatin1(tested ? kUnconfirmedCauseRule : kUntestedCauseRule);
        finding.status = tested ? FindingStatus::Unconfirmed : FindingStatus::Untested;
    }
}

} // namespace

bool isConfirmed(const Finding &finding)
{
    for (const Evidence &evidence : finding.evidence) {
        if (std::holds_alternative<CounterfactualEvidence>(evidence.data) && evidence.note == QLatin1String(kFlippedNote))
            return true;
    }
    return false;
}

CompilerAnalysis analyzeWithCompiler(const QVector<Finding> &examined, const LoadedCompile &compile,
                                     const KernelIrFacts &facts, const QJsonObject &spec, CounterfactualRunner *runner,
                                     const CompilerAnalysisOptions &options)
{
    CompilerAnalysis analysis;
    const BackendIrRules &rules = rulesOrDefault(options.rules);
    PassHistory history(compile.result, &rules);
    analysis.log.append({QStringLiteral("L4 pass attribution"),
                         history.hasDumps() ? QStringLiteral("%1 pass dumps kept by the compile").arg(compile.result.passDumps.size())
                                            : QStringLiteral("skipped: the compile kept no pass dumps")});
    CompilerTrace trace;
    if (compile.result.artifacts.contains(QStringLiteral("debug_trace"))) {
        const Expected<CompilerTrace> read = readCompilerTrace(compile.result.artifacts.value(QStringLiteral("debug_trace")).path);
        if (read)
            trace = *read;
        analysis.log.append({QStringLiteral("L4 compiler trace"),
                             read ? QStringLiteral("%1 accesses, %2 pipeliner loads traced").arg(trace.accesses.size()).arg(trace.pipelineLoads.size())
                                  : read.error().toString()});
    } else {
        analysis.log.append({QStringLiteral("L4 compiler trace"), QStringLiteral("skipped: the compile kept no debug trace")});
    }
    for (const Finding &finding : examined) {
        Finding l4 = l4Finding(finding);
        if (const std::optional<Evidence> pass = passEvidenceFor(finding, history))
            addPassEvidence(l4, *pass);
        l4.evidence += newRemarks(l4, compile);
        l4.evidence += traceEvidence(finding, facts, compile, trace);
        analysis.findings.append(l4);
    }
    for (const QString &problem : history.problems())
        analysis.log.append({QStringLiteral("L4 pass attribution"), QStringLiteral("dump skipped: ") + problem});

    int dropped = 0;
    const QVector<SpecChange> changes = plannedChanges(examined, spec, compile.sourceText, rules, options.maxCounterfactuals, &dropped);
    QVector<CounterfactualCompile> compiles;
    if (!runner) {
        analysis.log.append({QStringLiteral("L4 counterfactuals"), QStringLiteral("skipped: no agent to compile with")});
    } else if (changes.isEmpty()) {
        analysis.log.append({QStringLiteral("L4 counterfactuals"),
                             QStringLiteral("skipped: no finding has a cause the launch spec can change")});
    } else {
        analysis.log.append({QStringLiteral("L4 counterfactuals"),
                             QStringLiteral("%1 one-change compiles for %2 findings%3").arg(changes.size()).arg(examined.size())
                                 .arg(dropped ? QStringLiteral(" (%1 more changes over the cap of %2 not run)").arg(dropped).arg(options.maxCounterfactuals)
                                              : QString())});
        compiles = runner->compileAll(changes);
        analysis.compiles = compiles.size();
        for (const CounterfactualCompile &compile : compiles)
            analysis.log.append({QStringLiteral("L4 compile: ") + compile.change.description,
                                 compile.facts ? QStringLiteral("compiled in %1 s").arg(compile.seconds, 0, 'f', 1)
                                               : QStringLiteral("failed: ") + compile.error});
    }
    for (int i = 0; i < examined.size(); ++i) {
        Finding &l4 = analysis.findings[i];
        const std::optional<FactState> before = factOnLine(examined[i], facts, &rules);
        if (before)
            addCounterfactuals(l4, *before, compiles, compile.sourceText, spec, rules);
        settle(l4, std::any_of(l4.evidence.cbegin(), l4.evidence.cend(), [](const Evidence &evidence) {
                   return std::holds_alternative<CounterfactualEvidence>(evidence.data);
               }));
    }
    return analysis;
}

} // namespace strata::diagnosis
