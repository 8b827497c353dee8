#pragma once
// A diagnosis as a tree for the Diagnosis dock:
//   Findings (ranked)  -> rank. title  [level, severity, confidence, status, line]
//                          -> cause, then one row per evidence item (kind: text)
//   Escalation         -> one row per step of the ladder's log (why it climbed or stopped)
// Rows that point somewhere carry it in roles: a source line (findings, spans, remarks) or an
// IR line of a stage (ir_op evidence), so the view can follow them into the linked panes.
#include "diagnosis/ladder/Ladder.h"

#include <QAbstractItemModel>
#include <QVector>

namespace strata {

class DiagnosisTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { TitleColumn, LevelColumn, SeverityColumn, ConfidenceColumn, StatusColumn, LineColumn, ColumnCount };
    enum Roles {
        SourceLineRole = Qt::UserRole + 1,  // 1-based source line, or absent
        StageRole,                          // stage id of an ir_op evidence row
        IrLineRole,                         // 0-based line in that stage's listing
        RuleRole,                           // the finding's rule id (finding and evidence rows)
        ExaminesRole,                       // an L4 finding: the L3 rule it examines
    };

    explicit DiagnosisTreeModel(QObject *parent = nullptr);

    void setResult(const diagnosis::LadderResult &result);
    void clear();
    const diagnosis::LadderResult &result() const { return m_result; }

    QModelIndex findingsRoot() const;    // the "Findings" group
    QModelIndex escalationRoot() const;  // the "Escalation" group
    QModelIndex findingIndex(int rank) const;  // rank 0 = most important

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    // A row's place: group (0 findings, 1 escalation), finding rank, and the item under it
    // (-1: the finding row itself; 0: its cause; 1..: evidence[item - 1]).
    struct Node {
        int group = -1;
        int finding = -1;
        int item = -1;
    };
    static quintptr idOf(const Node &node);  // the index's internal id names the node
    static Node nodeOf(const QModelIndex &index);
    QVariant findingData(const diagnosis::RankedFinding &ranked, int rank, int column, int role) const;
    QVariant evidenceData(const diagnosis::Finding &finding, int item, int column, int role) const;

    diagnosis::LadderResult m_result;
};

} // namespace strata
