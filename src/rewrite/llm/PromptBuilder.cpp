#include "rewrite/llm/PromptBuilder.h"

#include "core/SourceLocation.h"
#include "core/TextLines.h"

#include <QJsonDocument>

#include <algorithm>
#include <variant>

namespace strata::rewrite::llm {

namespace {

constexpr int kMaxEvidencePerFinding = 8;

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

QString numberText(double value)
{
    return QString::number(value, 'g', 6);
}

QString spanText(const diagnosis::SourceSpan &span)
{
    return span.isValid() ? QStringLiteral("line %1").arg(span.line) : QStringLiteral("(no line)");
}

// The source line a span points at, when the span lies in the task file the model sees.
QString quotedLine(const diagnosis::SourceSpan &span, const RewriteRequest &request)
{
    if (!span.isValid() || (!span.file.isEmpty() && !request.taskPath.isEmpty()
                            && !sameSourceFile(span.file, request.taskPath)))
        return {};
    const QStringList lines = splitLines(request.taskText);
    if (span.line > lines.size())
        return {};
    return lines.at(span.line - 1).trimmed();
}

const char *kSystemPrompt =
    "You are an expert GPU performance engineer who writes Triton kernels. You rewrite a "
    "KernelBench-style task file so that ModelNew runs faster on the given GPU while computing "
    "exactly the same outputs as before. Your answer is compiled, verified against the reference "
    "Model on several input shapes and timed; anything that changes results, shapes, dtypes or "
    "the interface is rejected.";

const char *kOutputContract =
    "Answer in exactly this form:\n"
    "Title: <one line naming the change>\n"
    "Rationale: <one line: why it is faster, citing the findings>\n"
    "Findings: <the rule ids you act on, comma separated>\n"
    "```python\n"
    "<the complete new task file: every import, every kernel, Model, ModelNew, get_inputs, "
    "get_init_inputs and STRATA_TASK>\n"
    "```\n"
    "Return one python code block only, with the whole file in it (no diff, no ellipsis, no "
    "\"rest unchanged\"). Do not return the file unchanged.";

} // namespace

QStringList rewriteConstraints()
{
    return {
        QStringLiteral("Keep class ModelNew's constructor and forward signatures, and its outputs (values, shapes, "
                       "dtypes, device) identical to Model's within the usual float tolerance."),
        QStringLiteral("All computation in ModelNew.forward runs in @triton.jit kernels: no torch operations there "
                       "except allocating outputs or scratch (torch.empty, torch.empty_like, torch.zeros) and those "
                       "the given ModelNew.forward already runs (keep them, fuse them into a kernel, or drop them; "
                       "never add one, or call one more often)."),
        QStringLiteral("Triton only: no CUDA C, inline PTX, torch.compile, cuBLAS/cuDNN calls, or other libraries."),
        QStringLiteral("Do not change class Model, get_inputs, get_init_inputs or STRATA_TASK."),
        QStringLiteral("No caching of results between calls, no side streams, no reading of inputs other than "
                       "through forward's arguments."),
        QStringLiteral("The kernel must stay correct for every shape get_inputs can produce, including sizes that "
                       "are not multiples of the block size (mask loads and stores)."),
    };
}

QString Prompt::asDocument() const
{
    return QStringLiteral("# Instructions\n\n%1\n\n%2").arg(system, user);
}

QString PromptBuilder::describeEvidence(const diagnosis::Evidence &evidence)
{
    const QString body = std::visit(
        Overloaded{
            [](const diagnosis::SpanEvidence &e) { return QStringLiteral("source %1").arg(spanText(e.span)); },
            [](const diagnosis::MetricEvidence &e) {
                return QStringLiteral("%1 = %2%3").arg(e.name, numberText(e.value),
                                                      e.unit.isEmpty() ? QString() : QLatin1Char(' ') + e.unit);
            },
            [](const diagnosis::IrOpEvidence &e) {
                return QStringLiteral("%1 line %2: %3").arg(e.stage.toUpper()).arg(e.irLine + 1).arg(e.text.isEmpty() ? e.opcode : e.text);
            },
            [](const diagnosis::PassEvidence &e) { return QStringLiteral("compiler pass %1 (%2)").arg(e.name, e.argument); },
            [](const diagnosis::RemarkEvidence &e) {
                return QStringLiteral("compiler %1 at %2: %3").arg(e.severity, spanText(e.span), e.message);
            },
            [](const diagnosis::CounterfactualEvidence &e) {
                return QStringLiteral("measured counterfactual: with \"%1\", %2 became %3").arg(e.change, e.factBefore, e.factAfter);
            },
        },
        evidence.data);
    return evidence.note.isEmpty() ? body : QStringLiteral("%1 (%2)").arg(body, evidence.note);
}

QVector<diagnosis::Finding> PromptBuilder::rankedFindings(const RewriteRequest &request) const
{
    QVector<diagnosis::Finding> findings = request.diagnosis.allFindings();
    const auto rank = [&](const diagnosis::Finding &finding) {
        const qsizetype index = request.rankedRuleIds.indexOf(finding.ruleId);
        return index < 0 ? request.rankedRuleIds.size() : index;
    };
    std::stable_sort(findings.begin(), findings.end(), [&](const diagnosis::Finding &a, const diagnosis::Finding &b) {
        if (rank(a) != rank(b))
            return rank(a) < rank(b);
        if (a.severity != b.severity)
            return a.severity > b.severity;
        return a.confidence > b.confidence;
    });
    if (findings.size() > m_maxFindings)
        findings.resize(m_maxFindings);
    return findings;
}

QString PromptBuilder::findingsSection(const RewriteRequest &request) const
{
    const QVector<diagnosis::Finding> findings = rankedFindings(request);
    if (findings.isEmpty())
        return QStringLiteral("The diagnosis found nothing specific; look for the usual Triton wins "
                              "(vector width, block sizes, num_warps/num_stages, fusion, tensor cores).\n");
    QString text;
    for (int i = 0; i < findings.size(); ++i) {
        const diagnosis::Finding &finding = findings.at(i);
        text += QStringLiteral("%1. [%2] %3 (%4, severity %5, confidence %6%7)\n")
                    .arg(i + 1).arg(finding.ruleId, finding.title, diagnosis::levelName(finding.level),
                                    diagnosis::severityName(finding.severity), numberText(finding.confidence),
                                    finding.gapShare ? QStringLiteral(", explains about %1% of the gap to roofline")
                                                           .arg(qRound(finding.gapShare->share * 100))
                                                     : QString());
        const QString quoted = quotedLine(finding.span, request);
        text += QStringLiteral("   Where: %1%2\n").arg(spanText(finding.span),
                                                       quoted.isEmpty() ? QString() : QStringLiteral(": `%1`").arg(quoted));
        if (!finding.cause.isEmpty())
            text += QStringLiteral("   Cause: %1\n").arg(finding.cause);
        for (int e = 0; e < finding.evidence.size() && e < kMaxEvidencePerFinding; ++e)
            text += QStringLiteral("   - %1\n").arg(describeEvidence(finding.evidence.at(e)));
        if (!finding.recipes.isEmpty())
            text += QStringLiteral("   Known fixes: %1\n").arg(finding.recipes.join(QStringLiteral(", ")));
    }
    return text;
}

QString PromptBuilder::timingSection(const RewriteRequest &request)
{
    const QJsonObject &timing = request.timing;
    if (timing.isEmpty())
        return QStringLiteral("Not measured yet.\n");
    QString text;
    if (timing.contains(QLatin1String("ms")))
        text += QStringLiteral("- median time: %1 ms\n").arg(numberText(timing.value(QLatin1String("ms")).toDouble()));
    if (timing.contains(QLatin1String("roofline_pct")))
        text += QStringLiteral("- %1% of the roofline\n").arg(numberText(timing.value(QLatin1String("roofline_pct")).toDouble()));
    if (timing.contains(QLatin1String("bound")))
        text += QStringLiteral("- bound: %1\n").arg(timing.value(QLatin1String("bound")).toString());
    const QStringList known{QStringLiteral("ms"), QStringLiteral("roofline_pct"), QStringLiteral("bound")};
    QJsonObject rest = timing;
    for (const QString &key : known)
        rest.remove(key);
    if (!rest.isEmpty())
        text += QStringLiteral("- more: %1\n").arg(QString::fromUtf8(QJsonDocument(rest).toJson(QJsonDocument::Compact)));
    return text;
}

Prompt PromptBuilder::build(const RewriteRequest &request) const
{
    Prompt prompt;
    prompt.system = QString::fromLatin1(kSystemPrompt);

    QString constraints;
    for (const QString &rule : rewriteConstraints())
        constraints += QStringLiteral("- %1\n").arg(rule);

    const QString device = request.deviceName.isEmpty() ? QStringLiteral("an NVIDIA GPU") : request.deviceName;
    const QString kernel = request.kernelName.isEmpty() ? QStringLiteral("the kernel") : QStringLiteral("`%1`").arg(request.kernelName);
    QString user;
    user += QStringLiteral("## Goal\n\nMake %1 in this task file faster on %2.\n\n").arg(kernel, device);
    user += QStringLiteral("## Task file (%1)\n\n```python\n%2%3```\n\n")
                .arg(request.taskPath.isEmpty() ? QStringLiteral("task.py") : request.taskPath, request.taskText,
                     request.taskText.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"));
    user += QStringLiteral("## Current timing\n\n%1\n").arg(timingSection(request));
    if (request.outputTolerance > 0)
        user += QStringLiteral("## Tolerance\n\nEach output must match a float64 reference within a relative error "
                               "(||out - ref|| / ||ref||) of %1: lower-precision operands (tf32, bf16) are allowed "
                               "where that bound holds.\n\n").arg(request.outputTolerance, 0, 'g', 3);
    if (!request.launch.isEmpty())
        user += QStringLiteral("## Launch of %1 as captured\n\n```json\n%2\n```\n\n")
                    .arg(kernel, QString::fromUtf8(QJsonDocument(request.launch).toJson(QJsonDocument::Compact)));
    user += QStringLiteral("## Diagnosis, most important first\n\n%1\n").arg(findingsSection(request));
    if (!request.alreadyTried.isEmpty())
        user += QStringLiteral("%1 earlier rewrites of this file were already tried; propose a different one.\n\n")
                    .arg(request.alreadyTried.size());
    user += QStringLiteral("## Rules\n\n%1\n## Answer format\n\n%2\n").arg(constraints, QString::fromLatin1(kOutputContract));
    prompt.user = user;
    return prompt;
}

} // namespace strata::rewrite::llm
