#include "views/PassPanel.h"

#include "highlight/RuleHighlighter.h"
#include "views/CodeView.h"

#include <QFile>
#include <QHeaderView>
#include <QStyle>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace strata {

namespace {

struct DumpPair {
    QString beforeText;
    PassDiff diff;
    int afterRow = -1;  // the dump compared with; -1 when none
    QString error;
};

QString readText(const QString &path, QString *error)
{
    if (path.isEmpty()) {
        *error = PassPanel::tr("This dump was not kept with the compile (omitted to save space).");
        return {};
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = PassPanel::tr("%1: cannot read pass dump: %2").arg(path, file.errorString());
        return {};
    }
    return QString::fromUtf8(file.readAll());
}

bool hasLocations(const QString &mlirText)
{
    return mlirText.contains(QLatin1String(" loc("));
}

// Runs on the thread pool. `later`: the dumps after the selected one, (row, path) in order.
// A dump with locations is compared with the next dump that has them too: the pipeliner's
// internal snapshots in between print no locations and inline every attribute alias, so
// comparing with them would show formatting, not what the pass did.
DumpPair loadDumpPair(const QString &beforePath, const QVector<QPair<int, QString>> &later)
{
    DumpPair pair;
    pair.beforeText = readText(beforePath, &pair.error);
    if (!pair.error.isEmpty())
        return pair;
    const bool wantLocations = hasLocations(pair.beforeText);
    for (const auto &[row, path] : later) {
        QString error;
        const QString afterText = readText(path, &error);
        if (!error.isEmpty()) {
            pair.error = error;
            return pair;
        }
        if (wantLocations && !hasLocations(afterText))
            continue;
        pair.afterRow = row;
        pair.diff = diffTexts(withoutLocations(pair.beforeText), withoutLocations(afterText));
        break;
    }
    return pair;
}

} // namespace

PassPanel::PassPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new PassListModel(this))
    , m_table(new QTableView(this))
    , m_tabs(new QTabWidget(this))
    , m_before(new CodeView(this))
    , m_diffView(new CodeView(this))
    , m_summary(new QLabel(this))
{
    m_table->setObjectName(QStringLiteral("passTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(false);
    // Every column is sized once per pass list (fitColumns), not resized to contents: such a
    // column measures every row again whenever a row's mark changes, on every source-line click.
    // The class name is secondary (the argument is what the pipeline lists); the table scrolls
    // when it is narrow.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setShowGrid(false);
    m_table->setAlternatingRowColors(true);

    m_diffView->setObjectName(QStringLiteral("passDiff"));
    m_before->setObjectName(QStringLiteral("passBefore"));
    m_summary->setObjectName(QStringLiteral("passSummary"));
    m_diffView->setPlaceholderText(tr("Select a pass to see what it changed."));
    m_tabs->addTab(m_diffView, tr("Diff (what the pass changed)"));
    m_tabs->addTab(m_before, tr("IR before the pass"));

    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_summary->setContentsMargins(6, 3, 6, 3);
    rightLayout->addWidget(m_summary);
    rightLayout->addWidget(m_tabs, 1);

    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_table);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({380, 1100});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { onCurrentRowChanged(current.row()); });
}

void PassPanel::setPasses(const QVector<PassDumpRef> &passes)
{
    m_index.reset();
    m_model->setPasses(passes);
    fitColumns();
    m_selectedRow = -1;
    m_diff = {};
    m_before->setPlaceholder(passes.isEmpty() ? tr("This compile has no pass dumps.") : QString());
    m_diffView->setPlaceholder(passes.isEmpty() ? tr("This compile has no pass dumps.")
                                                : tr("Select a pass to see what it changed."));
    m_summary->setText((passes.size() == 1 ? tr("1 pass") : tr("%1 passes").arg(passes.size())));
}

// Each column as wide as its widest text set in bold, since a marked row (the pass changed the
// selected line) is bold: marks come and go without a column clipping or moving.
void PassPanel::fitColumns()
{
    QHeaderView *header = m_table->horizontalHeader();
    QFont bold = m_table->font();
    bold.setBold(true);
    const QFontMetrics metrics(bold);
    // QStyledItemDelegate's text margin on each side, plus a little air.
    const int margins = 2 * (m_table->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_table) + 1) + 6;
    for (int column = 0; column < PassListModel::ColumnCount; ++column) {
        const QString title = m_model->headerData(column, Qt::Horizontal, Qt::DisplayRole).toString();
        int width = header->fontMetrics().horizontalAdvance(title)
                    + 2 * header->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header) + 6;
        for (int row = 0; row < m_model->rowCount(); ++row)
            width = qMax(width, metrics.horizontalAdvance(m_model->index(row, column).data().toString()) + margins);
        header->resizeSection(column, width);
    }
}

void PassPanel::setPassIndex(std::shared_ptr<const PassOpIndex> index)
{
    m_index = std::move(index);
    updateMarks();
}

void PassPanel::setSelectedSourceLine(int sourceLine)
{
    m_sourceLine = sourceLine;
    updateMarks();
}

bool PassPanel::selectPass(int row)
{
    if (!m_model->passAt(row))
        return false;
    m_table->setCurrentIndex(m_model->index(row, PassListModel::PassColumn));
    m_table->scrollTo(m_model->index(row, 0));
    return true;
}

void PassPanel::onCurrentRowChanged(int row)
{
    const PassDumpRef *pass = m_model->passAt(row);
    if (!pass)
        return;
    m_selectedRow = row;
    if (pass->after) {
        showAfterDump(row);
        return;
    }
    const QString beforePath = pass->file.path;
    QVector<QPair<int, QString>> later;
    for (int next = row + 1; next < m_model->rowCount() && later.size() < 4 && !m_model->passAt(next)->after; ++next)
        later.append({next, m_model->passAt(next)->file.path});
    m_summary->setText(tr("Loading %1 ...").arg(pass->argument));
    // A newer selection drops this result (JobTracker): the user moved on.
    m_dumpLoads.start(
        [beforePath, later](const JobTracker::IsCancelled &) { return loadDumpPair(beforePath, later); },
        [this, row](DumpPair pair) { show(row, pair.beforeText, pair.diff, pair.afterRow, pair.error); });
}

void PassPanel::showAfterDump(int row)
{
    const PassDumpRef *pass = m_model->passAt(row);
    const PassDumpRef *previous = m_model->passAt(row - 1);
    const bool samePipeline = previous && previous->after && previous->stage == pass->stage;
    const QString basePath = samePipeline ? previous->file.path : m_stageInputs.value(pass->stage);
    const QString base = samePipeline ? tr("the IR after %1").arg(previous->argument)
                                      : tr("the %1 stage's input").arg(pass->stage);
    m_summary->setText(tr("Loading %1 ...").arg(pass->argument));
    if (basePath.isEmpty()) {
        const QString why = tr("%1 is the first pass of %2 and its input IR is not in this compile.")
                                .arg(pass->argument, pass->stage);
        show(row, {}, {}, -1, why);
        return;
    }
    const QVector<QPair<int, QString>> self{{row, pass->file.path}};
    m_dumpLoads.start(
        [basePath, self](const JobTracker::IsCancelled &) { return loadDumpPair(basePath, self); },
        [this, row, base](DumpPair pair) {
            show(row, pair.beforeText, pair.diff, -1, pair.error);
            if (pair.error.isEmpty() && pair.afterRow == row) {
                const PassDumpRef *shown = m_model->passAt(row);
                m_summary->setText(tr("<b>%1</b> (%2): +%3 / -%4 lines, compared with %5")
                                       .arg(shown->argument, shown->passName)
                                       .arg(pair.diff.added)
                                       .arg(pair.diff.removed)
                                       .arg(base));
            }
        });
}

void PassPanel::show(int row, const QString &beforeText, const PassDiff &diff, int afterRow,
                     const QString &error)
{
    const PassDumpRef *pass = m_model->passAt(row);
    const PassDumpRef *next = m_model->passAt(afterRow);
    m_diff = diff;
    if (!error.isEmpty()) {
        m_summary->setText(error);
        m_before->setPlaceholder(error);
        m_diffView->setPlaceholder(error);
        emit passShown(row);
        return;
    }
    m_before->setCode(beforeText, StageFormat::MlirText);
    m_diffView->setCode(diff.toUnifiedText(), StageFormat::PlainText);
    m_diffView->setHighlighter(new DiffHighlighter(m_diffView->document()));
    if (!next)
        m_diffView->setPlaceholderText(tr("The last pass has no later dump to compare with."));
    else if (diff.isEmpty())
        m_diffView->setPlaceholderText(tr("%1 left the IR unchanged.").arg(pass->argument));
    m_summary->setText(next ? tr("<b>%1</b> (%2): +%3 / -%4 lines, compared with the IR before %5")
                                  .arg(pass->argument, pass->passName)
                                  .arg(diff.added)
                                  .arg(diff.removed)
                                  .arg(next->argument)
                            : tr("<b>%1</b> (%2)").arg(pass->argument, pass->passName));
    emit passShown(row);
}

void PassPanel::updateMarks()
{
    if (!m_index || m_sourceLine <= 0 || m_index->passCount() != m_model->rowCount()) {
        m_model->setMarkedRows({});
        return;
    }
    const QVector<int> rows = m_index->passesChanging(m_sourceLine);
    m_model->setMarkedRows(QSet<int>(rows.cbegin(), rows.cend()));
}

} // namespace strata
