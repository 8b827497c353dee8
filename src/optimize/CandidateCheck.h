#pragma once
// Checks one proposed candidate before any timing: it must run (its kernels compile and launch),
// the IR fact its recipe promised must change against the parent's compile, and it must pass
// verification. What it finds is written into the candidate's row (state, detail, evidence).
#include "diagnosis/l3_ir/IrFacts.h"
#include "rewrite/RewriteProvider.h"
#include "store/OptimizeRecords.h"
#include "tasks/TaskRun.h"

#include <QJsonValue>
#include <QString>

namespace strata {
class PluginRegistry;
}

namespace strata::optimize {

class AgentSession;

struct CandidateCheckInput {
    QString kernel;                          // the diagnosed kernel the facts are about
    const diagnosis::KernelIrFacts *parentFacts = nullptr;
    QVector<rewrite::ExpectedFact> expected;
    QString target;
    QString compileDir;                      // where the fact-check compile goes
    // The torch compute ModelNew may run: "initial" for the user's kernel (its ops are its
    // baseline), else the initial's glue_calls object (the same ops, no more calls).
    QJsonValue glue = QJsonValue::Undefined;
};

// Leaves `row.state` at "verified" when the candidate may be timed, else at "compile_failed",
// "fact_unchanged", "verify_failed" or "error", with `row.detail` saying why.
void checkCandidate(AgentSession &agent, const PluginRegistry &plugins, const CandidateCheckInput &input, CandidateRow &row);

// The JSON a rewrite provider gets for a launch (run_task's kernels[i], rebuilt from the parse).
QJsonObject launchJson(const CapturedKernel &launch);

} // namespace strata::optimize
