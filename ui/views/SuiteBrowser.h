#pragma once
// The project browser for a suite run: the summary figures (geomean, median, over 2x/5x,
// failures, vs the best of eager/torch.compile), the speedup chart and the task table with
// status/category filters and search. Selecting a task in the chart or the table selects it in
// the other; `taskSelected` tells the rest of the window. The Rewrites tab reviews the selected
// task's candidates; a review is written back into the results file at once.
#include "optimize/Outcome.h"

#include <QWidget>

#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QTableView;
class QTabWidget;

namespace strata {

class CandidateReview;
class RoundsView;
class SpeedupPlot;
class SuiteFilterProxy;
class SuiteTableModel;

class SuiteBrowser : public QWidget {
    Q_OBJECT
public:
    explicit SuiteBrowser(QWidget *parent = nullptr);

    // Reads a `strata-cli bench --json` file. Empty on success, else the error (naming the file
    // and the field); what was shown before stays shown on error.
    QString openResults(const QString &path);
    void setSuite(const optimize::SuiteOutcome &suite, const QString &origin = {});

    void selectTask(int taskIndex);  // in the chart and the table; clears filters that hide it
    int selectedTask() const { return m_selected; }
    // The selected task whole (candidates with their sources, rounds), read from the results file
    // when it was selected; null when none is selected.
    const optimize::TaskOutcome *selectedWholeTask() const { return m_selectedWhole ? &*m_selectedWhole : nullptr; }

    SuiteTableModel *model() const { return m_model; }
    SuiteFilterProxy *proxy() const { return m_proxy; }
    SpeedupPlot *plot() const { return m_plot; }
    QTableView *table() const { return m_table; }
    CandidateReview *review() const { return m_review; }
    RoundsView *rounds() const { return m_rounds; }
    QTabWidget *tabs() const { return m_tabs; }
    void showRewrites();  // the Rewrites tab, on the selected task
    // Records a person's review of a candidate and writes the results file. Empty on success,
    // else why the file could not be written (the review stays in memory).
    QString setReview(int taskIndex, qint64 candidateId, const QString &review);
    QLineEdit *searchField() const { return m_search; }
    QComboBox *statusFilter() const { return m_status; }
    QComboBox *categoryFilter() const { return m_category; }
    QString summaryText() const;
    QString origin() const { return m_origin; }

signals:
    void taskSelected(int taskIndex);
    void statusMessage(const QString &message);

private:
    QWidget *buildFilterBar();
    void refreshCategories();
    void onTableSelection();
    void updateSummary();
    void showNewSuite();  // after the model got a suite: chart, filters, summary, no selection
    void loadSelectedWhole(int taskIndex);
    QString writeReviewToIndex(int taskIndex, qint64 candidateId, const QString &review);

    SuiteTableModel *m_model;
    SuiteFilterProxy *m_proxy;
    SpeedupPlot *m_plot;
    QTableView *m_table;
    CandidateReview *m_review;
    RoundsView *m_rounds;
    QTabWidget *m_tabs;
    QLabel *m_summary;
    QLineEdit *m_search = nullptr;
    QComboBox *m_status = nullptr;
    QComboBox *m_category = nullptr;
    QComboBox *m_chartMode = nullptr;
    QString m_origin;
    int m_selected = -1;
    std::optional<optimize::TaskOutcome> m_selectedWhole;
    bool m_syncing = false;  // selection being copied between chart and table
};

} // namespace strata
