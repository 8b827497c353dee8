#pragma once
// Host > Hosts...: the hosts the app knows (HostSettings), adding an SSH host (aliases from
// ~/.ssh/config offered, free text accepted), removing one, choosing the one compiles use, and
// for the selected host its agent's `info` and the measured ceilings (HostInfoPanel). Every agent
// request is asynchronous (HostProbe): the dialog stays usable while a host answers or fails.
// Ceilings are asked for without a click when the host reports a GPU and torch.
#include "models/HostSettings.h"
#include "views/HostInfoPanel.h"

#include <QDialog>
#include <QHash>
#include <functional>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace strata {

class HostProbe;

class HostsDialog : public QDialog {
    Q_OBJECT
public:
    HostsDialog(HostSettings *settings, HostTransportOptions options, QWidget *parent = nullptr);
    ~HostsDialog() override;

    // Offers the concrete Host entries of this ssh config (default ~/.ssh/config).
    void setSshConfigPath(const QString &path);

    bool selectHost(const QString &id);    // in the list; the panel shows that host
    QString selectedHostId() const;
    HostEntry selectedHost() const;
    void refreshSelected();                // as "Connect / refresh"
    void measureSelected(bool remeasure);  // as "Measure ceilings"
    bool addSshHost(const QString &host);  // as typing `host` and "Add"; false shows why

    // Parts, for tests.
    QListWidget *hostList() const { return m_list; }
    QComboBox *sshHostInput() const { return m_sshHost; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *useButton() const { return m_use; }
    HostInfoPanel *panel() const { return m_panel; }
    QString listMessage() const;           // the error/help line under the list
    HostPanelState state(const QString &id) const { return m_states.value(id); }
    bool hasRunningAgent(const QString &id) const { return m_probes.contains(id); }

    // Closing stops the agents this dialog started (what they said stays on show).
    void done(int result) override;

signals:
    // Every change of a host's state, after the panel is redrawn (tests wait on it).
    void hostStateChanged(const QString &id);

private:
    QWidget *buildHostColumn();
    void reloadList();
    void onSelectionChanged();
    void removeSelected();
    void useSelected();
    HostProbe *probeFor(const HostEntry &host);
    void connectProbe(HostProbe *probe, const QString &id);
    void startMeasure(HostProbe *probe, const QString &id, bool remeasure);
    // Applies `change` to a host's state, redraws the panel if it shows that host.
    void changeState(const QString &id, const std::function<void(HostPanelState &)> &change);

    HostSettings *m_settings;
    HostTransportOptions m_options;
    QHash<QString, HostProbe *> m_probes;        // per host id, kept while the dialog lives
    QHash<QString, HostPanelState> m_states;     // what the panel shows per host id
    QListWidget *m_list = nullptr;
    QComboBox *m_sshHost = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_use = nullptr;
    QLabel *m_listMessage = nullptr;
    HostInfoPanel *m_panel = nullptr;
};

} // namespace strata
