#include "rewrite/FolderProvider.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>

namespace strata::rewrite {

Expected<QVector<RewriteProposal>> FolderProvider::propose(const RewriteRequest &request)
{
    const QDir dir(m_folder);
    if (!dir.exists())
        return ReadError{m_folder, 0, 0, QStringLiteral("no such proposals folder")};
    QVector<RewriteProposal> proposals;
    for (const QFileInfo &info : dir.entryInfoList({QStringLiteral("*.py")}, QDir::Files, QDir::Name)) {
        QFile file(info.absoluteFilePath());
        if (!file.open(QIODevice::ReadOnly))
            return ReadError{info.absoluteFilePath(), 0, 0, QStringLiteral("cannot read: ") + file.errorString()};
        const QByteArray bytes = file.readAll();
        const QString hash = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
        if (request.alreadyTried.contains(hash))
            continue;
        RewriteProposal proposal;
        proposal.provider = id();
        proposal.recipeId = info.fileName();
        proposal.title = QStringLiteral("proposal from %1").arg(info.fileName());
        proposal.rationale = QStringLiteral("supplied by the user in %1").arg(m_folder);
        proposal.newText = QString::fromUtf8(bytes);
        proposals.append(proposal);
    }
    return proposals;
}

} // namespace strata::rewrite
