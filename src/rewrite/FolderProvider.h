#pragma once
// Proposes the task files of a folder, in name order: hand-written rewrites (or another tool's)
// put through the same checks as everything else (strata-cli optimize --proposals DIR).
#include "rewrite/RewriteProvider.h"

namespace strata::rewrite {

class FolderProvider final : public RewriteProvider {
public:
    explicit FolderProvider(QString folder) : m_folder(std::move(folder)) {}
    QString id() const override { return QStringLiteral("folder"); }
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;

private:
    QString m_folder;
};

} // namespace strata::rewrite
