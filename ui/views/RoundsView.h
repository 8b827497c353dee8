#pragma once
// The Suite dock's "Diagnosis by round" tab: for the selected task, each round of the loop with
// the candidate it diagnosed, what the ladder was given (static, timing, profile) and its ranked
// findings with their share of the gap. Activating a round or a finding asks for its candidate
// in the Rewrites tab, so a user can see why the loop tried what it tried.
#include "optimize/Outcome.h"

#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace strata {

class RoundsView : public QWidget {
    Q_OBJECT
public:
    explicit RoundsView(QWidget *parent = nullptr);

    void setTask(const optimize::TaskOutcome *task);  // null clears
    QTreeWidget *tree() const { return m_tree; }

    enum Column { WhatColumn, SeverityColumn, LineColumn, ShareColumn, StatusColumn, ColumnCount };
    static constexpr int CandidateRole = Qt::UserRole + 1;  // qint64 on every item

signals:
    void candidateRequested(qint64 candidateId);

private:
    QTreeWidgetItem *roundItem(const optimize::RoundDiagnosis &round) const;

    QTreeWidget *m_tree;
    QLabel *m_empty;
};

} // namespace strata
