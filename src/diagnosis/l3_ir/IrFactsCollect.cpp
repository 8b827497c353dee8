// Collects KernelIrFacts from a loaded compile: one pass over the TTGIR ops, one over the PTX
// instructions, one over the SASS instructions, each attributed to its kernel source line
// through the compile's location map.
#include "diagnosis/l3_ir/IrFacts.h"

#include "diagnosis/l3_ir/PtxConstantTables.h"
#include "diagnosis/model/ElementTypes.h"

#include "ir/mlir/MlirReader.h"

#include <QFile>
#include <QMap>
#include <QRegularExpression>

#include <algorithm>

namespace strata::diagnosis {

namespace {

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

// Adds one global access, merging it with an earlier one of the same shape on the line.
void addAccess(SourceLineFacts &facts, GlobalAccess access)
{
    for (GlobalAccess &known : facts.accesses) {
        if (known.stage == access.stage && known.opcode == access.opcode) {
            ++known.count;
            return;
        }
    }
    access.count = 1;
    facts.accesses.append(access);
}

// "ld.global.nc.v4.b32" -> width 4, 32 bits per register.
GlobalAccess ptxAccess(const QString &opcode, int irLine)
{
    static const QRegularExpression typeToken(QStringLiteral("^[bfsu](8|16|32|64|128)$"));
    GlobalAccess access{QStringLiteral("ptx"), opcode.startsWith(QLatin1String("st.")), 1, 32, 0, 0, irLine, opcode};
    for (const QString &token : opcode.split(u'.')) {
        if (token == QLatin1String("v2") || token == QLatin1String("v4") || token == QLatin1String("v8"))
            access.vectorWidth = token.mid(1).toInt();
        const auto match = typeToken.match(token);
        if (match.hasMatch())
            access.elementBits = match.captured(1).toInt();
    }
    access.accessBits = access.vectorWidth * access.elementBits;
    return access;
}

// "LDG.E.128" -> 128 bits, "LDG.E.U16" -> 16, "LDG.E" -> 32.
GlobalAccess sassAccess(const QString &opcode, int irLine)
{
    int bits = 32;
    for (const QString &token : opcode.split(u'.')) {
        if (token == QLatin1String("64") || token == QLatin1String("128"))
            bits = token.toInt();
        else if (token == QLatin1String("U16") || token == QLatin1String("S16"))
            bits = 16;
        else if (token == QLatin1String("U8") || token == QLatin1String("S8"))
            bits = 8;
    }
    const int width = std::max(1, bits / 32);
    return {QStringLiteral("sass"), opcode.startsWith(QLatin1String("STG")), width, bits / width, bits, 0, irLine, opcode};
}

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

DotKind dotKindOf(const ir::MlirModule &module, const ir::MlirOp &op)
{
    if (op.name == QLatin1String("ttng.warp_group_dot"))
        return DotKind::Wgmma;
    for (const int index : op.layouts) {
        const ir::LayoutAttr &layout = module.layouts[index];
        if (layout.kind == ir::LayoutKind::NvidiaMma)
            return layout.versionMajor >= 3 ? DotKind::Wgmma : DotKind::MmaV2;
    }
    return DotKind::Fma;  // a tt.dot left with blocked / dot_op-of-blocked operands
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

// Bytes of the first tile in `types`: a tensor or shared buffer of values or of pointers
// ("tensor<64x!tt.ptr<f16>>" -> 128), or one scalar ("f32", "!tt.ptr<bf16>"); 0 when none.
double firstTileBytes(const QString &types)
{
    static const QRegularExpression tile(QStringLiteral("(?:(?:tensor|memdesc)<((?:\\d+x)+))?(?:!tt\\.ptr<)?([fiu]\\d+|bf16|f8\\w*)\\b"));
    const QRegularExpressionMatch match = tile.match(types);
    if (!match.hasMatch())
        return 0;
    double elements = 1;
    for (const QString &dim : match.captured(1).split(u'x', Qt::SkipEmptyParts))
        elements *= dim.toDouble();
    return elements * std::max(1, mlirElementBytes(match.captured(2)));
}

// Global bytes one execution of a memory op moves: a load's result, a store's or copy's pointer
// tile, a TMA copy's descriptor tile.
double globalBytesOf(const ir::MlirOp &op)
{
    if (op.name == QLatin1String("tt.load"))
        return firstTileBytes(op.resultTypes);
    if (op.name == QLatin1String("tt.store") || op.name == QLatin1String("ttg.async_copy_global_to_local")
        || op.name == QLatin1String("ttng.async_tma_copy_global_to_local"))
        return firstTileBytes(op.operandTypes);
    return 0;
}

void addTtgirOp(const ir::MlirModule &module, const ir::MlirOp &op, SourceLineFacts &facts)
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
    else if (name == QLatin1String("ttng.async_tma_copy_global_to_local"))
        ++facts.tmaCopies;
    else if (name == QLatin1String("ttg.convert_layout"))
        ++facts.convertLayouts;
    else if (name == QLatin1String("ttg.local_alloc") && op.operands.isEmpty())
        facts.buffers = std::max(facts.buffers, bufferDepth(op));
    else if (name == QLatin1String("tt.dot") || name == QLatin1String("ttng.warp_group_dot")) {
        facts.dotKind = dotKindOf(module, op);
        facts.dotOp = name;
        facts.dotIrLine = op.line;
        facts.dotShape = tensorShape(op.resultTypes);
        facts.dotOperandType = firstElementType(op.operandTypes);
        for (const int index : op.layouts) {
            if (module.layouts[index].kind == ir::LayoutKind::NvidiaMma) {
                facts.layouts.append(lineLayout(op, module.layouts[index]));
                break;
            }
        }
    }
}

void addPtxInstruction(const QString &opcode, int irLine, SourceLineFacts &facts)
{
    if (opcode.startsWith(QLatin1String("ld.global")) || opcode.startsWith(QLatin1String("st.global")))
        addAccess(facts, ptxAccess(opcode, irLine));
    else if (opcode.startsWith(QLatin1String("cp.async.bulk.tensor")))
        ++facts.tmaInstructions;
    else if (opcode.startsWith(QLatin1String("cp.async.c")))  // cp.async.ca / cp.async.cg
        ++facts.cpAsync;
    else if (opcode.startsWith(QLatin1String("wgmma.mma_async")) || opcode.startsWith(QLatin1String("mma.sync")))
        ++facts.mmaInstructions;
    else if (opcode.startsWith(QLatin1String("fma.rn.f32")))
        ++facts.fmaInstructions;
    else if (opcode.startsWith(QLatin1String("st.shared")) || opcode.startsWith(QLatin1String("stmatrix")))
        ++facts.sharedStores;
    else if (opcode.startsWith(QLatin1String("ld.shared")) || opcode.startsWith(QLatin1String("ldmatrix")))
        ++facts.sharedLoads;
    else if (opcode.startsWith(QLatin1String("bar.sync")) || opcode.startsWith(QLatin1String("barrier.sync")))
        ++facts.barriers;
}

void addSassInstruction(const QString &opcode, int irLine, SourceLineFacts &facts)
{
    const QString head = opcode.section(u'.', 0, 0);
    if (head == QLatin1String("LDG") || head == QLatin1String("STG"))
        addAccess(facts, sassAccess(opcode, irLine));
    else if (head == QLatin1String("STL"))
        ++facts.spillStores;
    else if (head == QLatin1String("LDL"))
        ++facts.spillLoads;
}

struct InstructionCount {
    int instructions = 0;
    int attributed = 0;  // with a kernel source line
};

// Calls `add(opcode, irLine, facts)` for every instruction line of `listing` with a kernel line.
template <typename Add>
InstructionCount forEachAttributedInstruction(const StageListing &listing, const LocationMap &map, FactsByLine &lines, Add add)
{
    InstructionCount count;
    for (int i = 0; i < listing.lines.size(); ++i) {
        const ListingLine &line = listing.lines[i];
        if (line.kind != LineKind::Instruction)
            continue;
        ++count.instructions;
        const int sourceLine = map.sourceForLine(listing.stage, i).line;
        if (sourceLine > 0) {
            add(line.opcode, i, lines.at(sourceLine));
            ++count.attributed;
        }
    }
    return count;
}

// A machine-code stage that read but gives L3 nothing to attribute is degraded, not clean.
void noteUnattributed(const StageDescriptor &stage, const InstructionCount &count, QStringList &problems)
{
    if (count.instructions == 0)
        problems << QStringLiteral("the %1 holds no instructions (empty or truncated)").arg(stage.displayName);
    else if (count.attributed == 0)
        problems << QStringLiteral("none of the %1's %2 instructions maps to a kernel source line")
                        .arg(stage.displayName).arg(count.instructions);
}

const StageDescriptor *lastStageOf(const LoadedCompile &compile, StageFormat format)
{
    const StageDescriptor *found = nullptr;
    for (const StageDescriptor &stage : compile.stages) {
        if (stage.format == format && (!found || stage.order > found->order))
            found = &stage;
    }
    return found;
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
Expected<bool> collectTtgir(const LoadedCompile &compile, const StageDescriptor &stage, FactsByLine &lines,
                            QStringList &problems)
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
            addTtgirOp(*module, op, lines.at(sourceLine));
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

void readKernelFigures(const CompileResult &result, KernelIrFacts &facts)
{
    facts.kernel = result.kernel;
    facts.sourcePath = result.sourcePath;
    facts.target = result.target;
    facts.numWarps = result.metadata.value(QStringLiteral("num_warps")).toInt();
    facts.numStages = result.metadata.value(QStringLiteral("num_stages")).toInt();
    facts.dynamicSharedBytes = result.metadata.value(QStringLiteral("shared")).toInt();
    facts.registers = result.ptxas.registers;
    facts.spillStoreBytes = result.ptxas.spillStoreBytes;
    facts.spillLoadBytes = result.ptxas.spillLoadBytes;
    facts.stackBytes = result.ptxas.stackBytes;
    facts.staticSharedBytes = result.ptxas.sharedBytes;
    facts.ptxasWarnings = result.ptxas.warnings;
}

} // namespace

QString dotKindName(DotKind kind)
{
    switch (kind) {
    case DotKind::Wgmma: return QStringLiteral("wgmma");
    case DotKind::MmaV2: return QStringLiteral("mma_v2");
    case DotKind::Fma: return QStringLiteral("fma");
    case DotKind::None: break;
    }
    return QStringLiteral("none");
}

int LineLayout::contiguousPerThread() const
{
    if (order.isEmpty() || order.first() < 0 || order.first() >= sizePerThread.size())
        return sizePerThread.isEmpty() ? 0 : sizePerThread.last();
    return sizePerThread[order.first()];
}

int SourceLineFacts::minAccessBits(const QString &stage, bool store) const
{
    int smallest = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            smallest = smallest == 0 ? access.accessBits : std::min(smallest, access.accessBits);
    }
    return smallest;
}

int SourceLineFacts::maxAccessBits(const QString &stage, bool store) const
{
    int largest = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            largest = std::max(largest, access.accessBits);
    }
    return largest;
}

int SourceLineFacts::accessCount(const QString &stage, bool store) const
{
    int count = 0;
    for (const GlobalAccess &access : accesses) {
        if (access.stage == stage && access.store == store)
            count += access.count;
    }
    return count;
}

const SourceLineFacts *KernelIrFacts::line(int sourceLine) const
{
    const auto it = std::lower_bound(lines.cbegin(), lines.cend(), sourceLine,
                                     [](const SourceLineFacts &facts, int line) { return facts.line < line; });
    return it != lines.cend() && it->line == sourceLine ? &*it : nullptr;
}

bool KernelIrFacts::hasMmaDot() const
{
    return std::any_of(lines.cbegin(), lines.cend(), [](const SourceLineFacts &facts) {
        return facts.dotKind == DotKind::Wgmma || facts.dotKind == DotKind::MmaV2;
    });
}

// A stage that loaded with defects (junk lines, locations that point nowhere) gives partial
// facts; L3 does not read it rather than count what is left as the whole kernel.
bool degradedStage(const LoadedCompile &compile, const StageDescriptor &stage, QStringList &problems)
{
    if (!compile.isDegraded(stage.id))
        return false;
    QStringList kinds;
    for (const StageProblem &problem : compile.problems) {
        if (problem.stage == stage.id && !kinds.contains(problemKindName(problem.error.kind)))
            kinds << problemKindName(problem.error.kind);
    }
    problems << QStringLiteral("the %1 of kernel %2 is degraded (%3): L3 does not read it")
                    .arg(stage.displayName, compile.result.kernel, kinds.join(QStringLiteral(", ")));
    return true;
}

Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile)
{
    KernelIrFacts facts;
    readKernelFigures(compile.result, facts);
    FactsByLine lines;
    const StageDescriptor *ttgir = declaredGpuIrStage(compile);
    if (ttgir && !degradedStage(compile, *ttgir, facts.problems)) {
        Expected<bool> read = collectTtgir(compile, *ttgir, lines, facts.problems);
        if (!read)
            return read.error();
        facts.gpuIrRead = *read;
        if (*read)
            facts.stagesRead.append(ttgir->id);
    }
    const StageDescriptor *ptx = lastStageOf(compile, StageFormat::Ptx);
    if (ptx && !degradedStage(compile, *ptx, facts.problems)) {
        const StageListing &listing = *compile.listing(ptx->id);
        const QSet<int> tableLoads = constantTableLoads(listing);
        const auto addKernelDataInstruction = [&tableLoads](const QString &opcode, int irLine, SourceLineFacts &line) {
            if (!tableLoads.contains(irLine))
                addPtxInstruction(opcode, irLine, line);
        };
        noteUnattributed(*ptx, forEachAttributedInstruction(listing, compile.map, lines, addKernelDataInstruction),
                         facts.problems);
        facts.stagesRead.append(ptx->id);
    }
    const StageDescriptor *sass = lastStageOf(compile, StageFormat::Sass);
    if (sass && !degradedStage(compile, *sass, facts.problems)) {
        noteUnattributed(*sass, forEachAttributedInstruction(*compile.listing(sass->id), compile.map, lines, addSassInstruction),
                         facts.problems);
        facts.stagesRead.append(sass->id);
    }
    facts.lines = lines.take();
    return facts;
}

} // namespace strata::diagnosis
