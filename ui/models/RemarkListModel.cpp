#include "models/RemarkListModel.h"

#include <QBrush>
#include <QColor>
#include <QFileInfo>

namespace strata {

RemarkListModel::RemarkListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

void RemarkListModel::setRemarks(QVector<Remark> remarks, const QString &kernelFile)
{
    beginResetModel();
    m_remarks = std::move(remarks);
    m_kernelFile = kernelFile;
    endResetModel();
}

int RemarkListModel::lineForIndex(const QModelIndex &index) const
{
    if (!index.isValid() || index.row() >= m_remarks.size())
        return 0;
    const SourceLocation &loc = m_remarks[index.row()].loc;
    if (!loc.isValid())
        return 0;
    if (!m_kernelFile.isEmpty() && !sameSourceFile(loc.file, m_kernelFile))
        return 0;
    return loc.line;
}

QModelIndex RemarkListModel::indexForLine(int sourceLine) const
{
    for (int row = 0; row < m_remarks.size(); ++row)
        if (lineForIndex(index(row)) == sourceLine)
            return index(row);
    return {};
}

int RemarkListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_remarks.size());
}

QVariant RemarkListModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_remarks.size())
        return {};
    const Remark &remark = m_remarks[index.row()];
    switch (role) {
    case Qt::DisplayRole: {
        const QString file = QFileInfo(remark.loc.file).fileName();
        const QString where = remark.loc.isValid() ? QStringLiteral("%1:%2").arg(file).arg(remark.loc.line)
                                                   : file;
        return QStringLiteral("%1: %2: %3").arg(where, remark.severity, remark.message);
    }
    case Qt::ToolTipRole:
        return toString(remark.loc) + QLatin1Char('\n') + remark.message;
    case Qt::ForegroundRole:
        if (remark.severity == QLatin1String("error"))
            return QBrush(QColor(0xE0, 0x4B, 0x4B));
        if (remark.severity == QLatin1String("warning"))
            return QBrush(QColor(0xD0, 0x8A, 0x10));
        return {};
    case SourceLineRole:
        return lineForIndex(index);
    case SeverityRole:
        return remark.severity;
    default:
        return {};
    }
}

} // namespace strata
