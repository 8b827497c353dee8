#pragma once
// L3 IR attribution: per-line compiler facts (IrFacts.h) turned into findings by the backend's
// rules (BackendIrRules.h), each citing the IR lines, remarks and compiler figures it rests on.
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

namespace strata::diagnosis {

struct IrAttribution {
    KernelIrFacts facts;
    QVector<Finding> findings;  // ordered by source line, then rule
    QStringList uncheckedRules; // rules that could not run on this compile (their input is degraded)
};

// The L3 rules that read the GPU IR (TTGIR): unchecked when it is missing or degraded.
QStringList gpuIrRules();

// The L3 rules over facts already collected; `compile` supplies IR text and remarks for evidence.
QVector<Finding> findingsFromIrFacts(const KernelIrFacts &facts, const LoadedCompile &compile);

// collectIrFacts + the backend's findings; without `rules`, defaultIrRules().
Expected<IrAttribution> attributeIr(const LoadedCompile &compile, const BackendIrRules &rules);
Expected<IrAttribution> attributeIr(const LoadedCompile &compile);

} // namespace strata::diagnosis
