#include "models/SuiteTableModel.h"

#include "optimize/ResultsIndex.h"

#include <QColor>
#include <QFileInfo>
#include <limits>

namespace strata {

using optimize::TaskOutcome;

QString formatSpeedup(const std::optional<double> &speedup)
{
    return speedup ? QStringLiteral("%1x").arg(*speedup, 0, 'f', 2) : QStringLiteral("-");
}

QString formatMs(const std::optional<double> &ms)
{
    return ms ? QString::number(*ms, 'g', 4) : QStringLiteral("-");
}

namespace {

// Absent numbers sort below all present ones, in both directions of a sort the same way.
QVariant number(const std::optional<double> &value)
{
    return value ? *value : -std::numeric_limits<double>::infinity();
}

} // namespace

SuiteTableModel::SuiteTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void SuiteTableModel::setSuite(optimize::SuiteOutcome suite)
{
    beginResetModel();
    m_index.reset();
    m_suite = std::move(suite);
    indexTaskIds();
    endResetModel();
}

void SuiteTableModel::setIndex(std::shared_ptr<optimize::ResultsIndex> index)
{
    beginResetModel();
    m_index = std::move(index);
    m_suite = {};  // the index holds the summaries: one copy, not two
    indexTaskIds();
    endResetModel();
}

const optimize::SuiteOutcome &SuiteTableModel::suite() const
{
    return m_index ? m_index->summary() : m_suite;
}

void SuiteTableModel::indexTaskIds()
{
    m_rowOfTaskId.clear();
    const QVector<TaskOutcome> &tasks = suite().tasks;
    m_rowOfTaskId.reserve(tasks.size());
    for (int i = int(tasks.size()) - 1; i >= 0; --i)  // the first of equal ids wins
        m_rowOfTaskId.insert(tasks[i].taskId, i);
}

Expected<TaskOutcome> SuiteTableModel::wholeTask(int taskIndex) const
{
    const TaskOutcome *summary = taskAt(taskIndex);
    if (!summary)
        return ReadError{QString(), 0, 0, tr("no task %1").arg(taskIndex)};
    if (!m_index)
        return *summary;
    return m_index->loadTask(taskIndex);
}

const TaskOutcome *SuiteTableModel::taskAt(int taskIndex) const
{
    const QVector<TaskOutcome> &tasks = suite().tasks;
    return taskIndex >= 0 && taskIndex < tasks.size() ? &tasks[taskIndex] : nullptr;
}

int SuiteTableModel::taskIndexOf(const QString &taskId) const
{
    return m_rowOfTaskId.value(taskId, -1);
}

bool SuiteTableModel::setReview(int taskIndex, qint64 candidateId, const QString &review)
{
    if (m_index || taskIndex < 0 || taskIndex >= m_suite.tasks.size())
        return false;
    for (optimize::CandidateRecord &candidate : m_suite.tasks[taskIndex].candidates) {
        if (candidate.id == candidateId) {
            candidate.reviewState = review;
            emit reviewChanged(taskIndex, candidateId);
            return true;
        }
    }
    return false;
}

QStringList SuiteTableModel::categories() const
{
    QStringList categories;
    for (const TaskOutcome &task : suite().tasks)
        if (!task.category.isEmpty() && !categories.contains(task.category))
            categories.append(task.category);
    categories.sort();
    return categories;
}

int SuiteTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(suite().tasks.size());
}

int SuiteTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SuiteTableModel::display(const TaskOutcome &task, int column) const
{
    switch (column) {
    case TaskColumn: return task.taskId;
    case CategoryColumn: return task.category;
    case StatusColumn:
        if (task.status == QLatin1String("improved") && task.partial) return tr("improved (partial)");
        if (task.status == QLatin1String("improved")) return tr("improved");
        if (task.status == QLatin1String("no_gain")) return tr("no gain");
        if (task.status == QLatin1String("failed")) return tr("failed");
        if (task.status == QLatin1String("interrupted")) return tr("interrupted");
        if (task.status == QLatin1String("running")) return tr("running");
        if (task.status == QLatin1String("pending")) return tr("pending");
        return task.status;
    case InitialColumn: return formatMs(task.initialMs);
    case BestColumn: return formatMs(task.bestMs);
    case SpeedupColumn: return formatSpeedup(task.speedup());
    case VsEagerColumn: return formatSpeedup(task.speedupVsEager());
    case VsCompileColumn: return formatSpeedup(task.speedupVsCompile());
    case RooflineColumn:
        return task.rooflinePct ? QStringLiteral("%1%").arg(*task.rooflinePct, 0, 'f', 1) : QStringLiteral("-");
    case BoundColumn: return task.bound;
    case WonByColumn:
        return task.winningRecipes.isEmpty() ? task.failure : task.winningRecipes.join(QStringLiteral(", "));
    }
    return {};
}

QVariant SuiteTableModel::sortValue(const TaskOutcome &task, int column) const
{
    switch (column) {
    case InitialColumn: return number(task.initialMs);
    case BestColumn: return number(task.bestMs);
    case SpeedupColumn: return number(task.speedup());
    case VsEagerColumn: return number(task.speedupVsEager());
    case VsCompileColumn: return number(task.speedupVsCompile());
    case RooflineColumn: return number(task.rooflinePct);
    }
    return display(task, column).toString().toLower();
}

QVariant SuiteTableModel::data(const QModelIndex &index, int role) const
{
    const TaskOutcome *task = index.isValid() ? taskAt(index.row()) : nullptr;
    if (!task)
        return {};
    switch (role) {
    case Qt::DisplayRole: return display(*task, index.column());
    case SortRole: return sortValue(*task, index.column());
    case TaskIndexRole: return index.row();
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn || index.column() == WonByColumn)
            return task->failure.isEmpty() ? QVariant() : QVariant(task->failure);
        if (index.column() == TaskColumn)  // a merged results file also says which run measured it
            return task->measuredIn.isEmpty() ? task->taskPath
                                              : tr("%1\nmeasured in %2").arg(task->taskPath, task->measuredInText());
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() >= InitialColumn && index.column() <= RooflineColumn)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::ForegroundRole:
        // Mid-saturation colours read on both the light and the dark palette.
        if (index.column() == StatusColumn && task->status == QLatin1String("failed"))
            return QColor(0xE0, 0x4B, 0x4B);
        if (index.column() == StatusColumn && task->status == QLatin1String("improved"))
            return QColor(0x3F, 0xA9, 0x5A);
        return {};
    }
    return {};
}

QVariant SuiteTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TaskColumn: return tr("Task");
    case CategoryColumn: return tr("Category");
    case StatusColumn: return tr("Status");
    case InitialColumn: return tr("Initial ms");
    case BestColumn: return tr("Best ms");
    case SpeedupColumn: return tr("Speedup");
    case VsEagerColumn: return tr("vs eager");
    case VsCompileColumn: return tr("vs torch.compile");
    case RooflineColumn: return tr("% roofline");
    case BoundColumn: return tr("Bound");
    case WonByColumn: return tr("Won by / why not");
    }
    return {};
}

SuiteFilterProxy::SuiteFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(SuiteTableModel::SortRole);
}

void SuiteFilterProxy::setStatusFilter(const QString &status)
{
    m_status = status;
    invalidateFilter();
}

void SuiteFilterProxy::setCategoryFilter(const QString &category)
{
    m_category = category;
    invalidateFilter();
}

void SuiteFilterProxy::setSearchText(const QString &text)
{
    m_search = text.trimmed();
    invalidateFilter();
}

int SuiteFilterProxy::taskIndexAt(int proxyRow) const
{
    return mapToSource(index(proxyRow, 0)).row();
}

int SuiteFilterProxy::proxyRowOf(int taskIndex) const
{
    if (!sourceModel() || taskIndex < 0 || taskIndex >= sourceModel()->rowCount())
        return -1;
    return mapFromSource(sourceModel()->index(taskIndex, 0)).row();
}

bool SuiteFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &) const
{
    const auto *suite = qobject_cast<const SuiteTableModel *>(sourceModel());
    const TaskOutcome *task = suite ? suite->taskAt(sourceRow) : nullptr;
    if (!task)
        return false;
    if (!m_status.isEmpty() && task->status != m_status)
        return false;
    if (!m_category.isEmpty() && task->category != m_category)
        return false;
    if (m_search.isEmpty())
        return true;
    const QStringList haystack{task->taskId, task->taskPath, task->category, task->bound, task->failure,
                               task->winningRecipes.join(u' '), task->winningFindings.join(u' ')};
    for (const QString &text : haystack)
        if (text.contains(m_search, Qt::CaseInsensitive))
            return true;
    return false;
}

} // namespace strata
