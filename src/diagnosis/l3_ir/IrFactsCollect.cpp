// Collects KernelIrFacts from a loaded compile: one pass over the GPU IR (TritonGPU) ops, then the
// backend's own stages (BackendIrRules), each attributed to its kernel source line through the
// compile's location map.
#include "diagnosis/l3_ir/IrFacts.h"

#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrStageLines.h"

#include "ir/mlir/MlirReader.h"

#include <QFile>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>

namespace strata::diagnosis {

namespace {

class GpuIrOnlyRules final : public BackendIrRules {
public:
    GpuIrDot gpuIrDot(const ir::MlirModule &, const ir::MlirOp &) const override { return {}; }
    void addGpuIrOp(const ir::MlirOp &, SourceLineFacts &) const override {}
    QStringList collectMachineFacts(const LoadedCompile &, const LineFactsAt &, QStringList &) const override { return {}; }
    void readCompilerFigures(const CompileResult &, KernelIrFacts &) const override {}
    QVector<Finding> findings(const KernelIrFacts &, const LoadedCompile &) const override { return {}; }
    QStringList gpuIrRules() const override { return {}; }
    QVector<Finding> launchFindings(const KernelIrFacts &, const QJsonObject &) const override { return {}; }
};

class FactsByLine {
public:
    SourceLineFacts &at(int line)
    {
        auto it = m_lines.find(line);
        if (it == m_lines.end()) {
            it = m_lines.insert(line, SourceLineFacts{});
            it->line = line;
        }
        return *it;
    }
    QVector<SourceLineFacts> take() const { return m_lines.values().toVector(); }

private:
    QMap<int, SourceLineFacts> m_lines;
};

bool isInLoop(const ir::MlirModule &module, const ir::MlirOp &op)
{
    for (int parent = op.parent; parent >= 0; parent = module.ops[parent].parent) {
        const QString &name = module.ops[parent].name;
        if (name == QLatin1String("scf.for") || name == QLatin1String("scf.while"))
            return true;
    }
    return false;
}

LineLayout lineLayout(const ir::MlirOp &op, const ir::LayoutAttr &layout)
{
    return {op.name, op.line, layout.displayName(), ir::layoutKindName(layout.kind), layout.sizePerThread,
            layout.threadsPerWarp, layout.warpsPerCTA, layout.order, layout.versionMajor, layout.instrShape};
}

// The dimensions of the first ranked tensor type in `types` ("tensor<32x64xf32, #mma>" -> [32, 64]).
QVector<int> tensorShape(const QString &types)
{
    static const QRegularExpression tensor(QStringLiteral("tensor<((?:\\d+x)+)"));
    const QRegularExpressionMatch match = tensor.match(types);
    QVector<int> shape;
    if (!match.hasMatch())
        return shape;
    for (const QString &dim : match.captured(1).split(u'x', Qt::SkipEmptyParts))
        shape.append(dim.toInt());
    return shape;
}

// Element type of the first tensor or memdesc in `types` ("tensor<128x64xbf16, #shared>" -> "bf16").
QString firstElementType(const QString &types)
{
    static const QRegularExpression shaped(QStringLiteral("(?:tensor|memdesc)<(?:\\d+x)+([A-Za-z][A-Za-z0-9]*)"));
    const QRegularExpressionMatch match = shaped.match(types);
    return match.hasMatch() ? match.captured(1) : QString();
}

// Leading dimension of a multi-buffered `!ttg.memdesc<3x128x64xf16, ...>` (rank >= 3).
int bufferDepth(const ir::MlirOp &op)
{
    static const QRegularExpression memdesc(QStringLiteral("memdesc<((?:\\d+x)+)"));
    const auto match = memdesc.match(op.resultTypes);
    if (!match.hasMatch())
        return 0;
    const QStringList dims = match.captured(1).split(u'x', Qt::SkipEmptyParts);
    return dims.size() >= 3 ? dims.first().toInt() : 0;
}

// Global bytes one execution of a memory op moves: a load's result, a store's or copy's pointer
// tile. The backend adds its own copies' bytes (BackendIrRules::addGpuIrOp).
double globalBytesOf(const ir::MlirOp &op)
{
    if (op.name == QLatin1String("tt.load"))
        return firstTileBytes(op.resultTypes);
    if (op.name == QLatin1String("tt.store") || op.name == QLatin1String("ttg.async_copy_global_to_local"))
        return firstTileBytes(op.operandTypes);
    return 0;
}

void addDot(const ir::MlirModule &module, const ir::MlirOp &op, const GpuIrDot &dot, SourceLineFacts &facts)
{
    facts.dotKind = dot.kind;
    facts.dotName = dot.name;
    facts.dotOp = op.name;
    facts.dotIrLine = op.line;
    facts.dotShape = tensorShape(op.resultTypes);
    facts.dotOperandType = firstElementType(op.operandTypes);
    if (dot.layout >= 0)
        facts.layouts.append(lineLayout(op, module.layouts[dot.layout]));
}

void addTtgirOp(const ir::MlirModule &module, const ir::MlirOp &op, const BackendIrRules &rules, SourceLineFacts &facts)
{
    facts.globalBytes += globalBytesOf(op);
    const QString &name = op.name;
    facts.inLoop = facts.inLoop || isInLoop(module, op);
    const bool memoryOp = name == QLatin1String("tt.load") || name == QLatin1String("tt.store")
                          || name == QLatin1String("ttg.async_copy_global_to_local");
    if (memoryOp) {
        for (const int index : op.layouts) {
            if (module.layouts[index].kind == ir::LayoutKind::Blocked) {
                facts.layouts.append(lineLayout(op, module.layouts[index]));
                break;
            }
        }
    }
    if (name == QLatin1String("tt.load")) {
        ++facts.ttgirLoads;
        if (!op.resultTypes.trimmed().startsWith(QLatin1String("tensor<")))
            ++facts.scalarTtgirLoads;
    }
    else if (name == QLatin1String("ttg.async_copy_global_to_local"))
        ++facts.asyncCopies;
    else if (name == QLatin1String("ttg.convert_layout"))
        ++facts.convertLayouts;
    else if (name == QLatin1String("ttg.local_alloc") && op.operands.isEmpty())
        facts.buffers = std::max(facts.buffers, bufferDepth(op));
    else if (const GpuIrDot dot = rules.gpuIrDot(module, op); dot.kind != DotKind::None)
        addDot(module, op, dot, facts);
    rules.addGpuIrOp(op, facts);
}

// The stage L3 reads layouts from: the last MLIR stage the backend *declares* (not the last one
// that happened to load, which would be TTIR when the TTGIR is missing).
const StageDescriptor *declaredGpuIrStage(const LoadedCompile &compile)
{
    const QVector<StageDescriptor> &stages = compile.declared.isEmpty() ? compile.stages : compile.declared;
    const StageDescriptor *found = nullptr;
    for (const StageDescriptor &stage : stages) {
        if (stage.format == StageFormat::MlirText && (!found || stage.order > found->order))
            found = &stage;
    }
    return found;
}

// A TritonGPU module names its layouts and warp count (ttg.*); TTIR or any other text does not.
bool looksLikeGpuIr(const ir::MlirModule &module, const QString &text)
{
    const bool gpuOp = std::any_of(module.ops.cbegin(), module.ops.cend(),
                                   [](const ir::MlirOp &op) { return op.name.startsWith(QLatin1String("ttg")); });
    return gpuOp || text.contains(QLatin1String("ttg.num-warps"));
}

// Reads the GPU IR into `lines`. Returns false (with a sentence in `problems`) when the stage is
// degraded: absent, empty, not TTGIR, or with no op mapped to a kernel line.
Expected<bool> collectTtgir(const LoadedCompile &compile, const StageDescriptor &stage, const BackendIrRules &rules,
                            FactsByLine &lines, QStringList &problems)
{
    if (!compile.hasStage(stage.id)) {
        problems << QStringLiteral("the %1 of kernel %2 is missing or unreadable").arg(stage.displayName, compile.result.kernel);
        return false;
    }
    const QString path = compile.result.artifacts.value(stage.id).path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read the %1 of kernel %2: %3")
                                         .arg(stage.displayName, compile.result.kernel, file.errorString())};
    const QString text = QString::fromUtf8(file.readAll());
    Expected<ir::MlirModule> module = ir::readMlir(text, path);
    if (!module)
        return module.error();
    const auto isKernelOp = [](const ir::MlirOp &op) { return !op.isFunction() && op.name != QLatin1String("module"); };
    const int ops = std::count_if(module->ops.cbegin(), module->ops.cend(), isKernelOp);
    if (ops == 0) {
        problems << QStringLiteral("%1: the %2 holds no ops (empty or truncated)").arg(path, stage.displayName);
        return false;
    }
    if (!looksLikeGpuIr(*module, text)) {
        problems << QStringLiteral("%1: the %2 holds no TritonGPU ops or layouts (ttg.*): not a %2 module")
                        .arg(path, stage.displayName);
        return false;
    }
    int mapped = 0;
    for (const ir::MlirOp &op : module->ops) {
        const int sourceLine = compile.map.sourceForLine(stage.id, op.line).line;
        if (sourceLine > 0 && isKernelOp(op)) {
            addTtgirOp(*module, op, rules, lines.at(sourceLine));
            ++mapped;
        }
    }
    if (mapped == 0) {
        problems << QStringLiteral("%1: none of the %2's %3 ops has a location in the kernel source")
                        .arg(path, stage.displayName).arg(ops);
        return false;
    }
    return true;
}

// What Triton's metadata says of every compile: the kernel, its warps, stages and dynamic shared memory.
void readKernelFigures(const CompileResult &result, KernelIrFacts &facts)
{
    facts.kernel = result.kernel;
    facts.sourcePath = result.sourcePath;
    facts.target = result.target;
    facts.numWarps = result.metadata.value(QStringLiteral("num_warps")).toInt();
    facts.numStages = result.metadata.value(QStringLiteral("num_stages")).toInt();
    facts.dynamicSharedBytes = result.metadata.value(QStringLiteral("shared")).toInt();
}

} // namespace

Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile, const BackendIrRules &rules)
{
    KernelIrFacts facts;
    readKernelFigures(compile.result, facts);
    rules.readCompilerFigures(compile.result, facts);
    FactsByLine lines;
    const StageDescriptor *ttgir = declaredGpuIrStage(compile);
    if (ttgir && !degradedStage(compile, *ttgir, facts.problems)) {
        Expected<bool> read = collectTtgir(compile, *ttgir, rules, lines, facts.problems);
        if (!read)
            return read.error();
        facts.gpuIrRead = *read;
        if (*read)
            facts.stagesRead.append(ttgir->id);
    }
    const LineFactsAt lineAt = [&lines](int sourceLine) -> SourceLineFacts & { return lines.at(sourceLine); };
    facts.stagesRead += rules.collectMachineFacts(compile, lineAt, facts.problems);
    facts.lines = lines.take();
    return facts;
}

Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile)
{
    return collectIrFacts(compile, defaultIrRules());
}

const BackendIrRules &gpuIrOnlyRules()
{
    static const GpuIrOnlyRules rules;
    return rules;
}

} // namespace strata::diagnosis
