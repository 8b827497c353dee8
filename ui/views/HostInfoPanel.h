#pragma once
// One host's page in the Hosts dialog: the agent command line, "Connect / refresh", what `info`
// said (agent, Python, Triton, torch, GPUs, targets), and the measured ceilings in a small table
// with "Measure ceilings". It only draws a HostPanelState; HostsDialog owns the state and the
// agents. Errors are shown in red under the part they belong to; the rest stays as it was.
#include "models/HostReport.h"
#include "models/HostSettings.h"

#include <QHash>
#include <QWidget>
#include <optional>

class QCheckBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QTableWidget;

namespace strata {

struct HostPanelState {
    QString commandLine;                 // how the agent is reached
    QString status;                      // "Connecting ...", "Connected."
    bool infoPending = false;
    std::optional<HostInfo> info;
    QString infoError;
    bool ceilingsPending = false;
    std::optional<DeviceCeilings> ceilings;
    QString ceilingsError;
    QString progress;                    // the agent's last progress message
};

class HostInfoPanel : public QWidget {
    Q_OBJECT
public:
    explicit HostInfoPanel(QWidget *parent = nullptr);

    void render(const HostEntry &host, const HostPanelState &state);

    QPushButton *refreshButton() const { return m_refresh; }
    QPushButton *measureButton() const { return m_measure; }
    QCheckBox *remeasureBox() const { return m_remeasure; }
    QTableWidget *ceilingsTable() const { return m_table; }
    // The text shown for an info field: "agent", "python", "triton", "torch", "gpus", "targets",
    // "platform"; also "status", "infoError", "ceilingsSource", "ceilingsError".
    QString fieldText(const QString &field) const;

signals:
    void refreshRequested();
    void measureRequested(bool remeasure);

private:
    QWidget *buildInfoBox();
    QWidget *buildCeilingsBox();
    QLabel *addField(QFormLayout *form, const QString &label, const QString &field);
    void renderInfo(const HostPanelState &state);
    void renderCeilings(const HostPanelState &state);
    void fitTableToRows();   // every row visible, no scroll bars, no empty space
    QString ceilingsSource(const DeviceCeilings &ceilings) const;

    QLabel *m_title;
    QLabel *m_commandLine;
    QLabel *m_status;
    QPushButton *m_refresh;
    QLabel *m_infoError;
    QHash<QString, QLabel *> m_fields;
    QPushButton *m_measure = nullptr;
    QCheckBox *m_remeasure = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_ceilingsSource = nullptr;
    QLabel *m_ceilingsError = nullptr;
};

} // namespace strata
