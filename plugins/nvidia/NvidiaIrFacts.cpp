// What the NVIDIA stages say per kernel source line: the dot kinds and TMA copies of the TTGIR,
// one pass over the PTX instructions and one over the SASS instructions, and ptxas's figures.
#include "NvidiaIrRules.h"

#include "PtxConstantTables.h"

#include "diagnosis/l3_ir/IrStageLines.h"
#include "ir/mlir/MlirReader.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata::nvidia {

using diagnosis::DotKind;
using diagnosis::GlobalAccess;
using diagnosis::SourceLineFacts;

namespace {

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

// "div.s32", "rem.u64": what LLVM leaves of an integer `/` or `%` whose divisor it does not know
// (a known one becomes a multiply-high and shifts); float divides are "div.rn.f32", "div.full.f32".
bool isIntegerDivision(const QString &opcode)
{
    static const QRegularExpression integer(QStringLiteral("^(div|rem)\\.[su](16|32|64)$"));
    return integer.match(opcode).hasMatch();
}

void addPtxInstruction(const QString &opcode, int irLine, SourceLineFacts &facts)
{
    if (opcode.startsWith(QLatin1String("ld.global")) || opcode.startsWith(QLatin1String("st.global")))
        addAccess(facts, ptxAccess(opcode, irLine));
    else if (opcode.startsWith(QLatin1String("cp.async.bulk.tensor")))
        ++facts.bulkTensorInstructions;
    else if (opcode.startsWith(QLatin1String("cp.async.c")))  // cp.async.ca / cp.async.cg
        ++facts.asyncCopyInstructions;
    else if (opcode.startsWith(QLatin1String("wgmma.mma_async")) || opcode.startsWith(QLatin1String("mma.sync")))
        ++facts.mmaInstructions;
    else if (opcode.startsWith(QLatin1String("fma.rn.f32")))
        ++facts.fmaInstructions;
    else if (isIntegerDivision(opcode))
        ++facts.integerDivisions;
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

// The PTX's instructions, leaving out loads of the module's constant tables (PtxConstantTables.h).
bool collectPtx(const LoadedCompile &compile, const diagnosis::LineFactsAt &lineAt, QStringList &problems)
{
    const StageDescriptor *ptx = diagnosis::lastStageOf(compile, StageFormat::Ptx);
    if (!ptx || diagnosis::degradedStage(compile, *ptx, problems))
        return false;
    const StageListing &listing = *compile.listing(ptx->id);
    const QSet<int> tableLoads = constantTableLoads(listing);
    const auto addKernelDataInstruction = [&tableLoads](const QString &opcode, int irLine, SourceLineFacts &line) {
        if (!tableLoads.contains(irLine))
            addPtxInstruction(opcode, irLine, line);
    };
    diagnosis::noteUnattributed(*ptx, diagnosis::forEachAttributedInstruction(listing, compile.map, lineAt, addKernelDataInstruction),
                                problems);
    return true;
}

bool collectSass(const LoadedCompile &compile, const diagnosis::LineFactsAt &lineAt, QStringList &problems)
{
    const StageDescriptor *sass = diagnosis::lastStageOf(compile, StageFormat::Sass);
    if (!sass || diagnosis::degradedStage(compile, *sass, problems))
        return false;
    diagnosis::noteUnattributed(*sass, diagnosis::forEachAttributedInstruction(*compile.listing(sass->id), compile.map, lineAt,
                                                                               addSassInstruction),
                                problems);
    return true;
}

} // namespace

// tt.dot keeps an NVIDIA MMA layout when it runs on tensor cores (version 3: Hopper's wgmma,
// else Ampere's mma.sync); Hopper's own ttng.warp_group_dot is always wgmma.
diagnosis::GpuIrDot NvidiaIrRules::gpuIrDot(const ir::MlirModule &module, const ir::MlirOp &op) const
{
    const bool warpGroupDot = op.name == QLatin1String("ttng.warp_group_dot");
    if (!warpGroupDot && op.name != QLatin1String("tt.dot"))
        return {};
    diagnosis::GpuIrDot dot{warpGroupDot ? DotKind::AsyncMatrix : DotKind::Fma, -1};  // Fma: blocked operands
    for (const int index : op.layouts) {
        const ir::LayoutAttr &layout = module.layouts[index];
        if (layout.kind != ir::LayoutKind::NvidiaMma)
            continue;
        if (!warpGroupDot)
            dot.kind = layout.versionMajor >= 3 ? DotKind::AsyncMatrix : DotKind::SyncMatrix;
        dot.layout = index;
        break;
    }
    // The names the facts, promises and reports have always printed.
    if (dot.kind == DotKind::AsyncMatrix)
        dot.name = QStringLiteral("wgmma");
    else if (dot.kind == DotKind::SyncMatrix)
        dot.name = QStringLiteral("mma_v2");
    return dot;
}

// A TMA (descriptor) copy moves its descriptor's tile.
void NvidiaIrRules::addGpuIrOp(const ir::MlirOp &op, SourceLineFacts &facts) const
{
    if (op.name != QLatin1String("ttng.async_tma_copy_global_to_local"))
        return;
    ++facts.bulkTensorCopies;
    facts.globalBytes += diagnosis::firstTileBytes(op.operandTypes);
}

QStringList NvidiaIrRules::collectMachineFacts(const LoadedCompile &compile, const diagnosis::LineFactsAt &lineAt,
                                               QStringList &problems) const
{
    QStringList read;
    if (collectPtx(compile, lineAt, problems))
        read.append(diagnosis::lastStageOf(compile, StageFormat::Ptx)->id);
    if (collectSass(compile, lineAt, problems))
        read.append(diagnosis::lastStageOf(compile, StageFormat::Sass)->id);
    return read;
}

void NvidiaIrRules::readCompilerFigures(const CompileResult &result, diagnosis::KernelIrFacts &facts) const
{
    facts.registers = result.ptxas.registers;
    facts.spillStoreBytes = result.ptxas.spillStoreBytes;
    facts.spillLoadBytes = result.ptxas.spillLoadBytes;
    facts.stackBytes = result.ptxas.stackBytes;
    facts.staticSharedBytes = result.ptxas.sharedBytes;
    facts.assemblerWarnings = result.ptxas.warnings;
}

const NvidiaIrRules &nvidiaIrRules()
{
    static const NvidiaIrRules rules;
    return rules;
}

} // namespace strata::nvidia

const strata::diagnosis::BackendIrRules &strata::diagnosis::defaultIrRules()
{
    return nvidia::nvidiaIrRules();
}
