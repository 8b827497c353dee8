// Recipe convert-operand-once: a dot operand loaded from one pointer argument and converted in the
// loop (`w.to(tl.float16)` of an int8 or fp8 weight tile), at an address no program id of some
// launched grid axis moves, is converted by every program along that axis: the same tiles, again
// and again (64 times for a 4096-token w8a16 matmul at 64-row blocks). The candidate converts the
// whole tensor once per forward with a small elementwise kernel into
// `torch.empty_like(arg, dtype=...)` (an allocation, not torch compute) and launches the kernel on
// that; the kernel's `.to(...)` is then a no-op. A tensor that is not contiguous is passed as
// before (the flat conversion needs one element order for both).
//
// No IR fact of the kernel promises it (its dot is the same; one conversion op goes): what changes
// is how often each element is converted at run time. Timed before it was written
// (bench/results/mechanism-probes-2026-12-07, H100): 1.29x over w8a16's best.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"
#include "rewrite/recipes/RecipeContext.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

const QString kKernel = QStringLiteral("_strata_convert_kernel");
const QString kConverted = QStringLiteral("_converted_operand");
constexpr qint64 kMinRepeats = 4;  // below this the extra pass over the tensor costs about what it saves

struct ConvertedOperand {
    Node dot, conversion, load;
    QString pointer;    // the kernel's pointer parameter the tile is loaded from
    QString torchType;  // the conversion's target as a torch dtype
    qint64 repeats = 1; // programs that convert the same tile (the launched axes its address ignores)
};

// A conversion target the dot takes, as torch names it and as the launch spec's pointer types do.
struct TargetType {
    QString torch;    // "torch.float16"
    QString pointer;  // "*fp16"
};

// `tl.float16` (bfloat16, float32; or `triton.language.` ...); nullopt for any other text.
std::optional<TargetType> targetTypeOf(const QString &tritonType)
{
    static const QRegularExpression form(QStringLiteral("^(tl|triton\\.language)\\.(float16|bfloat16|float32)$"));
    static const QHash<QString, QString> pointers = {{QStringLiteral("float16"), QStringLiteral("*fp16")},
                                                     {QStringLiteral("bfloat16"), QStringLiteral("*bf16")},
                                                     {QStringLiteral("float32"), QStringLiteral("*fp32")}};
    const QRegularExpressionMatch match = form.match(tritonType.trimmed());
    if (!match.hasMatch())
        return std::nullopt;
    return TargetType{QStringLiteral("torch.") + match.captured(2), pointers.value(match.captured(2))};
}

// The one value `node` names (itself when not a name; nullopt when assigned more than once).
std::optional<Node> resolved(const diagnosis::KernelView &kernel, const Node &node)
{
    const QString name = nameOf(node);
    if (name.isEmpty())
        return node;
    const QVector<Node> values = kernel.assignmentsOf(name);
    return values.size() == 1 ? std::optional<Node>(values.first()) : std::nullopt;
}

// The pointer parameter a load's address starts from: the one pointer parameter it reads.
QString loadedPointer(const RecipeContext &context, const Node &load)
{
    QStringList pointers;
    for (const QString &name : namesRead(argument(load, 0, "pointer"))) {
        if (!context.pointerType(name).isEmpty())
            pointers.append(name);
    }
    return pointers.size() == 1 ? pointers.first() : QString();
}

int readsOf(const Node &root, const QString &name)
{
    int reads = 0;
    walk(root, [&](const Node &node, const QVector<Node> &) { reads += nameOf(node) == name && isType(child(node, "ctx"), "Load"); });
    return reads;
}

// `name` appears in the kernel only inside `load`.
bool readOnlyThere(const RecipeContext &context, const QString &name, const Node &load)
{
    int everywhere = 0, inLoad = 0;
    walk(context.kernel().function(), [&](const Node &node, const QVector<Node> &) { everywhere += nameOf(node) == name; });
    walk(load, [&](const Node &node, const QVector<Node> &) { inLoad += nameOf(node) == name; });
    return everywhere == inLoad;  // the parameter's own declaration is an `arg` node, not a Name
}

std::optional<ConvertedOperand> convertedOperand(const RecipeContext &context, const Node &dot)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QVector<qint64> grid = context.grid();
    for (int index = 0; index < 2; ++index) {
        const std::optional<Node> conversion = resolved(kernel, argument(dot, index, index == 0 ? "input" : "other"));
        if (!conversion || !isMethodCall(*conversion, "to") || children(*conversion, "args").isEmpty())
            continue;
        const std::optional<TargetType> target = targetTypeOf(context.source().slice(children(*conversion, "args").at(0).toObject()));
        const Node receiver = child(child(*conversion, "func"), "value");
        const std::optional<Node> load = resolved(kernel, receiver);
        // The loaded tile is used only by this conversion: another use would see the converted type.
        if (!target || !load || !isTritonCall(*load, "load")
            || (!nameOf(receiver).isEmpty() && readsOf(kernel.function(), nameOf(receiver)) != 1))
            continue;
        ConvertedOperand found{dot, *conversion, *load, loadedPointer(context, *load), target->torch, 1};
        if (found.pointer.isEmpty() || !readOnlyThere(context, found.pointer, *load)
            || context.pointerType(found.pointer) == target->pointer)
            continue;  // loaded as the type it is converted to: nothing to convert
        const QSet<int> moving = kernel.programAxes(argument(*load, 0, "pointer"));
        for (int axis = 0; axis < grid.size(); ++axis)
            found.repeats *= moving.contains(axis) ? 1 : grid.at(axis);
        if (found.repeats >= kMinRepeats)
            return found;
    }
    return std::nullopt;
}

QString converterKernel(const QString &tl)
{
    return QStringLiteral("\n\n@triton.jit\n"
                          "def %1(src_ptr, dst_ptr, numel, BLOCK: %2.constexpr):\n"
                          "    # One pass over the operand in its element order: dst[i] = src[i] converted.\n"
                          "    offs = %2.program_id(0).to(%2.int64) * BLOCK + %2.arange(0, BLOCK)\n"
                          "    mask = offs < numel\n"
                          "    %2.store(dst_ptr + offs, %2.load(src_ptr + offs, mask=mask).to(dst_ptr.dtype.element_ty), mask=mask)\n")
        .arg(kKernel, tl);
}

} // namespace

QVector<RecipeCandidate> proposeConvertOperandOnce(const RecipeContext &context)
{
    const SourceText &source = context.source();
    const QString &text = source.text();
    static const QRegularExpression imports(QStringLiteral("^import torch\\s*$[\\s\\S]*^import triton\\s*$|^import triton\\s*$[\\s\\S]*^import torch\\s*$"),
                                            QRegularExpression::MultilineOption);
    if (!context.hasLaunchSite() || !context.kernel().decorators().join(u' ').contains(QLatin1String("triton.jit"))
        || !imports.match(text).hasMatch() || text.contains(kKernel) || text.contains(kConverted))
        return {};
    for (const diagnosis::LocatedNode &call : context.kernel().callsOf("dot")) {
        if (context.kernel().enclosingLoops(call.ancestors).isEmpty())
            continue;
        const std::optional<ConvertedOperand> operand = convertedOperand(context, call.node);
        const QJsonObject argument = operand ? context.launchArgument(operand->pointer) : QJsonObject();
        const QString argumentText = argument.value(QLatin1String("text")).toString().trimmed();
        if (!operand || !QRegularExpression(QStringLiteral("^[A-Za-z_]\\w*$")).match(argumentText).hasMatch())
            continue;
        const int launchLine = context.launchSite().value(QLatin1String("lineno")).toInt();
        const int kernelEnd = context.kernel().function().value(QLatin1String("end_lineno")).toInt();
        if (source.lineStart(kernelEnd + 1) < 0 || launchLine <= 0)
            continue;
        const QString indent = source.indentOf(launchLine);
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("convert-operand-once");
        candidate.edits.append({source.lineStart(kernelEnd + 1), source.lineStart(kernelEnd + 1), converterKernel(tritonLanguage(context)) + u'\n'});
        candidate.edits.append({source.lineStart(launchLine), source.lineStart(launchLine),
                                QStringLiteral("%1%2 = %3  # converted once per forward, not once per program\n"
                                               "%1if %3.is_contiguous():\n"
                                               "%1    %2 = torch.empty_like(%3, dtype=%4)\n"
                                               "%1    %5[(triton.cdiv(%3.numel(), 4096),)](%3, %2, %3.numel(), BLOCK=4096)\n")
                                    .arg(indent, kConverted, argumentText, operand->torchType, kKernel)});
        candidate.edits.append({source.startOf(argument), source.endOf(argument), kConverted});
        candidate.title = QStringLiteral("%1 converted to %2 once per forward (%3 programs convert each tile now)")
                              .arg(operand->pointer, operand->torchType).arg(operand->repeats);
        candidate.rationale = QStringLiteral("The dot on line %1 converts `%2` in the loop, and its address ignores the program ids "
                                             "of launched axes with %3 programs in all: each of them converts the same tiles of "
                                             "`%4`. One elementwise pass converts the tensor once; the kernel then reads it as "
                                             "%5 and its conversion is a no-op.")
                                  .arg(lineOf(call.node)).arg(source.slice(operand->conversion)).arg(operand->repeats)
                                  .arg(argumentText, operand->torchType);
        candidate.findingRuleIds = {QStringLiteral("source: a dot operand converted by every program of another grid axis")};
        candidate.findingRuleIds += context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.compute-bound"), QStringLiteral("L2.latency-bound")}));
        // Hand-timed 1.29x on w8a16 (see the header): above the tile recipes' re-tiles of a tiled kernel.
        candidate.value = 0.65;
        candidate.sets = {QStringLiteral("launch-argument:") + operand->pointer};
        return {candidate};
    }
    return {};
}

} // namespace strata::rewrite::recipes
