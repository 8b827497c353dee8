#include "views/TracePanel.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QSignalBlocker>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

enum Column { Kernel, Config, Target, Stages, Launches, Grid, Autotune, ColumnCount };

QString gridText(const QVector<qint64> &grid)
{
    QStringList dims;
    for (const qint64 dim : grid)
        dims << QString::number(dim);
    return dims.join(QStringLiteral(" x "));
}

QString launchesText(const trace::TraceLaunches &launches)
{
    if (launches.benchmarkCount == 0)
        return QString::number(launches.count);
    return TracePanel::tr("%1 (+%2 benchmark)").arg(launches.count).arg(launches.benchmarkCount);
}

QString autotuneText(const trace::TraceKernel &kernel)
{
    if (kernel.autotuneWinner)
        return TracePanel::tr("winner");
    return kernel.autotuneBenchmarked ? TracePanel::tr("benchmarked") : QString();
}

} // namespace

TracePanel::TracePanel(QWidget *parent)
    : QWidget(parent)
    , m_summary(new QLabel(this))
    , m_tree(new QTreeWidget(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree);
    m_tree->setRootIsDecorated(false);
    m_tree->setUniformRowHeights(true);
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Kernel"), tr("Config"), tr("Target"), tr("Stages"), tr("Launches"), tr("Grid"), tr("Autotune")});
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        emit kernelActivated(m_tree->indexOfTopLevelItem(item));
    });
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) {
        emit kernelActivated(m_tree->indexOfTopLevelItem(item));
    });
}

void TracePanel::setTrace(const trace::TraceIndex &index)
{
    m_summary->setText(tr("%1: %2 compiled kernels, %3 launches%4")
                           .arg(QFileInfo(index.path).fileName())
                           .arg(index.kernels.size())
                           .arg(index.launchEvents)
                           .arg(index.launchEvents == 0 ? tr(" (recorded without launch tracing)") : QString()));
    m_summary->setToolTip(index.notes.join(u'\n'));
    m_tree->clear();
    for (const trace::TraceKernel &kernel : index.kernels) {
        auto *item = new QTreeWidgetItem(m_tree);
        item->setText(Kernel, kernel.label);
        item->setText(Config, kernel.configText());
        item->setText(Target, kernel.target);
        item->setText(Stages, kernel.stages.join(u' '));
        item->setText(Launches, launchesText(kernel.launches));
        item->setText(Grid, gridText(kernel.launches.grid));
        item->setText(Autotune, autotuneText(kernel));
        item->setToolTip(Kernel, tr("%1\nhash %2, trace line %3%4")
                                     .arg(kernel.sourceFile, kernel.hash.left(16))
                                     .arg(kernel.line)
                                     .arg(kernel.specProblem.isEmpty() ? QString() : tr("\nno spec: %1").arg(kernel.specProblem)));
    }
}

void TracePanel::setCurrentKernel(int index)
{
    const QSignalBlocker blocker(m_tree);
    if (QTreeWidgetItem *item = m_tree->topLevelItem(index))
        m_tree->setCurrentItem(item);
}

int TracePanel::kernelCount() const
{
    return m_tree->topLevelItemCount();
}

} // namespace strata
