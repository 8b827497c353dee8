#pragma once
// Proposes what a folder holds, in name order, through the same checks as everything else
// (strata-cli optimize/bench --proposals DIR): hand-written task files (*.py) and model answers
// (*.md, read like an LLM's reply: the fenced task file, Title:/Rationale:/Findings: lines), so
// answers obtained from any model, or saved by --save-answers, replay reproducibly. DIR/<task>/
// holds one task's proposals when it exists (a suite's answers, a folder per task name); else
// DIR's own files go to every task.
#include "rewrite/RewriteProvider.h"

namespace strata::rewrite::llm {

class FolderProvider final : public RewriteProvider {
public:
    explicit FolderProvider(QString folder) : m_folder(std::move(folder)) {}
    QString id() const override { return QStringLiteral("folder"); }
    // A malformed answer file is an error naming the file (nothing of the folder is proposed:
    // a replay must not silently differ from the run it repeats).
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;

private:
    QString m_folder;
};

// Where --save-answers keeps a model's raw answer for `request`: DIR/<task>/<NNN>-<model>.md, the
// number one above the folder's highest, so the folder replays in the order the answers came.
QString savedAnswerPath(const QString &dir, const RewriteRequest &request, const QString &model);

} // namespace strata::rewrite::llm
