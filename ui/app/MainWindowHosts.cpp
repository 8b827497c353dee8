// MainWindow and hosts: the Host menu (the Hosts dialog and a quick switch between the known
// hosts), the "Host: NAME" status field, and compiles going to the current host's agent; the
// LLM endpoints dialog (Settings menu), the other place the app reaches out from.
#include "app/MainWindow.h"

#include "app/AgentCompiler.h"
#include "models/HostSettings.h"
#include "views/HostsDialog.h"
#include "views/LlmSettingsDialog.h"
#include "views/RunPanel.h"

#include <QActionGroup>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

namespace strata {

void MainWindow::setUpHosts()
{
    m_hostMenu = menuBar()->addMenu(tr("&Host"));
    m_hostLabel = new QLabel(this);
    m_hostLabel->setObjectName(QStringLiteral("hostField"));
    m_hostLabel->setContentsMargins(8, 0, 8, 0);
    statusBar()->addPermanentWidget(m_hostLabel);
    connect(m_hosts, &HostSettings::hostsChanged, this, &MainWindow::rebuildHostMenu);
    connect(m_hosts, &HostSettings::currentHostChanged, this, &MainWindow::onCurrentHostChanged);
    onCurrentHostChanged(m_hosts->currentHost());
}

void MainWindow::rebuildHostMenu()
{
    m_hostMenu->clear();
    QAction *manage = m_hostMenu->addAction(tr("&Hosts..."), this, &MainWindow::openHostsDialog);
    manage->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
    manage->setStatusTip(tr("Add SSH hosts, see their Triton, torch and GPUs, measure their ceilings"));
    m_hostMenu->addSeparator();
    auto *group = new QActionGroup(m_hostMenu);
    const HostEntry current = m_hosts->currentHost();
    for (const HostEntry &host : m_hosts->hosts()) {
        const QString label = host.isLocal() ? tr("Compile on local") : tr("Compile on %1 (ssh)").arg(host.sshHost);
        QAction *use = m_hostMenu->addAction(label, this, [this, id = host.id()] { m_hosts->setCurrentHost(id); });
        use->setCheckable(true);
        use->setChecked(host == current);
        group->addAction(use);
    }
}

void MainWindow::onCurrentHostChanged(const HostEntry &host)
{
    m_compiler->setHost(host);
    m_runPanel->setAgentFactory(m_compiler->connectionFactory());  // runs start on the current host
    m_runPanel->setHostName(host.id());
    m_hostLabel->setText(tr("Host: %1").arg(host.displayName()));
    m_hostLabel->setToolTip(tr("Compiles run on this host's agent: %1").arg(m_compiler->describe()));
    rebuildHostMenu();
}

void MainWindow::openLlmSettings()
{
    if (!m_llmDialog)
        m_llmDialog = new LlmSettingsDialog(m_llmSettings, this);
    m_llmDialog->show();
    m_llmDialog->raise();
}

void MainWindow::openHostsDialog()
{
    if (!m_hostsDialog)
        m_hostsDialog = new HostsDialog(m_hosts, HostTransportOptions{}, this);
    m_hostsDialog->show();
    m_hostsDialog->raise();
    m_hostsDialog->activateWindow();
}

} // namespace strata
