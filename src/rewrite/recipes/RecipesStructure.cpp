// Structural recipe: a row walked by several loops (max, then sum, then write) rewritten as one
// pass with the row in registers.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

#include <variant>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

// Rows wider than this are not held in registers (64 fp32 registers per thread at 16 warps, 32
// at 32 warps): those need an online update instead, which this recipe does not write.
constexpr qint64 kMaxRowElements = 32768;

// Warps for a row held in registers (the figures liger-kernel's calculate_settings uses).
int warpsForRow(qint64 elements)
{
    return elements >= 32768 ? 32 : elements >= 8192 ? 16 : elements >= 2048 ? 8 : 4;
}

// One pass of the finding: `for i in range(0, N, BLOCK):` (range or tl.range without keywords,
// no else, no break or continue) whose step is a constexpr parameter.
struct Pass {
    const diagnosis::LoopInfo *loop = nullptr;
    QString induction, bound, boundName, step;  // bound: its canonical text; boundName: when a Name; step: the constexpr
};

std::optional<Pass> readPass(const RecipeContext &context, const diagnosis::LoopInfo &loop)
{
    const QJsonArray args = children(loop.iteratorCall, "args");
    if ((loop.iterator != QLatin1String("range") && loop.iterator != QLatin1String("tl.range")) || args.size() != 3
        || !children(loop.iteratorCall, "keywords").isEmpty() || loop.inductionNames.size() != 1
        || !isType(child(loop.node, "target"), "Name") || !children(loop.node, "orelse").isEmpty()
        || context.kernel().constValue(args.at(0).toObject()) != 0 || containsType(loop.node, "Break")
        || containsType(loop.node, "Continue") || containsType(loop.node, "Return"))
        return std::nullopt;
    const Node step = args.at(2).toObject();
    const diagnosis::KernelParam *param = context.kernel().param(step.value(QLatin1String("id")).toString());
    if (!isType(step, "Name") || !param || !param->isConstexpr)
        return std::nullopt;
    const Node bound = args.at(1).toObject();
    return Pass{&loop, loop.inductionNames.first(), canonicalText(bound), bound.value(QLatin1String("id")).toString(), param->name};
}

// The passes a multi-pass finding names (its "pass N over the data" spans), when every one of
// them steps through the same bound by the same constexpr.
QVector<Pass> passesOf(const RecipeContext &context, const Finding &finding)
{
    QVector<Pass> passes;
    for (const diagnosis::Evidence &item : finding.evidence) {
        const auto *span = std::get_if<diagnosis::SpanEvidence>(&item.data);
        if (!span || !item.note.startsWith(QLatin1String("pass ")))
            continue;
        const diagnosis::LoopInfo *loop = nullptr;
        for (const diagnosis::LoopInfo &candidate : context.kernel().loops()) {
            if (lineOf(candidate.node) == span->span.line)
                loop = &candidate;
        }
        const std::optional<Pass> pass = loop ? readPass(context, *loop) : std::nullopt;
        if (!pass || (!passes.isEmpty() && (pass->bound != passes.first().bound || pass->step != passes.first().step)))
            return {};
        passes.append(*pass);
    }
    return passes.size() >= 2 ? passes : QVector<Pass>{};
}

// Edits that turn a pass into straight-line code: the header becomes `i = 0` (one trip, since the
// block now covers the row) and the body moves out one indentation level.
QVector<TextEdit> flattenPass(const SourceText &source, const Pass &pass)
{
    const Node loop = pass.loop->node;
    const QJsonArray body = children(loop, "body");
    const int headerLine = lineOf(loop);
    const int firstBodyLine = lineOf(body.at(0).toObject());
    const int lastLine = loop.value(QLatin1String("end_lineno")).toInt();
    const QString headerIndent = source.indentOf(headerLine);
    const QString bodyIndent = source.indentOf(firstBodyLine);
    const int afterHeader = pass.loop->iteratorCall.value(QLatin1String("end_lineno")).toInt() + 1;
    QVector<TextEdit> edits;
    edits.append({source.startOf(loop), source.lineStart(afterHeader),
                  QStringLiteral("%1 = 0  # one trip: the block covers the row\n").arg(pass.induction)});
    for (int line = afterHeader; line <= lastLine; ++line) {
        if (source.line(line).startsWith(bodyIndent))
            edits.append({source.lineStart(line), source.lineStart(line) + int(bodyIndent.size()), headerIndent});
    }
    return edits;
}

// A later pass's load of the same pointer with another `other` would stay a second load: the
// compiler merges only identical loads. Loading with the first pass's `other` and putting the
// later fill value back with tl.where gives the same values and one load.
QVector<TextEdit> unifyFillValues(const RecipeContext &context, const QVector<Pass> &passes)
{
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    QHash<QString, QString> fillOfPointer;  // canonical pointer text -> first pass's other text
    QVector<TextEdit> edits;
    for (int i = 0; i < passes.size(); ++i) {
        walk(passes[i].loop->node, [&](const Node &node, const QVector<Node> &) {
            if (!isTritonCall(node, "load") || children(node, "args").isEmpty())
                return;
            const QString pointer = canonicalText(argument(node, 0, "pointer"));
            const Node other = keyword(node, "other"), mask = keyword(node, "mask");
            if (i == 0 || !fillOfPointer.contains(pointer)) {
                if (!other.isEmpty() && !fillOfPointer.contains(pointer))
                    fillOfPointer.insert(pointer, source.slice(other));
                return;
            }
            const QString fill = fillOfPointer.value(pointer);
            if (other.isEmpty() || mask.isEmpty() || source.slice(other) == fill)
                return;
            edits.append({source.startOf(node), source.startOf(node), QStringLiteral("%1.where(%2, ").arg(tl, source.slice(mask))});
            edits.append({source.startOf(other), source.endOf(other), fill});
            edits.append({source.endOf(node), source.endOf(node), QStringLiteral(", %1)").arg(source.slice(other))});
        });
    }
    return edits;
}

bool importsTriton(const SourceText &source)
{
    static const QRegularExpression import(QStringLiteral("^import triton\\s*$"), QRegularExpression::MultilineOption);
    return import.match(source.text()).hasMatch();
}

} // namespace

QVector<RecipeCandidate> proposeSinglePassRows(const RecipeContext &context)
{
    // Each pass over the row reads it from memory again (three passes: ~3x the minimal traffic
    // unless L2 keeps it). With the block raised to the row's next power of two every pass runs
    // once, the passes become straight-line code, and the compiler merges their equal loads
    // into one: the row is read once and stays in registers.
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.multi-pass-reread")});
    if (findings.isEmpty() || !context.hasLaunchSite() || hasDot(context) || !importsTriton(context.source()))
        return {};
    const QVector<Pass> passes = passesOf(context, findings.first());
    if (passes.isEmpty())
        return {};
    const QString step = passes.first().step;
    const QJsonObject stepKeyword = context.launchKeyword(step);
    if (stepKeyword.isEmpty() || context.decorators().decides(step) || context.gridDependsOn(step))
        return {};
    const diagnosis::KernelParam *boundParam = context.kernel().param(passes.first().boundName);
    if (!boundParam)
        return {};  // the bound is an expression: no launch value to size the block from
    const std::optional<qint64> rowLength = boundParam->isConstexpr ? context.constexprValue(boundParam->name)
                                                                    : context.launchIntValue(boundParam->name);
    const QString rowText = context.launchArgumentText(boundParam->name);
    if (!rowLength || *rowLength <= 0 || nextPowerOfTwo(*rowLength) > kMaxRowElements || rowText.isEmpty())
        return {};
    const qint64 block = nextPowerOfTwo(*rowLength);

    const SourceText &source = context.source();
    QVector<TextEdit> edits;
    for (const Pass &pass : passes)
        edits += flattenPass(source, pass);
    edits += unifyFillValues(context, passes);
    const QJsonObject stepValue = stepKeyword.value(QLatin1String("value")).toObject();
    edits.append({source.startOf(stepValue), source.endOf(stepValue), QStringLiteral("triton.next_power_of_2(%1)").arg(rowText)});

    QStringList passLines;
    for (const Pass &pass : passes)
        passLines.append(QString::number(lineOf(pass.loop->node)));
    const auto make = [&](const QVector<TextEdit> &extra, int warps) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("single-pass-rows");
        candidate.title = QStringLiteral("one pass over the row (loops on lines %1 in registers, %2 warps)")
                              .arg(passLines.join(QStringLiteral(", "))).arg(warps);
        candidate.rationale = QStringLiteral("The loops on lines %1 each walk the same %2-element row, so each reads it from "
                                             "memory again. %3 = next_power_of_2(%4) (%5 here) makes every loop a single "
                                             "trip: the passes become straight-line code whose equal loads the compiler "
                                             "merges, and the row is read once.")
                                  .arg(passLines.join(QStringLiteral(", "))).arg(*rowLength).arg(step, rowText).arg(block);
        candidate.findingRuleIds = context.ruleIdsOf(findings);
        candidate.edits = edits + extra;
        candidate.expected = {{QStringLiteral("global_loads"), 0, {}}};
        candidate.value = 0.8;
        candidate.sets = {QStringLiteral("kernel:passes"), QStringLiteral("constexpr:") + step};
        if (!extra.isEmpty())
            candidate.sets.append(QStringLiteral("launch:num_warps"));
        candidate.combinable = false;  // it rewrites the loops other recipes edit
        return candidate;
    };
    QVector<RecipeCandidate> out;
    const int warps = warpsForRow(block);
    if (warps != context.numWarps()) {
        if (const std::optional<QVector<TextEdit>> setWarps = context.setLaunchOption(QStringLiteral("num_warps"), warps))
            out.append(make(*setWarps, warps));
    }
    out.append(make({}, context.numWarps()));
    if (out.size() == 2)
        out[1].value = 0.75;
    return out;
}

} // namespace strata::rewrite::recipes
