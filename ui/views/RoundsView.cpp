#include "views/RoundsView.h"

#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

QString shareText(const optimize::RoundFinding &finding)
{
    if (!finding.share)
        return {};
    return QStringLiteral("%1% %2").arg(*finding.share * 100, 0, 'f', 0)
        .arg(finding.shareMeasured ? RoundsView::tr("measured") : RoundsView::tr("estimated"));
}

QString givenText(const QStringList &measured)
{
    return measured.isEmpty() ? RoundsView::tr("static (no measurement)")
                              : RoundsView::tr("measured: %1").arg(measured.join(QStringLiteral(", ")));
}

} // namespace

RoundsView::RoundsView(QWidget *parent)
    : QWidget(parent), m_tree(new QTreeWidget(this)), m_empty(new QLabel(this))
{
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Round / finding"), tr("Severity"), tr("Line"), tr("Share of gap"), tr("Status")});
    m_tree->header()->setSectionResizeMode(WhatColumn, QHeaderView::Stretch);
    m_tree->header()->setStretchLastSection(false);
    m_tree->setUniformRowHeights(true);
    m_empty->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        if (const qint64 id = item->data(WhatColumn, CandidateRole).toLongLong())
            emit candidateRequested(id);
    });
    setTask(nullptr);
}

QTreeWidgetItem *RoundsView::roundItem(const optimize::RoundDiagnosis &round) const
{
    auto *item = new QTreeWidgetItem;
    item->setText(WhatColumn, tr("Round %1: c%2, %3, %4").arg(round.iteration).arg(round.candidateId)
                                  .arg(round.kernel, givenText(round.measured)));
    item->setToolTip(WhatColumn, round.escalation.join(u'\n'));
    item->setData(WhatColumn, CandidateRole, round.candidateId);
    for (const QString &warning : round.warnings) {
        auto *child = new QTreeWidgetItem(item);
        child->setText(WhatColumn, tr("Warning: %1").arg(warning));
        child->setForeground(WhatColumn, QColor(0xb0, 0x50, 0x00));
        child->setData(WhatColumn, CandidateRole, round.candidateId);
    }
    int rank = 0;
    for (const optimize::RoundFinding &finding : round.findings) {
        auto *child = new QTreeWidgetItem(item);
        child->setText(WhatColumn, QStringLiteral("%1. %2: %3").arg(++rank).arg(finding.ruleId, finding.title));
        child->setToolTip(WhatColumn, finding.title);
        child->setText(SeverityColumn, finding.severity);
        child->setText(LineColumn, finding.line > 0 ? QString::number(finding.line) : tr("kernel"));
        child->setText(ShareColumn, shareText(finding));
        child->setText(StatusColumn, finding.status);
        child->setData(WhatColumn, CandidateRole, round.candidateId);
    }
    return item;
}

void RoundsView::setTask(const optimize::TaskOutcome *task)
{
    m_tree->clear();
    if (!task || task->rounds.isEmpty()) {
        m_empty->setText(task ? tr("%1: no round was diagnosed in this results file (written before rounds were "
                                   "recorded, or the loop stopped before its first round).").arg(task->taskId)
                              : tr("Select a task to see the diagnosis of each round."));
        m_empty->show();
        return;
    }
    m_empty->setText(tr("%1: %2 round(s). Activate a round or a finding to see its candidate in Rewrites.")
                         .arg(task->taskId).arg(task->rounds.size()));
    for (const optimize::RoundDiagnosis &round : task->rounds)
        m_tree->addTopLevelItem(roundItem(round));
    m_tree->expandAll();
    m_tree->resizeColumnToContents(SeverityColumn);
    m_tree->resizeColumnToContents(ShareColumn);
}

} // namespace strata
