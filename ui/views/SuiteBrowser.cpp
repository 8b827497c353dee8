#include "views/SuiteBrowser.h"

#include "core/AtomicFile.h"
#include "models/SuiteTableModel.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsIndex.h"
#include "views/CandidateReview.h"
#include "views/RoundsView.h"
#include "views/SpeedupPlot.h"

#include <QComboBox>
#include <algorithm>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QTabWidget>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

SuiteBrowser::SuiteBrowser(QWidget *parent)
    : QWidget(parent),
      m_model(new SuiteTableModel(this)),
      m_proxy(new SuiteFilterProxy(this)),
      m_plot(new SpeedupPlot(this)),
      m_table(new QTableView(this)),
      m_review(new CandidateReview(this)),
      m_rounds(new RoundsView(this)),
      m_tabs(new QTabWidget(this)),
      m_summary(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SuiteTableModel::SpeedupColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_summary->setWordWrap(true);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    m_tabs->addTab(m_table, tr("Tasks"));
    m_tabs->addTab(m_review, tr("Rewrites"));
    m_tabs->addTab(m_rounds, tr("Diagnosis by round"));
    splitter->addWidget(m_plot);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(buildFilterBar());
    layout->addWidget(splitter, 1);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &SuiteBrowser::onTableSelection);
    connect(m_plot, &SpeedupPlot::taskClicked, this, &SuiteBrowser::selectTask);
    connect(m_table, &QTableView::doubleClicked, this, &SuiteBrowser::showRewrites);
    connect(m_rounds, &RoundsView::candidateRequested, this, [this](qint64 candidateId) {
        m_review->selectCandidate(candidateId);
        m_tabs->setCurrentWidget(m_review);
    });
    connect(m_review, &CandidateReview::reviewRequested, this, [this](int task, qint64 candidate, const QString &review) {
        const QString error = setReview(task, candidate, review);
        emit statusMessage(error.isEmpty() ? tr("c%1 %2, saved to %3").arg(candidate).arg(review, m_origin) : error);
    });
    updateSummary();
}

QWidget *SuiteBrowser::buildFilterBar()
{
    auto *bar = new QWidget(this);
    auto *row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);

    m_search = new QLineEdit(bar);
    m_search->setPlaceholderText(tr("Search tasks, recipes, findings, failures"));
    m_search->setClearButtonEnabled(true);
    connect(m_search, &QLineEdit::textChanged, m_proxy, &SuiteFilterProxy::setSearchText);

    m_status = new QComboBox(bar);
    m_status->addItem(tr("All statuses"), QString());
    m_status->addItem(tr("Improved"), QStringLiteral("improved"));
    m_status->addItem(tr("No gain"), QStringLiteral("no_gain"));
    m_status->addItem(tr("Failed"), QStringLiteral("failed"));
    m_status->addItem(tr("Interrupted"), QStringLiteral("interrupted"));
    m_status->addItem(tr("Running"), QStringLiteral("running"));
    m_status->addItem(tr("Pending"), QStringLiteral("pending"));
    connect(m_status, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setStatusFilter(m_status->currentData().toString()); });

    m_category = new QComboBox(bar);
    connect(m_category, &QComboBox::currentIndexChanged, this,
            [this] { m_proxy->setCategoryFilter(m_category->currentData().toString()); });

    m_chartMode = new QComboBox(bar);
    m_chartMode->addItem(tr("Sorted speedups"), int(SpeedupPlot::Mode::SortedBars));
    m_chartMode->addItem(tr("Speedup vs % of roofline"), int(SpeedupPlot::Mode::RooflineScatter));
    m_chartMode->addItem(tr("Speedup distribution (CDF)"), int(SpeedupPlot::Mode::SpeedupCdf));
    connect(m_chartMode, &QComboBox::currentIndexChanged, this, [this] {
        m_plot->setMode(SpeedupPlot::Mode(m_chartMode->currentData().toInt()));
        m_plot->selectTask(m_selected);
    });

    row->addWidget(m_search, 1);
    row->addWidget(m_status);
    row->addWidget(m_category);
    row->addWidget(m_chartMode);
    refreshCategories();
    return bar;
}

QString SuiteBrowser::openResults(const QString &path)
{
    // Indexed, not read whole: memory follows the task on screen, not the file's size.
    Expected<optimize::ResultsIndex> index = optimize::ResultsIndex::open(path);
    if (!index)
        return index.error().toString();
    m_origin = path;
    m_model->setIndex(std::make_shared<optimize::ResultsIndex>(std::move(*index)));
    showNewSuite();
    return {};
}

void SuiteBrowser::setSuite(const optimize::SuiteOutcome &suite, const QString &origin)
{
    m_origin = origin;
    m_model->setSuite(suite);
    showNewSuite();
}

void SuiteBrowser::showNewSuite()
{
    m_selected = -1;
    m_selectedWhole.reset();
    m_plot->setSuite(m_model->suite());
    m_review->setTask(nullptr, -1);
    m_rounds->setTask(nullptr);
    refreshCategories();
    updateSummary();
    m_table->resizeColumnsToContents();
}

void SuiteBrowser::refreshCategories()
{
    const QSignalBlocker blocker(m_category);
    m_category->clear();
    m_category->addItem(tr("All categories"), QString());
    for (const QString &category : m_model->categories())
        m_category->addItem(category, category);
    m_proxy->setCategoryFilter(QString());
}

QString SuiteBrowser::summaryText() const
{
    const optimize::SuiteOutcome &suite = m_model->suite();
    if (suite.tasks.isEmpty())
        return tr("No suite results open (File > Open Suite Results...).");
    QString text = tr("%1: %2 tasks on %3 (backend: %4)").arg(suite.suite).arg(suite.tasks.size()).arg(suite.device, suite.backendText());
    text += QStringLiteral(" | ");
    text += tr("geomean %1x, median %2x, over 2x: %3, over 5x: %4, failures: %5, vs best of eager/torch.compile %6x")
                .arg(suite.geomeanSpeedup(), 0, 'f', 2)
                .arg(suite.medianSpeedup(), 0, 'f', 2)
                .arg(suite.countOver(2.0))
                .arg(suite.countOver(5.0))
                .arg(suite.failures())
                .arg(suite.geomeanVsBestBaseline(), 0, 'f', 2);
    return text;
}

void SuiteBrowser::updateSummary()
{
    m_summary->setText(summaryText());
    m_summary->setToolTip(m_origin);
}

void SuiteBrowser::selectTask(int taskIndex)
{
    if (m_syncing)
        return;
    if (!m_model->taskAt(taskIndex))
        taskIndex = -1;
    m_syncing = true;
    if (taskIndex >= 0 && m_proxy->proxyRowOf(taskIndex) < 0) {
        // The chart shows every task; a click on one the filters hide clears them.
        m_search->clear();
        m_status->setCurrentIndex(0);
        m_category->setCurrentIndex(0);
    }
    const int row = m_proxy->proxyRowOf(taskIndex);
    if (row >= 0) {
        m_table->selectRow(row);
        m_table->scrollTo(m_proxy->index(row, 0));
    } else {
        m_table->clearSelection();
    }
    m_plot->selectTask(taskIndex);
    if (taskIndex != m_selected || !m_selectedWhole)
        loadSelectedWhole(taskIndex);
    m_review->setTask(selectedWholeTask(), taskIndex);
    m_rounds->setTask(selectedWholeTask());
    m_syncing = false;
    if (taskIndex != m_selected) {
        m_selected = taskIndex;
        emit taskSelected(taskIndex);
    }
}

// The selected task's candidates and rounds, from the file; its summary if they cannot be read.
void SuiteBrowser::loadSelectedWhole(int taskIndex)
{
    m_selectedWhole.reset();
    if (!m_model->taskAt(taskIndex))
        return;
    Expected<optimize::TaskOutcome> whole = m_model->wholeTask(taskIndex);
    if (whole) {
        m_selectedWhole = std::move(*whole);
        return;
    }
    m_selectedWhole = *m_model->taskAt(taskIndex);
    emit statusMessage(tr("Cannot show the candidates of %1: %2").arg(m_selectedWhole->taskId, whole.error().toString()));
}

void SuiteBrowser::onTableSelection()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (!current.isValid())
        return;
    selectTask(m_proxy->taskIndexAt(current.row()));
}

} // namespace strata

namespace strata {

void SuiteBrowser::showRewrites()
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    if (current.isValid())
        selectTask(m_proxy->taskIndexAt(current.row()));
    m_tabs->setCurrentWidget(m_review);
}

QString SuiteBrowser::setReview(int taskIndex, qint64 candidateId, const QString &review)
{
    if (m_model->resultsIndex())
        return writeReviewToIndex(taskIndex, candidateId, review);
    if (!m_model->setReview(taskIndex, candidateId, review))
        return tr("no candidate c%1 in this task").arg(candidateId);
    if (taskIndex == m_selected)
        m_selectedWhole = *m_model->taskAt(taskIndex);  // the task was copied into the model
    m_review->setTask(selectedWholeTask(), taskIndex);
    m_review->selectCandidate(candidateId);
    if (m_origin.isEmpty())
        return {};
    // Atomic: a failed write leaves the results file as it was.
    const QByteArray json = QJsonDocument(optimize::toJson(m_model->suite(), true)).toJson(QJsonDocument::Indented);
    if (const QString error = writeFileAtomically(m_origin, json); !error.isEmpty())
        return tr("%1: cannot write the review: %2").arg(m_origin, error);
    return {};
}

} // namespace strata

namespace strata {

// An indexed results file gets the one task's record rewritten in place; the review is kept in
// memory (on the selected task) even when the file cannot be written.
QString SuiteBrowser::writeReviewToIndex(int taskIndex, qint64 candidateId, const QString &review)
{
    Expected<optimize::TaskOutcome> whole = taskIndex == m_selected && m_selectedWhole
                                                ? Expected<optimize::TaskOutcome>(*m_selectedWhole)
                                                : m_model->wholeTask(taskIndex);
    if (!whole)
        return tr("%1: cannot read the task: %2").arg(m_origin, whole.error().toString());
    auto candidate = std::find_if(whole->candidates.begin(), whole->candidates.end(),
                                  [candidateId](const optimize::CandidateRecord &c) { return c.id == candidateId; });
    if (candidate == whole->candidates.end())
        return tr("no candidate c%1 in this task").arg(candidateId);
    candidate->reviewState = review;
    const QString error = m_model->resultsIndex()->replaceTask(taskIndex, *whole);
    if (taskIndex == m_selected) {
        m_selectedWhole = std::move(*whole);
        m_review->setTask(selectedWholeTask(), taskIndex);
        m_review->selectCandidate(candidateId);
    }
    if (!error.isEmpty())
        return tr("%1: cannot write the review: %2").arg(m_origin, error);
    emit m_model->reviewChanged(taskIndex, candidateId);
    return {};
}

} // namespace strata
