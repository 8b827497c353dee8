#include "views/CandidateReview.h"

#include "models/PassDiff.h"
#include "views/CodeView.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

using optimize::CandidateRecord;

namespace {

enum Column { IdColumn, RoundColumn, RewriteColumn, StateColumn, MsColumn, SpeedupColumn, ReviewColumn, ColumnCount };

QString rewriteName(const CandidateRecord &candidate)
{
    if (candidate.parentId == 0)
        return QObject::tr("initial kernel");
    return candidate.recipeId.isEmpty() ? candidate.provider : candidate.provider + u':' + candidate.recipeId;
}

} // namespace

CandidateReview::CandidateReview(QWidget *parent)
    : QWidget(parent),
      m_table(new QTableWidget(0, ColumnCount, this)),
      m_detail(new QLabel(this)),
      m_parentView(new CodeView(this)),
      m_candidateView(new CodeView(this)),
      m_accept(new QPushButton(tr("&Accept rewrite"), this)),
      m_reject(new QPushButton(tr("Re&ject rewrite"), this))
{
    m_table->setHorizontalHeaderLabels(
        {tr("#"), tr("Round"), tr("Rewrite"), tr("Verdict"), tr("Median ms"), tr("vs parent"), tr("Review")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_detail->setWordWrap(true);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_parentView->setObjectName(QStringLiteral("reviewParent"));
    m_candidateView->setObjectName(QStringLiteral("reviewCandidate"));
    m_accept->setShortcut(QKeySequence(Qt::ALT | Qt::Key_A));
    m_reject->setShortcut(QKeySequence(Qt::ALT | Qt::Key_J));

    auto *codes = new QSplitter(Qt::Horizontal, this);
    codes->addWidget(m_parentView);
    codes->addWidget(m_candidateView);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_detail, 1);
    buttons->addWidget(m_accept);
    buttons->addWidget(m_reject);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addLayout(buttons);
    rightLayout->addWidget(codes, 1);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(right);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_table, &QTableWidget::currentCellChanged, this, &CandidateReview::onRowChanged);
    for (auto [button, review] : {std::pair{m_accept, "accepted"}, std::pair{m_reject, "rejected"}}) {
        const QString value = QString::fromLatin1(review);
        connect(button, &QPushButton::clicked, this, [this, value] {
            if (m_task && m_selectedId)
                emit reviewRequested(m_taskIndex, m_selectedId, value);
        });
    }
    setTask(nullptr, -1);
}

void CandidateReview::setTask(const optimize::TaskOutcome *task, int taskIndex)
{
    const qint64 keep = task && m_task && taskIndex == m_taskIndex ? m_selectedId : 0;
    m_task = task;
    m_taskIndex = taskIndex;
    m_selectedId = 0;
    fillTable();
    if (keep)
        selectCandidate(keep);
    else if (m_table->rowCount() > 1)
        m_table->setCurrentCell(1, 0);  // the first rewrite: the initial kernel has nothing to review
    else if (m_table->rowCount() == 1)
        m_table->setCurrentCell(0, 0);
    if (m_table->rowCount() == 0) {
        m_detail->setText(task ? tr("%1: no candidates were stored").arg(task->taskId) : tr("Select a task."));
        m_parentView->setPlaceholder(tr("No rewrite selected."));
        m_candidateView->setPlaceholder(QString());
    }
    m_accept->setEnabled(m_selectedId != 0);
    m_reject->setEnabled(m_selectedId != 0);
}

void CandidateReview::fillTable()
{
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(0);
    if (!m_task)
        return;
    m_table->setRowCount(int(m_task->candidates.size()));
    for (int row = 0; row < m_task->candidates.size(); ++row) {
        const CandidateRecord &candidate = m_task->candidates[row];
        const QStringList cells{
            QString::number(candidate.id), QString::number(candidate.iteration), rewriteName(candidate), candidate.state,
            candidate.medianMs ? QString::number(*candidate.medianMs, 'g', 4) : QStringLiteral("-"),
            candidate.speedupVsParent ? QStringLiteral("%1x").arg(*candidate.speedupVsParent, 0, 'f', 2) : QStringLiteral("-"),
            candidate.reviewState};
        for (int column = 0; column < ColumnCount; ++column) {
            auto *item = new QTableWidgetItem(cells[column]);
            item->setData(Qt::UserRole, candidate.id);
            m_table->setItem(row, column, item);
        }
    }
    m_table->resizeColumnsToContents();
}

void CandidateReview::selectCandidate(qint64 candidateId)
{
    for (int row = 0; row < m_table->rowCount(); ++row)
        if (m_table->item(row, 0)->data(Qt::UserRole).toLongLong() == candidateId) {
            m_table->setCurrentCell(row, 0);
            onRowChanged();  // also when the row was current already (a refresh)
            return;
        }
}

const CandidateRecord *CandidateReview::candidateById(qint64 id) const
{
    if (!m_task)
        return nullptr;
    for (const CandidateRecord &candidate : m_task->candidates)
        if (candidate.id == id)
            return &candidate;
    return nullptr;
}

void CandidateReview::onRowChanged()
{
    const int row = m_table->currentRow();
    const CandidateRecord *candidate =
        row >= 0 && m_table->item(row, 0) ? candidateById(m_table->item(row, 0)->data(Qt::UserRole).toLongLong()) : nullptr;
    m_selectedId = candidate ? candidate->id : 0;
    m_accept->setEnabled(candidate && candidate->parentId != 0);
    m_reject->setEnabled(candidate && candidate->parentId != 0);
    if (candidate)
        showCandidate(*candidate);
}

void CandidateReview::showCandidate(const CandidateRecord &candidate)
{
    const CandidateRecord *parent = candidateById(candidate.parentId);
    QString detail = QStringLiteral("<b>c%1 %2</b>: %3").arg(candidate.id).arg(rewriteName(candidate).toHtmlEscaped(),
                                                             candidate.state.toHtmlEscaped());
    if (!candidate.title.isEmpty())
        detail += QStringLiteral(" - ") + candidate.title.toHtmlEscaped();
    if (!candidate.findingRuleIds.isEmpty())
        detail += QStringLiteral("<br>") + tr("acts on: %1").arg(candidate.findingRuleIds.join(QStringLiteral(", ")).toHtmlEscaped());
    if (!candidate.detail.isEmpty())
        detail += QStringLiteral("<br>") + candidate.detail.toHtmlEscaped();
    if (!candidate.reviewState.isEmpty())
        detail += QStringLiteral("<br>") + tr("review: %1").arg(candidate.reviewState);
    m_detail->setText(detail);

    if (candidate.sourceText.isEmpty()) {
        m_parentView->setPlaceholder(tr("The results file holds no sources (written with --no-sources)."));
        m_candidateView->setPlaceholder(QString());
        return;
    }
    const QString before = parent ? parent->sourceText : candidate.sourceText;
    m_parentView->setCode(before, StageFormat::PythonSource);
    m_candidateView->setCode(candidate.sourceText, StageFormat::PythonSource);
    // Changed lines, marked on both sides: removed ones on the parent, added ones on the candidate.
    const PassDiff diff = diffTexts(before.split(u'\n'), candidate.sourceText.split(u'\n'), 0);
    QVector<int> removed, added;
    for (const DiffLine &line : diff.lines) {
        if (line.kind == DiffLine::Removed)
            removed.append(line.beforeLine - 1);
        else if (line.kind == DiffLine::Added)
            added.append(line.afterLine - 1);
    }
    m_parentView->setHighlightedLines(removed);
    m_candidateView->setHighlightedLines(added);
    m_parentView->setMarkedLines(QSet<int>(removed.begin(), removed.end()));
    m_candidateView->setMarkedLines(QSet<int>(added.begin(), added.end()));
    if (!added.isEmpty())
        m_candidateView->scrollToLine(added.first());
    if (!removed.isEmpty())
        m_parentView->scrollToLine(removed.first());
}

} // namespace strata
