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
#include <optional>

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
    QString name;                   // what the backend calls the dot's instruction; empty: dotKindName(kind)
};

// --- L4 (src/diagnosis/l4_compiler) and the loop's fact check (src/optimize/FactCheck.cpp): what
// the backend answers about its own rules' facts, so the core compares them without knowing its
// stages or instructions.

// A fact an op of the compiler's pass dumps can show; the backend says which ops show it.
enum class TracedFact {
    AsyncCopy,          // a global-to-shared copy issued asynchronously
    MmaDot,             // a dot on the matrix unit
    NarrowGlobalLoad,   // a global load without a vector width
    NarrowGlobalStore,  // the same for a store
    LayoutConversion,   // a register-layout conversion (ttg.convert_layout)
};

// How L4 finds the pass behind a finding's fact in the pass dumps.
struct PassTrace {
    enum class Mode {
        FirstProducer,   // the first pass whose output has the fact on the line
        LastProducer,    // the pass whose op of the fact reaches the final IR (passes remove and re-create it)
        MissingAfter,    // the fact is missing: cite `decidingPass` when it ran and made none on the line
    };
    TracedFact fact = TracedFact::LayoutConversion;
    Mode mode = Mode::FirstProducer;
    QString decidingPass;  // MissingAfter: the pass argument that would have made it ("tritongpu-pipeline")
};

// Whether the fact a finding names holds on its line, and how it reads there ("ld.global.b32 x8"):
// L4 compares it before and after a counterfactual compile.
struct FactState {
    bool holds = false;
    QString text;
};

// The one-change compiles the core can build (l4_compiler/Counterfactual.cpp), in the order tried.
enum class CounterfactualLever {
    Pipelining,        // num_stages raised to Triton's default when the spec pins it at 1
    Alignment,         // an unconstrained integer divisible by 16, an unaligned pointer 16-byte aligned
    UnitStride,        // an unconstrained integer equal to 1
    RegisterPressure,  // twice the warps, or the largest tile halved
    DotPrecision,      // the dot's ieee precision keyword edited to tf32 in the source
};

// --- The dot-loop feed model (ladder/DotLoopFeed.h): the core counts a loop's dot FLOPs and
// operand bytes from the GPU IR types and weighs them against one compute unit's rates; the
// backend says which dots its matrix unit runs, where the unit reads their operands from, how much
// special-function work its machine code does, and the unit's rates.

// How the backend's matrix unit is fed by one dot of the GPU IR.
struct DotFeed {
    enum class Use {
        NotCounted,      // not a matrix-unit dot (FMA, none): the model does not count it
        Counted,         // a matrix-unit dot the model counts
        NamedElsewhere,  // a rule of the backend already names this tile's mechanism: the model stays silent
    };
    Use use = Use::NotCounted;
    // Whether the unit reads an operand the GPU IR keeps in registers (a `tensor<..>`) through
    // shared memory all the same; an operand in shared memory (`!ttg.memdesc`) is read there always.
    bool registerOperandsViaShared = false;
};

// One compute unit's (an SM's, an AI core's) rates for the model; a zero rate switches it off.
struct ComputeUnitRates {
    double tensorFlopsPerClock = 0;   // dense matrix-unit FLOP per clock at the dots' operand width
    double sharedBytesPerClock = 0;   // bytes per clock through the unit's shared-memory port
    double specialPerClock = 0;       // special-function results (exp, log, rsqrt) per clock
    double clockHz = 0;
    int units = 0;                    // compute units of the part
    double dramBytesPerSecond = 0;    // the part's memory bandwidth (the launch's lower bound)
};

// --- Static costs (ladder/StaticCost.h): a backend's estimate of what one of its rules' findings
// costs when nothing was measured. The core lowers the finding to `cap` (never raises it) with
// the estimated share and the reason.
struct EstimatedCost {
    Severity cap = Severity::Low;
    double share = 0;
    QString reason;   // completes "Present, not the cause (estimated: ...)": "a 16-row dot would ..."
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

    // --- L4 and the fact check. The defaults answer "not available on this backend": L4 leaves
    // such findings untested and the fact check says it could not read the fact.

    // The one-change compiles that could flip `finding`'s fact, most telling first.
    virtual QVector<CounterfactualLever> counterfactualLevers(const Finding &finding) const
    {
        Q_UNUSED(finding);
        return {};
    }
    // Whether `finding`'s fact holds on its line in `facts`; nullopt for rules without a per-line fact.
    virtual std::optional<FactState> factOnLine(const Finding &finding, const KernelIrFacts &facts) const
    {
        Q_UNUSED(finding);
        Q_UNUSED(facts);
        return std::nullopt;
    }
    // How L4 traces `finding`'s fact through the pass dumps; nullopt when the dumps cannot show it.
    virtual std::optional<PassTrace> passTrace(const Finding &finding) const
    {
        Q_UNUSED(finding);
        return std::nullopt;
    }
    // Text every pass dump with an op showing `fact` contains (a cheap filter before parsing);
    // empty: the backend's dumps never show it.
    virtual QString tracedFactMarker(TracedFact fact) const
    {
        Q_UNUSED(fact);
        return {};
    }
    // Whether `op` of a pass dump (`textLine`: its line of text) shows `fact`.
    virtual bool showsTracedFact(TracedFact fact, const ir::MlirModule &module, const ir::MlirOp &op,
                                 const QString &textLine) const
    {
        Q_UNUSED(fact);
        Q_UNUSED(module);
        Q_UNUSED(op);
        Q_UNUSED(textLine);
        return false;
    }
    // The stage whose global accesses carry the widths a recipe promises to change
    // (SourceLineFacts::accesses[].stage); empty: the backend reads none.
    virtual QString accessWidthStage() const { return {}; }
    // Whether the machine facts count integer divisions by run-time values
    // (SourceLineFacts::integerDivisions); false: a promise to remove them cannot be checked.
    virtual bool countsIntegerDivisions() const { return false; }

    // --- The dot-loop feed model and static costs. The defaults answer "no model on this
    // backend": the feed model stays silent and the core's own cost rules price findings.

    // How the dot on `line` (its dotKind set) feeds the matrix unit of `target`.
    virtual DotFeed dotFeed(const SourceLineFacts &line, const QString &target) const
    {
        Q_UNUSED(line);
        Q_UNUSED(target);
        return {};
    }
    // One compute unit's rates on `target` for dots with `operandBytes`-byte operands; nullopt: unknown.
    virtual std::optional<ComputeUnitRates> computeUnitRates(const QString &target, int operandBytes) const
    {
        Q_UNUSED(target);
        Q_UNUSED(operandBytes);
        return std::nullopt;
    }
    // Special-function instructions one thread issues for `sourceLine` in the machine code.
    virtual int specialFunctionOps(const LoadedCompile &compile, int sourceLine) const
    {
        Q_UNUSED(compile);
        Q_UNUSED(sourceLine);
        return 0;
    }
    // The backend's recipes that give a dot a larger tile, offered first by a feed-bound finding.
    virtual QStringList dotTileRecipes() const { return {}; }
    // What `finding` (one of the backend's rules) costs when nothing was measured; nullopt: the
    // backend does not price it, and the core's rules may.
    virtual std::optional<EstimatedCost> estimatedCost(const Finding &finding, const KernelIrFacts &facts,
                                                       const LoadedCompile &compile) const
    {
        Q_UNUSED(finding);
        Q_UNUSED(facts);
        Q_UNUSED(compile);
        return std::nullopt;
    }
};

// collectIrFacts (IrFacts.h) with the rules of the compile's backend.
Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile, const BackendIrRules &rules);

// The rules the core applies when a caller names no backend: the NVIDIA backend's (plugins/nvidia,
// linked into the core for now). The ladder, strata-cli diagnose and the loop pass their compile's
// plugin (BackendPlugin::irRules()); the overloads that take none (collectIrFacts(compile),
// attributeIr(compile), tests) still use this.
const BackendIrRules &defaultIrRules();

// The core's L3 with no backend part: the facts Triton's GPU IR and metadata give every backend,
// for a backend whose plugin has no rules of its own (no other backend's are applied to it), and
// every L4 answer "not available".
const BackendIrRules &gpuIrOnlyRules();

} // namespace strata::diagnosis
