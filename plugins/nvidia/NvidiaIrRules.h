#pragma once
// The NVIDIA backend's part of L3 (diagnosis/l3_ir/BackendIrRules.h): the dot kinds of its GPU IR
// (wgmma, mma.sync, FMA) and its TMA copies, the PTX and SASS facts per source line (global
// access widths, cp.async, MMA and FMA instructions, shared-memory traffic, barriers, spills),
// ptxas's figures, and the rules over them (NvidiaIrFindings.cpp) and over the captured launch
// (NvidiaLaunchFit.cpp); for L4 and the loop's fact check, how those rules' facts read, change and
// show in the pass dumps (NvidiaCompilerRules.cpp); the tensor cores' feed rates and operands for
// the dot-loop feed model (NvidiaDotLoopFeed.cpp) and its rules' static costs (NvidiaStaticCost.cpp).
#include "diagnosis/l3_ir/BackendIrRules.h"

namespace strata::nvidia {

class NvidiaIrRules : public diagnosis::BackendIrRules {
public:
    diagnosis::GpuIrDot gpuIrDot(const ir::MlirModule &module, const ir::MlirOp &op) const override;
    void addGpuIrOp(const ir::MlirOp &op, diagnosis::SourceLineFacts &facts) const override;
    QStringList collectMachineFacts(const LoadedCompile &compile, const diagnosis::LineFactsAt &lineAt,
                                    QStringList &problems) const override;
    void readCompilerFigures(const CompileResult &result, diagnosis::KernelIrFacts &facts) const override;

    QVector<diagnosis::Finding> findings(const diagnosis::KernelIrFacts &facts, const LoadedCompile &compile) const override;
    QStringList gpuIrRules() const override;
    QVector<diagnosis::Finding> launchFindings(const diagnosis::KernelIrFacts &facts, const QJsonObject &spec) const override;

    // L4 and the fact check (NvidiaCompilerRules.cpp).
    QVector<diagnosis::CounterfactualLever> counterfactualLevers(const diagnosis::Finding &finding) const override;
    std::optional<diagnosis::FactState> factOnLine(const diagnosis::Finding &finding,
                                                   const diagnosis::KernelIrFacts &facts) const override;
    std::optional<diagnosis::PassTrace> passTrace(const diagnosis::Finding &finding) const override;
    QString tracedFactMarker(diagnosis::TracedFact fact) const override;
    bool showsTracedFact(diagnosis::TracedFact fact, const ir::MlirModule &module, const ir::MlirOp &op,
                         const QString &textLine) const override;
    QString accessWidthStage() const override;
    bool countsIntegerDivisions() const override { return true; }  // PTX div / rem (NvidiaIrFacts.cpp)

    // The dot-loop feed model (NvidiaDotLoopFeed.cpp) and static costs (NvidiaStaticCost.cpp).
    diagnosis::DotFeed dotFeed(const diagnosis::SourceLineFacts &line, const QString &target) const override;
    std::optional<diagnosis::ComputeUnitRates> computeUnitRates(const QString &target, int operandBytes) const override;
    int specialFunctionOps(const LoadedCompile &compile, int sourceLine) const override;
    QStringList dotTileRecipes() const override;
    std::optional<diagnosis::EstimatedCost> estimatedCost(const diagnosis::Finding &finding, const diagnosis::KernelIrFacts &facts,
                                                          const LoadedCompile &compile) const override;
};

// The one instance, for the plugin and for diagnosis::defaultIrRules().
const NvidiaIrRules &nvidiaIrRules();

} // namespace strata::nvidia
