#include "views/HostInfoPanel.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace strata {

namespace {

QLabel *selectableLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

QLabel *errorLabel(QWidget *parent, const QString &name)
{
    QLabel *label = selectableLabel(parent);
    label->setObjectName(name);
    label->setStyleSheet(QStringLiteral("color: #d03030"));
    label->setVisible(false);
    return label;
}

void showError(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

QString gpuLine(const GpuInfo &gpu)
{
    QStringList parts{gpu.target};
    if (gpu.memoryMib >= 0)
        parts.append(HostInfoPanel::tr("%1 GiB").arg(QString::number(gpu.memoryMib / 1024.0, 'f', 0)));
    if (!gpu.driver.isEmpty())
        parts.append(HostInfoPanel::tr("driver %1").arg(gpu.driver));
    return HostInfoPanel::tr("%1: %2 (%3)").arg(gpu.index).arg(gpu.name, parts.join(QStringLiteral(", ")));
}

} // namespace

HostInfoPanel::HostInfoPanel(QWidget *parent)
    : QWidget(parent)
    , m_title(new QLabel(this))
    , m_commandLine(selectableLabel(this))
    , m_status(selectableLabel(this))
    , m_refresh(new QPushButton(tr("Connect / refresh"), this))
    , m_infoError(errorLabel(this, QStringLiteral("infoError")))
{
    m_status->setObjectName(QStringLiteral("status"));
    m_refresh->setToolTip(tr("Start the host's agent if needed and ask it what it has"));
    connect(m_refresh, &QPushButton::clicked, this, &HostInfoPanel::refreshRequested);

    auto *header = new QHBoxLayout;
    header->addWidget(m_title, 1);
    header->addWidget(m_refresh);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addWidget(m_commandLine);
    layout->addWidget(m_status);
    layout->addWidget(buildInfoBox());
    layout->addWidget(buildCeilingsBox(), 1);
}

QLabel *HostInfoPanel::addField(QFormLayout *form, const QString &label, const QString &field)
{
    // Not word-wrapped: a wrapped label in a form row was cut to its first line; the values are
    // short enough, and paths and platform strings read better whole.
    auto *value = new QLabel(this);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setObjectName(field);
    form->addRow(label, value);
    m_fields.insert(field, value);
    return value;
}

QWidget *HostInfoPanel::buildInfoBox()
{
    auto *box = new QGroupBox(tr("Agent and toolchain"), this);
    auto *form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    addField(form, tr("Agent:"), QStringLiteral("agent"));
    addField(form, tr("Python:"), QStringLiteral("python"));
    addField(form, tr("Triton:"), QStringLiteral("triton"));
    addField(form, tr("torch:"), QStringLiteral("torch"));
    addField(form, tr("GPUs:"), QStringLiteral("gpus"));
    addField(form, tr("Targets:"), QStringLiteral("targets"));
    addField(form, tr("Platform:"), QStringLiteral("platform"));
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(form);
    layout->addWidget(m_infoError);
    return box;
}

QWidget *HostInfoPanel::buildCeilingsBox()
{
    auto *box = new QGroupBox(tr("Measured ceilings"), this);
    m_measure = new QPushButton(tr("Measure ceilings"), box);
    m_measure->setToolTip(tr("Copy bandwidth and matmul rates of the host's GPU (needs torch); "
                             "measured once per host, then read from its cache"));
    m_remeasure = new QCheckBox(tr("Measure again (ignore the cache)"), box);
    connect(m_measure, &QPushButton::clicked, this,
            [this] { emit measureRequested(m_remeasure->isChecked()); });

    m_table = new QTableWidget(0, 2, box);
    m_table->setObjectName(QStringLiteral("ceilingsTable"));
    m_table->setHorizontalHeaderLabels({tr("Ceiling"), tr("Measured")});
    m_table->verticalHeader()->setVisible(false);
    // Compact: the figures sit next to their names, not at the far edge of the dialog.
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);

    m_ceilingsSource = selectableLabel(box);
    m_ceilingsSource->setObjectName(QStringLiteral("ceilingsSource"));
    m_ceilingsError = errorLabel(box, QStringLiteral("ceilingsError"));

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_measure);
    buttons->addWidget(m_remeasure);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(box);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 0, Qt::AlignLeft);
    layout->addWidget(m_ceilingsSource);
    layout->addWidget(m_ceilingsError);
    layout->addStretch(1);
    return box;
}

void HostInfoPanel::render(const HostEntry &host, const HostPanelState &state)
{
    m_title->setText(host.isLocal() ? tr("<b>local</b> (this machine)")
                                    : tr("<b>%1</b> over SSH").arg(host.sshHost.toHtmlEscaped()));
    m_commandLine->setText(tr("Agent command: %1").arg(state.commandLine));
    QString status = state.status;
    if ((state.infoPending || state.ceilingsPending) && !state.progress.isEmpty())
        status = tr("%1 (%2)").arg(status, state.progress);
    m_status->setText(status);
    m_refresh->setEnabled(!state.infoPending);
    renderInfo(state);
    renderCeilings(state);
}

void HostInfoPanel::renderInfo(const HostPanelState &state)
{
    showError(m_infoError, state.infoError);
    if (!state.info) {
        for (QLabel *field : std::as_const(m_fields))
            field->setText(QStringLiteral("-"));
        return;
    }
    const HostInfo &info = *state.info;
    m_fields[QStringLiteral("agent")]->setText(tr("%1 (protocol %2)").arg(info.agentVersion).arg(info.protocol));
    m_fields[QStringLiteral("python")]->setText(
        info.pythonExecutable.isEmpty() ? info.python : tr("%1 (%2)").arg(info.python, info.pythonExecutable));
    m_fields[QStringLiteral("triton")]->setText(info.triton.isEmpty() ? tr("not installed") : info.triton);
    m_fields[QStringLiteral("torch")]->setText(info.hasTorch() ? info.torch
                                                               : tr("not installed (ceilings need it)"));
    QStringList gpus;
    for (const GpuInfo &gpu : info.gpus)
        gpus.append(gpuLine(gpu));
    m_fields[QStringLiteral("gpus")]->setText(gpus.isEmpty() ? tr("none found") : gpus.join(QLatin1Char('\n')));
    QString targets = info.targets.join(QStringLiteral(", "));
    if (!info.defaultTarget.isEmpty())
        targets = tr("%1 (default %2)").arg(targets, info.defaultTarget);
    m_fields[QStringLiteral("targets")]->setText(targets);
    m_fields[QStringLiteral("platform")]->setText(info.platform);
}

void HostInfoPanel::renderCeilings(const HostPanelState &state)
{
    m_measure->setEnabled(!state.ceilingsPending);
    showError(m_ceilingsError, state.ceilingsError);
    m_table->setRowCount(0);
    m_table->setVisible(false);
    m_ceilingsSource->show();
    if (state.ceilingsPending) {
        m_ceilingsSource->setText(tr("Measuring ... (a first measurement takes about a minute)"));
        return;
    }
    if (!state.ceilings && !state.ceilingsError.isEmpty()) {
        m_ceilingsSource->hide();   // the error below says it
        return;
    }
    if (!state.ceilings) {
        const bool noGpu = state.info && !state.info->hasGpu();
        m_ceilingsSource->setText(noGpu ? tr("This host has no GPU: ceilings need one.")
                                        : tr("Not measured yet."));
        return;
    }
    const DeviceCeilings &ceilings = *state.ceilings;
    auto addRow = [this](const QString &name, const QString &value) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(name));
        auto *valueItem = new QTableWidgetItem(value);
        valueItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_table->setItem(row, 1, valueItem);
    };
    addRow(tr("Copy bandwidth"), formatGbs(ceilings.copyBandwidthGbs));
    for (const MatmulRate &rate : ceilings.matmul)
        addRow(tr("Matmul %1").arg(rate.precision), formatTflops(rate.tflops));
    fitTableToRows();
    m_ceilingsSource->setText(ceilingsSource(ceilings));
}

void HostInfoPanel::fitTableToRows()
{
    m_table->resizeColumnsToContents();
    m_table->resizeRowsToContents();
    const int frame = 2 * m_table->frameWidth();
    int height = m_table->horizontalHeader()->sizeHint().height() + frame;
    for (int row = 0; row < m_table->rowCount(); ++row)
        height += m_table->rowHeight(row);
    int width = frame;
    for (int column = 0; column < m_table->columnCount(); ++column) {
        m_table->setColumnWidth(column, m_table->columnWidth(column) + 12);   // room between columns
        width += m_table->columnWidth(column);
    }
    m_table->setFixedSize(width, height);
    m_table->setVisible(m_table->rowCount() > 0);
}

QString HostInfoPanel::ceilingsSource(const DeviceCeilings &ceilings) const
{
    QString device = ceilings.deviceName;
    if (!ceilings.capability.isEmpty())
        device = tr("%1 (%2)").arg(device, ceilings.capability);
    if (ceilings.cached)
        return tr("%1: cached, from %2").arg(device, ceilings.cachePath);
    return tr("%1: measured just now in %2 s").arg(device, QString::number(ceilings.measuredSeconds, 'f', 1));
}

QString HostInfoPanel::fieldText(const QString &field) const
{
    if (const QLabel *label = m_fields.value(field))
        return label->text();
    if (const QLabel *label = findChild<QLabel *>(field))
        return label->text();
    return {};
}

} // namespace strata
