#pragma once
// L4 compiler-grounded analysis of L3 findings: which pass made the fact (pass dumps), what the
// compiler remarked on the line, and whether a one-change counterfactual compile flips the fact.
// A cause is confirmed only when a counterfactual flips the very fact the finding names.
#include "compile/LoadedCompile.h"
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/l4_compiler/CounterfactualRunner.h"
#include "diagnosis/model/Finding.h"

namespace strata::diagnosis {

// Rule ids of the L4 findings, one per examined finding.
inline constexpr char kConfirmedCauseRule[] = "L4.confirmed-cause";      // a counterfactual flipped the fact
inline constexpr char kUnconfirmedCauseRule[] = "L4.unconfirmed-cause";  // counterfactuals ran, none flipped it
inline constexpr char kUntestedCauseRule[] = "L4.untested-cause";        // no counterfactual could be run
// The note of a counterfactual evidence item whose change flipped the fact.
inline constexpr char kFlippedNote[] = "the fact flipped: cause confirmed";

struct CompilerAnalysisOptions {
    int maxCounterfactuals = 8;  // compiles per diagnosis, across all findings
    // The compile's backend (BackendPlugin::irRules()): which pass made a fact, which changes could
    // flip it and how it reads. Null: the default backend's (defaultIrRules()), for callers that
    // name none.
    const BackendIrRules *rules = nullptr;
};

struct CompilerAnalysis {
    QVector<Finding> findings;           // level L4, in the order of the examined findings
    QVector<EscalationStep> log;         // what ran and why (pass attribution, each compile)
    int compiles = 0;
};

// `examined`: L3 findings, most important first; `facts`: collectIrFacts(compile). `spec`: the
// spec `compile` was made with. `runner` may be null (no agent): pass attribution and remarks
// still run, findings stay untested.
CompilerAnalysis analyzeWithCompiler(const QVector<Finding> &examined, const LoadedCompile &compile,
                                     const KernelIrFacts &facts, const QJsonObject &spec, CounterfactualRunner *runner,
                                     const CompilerAnalysisOptions &options = {});

// Whether `finding` carries a counterfactual that flipped its fact.
bool isConfirmed(const Finding &finding);

} // namespace strata::diagnosis
