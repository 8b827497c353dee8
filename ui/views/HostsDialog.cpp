#include "views/HostsDialog.h"

#include "models/HostProbe.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace strata {

namespace {

constexpr int kIdRole = Qt::UserRole;

} // namespace

HostsDialog::HostsDialog(HostSettings *settings, HostTransportOptions options, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_options(std::move(options))
    , m_panel(new HostInfoPanel(this))
{
    setWindowTitle(tr("Hosts"));
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *columns = new QHBoxLayout;
    columns->addWidget(buildHostColumn());
    columns->addWidget(m_panel, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(columns, 1);
    layout->addWidget(buttons);

    connect(m_panel, &HostInfoPanel::refreshRequested, this, &HostsDialog::refreshSelected);
    connect(m_panel, &HostInfoPanel::measureRequested, this, &HostsDialog::measureSelected);
    connect(m_settings, &HostSettings::hostsChanged, this, &HostsDialog::reloadList);
    connect(m_settings, &HostSettings::currentHostChanged, this, &HostsDialog::reloadList);
    setSshConfigPath(defaultSshConfigPath());
    reloadList();
    selectHost(m_settings->currentHost().id());
    resize(900, 560);
}

// The probes stop their agents as they go (children of this dialog).
HostsDialog::~HostsDialog() = default;

QWidget *HostsDialog::buildHostColumn()
{
    auto *column = new QWidget(this);
    m_list = new QListWidget(column);
    m_list->setObjectName(QStringLiteral("hostList"));
    m_sshHost = new QComboBox(column);
    m_sshHost->setEditable(true);
    m_sshHost->setInsertPolicy(QComboBox::NoInsert);
    m_sshHost->lineEdit()->setPlaceholderText(tr("ssh alias or user@host"));
    m_sshHost->setToolTip(tr("A Host from ~/.ssh/config or any name ssh accepts; keys come from your "
                             "ssh agent or config, nothing secret is stored"));
    m_add = new QPushButton(tr("Add SSH host"), column);
    m_remove = new QPushButton(tr("Remove"), column);
    m_use = new QPushButton(tr("Use for compiles"), column);
    m_use->setToolTip(tr("Compiles from the main window run on this host's agent"));
    m_listMessage = new QLabel(column);
    m_listMessage->setWordWrap(true);
    m_listMessage->setTextInteractionFlags(Qt::TextSelectableByMouse);

    connect(m_add, &QPushButton::clicked, this, [this] { addSshHost(m_sshHost->currentText()); });
    connect(m_sshHost->lineEdit(), &QLineEdit::returnPressed, this,
            [this] { addSshHost(m_sshHost->currentText()); });
    connect(m_remove, &QPushButton::clicked, this, &HostsDialog::removeSelected);
    connect(m_use, &QPushButton::clicked, this, &HostsDialog::useSelected);
    connect(m_list, &QListWidget::currentRowChanged, this, &HostsDialog::onSelectionChanged);
    connect(m_list, &QListWidget::itemDoubleClicked, this, &HostsDialog::useSelected);

    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_sshHost, 1);
    addRow->addWidget(m_add);
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(m_use);
    listButtons->addWidget(m_remove);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("Hosts:"), column));
    layout->addWidget(m_list, 1);
    layout->addLayout(listButtons);
    layout->addLayout(addRow);
    layout->addWidget(m_listMessage);
    column->setMaximumWidth(340);
    return column;
}

void HostsDialog::setSshConfigPath(const QString &path)
{
    const QString typed = m_sshHost->currentText();
    m_sshHost->clear();
    m_sshHost->addItems(sshConfigHosts(path));
    m_sshHost->setCurrentText(typed);
}

void HostsDialog::reloadList()
{
    const QString selected = selectedHostId();
    const QString current = m_settings->currentHost().id();
    {
        const QSignalBlocker blocker(m_list);
        m_list->clear();
        for (const HostEntry &host : m_settings->hosts()) {
            const QString name = host.isLocal() ? tr("local (this machine)") : tr("%1 (ssh)").arg(host.sshHost);
            auto *item = new QListWidgetItem(host.id() == current ? tr("%1, compiles here").arg(name) : name, m_list);
            item->setData(kIdRole, host.id());
            QFont font = item->font();
            font.setBold(host.id() == current);
            item->setFont(font);
        }
    }
    if (!selectHost(selected))
        selectHost(current);
}

bool HostsDialog::selectHost(const QString &id)
{
    for (int row = 0; row < m_list->count(); ++row) {
        if (m_list->item(row)->data(kIdRole).toString() == id) {
            m_list->setCurrentRow(row);
            onSelectionChanged();  // also when the row was already current
            return true;
        }
    }
    return false;
}

QString HostsDialog::selectedHostId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(kIdRole).toString() : QString();
}

HostEntry HostsDialog::selectedHost() const
{
    return HostEntry::fromId(selectedHostId());
}

QString HostsDialog::listMessage() const
{
    return m_listMessage->text();
}

void HostsDialog::onSelectionChanged()
{
    const HostEntry host = selectedHost();
    const bool valid = host.isValid() && !selectedHostId().isEmpty();
    m_remove->setEnabled(valid && !host.isLocal());
    m_use->setEnabled(valid && host.id() != m_settings->currentHost().id());
    m_panel->setEnabled(valid);
    if (!valid)
        return;
    HostPanelState &state = m_states[host.id()];
    if (state.commandLine.isEmpty())
        state.commandLine = createTransport(host, m_options)->describe();
    if (state.status.isEmpty())
        state.status = tr("Not connected: press Connect / refresh.");
    m_panel->render(host, state);
}

void HostsDialog::changeState(const QString &id, const std::function<void(HostPanelState &)> &change)
{
    change(m_states[id]);
    if (id == selectedHostId())
        m_panel->render(selectedHost(), m_states[id]);
    emit hostStateChanged(id);
}

HostProbe *HostsDialog::probeFor(const HostEntry &host)
{
    HostProbe *&probe = m_probes[host.id()];
    if (!probe) {
        probe = new HostProbe(host, m_options, this);
        connectProbe(probe, host.id());
    }
    return probe;
}

void HostsDialog::connectProbe(HostProbe *probe, const QString &id)
{
    connect(probe, &HostProbe::infoReady, this, [this, probe, id](const HostInfo &info) {
        changeState(id, [&](HostPanelState &state) {
            state.infoPending = false;
            state.info = info;
            state.infoError.clear();
            state.status = tr("Connected.");
        });
        const HostPanelState &state = m_states[id];
        if (info.canMeasureCeilings() && !state.ceilings && !state.ceilingsPending)
            startMeasure(probe, id, false);
    });
    connect(probe, &HostProbe::infoFailed, this, [this, id](const QString &message) {
        changeState(id, [&](HostPanelState &state) {
            state.infoPending = false;
            state.infoError = message;
            state.status = tr("Could not reach the agent.");
        });
    });
    connect(probe, &HostProbe::ceilingsReady, this, [this, id](const DeviceCeilings &ceilings) {
        changeState(id, [&](HostPanelState &state) {
            state.ceilingsPending = false;
            state.ceilings = ceilings;
            state.ceilingsError.clear();
        });
    });
    connect(probe, &HostProbe::ceilingsFailed, this, [this, id](const QString &message) {
        changeState(id, [&](HostPanelState &state) {
            state.ceilingsPending = false;
            state.ceilingsError = message;
        });
    });
    connect(probe, &HostProbe::progress, this, [this, id](const QString &message) {
        changeState(id, [&](HostPanelState &state) { state.progress = message; });
    });
}

void HostsDialog::refreshSelected()
{
    const HostEntry host = selectedHost();
    if (!host.isValid())
        return;
    HostProbe *probe = probeFor(host);
    changeState(host.id(), [&](HostPanelState &state) {
        state.infoPending = true;
        state.infoError.clear();
        state.progress.clear();
        state.commandLine = probe->describe();
        state.status = tr("Connecting to %1 ...").arg(host.displayName());
    });
    probe->refresh();
}

void HostsDialog::measureSelected(bool remeasure)
{
    const HostEntry host = selectedHost();
    if (host.isValid())
        startMeasure(probeFor(host), host.id(), remeasure);
}

void HostsDialog::startMeasure(HostProbe *probe, const QString &id, bool remeasure)
{
    changeState(id, [&](HostPanelState &state) {
        state.ceilingsPending = true;
        state.ceilingsError.clear();
        state.progress.clear();
    });
    probe->measureCeilings(remeasure);
}

bool HostsDialog::addSshHost(const QString &host)
{
    QString error;
    if (!m_settings->addSshHost(host, &error)) {
        m_listMessage->setStyleSheet(QStringLiteral("color: #d03030"));
        m_listMessage->setText(tr("Cannot add \"%1\": %2").arg(host.trimmed(), error));
        return false;
    }
    m_listMessage->setStyleSheet(QString());
    m_listMessage->setText(tr("Added %1. Press Connect / refresh to reach its agent.").arg(host.trimmed()));
    m_sshHost->setCurrentText(QString());
    selectHost(HostEntry::ssh(host.trimmed()).id());
    return true;
}

void HostsDialog::removeSelected()
{
    const QString id = selectedHostId();
    if (HostProbe *probe = m_probes.take(id))
        delete probe;  // stops its agent
    m_states.remove(id);
    m_settings->removeHost(id);
}

void HostsDialog::done(int result)
{
    const QStringList ids = m_probes.keys();
    for (const QString &id : ids) {
        delete m_probes.take(id);   // closes the agent; its pending replies are dropped
        HostPanelState &state = m_states[id];
        if (state.infoPending || state.ceilingsPending)
            state.status = tr("Stopped when the dialog was closed.");
        state.infoPending = state.ceilingsPending = false;
    }
    QDialog::done(result);
}

void HostsDialog::useSelected()
{
    if (m_settings->setCurrentHost(selectedHostId()))
        m_listMessage->setText(tr("Compiles now run on %1.").arg(selectedHost().displayName()));
}

} // namespace strata
