#pragma once
// The one interface every source of rewrites implements: the built-in recipes, the LLM providers
// (OpenAI-compatible, Anthropic) and the manual provider. The optimization loop hands a provider
// the current best candidate (a KernelBench-format task file) and its diagnosis, and gets back
// whole new task files; it then compile-checks, verifies and times them itself.
#include "core/Expected.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::rewrite {

// A fact of the compiled kernel a rewrite promises to change, checked by a recompile before any
// timing. `fact` names a KernelIrFacts quantity (see src/diagnosis/l3_ir/IrFacts.h):
//   "max_load_bits"       widest global load on `line` (0: any line), should increase; read in the
//                         stage the backend reads access widths from (BackendIrRules::accessWidthStage)
//   "max_store_bits"      widest global store, should increase (the same stage)
//   "dot_kind"            should become `want`: a matrix-unit dot kind as the backend's L3 facts
//                         name it (BackendRecipes::matrixDotKind says which)
//   "dot_operand_type"    the dot's operands should become `want` ("bf16")
//   "async_copies"        asynchronous global-to-shared copies on `line` (0: kernel), should increase
//   "tma_copies"          the backend's bulk tensor copies on `line` (0: kernel), should increase
//   "spill_bytes"         spill stores + loads, should decrease
//   "int_divisions"       machine-code integer divides / remainders by run-time values on `line`
//                         (0: kernel), should decrease
//   "global_loads"        global load ops in TTGIR (tt.load, async and TMA copies) on `line`
//                         (0: kernel), should decrease (a re-read merged away)
//   "num_warps", "num_stages", "registers"   should differ from before
// An empty `fact` means the rewrite declares none (LLM answers): only compile, verify, time.
struct ExpectedFact {
    QString fact;
    int line = 0;
    QString want;
    // The recipe that promised it, in a combined candidate (each part's promise is checked on its
    // own); empty for a single recipe's or an LLM's.
    QString promisedBy;
    QString describe() const;  // "widest load on line 12 grows" (for logs and reports)
};

struct TokenUsage {
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    friend bool operator==(const TokenUsage &, const TokenUsage &) = default;
};

struct RewriteRequest {
    QString taskPath;                    // the task file of the current best candidate
    QString taskName;                    // the task's name (its file stem), the same for every candidate
    QString taskText;                    // its full text
    QString kernelName;                  // the @triton.jit function the diagnosis is about
    QJsonObject ast;                     // the agent's `ast` reply for it (may be empty)
    QJsonObject launch;                  // run_task's `kernels[i]` entry for it (grid, args, spec)
    diagnosis::Diagnosis diagnosis;      // what the ladder found
    QStringList rankedRuleIds;           // the ladder's ranking, most important first
    QJsonObject timing;                  // current best: {"ms":..,"roofline_pct":..,"bound":..} (may be empty)
    QString deviceName;                  // "NVIDIA H200"
    // The tightest relative error verify allows the task's outputs (STRATA_TASK tolerance or the
    // per-dtype default): what a precision rewrite may spend. 0: unknown.
    double outputTolerance = 0;
    QStringList alreadyTried;            // sha256 (hex) of task texts tried before: do not propose again
    int maxProposals = 4;
};

struct RewriteProposal {
    QString provider;        // "recipe", "openai", "anthropic", "manual"
    QString recipeId;        // recipe id, or the model name for an LLM
    QString title;           // one line: "unit strides as constexpr 1"
    QString rationale;       // why, citing the evidence
    QString newText;         // the whole new task file
    QStringList findingRuleIds;  // findings it acts on
    QVector<ExpectedFact> expected;
    TokenUsage tokens;
};

class RewriteProvider {
public:
    virtual ~RewriteProvider() = default;
    virtual QString id() const = 0;  // "recipes", "openai:MODEL", "anthropic:MODEL", "manual"
    // Blocking; the loop calls it off the UI thread. An error names what failed (the endpoint,
    // the answer's problem); an empty list means the provider has nothing (more) to offer.
    virtual Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) = 0;
};

} // namespace strata::rewrite
