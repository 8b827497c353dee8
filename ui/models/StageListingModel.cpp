#include "models/StageListingModel.h"

#include "core/TextLines.h"

namespace strata {

StageListingModel::StageListingModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void StageListingModel::setListing(StageListing listing, const QString &kernelFile)
{
    beginResetModel();
    m_listing = std::move(listing);
    m_kernelFile = kernelFile;
    endResetModel();
}

void StageListingModel::clear()
{
    setListing({}, {});
}

QString StageListingModel::text() const
{
    QStringList lines;
    lines.reserve(m_listing.lines.size());
    for (const ListingLine &line : m_listing.lines)
        lines.append(line.text);
    return lines.join(QLatin1Char('\n'));
}

int StageListingModel::lineForIndex(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this || index.row() >= m_listing.lines.size())
        return -1;
    return index.row();
}

QModelIndex StageListingModel::indexForLine(int line) const
{
    if (line < 0 || line >= m_listing.lines.size())
        return {};
    return index(line, 0);
}

int StageListingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_listing.lines.size());
}

QVariant StageListingModel::data(const QModelIndex &index, int role) const
{
    const int line = lineForIndex(index);
    if (line < 0)
        return {};
    const ListingLine &entry = m_listing.lines[line];
    switch (role) {
    case Qt::DisplayRole:
        return entry.text;
    case LineKindRole:
        return int(entry.kind);
    case OpcodeRole:
        return entry.opcode;
    case SourceLineRole: {
        const SourceLocation loc = m_kernelFile.isEmpty()
            ? (entry.frames.isEmpty() ? SourceLocation{} : entry.frames.first())
            : frameInFile(entry.frames, m_kernelFile);
        return loc.line;
    }
    default:
        return {};
    }
}

StageListing sourceListing(const QString &sourceText, const QString &kernelFile)
{
    StageListing listing;
    listing.stage = QStringLiteral("source");
    listing.path = kernelFile;
    const QStringList lines = splitLines(sourceText);
    listing.lines.reserve(lines.size());
    for (int i = 0; i < lines.size(); ++i) {
        ListingLine line;
        line.text = lines[i];
        line.kind = line.text.trimmed().isEmpty() ? LineKind::Blank : LineKind::Other;
        line.frames.append(SourceLocation{kernelFile, i + 1, 0});
        listing.lines.append(line);
    }
    return listing;
}

} // namespace strata
