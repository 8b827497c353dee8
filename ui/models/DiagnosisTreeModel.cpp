#include "models/DiagnosisTreeModel.h"

#include "diagnosis/model/EvidenceText.h"

#include <QColor>

namespace strata {

using namespace strata::diagnosis;

namespace {

constexpr int kFindingsGroup = 0;
constexpr int kEscalationGroup = 1;

QString levelText(Level level) { return levelName(level); }

} // namespace

DiagnosisTreeModel::DiagnosisTreeModel(QObject *parent) : QAbstractItemModel(parent) {}

void DiagnosisTreeModel::setResult(const LadderResult &result)
{
    beginResetModel();
    m_result = result;
    endResetModel();
}

void DiagnosisTreeModel::clear()
{
    setResult(LadderResult{});
}

quintptr DiagnosisTreeModel::idOf(const Node &node)
{
    // Three fields in one id: group, finding (or step) and item, each shifted by one so that
    // -1 (none) encodes as 0.
    return (quintptr(node.group + 1) << 40) | (quintptr(node.finding + 1) << 20) | quintptr(node.item + 1);
}

DiagnosisTreeModel::Node DiagnosisTreeModel::nodeOf(const QModelIndex &index)
{
    const quintptr id = index.internalId();
    return Node{int((id >> 40) & 0xFFFFF) - 1, int((id >> 20) & 0xFFFFF) - 1, int(id & 0xFFFFF) - 1};
}

QModelIndex DiagnosisTreeModel::findingsRoot() const { return index(kFindingsGroup, 0); }
QModelIndex DiagnosisTreeModel::escalationRoot() const { return index(kEscalationGroup, 0); }
QModelIndex DiagnosisTreeModel::findingIndex(int rank) const { return index(rank, 0, findingsRoot()); }

QModelIndex DiagnosisTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= ColumnCount || row >= rowCount(parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, idOf(Node{row, -1, -1}));
    const Node up = nodeOf(parent);
    if (up.finding < 0)  // a group: its findings or steps
        return createIndex(row, column, idOf(Node{up.group, row, -1}));
    return createIndex(row, column, idOf(Node{up.group, up.finding, row}));  // a finding: cause, evidence
}

QModelIndex DiagnosisTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    const Node node = nodeOf(child);
    if (node.finding < 0)
        return {};
    if (node.item < 0)
        return createIndex(node.group, 0, idOf(Node{node.group, -1, -1}));
    return createIndex(node.finding, 0, idOf(Node{node.group, node.finding, -1}));
}

int DiagnosisTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return 2;
    if (parent.column() > 0)
        return 0;
    const Node node = nodeOf(parent);
    if (node.finding < 0)
        return node.group == kFindingsGroup ? int(m_result.ranking.size()) : int(m_result.diagnosis.escalation.size());
    if (node.group == kFindingsGroup && node.item < 0)
        return 1 + int(m_result.ranking[node.finding].finding.evidence.size());
    return 0;
}

int DiagnosisTreeModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant DiagnosisTreeModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const Node node = nodeOf(index);
    if (node.finding < 0) {  // group rows
        if (role != Qt::DisplayRole || index.column() != TitleColumn)
            return {};
        return node.group == kFindingsGroup ? tr("Findings (%1), %2").arg(m_result.ranking.size()).arg(m_result.rankingBasis)
                                            : tr("Escalation (%1 steps)").arg(m_result.diagnosis.escalation.size());
    }
    if (node.group == kEscalationGroup) {
        const EscalationStep &step = m_result.diagnosis.escalation[node.finding];
        if (role == Qt::DisplayRole && index.column() == TitleColumn)
            return QStringLiteral("%1: %2").arg(step.step, step.reason);
        if (role == Qt::ToolTipRole)
            return step.reason;
        return {};
    }
    const RankedFinding &ranked = m_result.ranking[node.finding];
    if (node.item < 0)
        return findingData(ranked, node.finding, index.column(), role);
    return evidenceData(ranked.finding, node.item, index.column(), role);
}

QVariant DiagnosisTreeModel::findingData(const RankedFinding &ranked, int rank, int column, int role) const
{
    const Finding &finding = ranked.finding;
    if (role == SourceLineRole)
        return finding.span.line > 0 ? QVariant(finding.span.line) : QVariant();
    if (role == RuleRole)
        return finding.ruleId;
    if (role == ExaminesRole)
        return ranked.examines.isEmpty() ? QVariant() : QVariant(ranked.examines);
    if (role == Qt::ToolTipRole)
        return ranked.examines.isEmpty() ? QStringLiteral("%1\n%2").arg(finding.ruleId, finding.cause)
                                         : QStringLiteral("%1 (examines %2)\n%3").arg(finding.ruleId, ranked.examines, finding.cause);
    if (role == Qt::ForegroundRole && column == StatusColumn && ranked.status == QLatin1String("confirmed"))
        return QColor(0x3F, 0xA9, 0x5A);
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case TitleColumn: return QStringLiteral("%1. %2").arg(rank + 1).arg(finding.title);
    case LevelColumn: return levelText(finding.level);
    case SeverityColumn: return severityName(finding.severity);
    case ConfidenceColumn: return QString::number(finding.confidence, 'f', 2);
    case StatusColumn: return ranked.status;
    case LineColumn: return finding.span.line > 0 ? QVariant(finding.span.line) : QVariant();
    }
    return {};
}

QVariant DiagnosisTreeModel::evidenceData(const Finding &finding, int item, int column, int role) const
{
    if (role == RuleRole)
        return finding.ruleId;
    if (item == 0) {  // the cause, in one sentence
        if ((role == Qt::DisplayRole || role == Qt::ToolTipRole) && column == TitleColumn)
            return tr("cause: %1").arg(finding.cause);
        return {};
    }
    const Evidence &evidence = finding.evidence[item - 1];
    int sourceLine = 0;
    if (const auto *span = std::get_if<SpanEvidence>(&evidence.data))
        sourceLine = span->span.line;
    else if (const auto *remark = std::get_if<RemarkEvidence>(&evidence.data))
        sourceLine = remark->span.line;
    const auto *op = std::get_if<IrOpEvidence>(&evidence.data);
    switch (role) {
    case SourceLineRole: return sourceLine > 0 ? QVariant(sourceLine) : QVariant();
    case StageRole: return op ? QVariant(op->stage) : QVariant();
    case IrLineRole: return op && op->irLine >= 0 ? QVariant(op->irLine) : QVariant();
    case Qt::ToolTipRole: return evidenceText(evidence);
    case Qt::DisplayRole:
        if (column == TitleColumn)
            return QStringLiteral("%1: %2").arg(evidence.kindName(), evidenceText(evidence));
        if (column == LineColumn && sourceLine > 0)
            return sourceLine;
        if (column == LineColumn && op)
            return QStringLiteral("%1:%2").arg(op->stage).arg(op->irLine + 1);
        return {};
    }
    return {};
}

QVariant DiagnosisTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn: return tr("Finding / evidence");
    case LevelColumn: return tr("Level");
    case SeverityColumn: return tr("Severity");
    case ConfidenceColumn: return tr("Confidence");
    case StatusColumn: return tr("Status");
    case LineColumn: return tr("Line");
    }
    return {};
}

} // namespace strata
