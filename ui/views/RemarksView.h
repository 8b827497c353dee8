#pragma once
// The compile's remarks ("file:line: message"); clicking one asks for its source line.
#include "models/RemarkListModel.h"

#include <QListView>

namespace strata {

class RemarksView : public QListView {
    Q_OBJECT
public:
    explicit RemarksView(QWidget *parent = nullptr);

    RemarkListModel *remarksModel() const { return m_model; }
    void setRemarks(const QVector<Remark> &remarks, const QString &kernelFile);

signals:
    void sourceLineRequested(int sourceLine);  // 1-based kernel line

private:
    RemarkListModel *m_model;
};

} // namespace strata
