#pragma once
// The tasks of a suite results file as a table (one row per task, rows in file order), and the
// proxy the project browser sorts, filters and searches through. Numbers sort as numbers; absent
// times sort below every present one.
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QSortFilterProxyModel>

#include <memory>

namespace strata::optimize {
class ResultsIndex;
}

namespace strata {

class SuiteTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        TaskColumn, CategoryColumn, StatusColumn, InitialColumn, BestColumn, SpeedupColumn,
        VsEagerColumn, VsCompileColumn, RooflineColumn, BoundColumn, WonByColumn, ColumnCount
    };
    enum Roles { SortRole = Qt::UserRole + 1, TaskIndexRole };

    explicit SuiteTableModel(QObject *parent = nullptr);

    // A suite held in memory whole (a run in progress, tests).
    void setSuite(optimize::SuiteOutcome suite);
    // A results file: the rows are the index's task summaries; a task's candidates and rounds are
    // read from the file when wholeTask asks for them.
    void setIndex(std::shared_ptr<optimize::ResultsIndex> index);
    optimize::ResultsIndex *resultsIndex() const { return m_index.get(); }
    // The header and the tasks' table fields (without candidates and rounds when from an index).
    const optimize::SuiteOutcome &suite() const;
    const optimize::TaskOutcome *taskAt(int taskIndex) const;  // the summary
    Expected<optimize::TaskOutcome> wholeTask(int taskIndex) const;
    int taskIndexOf(const QString &taskId) const;  // -1 if none; a hash lookup
    // A person's review of one candidate of an in-memory suite, kept in the model so every view
    // sees it (an indexed suite's reviews are written to the file: SuiteBrowser::setReview).
    bool setReview(int taskIndex, qint64 candidateId, const QString &review);
    QStringList categories() const;  // sorted, unique

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

signals:
    void reviewChanged(int taskIndex, qint64 candidateId);

private:
    QVariant display(const optimize::TaskOutcome &task, int column) const;
    QVariant sortValue(const optimize::TaskOutcome &task, int column) const;

    void indexTaskIds();

    optimize::SuiteOutcome m_suite;  // an in-memory suite; empty while an index holds the file's
    std::shared_ptr<optimize::ResultsIndex> m_index;
    QHash<QString, int> m_rowOfTaskId;
};

// Status and category filters (empty: all) and a case-insensitive search over task id, path,
// category, bound, winning recipes and failure text.
class SuiteFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit SuiteFilterProxy(QObject *parent = nullptr);

    void setStatusFilter(const QString &status);
    void setCategoryFilter(const QString &category);
    void setSearchText(const QString &text);
    int taskIndexAt(int proxyRow) const;
    int proxyRowOf(int taskIndex) const;  // -1 when filtered out

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QString m_status;
    QString m_category;
    QString m_search;
};

QString formatSpeedup(const std::optional<double> &speedup);  // "2.41x" or "-"
QString formatMs(const std::optional<double> &ms);             // "0.123" or "-"

} // namespace strata
