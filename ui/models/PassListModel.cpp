#include "models/PassListModel.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>

namespace strata {

PassListModel::PassListModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PassListModel::setPasses(QVector<PassDumpRef> passes)
{
    std::stable_sort(passes.begin(), passes.end(),
                     [](const PassDumpRef &a, const PassDumpRef &b) { return a.index < b.index; });
    beginResetModel();
    m_passes = std::move(passes);
    m_marked.clear();
    endResetModel();
}

const PassDumpRef *PassListModel::passAt(int row) const
{
    return (row >= 0 && row < m_passes.size()) ? &m_passes[row] : nullptr;
}

int PassListModel::rowForArgument(const QString &argument) const
{
    for (int row = 0; row < m_passes.size(); ++row)
        if (m_passes[row].argument == argument)
            return row;
    return -1;
}

void PassListModel::setMarkedRows(const QSet<int> &rows)
{
    if (rows == m_marked)
        return;
    // Only the rows whose mark flipped change: a dataChanged over every row makes the table
    // measure every row again for its resize-to-contents columns, on every source-line click.
    QSet<int> flipped = rows;
    flipped.unite(m_marked).subtract(QSet<int>(rows).intersect(m_marked));
    m_marked = rows;
    for (const int row : std::as_const(flipped))
        if (row >= 0 && row < int(m_passes.size()))
            emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int PassListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_passes.size());
}

int PassListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PassListModel::data(const QModelIndex &index, int role) const
{
    const PassDumpRef *pass = index.isValid() ? passAt(index.row()) : nullptr;
    if (!pass)
        return {};
    const bool marked = isMarked(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case MarkColumn: return marked ? QStringLiteral("\u25CF") : QString();
        case IndexColumn: return pass->index;
        case PassColumn: return pass->argument.isEmpty() ? pass->passName : pass->argument;
        case StageColumn: return pass->stage;
        case NameColumn: return pass->passName;
        }
        return {};
    case Qt::ToolTipRole:
        return tr("%1 (%2) on %3\nShows the IR before this pass and what the pass changed.")
            .arg(pass->passName, pass->argument, pass->anchor);
    case Qt::ForegroundRole:
        // Orange reads on both light and dark palettes.
        if (marked && index.column() == MarkColumn)
            return QBrush(QColor(0xE0, 0x8A, 0x1E));
        return index.column() == NameColumn ? QBrush(QColor(0x80, 0x80, 0x80)) : QVariant();
    case Qt::FontRole:
        if (marked) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case ChangesSelectedLineRole:
        return marked;
    default:
        return {};
    }
}

QVariant PassListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case MarkColumn: return QString();
    case IndexColumn: return tr("#");
    case PassColumn: return tr("Pass");
    case StageColumn: return tr("Stage");
    case NameColumn: return tr("Name");
    }
    return {};
}

} // namespace strata
