// The NVIDIA backend's answers for L4 and the loop's fact check (BackendIrRules.h): how the facts
// of its L3 rules (NvidiaIrFindings.cpp) read on a line, which one-change compiles could flip
// them, which ops of the pass dumps show them (TTGIR's async copies and MMA dots, the LLVM
// dialect's inline PTX accesses) and which pass decides a missing one. The global access widths a
// recipe promises to change are PTX's.
#include "NvidiaIrRules.h"

#include "NvidiaOccupancy.h"
#include "ir/mlir/MlirReader.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata::nvidia {

using namespace strata::diagnosis;

namespace {

const QString kAccessStage = QStringLiteral("ptx");  // PTX keeps each access's vector width
constexpr int kNarrowAccessBits = 64;                 // as L3.scalar-global-access

const SourceLineFacts &lineOrEmpty(const KernelIrFacts &facts, int line)
{
    static const SourceLineFacts empty;
    const SourceLineFacts *found = facts.line(line);
    return found ? *found : empty;
}

// The rule's title says whether the narrow accesses are stores ("... stores ...").
bool isStoreTitle(const Finding &finding)
{
    return finding.title.contains(QLatin1String("stores"));
}

// The finding's own IR op evidence names the access: a PTX st.* or a SASS STG is a store.
bool isStoreEvidence(const Finding &finding)
{
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *op = std::get_if<IrOpEvidence>(&evidence.data))
            return op->opcode.startsWith(QLatin1String("st.")) || op->opcode.startsWith(QLatin1String("STG"));
    }
    return false;
}

// The most frequent PTX access shape of the line ("ld.global.b32 x8"), widest first on ties.
QString accessText(const SourceLineFacts &line, bool store)
{
    const GlobalAccess *chosen = nullptr;
    for (const GlobalAccess &access : line.accesses) {
        if (access.stage != kAccessStage || access.store != store)
            continue;
        if (!chosen || access.accessBits > chosen->accessBits)
            chosen = &access;
    }
    if (!chosen && !store && line.asyncCopyInstructions > 0)
        return QStringLiteral("no ld.global, cp.async x%1").arg(line.asyncCopyInstructions);  // the loads became async copies
    if (!chosen)
        return QStringLiteral("no PTX global %1").arg(store ? QStringLiteral("stores") : QStringLiteral("loads"));
    return QStringLiteral("%1 x%2").arg(chosen->opcode).arg(line.accessCount(kAccessStage, store));
}

FactState scalarAccessState(const SourceLineFacts &line, bool store)
{
    const int count = line.accessCount(kAccessStage, store);
    const int widest = line.maxAccessBits(kAccessStage, store);
    return {count >= 2 && widest < kNarrowAccessBits, accessText(line, store)};
}

FactState unpipelinedState(const SourceLineFacts &line)
{
    const int asyncOps = line.asyncCopies + line.bulkTensorCopies;
    if (line.ttgirLoads > 0 && asyncOps == 0)
        return {true, QStringLiteral("synchronous tt.load x%1, no async copy").arg(line.ttgirLoads)};
    return {false, QStringLiteral("async copies x%1 (PTX cp.async x%2, TMA x%3), tt.load x%4")
                       .arg(asyncOps).arg(line.asyncCopyInstructions).arg(line.bulkTensorInstructions).arg(line.ttgirLoads)};
}

bool hasLayoutOfKind(const ir::MlirOp &op, const ir::MlirModule &module, ir::LayoutKind kind)
{
    return std::any_of(op.layouts.cbegin(), op.layouts.cend(), [&](int index) {
        return index >= 0 && index < module.layouts.size() && module.layouts[index].kind == kind;
    });
}

// Inline PTX of a global access without a vector suffix: "ld.global.b32", "st.global.b16".
bool isNarrowGlobalAsm(const QString &text, const char *mnemonic)
{
    static const QRegularExpression vector(QStringLiteral("\\.global(\\.[a-z0-9_]+)*\\.v[248]\\."));
    return text.contains(QLatin1String(mnemonic)) && !vector.match(text).hasMatch();
}

} // namespace

QVector<CounterfactualLever> NvidiaIrRules::counterfactualLevers(const Finding &finding) const
{
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return {CounterfactualLever::Alignment};  // a unit stride, if it is the cause, is tried for the loop loads
    if (rule == QLatin1String("L3.unpipelined-loop-load"))
        return {CounterfactualLever::Pipelining, CounterfactualLever::UnitStride};
    if (rule == QLatin1String("L3.register-spill") || rule == QLatin1String("L3.wgmma-serialized")
        || rule == QLatin1String("L3.low-occupancy"))
        return {CounterfactualLever::RegisterPressure};
    if (rule == QLatin1String("L3.fma-dot"))
        return {CounterfactualLever::DotPrecision};
    return {};  // other rules have no cause a spec or a one-keyword edit can express
}

std::optional<FactState> NvidiaIrRules::factOnLine(const Finding &finding, const KernelIrFacts &facts) const
{
    const SourceLineFacts &line = lineOrEmpty(facts, finding.span.line);
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return scalarAccessState(line, isStoreTitle(finding));
    if (rule == QLatin1String("L3.unpipelined-loop-load"))
        return unpipelinedState(line);
    if (rule == QLatin1String("L3.fma-dot"))
        return FactState{line.dotKind == DotKind::Fma, QStringLiteral("dot kind %1").arg(dotLabel(line))};
    if (rule == QLatin1String("L3.register-spill")) {
        const int spills = line.spillStores + line.spillLoads;
        return FactState{spills > 0, QStringLiteral("STL x%1, LDL x%2 (%3 registers)")
                                         .arg(line.spillStores).arg(line.spillLoads).arg(facts.registers)};
    }
    if (rule == QLatin1String("L3.wgmma-serialized")) {
        const bool serialized = std::any_of(facts.assemblerWarnings.cbegin(), facts.assemblerWarnings.cend(), [](const QString &w) {
            return w.contains(QLatin1String("wgmma.mma_async instructions are serialized"));
        });
        return FactState{serialized && line.dotKind == DotKind::AsyncMatrix,
                         serialized ? QStringLiteral("ptxas serializes wgmma") : QStringLiteral("no serialization warning")};
    }
    if (rule == QLatin1String("L3.smem-layout-conversion")) {
        const bool holds = line.convertLayouts > 0 && line.sharedStores > 0 && line.barriers > 0;
        return FactState{holds, QStringLiteral("convert_layout x%1, shared stores x%2, barriers x%3")
                                    .arg(line.convertLayouts).arg(line.sharedStores).arg(line.barriers)};
    }
    if (rule == QLatin1String("L3.low-occupancy")) {
        const int shared = facts.staticSharedBytes + facts.dynamicSharedBytes;
        const Occupancy occupancy = computeOccupancy(facts.registers, shared, facts.numWarps, SmLimits::forTarget(facts.target));
        return FactState{occupancy.theoretical < kLowOccupancyFraction,
                         QStringLiteral("%1 warps per SM (%2 registers, %3 bytes shared, %4 warps per CTA)")
                             .arg(occupancy.activeWarps).arg(facts.registers).arg(shared).arg(facts.numWarps)};
    }
    return std::nullopt;
}

std::optional<PassTrace> NvidiaIrRules::passTrace(const Finding &finding) const
{
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return PassTrace{isStoreEvidence(finding) ? TracedFact::NarrowGlobalStore : TracedFact::NarrowGlobalLoad,
                         PassTrace::Mode::FirstProducer, {}};
    if (rule == QLatin1String("L3.unpipelined-loop-load"))
        return PassTrace{TracedFact::AsyncCopy, PassTrace::Mode::MissingAfter, QStringLiteral("tritongpu-pipeline")};
    if (rule == QLatin1String("L3.fma-dot"))
        return PassTrace{TracedFact::MmaDot, PassTrace::Mode::MissingAfter, QStringLiteral("tritongpu-accelerate-matmul")};
    if (rule == QLatin1String("L3.wgmma-serialized"))
        return PassTrace{TracedFact::MmaDot, PassTrace::Mode::FirstProducer, {}};
    if (rule == QLatin1String("L3.smem-layout-conversion"))
        // convert-triton-to-tritongpu makes conversions that later passes remove and re-create.
        return PassTrace{TracedFact::LayoutConversion, PassTrace::Mode::LastProducer, {}};
    return std::nullopt;
}

QString NvidiaIrRules::tracedFactMarker(TracedFact fact) const
{
    switch (fact) {
    case TracedFact::AsyncCopy: return QStringLiteral("copy_global_to_local");
    case TracedFact::MmaDot: return QStringLiteral("nvidia_mma");
    case TracedFact::NarrowGlobalLoad: return QStringLiteral("ld.global");
    case TracedFact::NarrowGlobalStore: return QStringLiteral("st.global");
    case TracedFact::LayoutConversion: return QStringLiteral("ttg.convert_layout");
    }
    return {};
}

bool NvidiaIrRules::showsTracedFact(TracedFact fact, const ir::MlirModule &module, const ir::MlirOp &op,
                                    const QString &textLine) const
{
    switch (fact) {
    case TracedFact::AsyncCopy:
        return op.name == QLatin1String("ttg.async_copy_global_to_local")
            || op.name == QLatin1String("ttng.async_tma_copy_global_to_local");
    case TracedFact::MmaDot:
        return op.name == QLatin1String("ttng.warp_group_dot")
            || (op.name == QLatin1String("tt.dot") && hasLayoutOfKind(op, module, ir::LayoutKind::NvidiaMma));
    case TracedFact::NarrowGlobalLoad:
    case TracedFact::NarrowGlobalStore:
        return op.name == QLatin1String("llvm.inline_asm")
            && isNarrowGlobalAsm(textLine, fact == TracedFact::NarrowGlobalLoad ? "ld.global" : "st.global");
    case TracedFact::LayoutConversion:
        return op.name == QLatin1String("ttg.convert_layout");
    }
    return false;
}

QString NvidiaIrRules::accessWidthStage() const
{
    return kAccessStage;
}

} // namespace strata::nvidia
