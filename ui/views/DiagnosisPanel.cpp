#include "views/DiagnosisPanel.h"

#include "diagnosis/ladder/Ladder.h"
#include "models/DiagnosisTreeModel.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTreeView>
#include <QVBoxLayout>

namespace strata {

namespace {

struct LadderRun {
    diagnosis::LadderResult result;
    qint64 elapsedMs = 0;
};

LadderRun runStaticLadder(const LoadedCompile &compile, const diagnosis::Measurements &measurements,
                          const BackendPlugin *backend)
{
    QElapsedTimer clock;
    clock.start();
    diagnosis::LadderInputs inputs;
    inputs.kernel = compile.result.kernel;
    inputs.sourcePath = compile.result.sourcePath;
    inputs.spec = compile.result.spec;
    inputs.compile = &compile;
    inputs.backend = backend;
    inputs.astMissingReason = QStringLiteral("the app diagnoses the compile it shows; strata-cli diagnose asks the agent for the AST");
    if (!measurements.isEmpty())
        inputs.measurements = &measurements;
    return {diagnosis::runLadder(inputs), clock.elapsed()};
}

} // namespace

DiagnosisPanel::DiagnosisPanel(QWidget *parent)
    : QWidget(parent), m_model(new DiagnosisTreeModel(this)), m_tree(new QTreeView(this)), m_status(new QLabel(this)),
      m_warnings(new QLabel(this))
{
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(DiagnosisTreeModel::TitleColumn, QHeaderView::Stretch);
    m_status->setWordWrap(true);
    m_status->setContentsMargins(6, 3, 6, 3);
    // Amber on any theme: the banner must stand out from the status line above the tree.
    m_warnings->setObjectName(QStringLiteral("diagnosisWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_warnings->setContentsMargins(6, 4, 6, 4);
    m_warnings->setStyleSheet(QStringLiteral("QLabel#diagnosisWarnings { background: #fff3cd; color: #664d03; "
                                             "border: 1px solid #ffcd39; }"));
    m_warnings->hide();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_warnings);
    layout->addWidget(m_tree, 1);
    // A click follows the row as well as Return/double-click: the panes are the point of it.
    connect(m_tree, &QTreeView::clicked, this, &DiagnosisPanel::follow);
    connect(m_tree, &QTreeView::activated, this, &DiagnosisPanel::follow);
    clear(tr("Open or compile a kernel to diagnose it."));
}

void DiagnosisPanel::clear(const QString &message)
{
    m_runs.cancel();
    m_compile.reset();
    m_model->clear();
    m_status->setText(message);
    showWarnings({});
}

void DiagnosisPanel::showWarnings(const QStringList &warnings)
{
    m_warnings->setVisible(!warnings.isEmpty());
    if (warnings.isEmpty()) {
        m_warnings->clear();
        return;
    }
    QStringList lines{tr("Warning: %n input(s) missing or degraded:", nullptr,
                         int(warnings.size()))};
    for (const QString &warning : warnings)
        lines << QStringLiteral("\u2022 ") + warning;
    m_warnings->setText(lines.join(u'\n'));
    m_warnings->setToolTip(warnings.join(u'\n'));
}

void DiagnosisPanel::diagnose(std::shared_ptr<const LoadedCompile> compile, const BackendPlugin *backend)
{
    m_compile = std::move(compile);
    m_backend = backend;
    m_model->clear();
    showWarnings({});
    m_status->setText(tr("Diagnosing %1 ...").arg(m_compile->result.kernel));
    const std::shared_ptr<const LoadedCompile> keep = m_compile;
    const diagnosis::Measurements measurements = m_measurements;
    m_runs.start([keep, measurements, backend = m_backend](const JobTracker::IsCancelled &) { return runStaticLadder(*keep, measurements, backend); },
                 [this](LadderRun run) {
                     m_model->setResult(run.result);
                     showWarnings(run.result.diagnosis.warnings);
                     m_tree->expand(m_model->findingsRoot());
                     m_tree->resizeColumnToContents(DiagnosisTreeModel::LevelColumn);
                     m_status->setText(tr("%1: %n finding(s) in %2 ms. %3", nullptr, int(run.result.ranking.size()))
                                           .arg(run.result.diagnosis.kernel)
                                           .arg(run.elapsedMs)
                                           .arg(run.result.rankingBasis));
                     emit diagnosed();
                 });
}

QString DiagnosisPanel::attachMeasurements(const QStringList &files)
{
    diagnosis::Measurements added = m_measurements;
    for (const QString &file : files) {
        // Each file is one reply; which one, the file says (a reply of another method is refused).
        if (Expected<Timing> timing = diagnosis::readTimingFile(file)) {
            added.timing = *timing;
            added.origins.append(QStringLiteral("timing: ") + QFileInfo(file).fileName());
        } else if (Expected<ProfileResult> profile = diagnosis::readProfileFile(file)) {
            added.profile = *profile;
            added.origins.append(QStringLiteral("profile: ") + QFileInfo(file).fileName());
        } else if (Expected<CeilingsResult> ceilings = diagnosis::readCeilingsFile(file)) {
            added.ceilings = ceilings->ceilings;
            added.origins.append(QStringLiteral("ceilings: ") + QFileInfo(file).fileName());
        } else {
            return tr("%1: not a saved time, profile or ceilings reply (%2)").arg(file, timing.error().message);
        }
    }
    m_measurements = added;
    if (m_compile)
        diagnose(m_compile, m_backend);
    return {};
}

void DiagnosisPanel::clearMeasurements()
{
    m_measurements = {};
    if (m_compile)
        diagnose(m_compile, m_backend);
}

QString DiagnosisPanel::statusText() const
{
    return m_status->text();
}

void DiagnosisPanel::follow(const QModelIndex &index)
{
    const QModelIndex row = index.siblingAtColumn(0);
    const QVariant stage = row.data(DiagnosisTreeModel::StageRole);
    const QVariant irLine = row.data(DiagnosisTreeModel::IrLineRole);
    if (stage.isValid() && irLine.isValid()) {
        emit stageLineRequested(stage.toString(), irLine.toInt());
        return;
    }
    const QVariant sourceLine = row.data(DiagnosisTreeModel::SourceLineRole);
    if (sourceLine.isValid())
        emit sourceLineRequested(sourceLine.toInt());
}

} // namespace strata
