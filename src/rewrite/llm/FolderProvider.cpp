#include "rewrite/llm/FolderProvider.h"

#include "rewrite/llm/LlmProvider.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QRegularExpression>

namespace strata::rewrite::llm {

namespace {

QString sha256Of(const QByteArray &bytes)
{
    return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

// DIR/<task> when it exists, else DIR.
QDir proposalsDirFor(const QString &folder, const RewriteRequest &request)
{
    const QDir root(folder);
    if (!request.taskName.isEmpty() && root.exists(request.taskName) && QFileInfo(root.filePath(request.taskName)).isDir())
        return QDir(root.filePath(request.taskName));
    return root;
}

Expected<std::optional<RewriteProposal>> fromAnswerFile(const QFileInfo &info, const QString &text, const RewriteRequest &request)
{
    const ExtractionContext context{request.taskText, info.absoluteFilePath(), false};
    Expected<RewriteProposal> proposal =
        proposalFromAnswer(text, request, context, QStringLiteral("folder"), info.fileName(), request.rankedRuleIds);
    if (proposal)
        return std::optional<RewriteProposal>(*proposal);
    if (proposal.error().message.contains(QLatin1String("already tried")))
        return std::optional<RewriteProposal>();  // replayed before: not an error
    ReadError error = proposal.error();
    error.file = info.absoluteFilePath();
    return error;
}

} // namespace

Expected<QVector<RewriteProposal>> FolderProvider::propose(const RewriteRequest &request)
{
    if (!QDir(m_folder).exists())
        return ReadError{m_folder, 0, 0, QStringLiteral("no such proposals folder")};
    const QDir dir = proposalsDirFor(m_folder, request);
    QVector<RewriteProposal> proposals;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.py"), QStringLiteral("*.md")}, QDir::Files, QDir::Name)) {
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            return ReadError{info.absoluteFilePath(), 0, 0, QStringLiteral("cannot read: ") + file.errorString()};
        const QByteArray bytes = file.readAll();
        if (info.suffix() == QLatin1String("md")) {
            Expected<std::optional<RewriteProposal>> answer = fromAnswerFile(info, QString::fromUtf8(bytes), request);
            if (!answer)
                return answer.error();
            if (*answer)
                proposals.append(**answer);
            continue;
        }
        if (request.alreadyTried.contains(sha256Of(bytes)))
            continue;
        RewriteProposal proposal;
        proposal.provider = id();
        proposal.recipeId = info.fileName();
        proposal.title = QStringLiteral("proposal from %1").arg(info.fileName());
        proposal.rationale = QStringLiteral("supplied by the user in %1").arg(dir.path());
        proposal.newText = QString::fromUtf8(bytes);
        proposals.append(proposal);
    }
    return proposals;
}

QString savedAnswerPath(const QString &dir, const RewriteRequest &request, const QString &model)
{
    const QDir taskDir(QDir(dir).filePath(request.taskName.isEmpty() ? QStringLiteral("task") : request.taskName));
    static const QRegularExpression numbered(QStringLiteral("^(\\d+)-"));
    int highest = 0;
    for (const QString &name : taskDir.entryList({QStringLiteral("*.md")}, QDir::Files)) {
        const QRegularExpressionMatch match = numbered.match(name);
        if (match.hasMatch())
            highest = std::max(highest, match.captured(1).toInt());
    }
    QString safeModel = model;
    safeModel.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9._-]")), QStringLiteral("_"));
    return taskDir.filePath(QStringLiteral("%1-%2.md").arg(highest + 1, 3, 10, QLatin1Char('0')).arg(safeModel));
}

} // namespace strata::rewrite::llm
