// Collects KernelIrFacts from a loaded compile: one pass over the TTGIR ops, one over the PTX
// instructions, one over the SASS instructions, each attributed to its kernel source line
// through the compile's location map.
#include "diagnosis/l3_ir/IrFacts.h"

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

void addTtgirOp(const ir::MlirModule &module, const ir::MlirOp &op, SourceLineFacts &facts)
{
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
    if (name == QLatin1String("tt.load"))
        ++facts.ttgirLoads;
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

// Calls `add(opcode, irLine, facts)` for every instruction line of `listing` with a kernel line.
template <typename Add>
void forEachAttributedInstruction(const StageListing &listing, const LocationMap &map, FactsByLine &lines, Add add)
{
    for (int i = 0; i < listing.lines.size(); ++i) {
        const ListingLine &line = listing.lines[i];
        if (line.kind != LineKind::Instruction)
            continue;
        const int sourceLine = map.sourceForLine(listing.stage, i).line;
        if (sourceLine > 0)
            add(line.opcode, i, lines.at(sourceLine));
    }
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

Expected<bool> collectTtgir(const LoadedCompile &compile, const StageDescriptor &stage, FactsByLine &lines)
{
    const QString path = compile.result.artifacts.value(stage.id).path;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read the %1 of kernel %2: %3")
                                         .arg(stage.displayName, compile.result.kernel, file.errorString())};
    Expected<ir::MlirModule> module = ir::readMlir(QString::fromUtf8(file.readAll()), path);
    if (!module)
        return module.error();
    for (const ir::MlirOp &op : module->ops) {
        const int sourceLine = compile.map.sourceForLine(stage.id, op.line).line;
        if (sourceLine > 0 && !op.isFunction() && op.name != QLatin1String("module"))
            addTtgirOp(*module, op, lines.at(sourceLine));
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

Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile)
{
    KernelIrFacts facts;
    readKernelFigures(compile.result, facts);
    FactsByLine lines;
    if (const StageDescriptor *ttgir = lastStageOf(compile, StageFormat::MlirText)) {
        Expected<bool> read = collectTtgir(compile, *ttgir, lines);
        if (!read)
            return read.error();
        facts.stagesRead.append(ttgir->id);
    }
    if (const StageDescriptor *ptx = lastStageOf(compile, StageFormat::Ptx)) {
        forEachAttributedInstruction(*compile.listing(ptx->id), compile.map, lines, addPtxInstruction);
        facts.stagesRead.append(ptx->id);
    }
    if (const StageDescriptor *sass = lastStageOf(compile, StageFormat::Sass)) {
        forEachAttributedInstruction(*compile.listing(sass->id), compile.map, lines, addSassInstruction);
        facts.stagesRead.append(sass->id);
    }
    facts.lines = lines.take();
    return facts;
}

} // namespace strata::diagnosis
