#pragma once
// Rewrite review for one task of a suite run: its candidates (round, rewrite, verdict, time,
// speedup over the parent, a person's review), and for the selected one the parent and the
// candidate side by side with the changed lines marked, the findings it acts on and why it got
// its verdict. Accept / Reject ask for the review to be recorded (the SuiteBrowser stores it).
#include "optimize/Outcome.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace strata {

class CodeView;

class CandidateReview : public QWidget {
    Q_OBJECT
public:
    explicit CandidateReview(QWidget *parent = nullptr);

    void setTask(const optimize::TaskOutcome *task, int taskIndex);  // null clears
    void selectCandidate(qint64 candidateId);
    qint64 selectedCandidate() const { return m_selectedId; }

    QTableWidget *candidateTable() const { return m_table; }
    CodeView *parentView() const { return m_parentView; }
    CodeView *candidateView() const { return m_candidateView; }
    QLabel *detailLabel() const { return m_detail; }
    QPushButton *acceptButton() const { return m_accept; }
    QPushButton *rejectButton() const { return m_reject; }

signals:
    void reviewRequested(int taskIndex, qint64 candidateId, const QString &review);

private:
    void fillTable();
    void onRowChanged();
    void showCandidate(const optimize::CandidateRecord &candidate);
    const optimize::CandidateRecord *candidateById(qint64 id) const;

    QTableWidget *m_table;
    QLabel *m_detail;
    CodeView *m_parentView;
    CodeView *m_candidateView;
    QPushButton *m_accept;
    QPushButton *m_reject;
    const optimize::TaskOutcome *m_task = nullptr;
    int m_taskIndex = -1;
    qint64 m_selectedId = 0;
};

} // namespace strata
