#pragma once
// The compile's pass dumps in pipeline order: mark, index, pass argument, stage, pass name. Rows whose pass
// changed the ops of the selected source line are marked (PassOpIndex decides which).
#include "compile/CompileResult.h"

#include <QAbstractTableModel>
#include <QSet>

namespace strata {

class PassListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { MarkColumn, IndexColumn, PassColumn, StageColumn, NameColumn, ColumnCount };
    enum Roles { ChangesSelectedLineRole = Qt::UserRole + 1 };

    explicit PassListModel(QObject *parent = nullptr);

    void setPasses(QVector<PassDumpRef> passes);  // sorted by PassDumpRef::index here
    const QVector<PassDumpRef> &passes() const { return m_passes; }
    const PassDumpRef *passAt(int row) const;
    int rowForArgument(const QString &argument) const;  // first row with that pass; -1 if none

    // Rows (positions in passes()) whose pass changed the selected source line.
    void setMarkedRows(const QSet<int> &rows);
    bool isMarked(int row) const { return m_marked.contains(row); }
    QSet<int> markedRows() const { return m_marked; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QVector<PassDumpRef> m_passes;
    QSet<int> m_marked;
};

} // namespace strata
