#include "views/SlurmRunView.h"

#include "cluster/ResultsMerge.h"
#include "cluster/SlurmPlan.h"
#include "cluster/SlurmStatus.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace strata {

namespace {
constexpr int kRefreshMs = 15000;
}

SlurmRunView::SlurmRunView(QWidget *parent)
    : QGroupBox(tr("Slurm run (bench --slurm)"), parent)
    , m_dir(new QLineEdit(this))
    , m_text(new QPlainTextEdit(this))
    , m_timer(new QTimer(this))
{
    m_dir->setPlaceholderText(tr("Run folder (out/slurm/<suite>)"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    auto *reload = new QPushButton(tr("Refresh"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Slurm run folder"), m_dir->text());
        if (!dir.isEmpty())
            setRunDir(dir);
    });
    connect(reload, &QPushButton::clicked, this, &SlurmRunView::refresh);
    connect(m_dir, &QLineEdit::editingFinished, this, &SlurmRunView::refresh);
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_text->setMaximumHeight(m_text->fontMetrics().lineSpacing() * 12);
    m_timer->setInterval(kRefreshMs);
    connect(m_timer, &QTimer::timeout, this, &SlurmRunView::refresh);
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, [this] {
        const QString text = m_watcher.result();
        m_text->setPlainText(text);
        emit refreshed(text);
    });
    auto *row = new QHBoxLayout;
    row->addWidget(m_dir, 1);
    row->addWidget(browse);
    row->addWidget(reload);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(row);
    layout->addWidget(m_text);
}

SlurmRunView::~SlurmRunView()
{
    m_watcher.waitForFinished();
}

void SlurmRunView::setRunDir(const QString &dir)
{
    m_dir->setText(dir);
    refresh();
}

QString SlurmRunView::runDir() const
{
    return m_dir->text().trimmed();
}

void SlurmRunView::refresh()
{
    if (runDir().isEmpty() || m_watcher.isRunning())
        return;
    m_watcher.setFuture(QtConcurrent::run(&SlurmRunView::readStatus, runDir()));
}

void SlurmRunView::waitForRefresh()
{
    m_watcher.waitForFinished();
    QCoreApplication::processEvents();  // deliver finished()
}

QString SlurmRunView::readStatus(const QString &runDir)
{
    Expected<cluster::SlurmPlan> plan = cluster::readPlan(runDir);
    if (!plan)
        return plan.error().toString();
    Expected<cluster::QueueView> queue = cluster::readQueue(plan->arrayJobs + plan->mergeJobs);
    if (!queue)
        return queue.error().toString();
    Expected<QVector<cluster::TaskProgress>> tasks = cluster::storeProgress(*plan);
    if (!tasks)
        return tasks.error().toString();
    return cluster::statusText(*plan, *queue, *tasks);
}

void SlurmRunView::showEvent(QShowEvent *event)
{
    QGroupBox::showEvent(event);
    m_timer->start();
    refresh();
}

void SlurmRunView::hideEvent(QHideEvent *event)
{
    QGroupBox::hideEvent(event);
    m_timer->stop();
}

} // namespace strata
