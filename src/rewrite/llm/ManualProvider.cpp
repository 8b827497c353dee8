#include "rewrite/llm/ManualProvider.h"

#include "core/AtomicFile.h"
#include "rewrite/llm/LlmProvider.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QThread>

namespace strata::rewrite::llm {

QString ManualConfig::resolvedPromptPath() const
{
    return promptPath.isEmpty() ? QDir(workDir).filePath(QStringLiteral("llm-prompt.md")) : promptPath;
}

QString ManualConfig::resolvedAnswerPath() const
{
    return answerPath.isEmpty() ? QDir(workDir).filePath(QStringLiteral("llm-answer.md")) : answerPath;
}

ManualProvider::ManualProvider(ManualConfig config)
    : m_config(std::move(config)), m_prompts(m_config.maxFindingsInPrompt)
{
}

QString ManualProvider::promptText(const RewriteRequest &request) const
{
    return m_prompts.build(request).asDocument();
}

Expected<QString> ManualProvider::writePrompt(const RewriteRequest &request) const
{
    const QString path = m_config.resolvedPromptPath();
    QDir().mkpath(QFileInfo(path).absolutePath());
    if (const QString error = writeFileAtomically(path, promptText(request).toUtf8()); !error.isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("cannot write the prompt file: %1").arg(error)};
    return path;
}

Expected<QString> ManualProvider::waitForAnswer() const
{
    const QString path = m_config.resolvedAnswerPath();
    QElapsedTimer waited;
    waited.start();
    qint64 lastSize = -1;
    while (true) {
        if (cancelled())
            return ReadError{path, 0, 0, QStringLiteral("cancelled while waiting for the answer file")};
        const QFileInfo info(path);
        // Read only once the size held still for one poll: an editor may still be writing.
        if (info.exists() && info.size() > 0 && info.size() == lastSize) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return ReadError{path, 0, 0, QStringLiteral("cannot read the answer file: %1").arg(file.errorString())};
            return QString::fromUtf8(file.readAll());
        }
        lastSize = info.exists() ? info.size() : -1;
        if (waited.elapsed() >= m_config.timeoutMs)
            return ReadError{path, 0, 0, QStringLiteral("no answer file after %1 s; write the model's answer there")
                                             .arg(m_config.timeoutMs / 1000.0)};
        const qint64 until = waited.elapsed() + m_config.pollIntervalMs;
        while (waited.elapsed() < until && !cancelled())
            QThread::msleep(20);
    }
}

Expected<QVector<RewriteProposal>> ManualProvider::propose(const RewriteRequest &request)
{
    if (request.maxProposals <= 0)
        return QVector<RewriteProposal>{};
    const QString answerPath = m_config.resolvedAnswerPath();
    if (QFileInfo::exists(answerPath)) {  // an old answer must not be taken for the new one
        const QString previous = answerPath + QStringLiteral(".previous");
        QFile::remove(previous);
        if (!QFile::rename(answerPath, previous))
            return ReadError{answerPath, 0, 0, QStringLiteral("cannot move the earlier answer file aside")};
    }
    Expected<QString> promptPath = writePrompt(request);
    if (!promptPath)
        return promptPath.error();
    Expected<QString> answer = waitForAnswer();
    if (!answer)
        return answer.error();
    return proposeFromText(request, *answer);
}

Expected<QVector<RewriteProposal>> ManualProvider::proposeFromText(const RewriteRequest &request, const QString &answer) const
{
    QStringList shownIds;
    for (const diagnosis::Finding &finding : m_prompts.rankedFindings(request))
        shownIds << finding.ruleId;
    const ExtractionContext context{request.taskText, m_config.resolvedAnswerPath(), false};
    Expected<RewriteProposal> proposal =
        proposalFromAnswer(answer, request, context, QStringLiteral("manual"), QStringLiteral("manual"), shownIds);
    if (!proposal)
        return proposal.error();
    return QVector<RewriteProposal>{*proposal};
}

std::function<std::unique_ptr<ManualProvider>()> manualProviderMaker(const QString &root, const std::atomic<bool> *cancel)
{
    auto next = std::make_shared<std::atomic<int>>(0);
    return [root, cancel, next] {
        ManualConfig config;
        config.workDir = QDir(root).filePath(QStringLiteral("manual-%1").arg(++*next));
        auto provider = std::make_unique<ManualProvider>(config);
        provider->setCancelFlag(cancel);
        return provider;
    };
}

QStringList pendingManualFolders(const QString &root)
{
    QStringList pending;
    const QDir dir(root);
    for (const QString &name : dir.entryList({QStringLiteral("manual-*")}, QDir::Dirs, QDir::Name)) {
        ManualConfig config;
        config.workDir = dir.filePath(name);
        // propose() moves an old answer aside before it writes a new prompt: a prompt without an
        // answer is one a person has not answered yet.
        if (QFileInfo::exists(config.resolvedPromptPath()) && !QFileInfo::exists(config.resolvedAnswerPath()))
            pending.append(config.workDir);
    }
    return pending;
}

} // namespace strata::rewrite::llm
