#pragma once
// A backend's part of L3 (issue #16): what its own GPU IR ops and its machine-code stages say per
// source line, the whole-kernel figures its compiler reports, and its rules over the facts. The
// core (IrFactsCollect.cpp) reads what Triton's GPU IR says for every backend (loads, stores,
// async copies, layouts, loops, a dot's tile and operand type) and asks the backend for the rest.
// A backend's plugin implements this in plugins/<id> and hands it out through
// BackendPlugin::irRules().
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>

#include <functional>

namespace strata::ir {
struct MlirModule;
struct MlirOp;
} // namespace strata::ir

namespace strata::diagnosis {

// The facts of one kernel source line (created on first use): where a backend adds what it reads.
using LineFactsAt = std::function<SourceLineFacts &(int sourceLine)>;

// A dot as the backend compiled it: on which unit, and the layout that says so.
struct GpuIrDot {
    DotKind kind = DotKind::None;   // None: the op is no dot
    int layout = -1;                // index into MlirModule::layouts of the dot's matrix-unit layout; -1 none
};

class BackendIrRules {
public:
    virtual ~BackendIrRules() = default;

    // Whether `op` of the GPU IR is a dot, and how the backend lowered it.
    virtual GpuIrDot gpuIrDot(const ir::MlirModule &module, const ir::MlirOp &op) const = 0;
    // Adds what an op of the backend's own GPU IR dialect says (its bulk copies, their bytes).
    virtual void addGpuIrOp(const ir::MlirOp &op, SourceLineFacts &facts) const = 0;
    // Reads the backend's machine-code stages of `compile` into the lines; returns the ids of the
    // stages read. A degraded or unattributable stage adds a sentence to `problems`.
    virtual QStringList collectMachineFacts(const LoadedCompile &compile, const LineFactsAt &lineAt,
                                            QStringList &problems) const = 0;
    // The whole-kernel figures the backend's compiler reported (registers, spills, static shared
    // memory, its warnings).
    virtual void readCompilerFigures(const CompileResult &result, KernelIrFacts &facts) const = 0;

    // The backend's L3 rules over facts already collected; `compile` gives IR text and remarks
    // for evidence. Ordered by source line, then rule.
    virtual QVector<Finding> findings(const KernelIrFacts &facts, const LoadedCompile &compile) const = 0;
    // The rules that need the GPU IR: unchecked when it is missing or degraded.
    virtual QStringList gpuIrRules() const = 0;
    // Rules on the captured launch (`spec` with the launch's grid, tasks/TaskRun.h) against the
    // compiled kernel and the target's compute units.
    virtual QVector<Finding> launchFindings(const KernelIrFacts &facts, const QJsonObject &spec) const = 0;
};

// collectIrFacts (IrFacts.h) with the rules of the compile's backend.
Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile, const BackendIrRules &rules);

// The rules the core applies when a caller names no backend: the NVIDIA backend's (plugins/nvidia,
// linked into the core for now). The ladder passes its compile's plugin (BackendPlugin::irRules());
// L4's counterfactual runner and the loop's fact check still call collectIrFacts without one; once
// they do, this goes.
const BackendIrRules &defaultIrRules();

} // namespace strata::diagnosis
