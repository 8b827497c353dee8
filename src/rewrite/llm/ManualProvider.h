#pragma once
// For users without API access: the same prompt, written to a file for them to paste into any
// chat, and their answer read back either from an answer file (propose() polls for it) or from
// pasted text (proposeFromText()). The answer passes the same extraction and checks as an API's.
#include "rewrite/RewriteProvider.h"
#include "rewrite/llm/PromptBuilder.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace strata::rewrite::llm {

struct ManualConfig {
    QString workDir;     // where the files go by default
    QString promptPath;  // empty: <workDir>/llm-prompt.md
    QString answerPath;  // empty: <workDir>/llm-answer.md
    int pollIntervalMs = 500;
    int timeoutMs = 30 * 60 * 1000;  // how long propose() waits for the answer file
    int maxFindingsInPrompt = 5;

    QString resolvedPromptPath() const;
    QString resolvedAnswerPath() const;
};

class ManualProvider : public RewriteProvider {
public:
    explicit ManualProvider(ManualConfig config);

    QString id() const override { return QStringLiteral("manual"); }
    // Writes the prompt file, moves an earlier answer file aside (to "<answer>.previous"), then
    // waits until an answer file appears and stops growing, the timeout passes, or the cancel
    // flag is set. One proposal at most.
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;

    // The prompt as the user would paste it (also what propose() writes).
    QString promptText(const RewriteRequest &request) const;
    // Writes promptText() to the prompt path; the path, or an error naming it.
    Expected<QString> writePrompt(const RewriteRequest &request) const;
    // An answer pasted by the user (the GUI's text box), checked like an API answer.
    Expected<QVector<RewriteProposal>> proposeFromText(const RewriteRequest &request, const QString &answer) const;

    void setCancelFlag(const std::atomic<bool> *flag) { m_cancel = flag; }
    const ManualConfig &config() const { return m_config; }

private:
    Expected<QString> waitForAnswer() const;
    bool cancelled() const { return m_cancel && m_cancel->load(); }

    ManualConfig m_config;
    PromptBuilder m_prompts;
    const std::atomic<bool> *m_cancel = nullptr;
};

// Makes a ManualProvider per call, each with its own folder (<root>/manual-1, manual-2, ...), so
// workers running at once never share a prompt or an answer file; each stops waiting on `cancel`.
std::function<std::unique_ptr<ManualProvider>()> manualProviderMaker(const QString &root, const std::atomic<bool> *cancel);

// The folders manualProviderMaker(root) hands out that hold a prompt still waiting for its answer.
QStringList pendingManualFolders(const QString &root);

} // namespace strata::rewrite::llm
