#pragma once
// Compiler remarks and warnings as "file:line: message" rows; lineForIndex() gives the kernel
// source line a remark points at, so clicking one selects that line.
#include "compile/CompileResult.h"

#include <QAbstractListModel>

namespace strata {

class RemarkListModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Roles { SourceLineRole = Qt::UserRole + 1, SeverityRole };

    explicit RemarkListModel(QObject *parent = nullptr);

    // Remarks outside `kernelFile` (e.g. in triton/language helpers) keep their own file name and
    // link to no source line.
    void setRemarks(QVector<Remark> remarks, const QString &kernelFile);
    const QVector<Remark> &remarks() const { return m_remarks; }

    int lineForIndex(const QModelIndex &index) const;  // 1-based kernel line, 0 if none
    QModelIndex indexForLine(int sourceLine) const;    // first remark on that line

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QVector<Remark> m_remarks;
    QString m_kernelFile;
};

} // namespace strata
