#include "views/RemarksView.h"

namespace strata {

RemarksView::RemarksView(QWidget *parent)
    : QListView(parent)
    , m_model(new RemarkListModel(this))
{
    setObjectName(QStringLiteral("remarks"));
    setModel(m_model);
    setUniformItemSizes(true);
    setAlternatingRowColors(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    // activated covers Return and double-click; clicked makes a single click enough.
    auto request = [this](const QModelIndex &index) {
        const int line = m_model->lineForIndex(index);
        if (line > 0)
            emit sourceLineRequested(line);
    };
    connect(this, &QListView::clicked, this, request);
    connect(this, &QListView::activated, this, request);
}

void RemarksView::setRemarks(const QVector<Remark> &remarks, const QString &kernelFile)
{
    m_model->setRemarks(remarks, kernelFile);
}

} // namespace strata
