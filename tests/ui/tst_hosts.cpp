// The Hosts dialog and the host settings on real widgets: agents that replay sessions recorded
// from the real strata_agent (an H200 host, the same host with no GPU visible to torch, and this
// CPU-only machine), an SSH host reached through a stand-in `ssh`, the host list in QSettings,
// and the main window's Host menu, status field and compile going to the current host.
#include "HostTestSupport.h"
#include "UiTestSupport.h"

#include "app/AgentCompiler.h"
#include "host/AgentTransport.h"
#include "models/HostProbe.h"
#include "host/AgentRpc.h"
#include "models/HostReport.h"
#include "models/HostSettings.h"
#include "views/HostsDialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>

using namespace strata;
using namespace strata::test;

namespace {

constexpr int kAgentWaitMs = 60 * 1000;

QString cell(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text() : QString();
}

QJsonObject lastRequest(const QString &agentRoot, const QString &method)
{
    const QStringList requests = agentRequests(agentRoot);
    for (auto it = requests.crbegin(); it != requests.crend(); ++it) {
        const QJsonObject request = QJsonDocument::fromJson(it->toUtf8()).object();
        if (request.value(QStringLiteral("method")).toString() == method)
            return request;
    }
    return {};
}

// Waits until `done` holds for the host's state, the dialog's event loop running meanwhile.
template <typename Condition>
bool waitForState(const HostsDialog &dialog, const QString &id, Condition done)
{
    return QTest::qWaitFor([&] { return done(dialog.state(id)); }, kAgentWaitMs);
}

} // namespace

class TestHosts : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void hostListPersistsInSettings();
    void hostNamesThatAreNotStored();
    void sshConfigAliasesAreOffered();
    void dialogShowsInfoAndCeilings();
    void ceilingsErrorIsShownAndInfoKept();
    void torchWithoutVisibleGpuIsExplained();
    void sshHostGoesThroughSsh();
    void unreachableSshHostIsReported();
    void mainWindowShowsAndUsesCurrentHost();
    void silentAgentMeetsTheDeadline();
    void malformedRepliesNameHostAndField();

private:
    HostTransportOptions localAgent(const QString &agentRoot) const;
    void setSshEnvironment(const QString &agentRoot, const QByteArray &failure = {});

    QTemporaryDir m_dir;
    QByteArray m_oldPath;
};

void TestHosts::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // QSettings' user files go under ~/.qttest: the user's own settings are never touched.
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(HostSettings().settingsPath());
    QVERIFY(writeStandInSsh(m_dir.path()));
    m_oldPath = qgetenv("PATH");
    qputenv("PATH", m_dir.path().toUtf8() + ':' + m_oldPath);
    qputenv("STRATA_FAKE_SSH_LOG", m_dir.filePath(QStringLiteral("ssh.log")).toUtf8());
}

void TestHosts::cleanupTestCase()
{
    qputenv("PATH", m_oldPath);
    QFile::remove(HostSettings().settingsPath());
}

HostTransportOptions TestHosts::localAgent(const QString &agentRoot) const
{
    HostTransportOptions options;
    options.localPython = QStringLiteral("python3");
    options.localAgentDir = agentRoot;
    return options;
}

void TestHosts::setSshEnvironment(const QString &agentRoot, const QByteArray &failure)
{
    qputenv("STRATA_FAKE_SSH_AGENT_DIR", agentRoot.toUtf8());
    qputenv("STRATA_FAKE_SSH_FAIL", failure);
    QFile::remove(m_dir.filePath(QStringLiteral("ssh.log")));
}

void TestHosts::hostListPersistsInSettings()
{
    const QString ini = m_dir.filePath(QStringLiteral("hosts.ini"));
    {
        HostSettings settings(ini);
        QCOMPARE(settings.hosts().size(), 1);
        QVERIFY(settings.currentHost().isLocal());
        QSignalSpy changed(&settings, &HostSettings::currentHostChanged);
        QVERIFY(settings.addSshHost(QStringLiteral("gpu-box")));
        QVERIFY(settings.addSshHost(QStringLiteral(" user@lab-node ")));
        QString error;
        QVERIFY(!settings.addSshHost(QStringLiteral("gpu-box"), &error));
        QVERIFY2(error.contains(QStringLiteral("already")), qPrintable(error));
        QVERIFY(settings.setCurrentHost(QStringLiteral("ssh:user@lab-node")));
        QCOMPARE(changed.size(), 1);
        QVERIFY(!settings.setCurrentHost(QStringLiteral("ssh:not-listed")));
    }
    {
        HostSettings reloaded(ini);
        QStringList ids;
        for (const HostEntry &host : reloaded.hosts())
            ids.append(host.id());
        QCOMPARE(ids, (QStringList{QStringLiteral("local"), QStringLiteral("ssh:gpu-box"),
                                   QStringLiteral("ssh:user@lab-node")}));
        QCOMPARE(reloaded.currentHost().sshHost, QStringLiteral("user@lab-node"));
        QVERIFY(!reloaded.removeHost(QStringLiteral("local")));
        QSignalSpy changed(&reloaded, &HostSettings::currentHostChanged);
        QVERIFY(reloaded.removeHost(QStringLiteral("ssh:user@lab-node")));
        QCOMPARE(changed.size(), 1);   // the current host went away: back to local
        QVERIFY(reloaded.currentHost().isLocal());
    }
    HostSettings again(ini);
    QCOMPARE(again.hosts().size(), 2);
    QVERIFY(again.currentHost().isLocal());

    // The app's own settings file lives where QStandardPaths says (the test location here).
    HostSettings appSettings;
    QVERIFY2(appSettings.settingsPath().startsWith(
                 QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation)),
             qPrintable(appSettings.settingsPath()));
}

void TestHosts::hostNamesThatAreNotStored()
{
    const QString ini = m_dir.filePath(QStringLiteral("rejected.ini"));
    HostSettings settings(ini);
    for (const char *bad : {"-oProxyCommand=touch /tmp/x", "two words", "alice:hunter2@gpu-box", "", "host;rm"}) {
        QString error;
        QVERIFY2(!settings.addSshHost(QString::fromUtf8(bad), &error), bad);
        QVERIFY2(!error.isEmpty(), bad);
    }
    QCOMPARE(settings.hosts().size(), 1);
    QFile file(ini);
    if (file.open(QIODevice::ReadOnly))
        QVERIFY(!file.readAll().contains("hunter2"));
}

void TestHosts::sshConfigAliasesAreOffered()
{
    const QString config = m_dir.filePath(QStringLiteral("ssh_config"));
    QFile file(config);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("Host gpu-box h200-*\n  HostName 10.0.0.7\n  User alice\n"
               "host=lab-node # the lab machine\nMatch all\nHost !bastion jump\n");
    file.close();
    QCOMPARE(sshConfigHosts(config), (QStringList{QStringLiteral("gpu-box"), QStringLiteral("lab-node"),
                                                  QStringLiteral("jump")}));
    HostSettings settings(m_dir.filePath(QStringLiteral("aliases.ini")));
    HostsDialog dialog(&settings, {});
    dialog.setSshConfigPath(config);
    QCOMPARE(dialog.sshHostInput()->count(), 3);
    QCOMPARE(dialog.sshHostInput()->itemText(1), QStringLiteral("lab-node"));
}

void TestHosts::dialogShowsInfoAndCeilings()
{
    QTemporaryDir dir;
    const QString agent = writeReplayAgent(dir, hostSession(QStringLiteral("h200-session.jsonl")));
    QVERIFY(!agent.isEmpty());
    HostSettings settings(dir.filePath(QStringLiteral("hosts.ini")));
    HostsDialog dialog(&settings, localAgent(agent));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    HostInfoPanel *panel = dialog.panel();
    QCOMPARE(dialog.selectedHostId(), QStringLiteral("local"));

    QTest::mouseClick(panel->refreshButton(), Qt::LeftButton);
    // A host with a GPU and torch gets its ceilings without a click.
    QVERIFY(waitForState(dialog, QStringLiteral("local"), [](const HostPanelState &s) { return s.ceilings.has_value(); }));
    QVERIFY2(panel->fieldText(QStringLiteral("python")).startsWith(QStringLiteral("3.12.3 (/opt/torch/.venv/bin/python3)")),
             qPrintable(panel->fieldText(QStringLiteral("python"))));
    QCOMPARE(panel->fieldText(QStringLiteral("triton")), QStringLiteral("3.6.0"));
    QCOMPARE(panel->fieldText(QStringLiteral("torch")), QStringLiteral("2.11.0"));
    QCOMPARE(panel->fieldText(QStringLiteral("gpus")), QStringLiteral("0: NVIDIA H200 (sm_90, 140 GiB, driver 580.159.04)"));
    QCOMPARE(panel->fieldText(QStringLiteral("targets")), QStringLiteral("sm_80, sm_90, sm_100 (default sm_90)"));
    QCOMPARE(panel->fieldText(QStringLiteral("agent")), QStringLiteral("0.1.0 (protocol 1)"));
    QVERIFY(panel->fieldText(QStringLiteral("infoError")).isEmpty());
    QCOMPARE(lastRequest(agent, QStringLiteral("ceilings")).value(QStringLiteral("params")).toObject()
                 .value(QStringLiteral("refresh")).toBool(true), false);

    const QTableWidget *table = panel->ceilingsTable();
    QCOMPARE(table->rowCount(), 5);
    const QStringList expected{QStringLiteral("Copy bandwidth|4264 GB/s"), QStringLiteral("Matmul fp16|766.4 TFLOP/s"),
                               QStringLiteral("Matmul bf16|797.9 TFLOP/s"), QStringLiteral("Matmul tf32|414.1 TFLOP/s"),
                               QStringLiteral("Matmul fp32|50.9 TFLOP/s")};
    for (int row = 0; row < table->rowCount(); ++row)
        QCOMPARE(cell(table, row, 0) + QLatin1Char('|') + cell(table, row, 1), expected[row]);
    QCOMPARE(panel->fieldText(QStringLiteral("ceilingsSource")),
             QStringLiteral("NVIDIA H200 (sm_90): cached, from /root/.cache/strata/ceilings.json"));

    // "Measure again" asks the agent to measure instead of reading its cache.
    panel->remeasureBox()->setChecked(true);
    QTest::mouseClick(panel->measureButton(), Qt::LeftButton);
    QVERIFY(!panel->measureButton()->isEnabled());
    QVERIFY(waitForState(dialog, QStringLiteral("local"),
                         [](const HostPanelState &s) { return !s.ceilingsPending && s.ceilings && !s.ceilings->cached; }));
    QCOMPARE(panel->fieldText(QStringLiteral("ceilingsSource")),
             QStringLiteral("NVIDIA H200 (sm_90): measured just now in 1.1 s"));
    QVERIFY(lastRequest(agent, QStringLiteral("ceilings")).value(QStringLiteral("params")).toObject()
                .value(QStringLiteral("refresh")).toBool());
    QVERIFY(panel->measureButton()->isEnabled());

    const QString screenshot = QDir(QStringLiteral(STRATA_BUILD_DIR)).filePath(QStringLiteral("strata-hosts.png"));
    QVERIFY(dialog.grab().save(screenshot));
}

void TestHosts::ceilingsErrorIsShownAndInfoKept()
{
    QTemporaryDir dir;
    const QString agent = writeReplayAgent(dir, hostSession(QStringLiteral("cpu-host-session.jsonl")), 0.5);
    HostSettings settings(dir.filePath(QStringLiteral("hosts.ini")));
    HostsDialog dialog(&settings, localAgent(agent));
    dialog.show();
    HostInfoPanel *panel = dialog.panel();
    QTest::mouseClick(panel->refreshButton(), Qt::LeftButton);
    QVERIFY(waitForState(dialog, QStringLiteral("local"), [](const HostPanelState &s) { return s.info.has_value(); }));
    QCOMPARE(panel->fieldText(QStringLiteral("torch")), QStringLiteral("not installed (ceilings need it)"));
    QCOMPARE(panel->fieldText(QStringLiteral("gpus")), QStringLiteral("none found"));
    QCOMPARE(panel->fieldText(QStringLiteral("ceilingsSource")), QStringLiteral("This host has no GPU: ceilings need one."));
    QVERIFY(lastRequest(agent, QStringLiteral("ceilings")).isEmpty());   // not measured without a GPU

    QTest::mouseClick(panel->measureButton(), Qt::LeftButton);
    QVERIFY(dialog.state(QStringLiteral("local")).ceilingsPending);
    QVERIFY(panel->refreshButton()->isEnabled());   // usable while the agent works
    QVERIFY(waitForState(dialog, QStringLiteral("local"), [](const HostPanelState &s) { return !s.ceilingsError.isEmpty(); }));
    const QString error = panel->fieldText(QStringLiteral("ceilingsError"));
    QVERIFY2(error.startsWith(QStringLiteral("torch is not installed for the agent's Python on this host: "
                                             "ceilings need torch and a GPU.")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("ModuleNotFoundError: No module named 'torch'")), qPrintable(error));
    QVERIFY(panel->findChild<QLabel *>(QStringLiteral("ceilingsError"))->isVisible());
    QCOMPARE(panel->ceilingsTable()->rowCount(), 0);
    QCOMPARE(panel->fieldText(QStringLiteral("python")).left(6), QStringLiteral("3.11.7"));
    QCOMPARE(panel->fieldText(QStringLiteral("triton")), QStringLiteral("3.6.0"));
    QVERIFY(panel->measureButton()->isEnabled());
    QVERIFY(dialog.grab().save(QDir(QStringLiteral(STRATA_BUILD_DIR)).filePath(QStringLiteral("strata-hosts-error.png"))));
}

void TestHosts::torchWithoutVisibleGpuIsExplained()
{
    QTemporaryDir dir;
    const QString agent = writeReplayAgent(dir, hostSession(QStringLiteral("h200-no-visible-gpu-session.jsonl")));
    HostSettings settings(dir.filePath(QStringLiteral("hosts.ini")));
    HostsDialog dialog(&settings, localAgent(agent));
    dialog.refreshSelected();
    QVERIFY(waitForState(dialog, QStringLiteral("local"), [](const HostPanelState &s) { return !s.ceilingsError.isEmpty(); }));
    // Recorded from an agent older than the "no_device" kind: the reason is generic, the agent's
    // own words follow it.
    const QString error = dialog.panel()->fieldText(QStringLiteral("ceilingsError"));
    QVERIFY2(error.startsWith(QStringLiteral("the ceilings could not be measured.")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("RuntimeError: No CUDA GPUs are available")), qPrintable(error));
    QVERIFY(dialog.panel()->fieldText(QStringLiteral("gpus")).contains(QStringLiteral("NVIDIA H200")));
    // Today's agent names the case (its backend reads its runtime's words): said plainly.
    RpcError noDevice;
    noDevice.message = QStringLiteral("RuntimeError: No CUDA GPUs are available");
    noDevice.data = QJsonObject{{QStringLiteral("kind"), QStringLiteral("no_device")}};
    const QString plain = describeCeilingsError(noDevice, nullptr);
    QVERIFY2(plain.startsWith(QStringLiteral("torch on this host sees no device")), qPrintable(plain));
    QVERIFY(plain.contains(noDevice.message));
}

void TestHosts::sshHostGoesThroughSsh()
{
    QTemporaryDir dir;
    const QString agent = writeReplayAgent(dir, hostSession(QStringLiteral("h200-session.jsonl")));
    setSshEnvironment(agent);
    HostSettings settings(dir.filePath(QStringLiteral("hosts.ini")));
    HostsDialog dialog(&settings, {});
    dialog.show();
    dialog.sshHostInput()->setCurrentText(QStringLiteral("gpu-box"));
    QTest::mouseClick(dialog.addButton(), Qt::LeftButton);
    QCOMPARE(dialog.selectedHostId(), QStringLiteral("ssh:gpu-box"));
    QCOMPARE(dialog.hostList()->count(), 2);
    QCOMPARE(dialog.state(QStringLiteral("ssh:gpu-box")).commandLine,
             QStringLiteral("ssh gpu-box: ssh -T -o BatchMode=yes -o ConnectTimeout=15 gpu-box python3 -m strata_agent --stdio"));

    QTest::mouseClick(dialog.panel()->refreshButton(), Qt::LeftButton);
    QVERIFY(waitForState(dialog, QStringLiteral("ssh:gpu-box"), [](const HostPanelState &s) { return s.ceilings.has_value(); }));
    QFile log(m_dir.filePath(QStringLiteral("ssh.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(log.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts).first(),
             QStringLiteral("-T -o BatchMode=yes -o ConnectTimeout=15 gpu-box python3 -m strata_agent --stdio"));
    QCOMPARE(dialog.panel()->fieldText(QStringLiteral("gpus")), QStringLiteral("0: NVIDIA H200 (sm_90, 140 GiB, driver 580.159.04)"));
    QCOMPARE(dialog.panel()->ceilingsTable()->rowCount(), 5);

    QTest::mouseClick(dialog.useButton(), Qt::LeftButton);
    QCOMPARE(settings.currentHost().id(), QStringLiteral("ssh:gpu-box"));
    QVERIFY(dialog.hostList()->currentItem()->font().bold());
    QVERIFY(!dialog.useButton()->isEnabled());
    QVERIFY(dialog.grab().save(QDir(QStringLiteral(STRATA_BUILD_DIR)).filePath(QStringLiteral("strata-hosts-ssh.png"))));

    // Closing ends the agent (the replayer logs the shutdown request) and keeps what it said.
    QVERIFY(dialog.hasRunningAgent(QStringLiteral("ssh:gpu-box")));
    dialog.close();
    QVERIFY(!dialog.hasRunningAgent(QStringLiteral("ssh:gpu-box")));
    QVERIFY(!lastRequest(agent, QStringLiteral("shutdown")).isEmpty());
    QVERIFY(dialog.state(QStringLiteral("ssh:gpu-box")).ceilings.has_value());
}

void TestHosts::unreachableSshHostIsReported()
{
    QTemporaryDir dir;
    setSshEnvironment({}, "ssh: Could not resolve hostname nowhere.invalid: Name or service not known");
    HostSettings settings(dir.filePath(QStringLiteral("hosts.ini")));
    HostsDialog dialog(&settings, {});
    QVERIFY(dialog.addSshHost(QStringLiteral("nowhere.invalid")));
    QVERIFY(!dialog.addSshHost(QStringLiteral("-oProxyCommand=x")));
    QVERIFY2(dialog.listMessage().contains(QStringLiteral("cannot start with '-'")), qPrintable(dialog.listMessage()));
    dialog.refreshSelected();
    QVERIFY(waitForState(dialog, QStringLiteral("ssh:nowhere.invalid"), [](const HostPanelState &s) { return !s.infoError.isEmpty(); }));
    const QString error = dialog.panel()->fieldText(QStringLiteral("infoError"));
    QVERIFY2(error.contains(QStringLiteral("Could not resolve hostname nowhere.invalid")), qPrintable(error));
    QVERIFY(!dialog.state(QStringLiteral("ssh:nowhere.invalid")).info);
    QVERIFY(dialog.panel()->refreshButton()->isEnabled());
    QVERIFY(dialog.selectHost(QStringLiteral("local")));   // the rest of the dialog still works
    QVERIFY(dialog.panel()->fieldText(QStringLiteral("infoError")).isEmpty());
}

void TestHosts::mainWindowShowsAndUsesCurrentHost()
{
    QFile::remove(HostSettings().settingsPath());
    setSshEnvironment(LocalProcessTransport::defaultAgentDir());
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    const QLabel *hostField = window.findChild<QLabel *>(QStringLiteral("hostField"));
    QVERIFY(hostField);
    QCOMPARE(hostField->text(), QStringLiteral("Host: local"));
    QVERIFY(window.hostSettings()->addSshHost(QStringLiteral("gpu-box")));
    QVERIFY(window.hostSettings()->setCurrentHost(QStringLiteral("ssh:gpu-box")));
    QCOMPARE(hostField->text(), QStringLiteral("Host: gpu-box"));
    QCOMPARE(window.agentCompiler()->host().sshHost, QStringLiteral("gpu-box"));

    // The Host menu switches hosts and opens the dialog.
    QMenu *hostMenu = nullptr;
    for (QAction *action : window.menuBar()->actions())
        if (action->text() == QStringLiteral("&Host"))
            hostMenu = action->menu();
    QVERIFY(hostMenu);
    QAction *onGpuBox = nullptr;
    for (QAction *action : hostMenu->actions())
        if (action->text() == QStringLiteral("Compile on gpu-box (ssh)"))
            onGpuBox = action;
    QVERIFY(onGpuBox && onGpuBox->isChecked());
    window.openHostsDialog();
    QVERIFY(window.hostsDialog() && window.hostsDialog()->isVisible());
    QCOMPARE(window.hostsDialog()->hostList()->count(), 2);
    window.hostsDialog()->close();

    // A compile goes to the current host's agent: here through the stand-in ssh to the real
    // agent on this machine (same paths on both sides).
    const QString samples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");
    QSignalSpy loaded(&window, &MainWindow::compileLoaded);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.compileKernel(samples + QStringLiteral("/vector_add.py"), samples + QStringLiteral("/vector_add.aligned.spec.json"));
    QVERIFY2(loaded.wait(240000) || !failed.isEmpty(), "no compile result");
    if (!failed.isEmpty())
        QFAIL(qPrintable(failed.first().first().value<ReadError>().toString()));
    QFile log(m_dir.filePath(QStringLiteral("ssh.log")));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains("gpu-box python3 -m strata_agent --stdio"));
    QCOMPARE(window.currentCompile()->result.kernel, QStringLiteral("add_kernel"));

    for (QAction *action : hostMenu->actions())
        if (action->text() == QStringLiteral("Compile on local"))
            action->trigger();
    QCOMPARE(hostField->text(), QStringLiteral("Host: local"));
    QVERIFY(window.agentCompiler()->host().isLocal());
}

// An agent that never answers ends in a message naming the method and the wait, not a hang.
void TestHosts::silentAgentMeetsTheDeadline()
{
    QTemporaryDir dir;
    const QString agent = writeReplayAgent(dir, hostSession(QStringLiteral("h200-session.jsonl")), 30);
    HostProbe probe(HostEntry::local(), localAgent(agent));
    probe.setTimeouts(1500, 1500);
    QSignalSpy failed(&probe, &HostProbe::infoFailed);
    QSignalSpy ready(&probe, &HostProbe::infoReady);
    probe.refresh();
    QVERIFY(probe.isBusy());
    QVERIFY(failed.wait(10000));
    QCOMPARE(failed.first().first().toString(), QStringLiteral("no answer to info within 1 s"));
    QVERIFY(ready.isEmpty());
    QVERIFY(!probe.isBusy());
}

void TestHosts::malformedRepliesNameHostAndField()
{
    const auto noCopy = parseCeilings(QJsonObject{{QStringLiteral("ceilings"),
                                                   QJsonObject{{QStringLiteral("cached"), true}}}},
                                      QStringLiteral("gpu-box"));
    QVERIFY(!noCopy);
    QCOMPARE(noCopy.error().toString(), QStringLiteral("gpu-box: the ceilings reply has no copy_bandwidth_gbs number"));
    const auto notObject = parseHostInfo(QJsonValue(42), QStringLiteral("gpu-box"));
    QVERIFY(!notObject);
    QCOMPARE(notObject.error().toString(), QStringLiteral("gpu-box: the info reply is not a JSON object"));
}

QTEST_MAIN(TestHosts)
#include "tst_hosts.moc"
