#pragma once
// The hosts the app can compile and measure on: this machine ("local") and SSH hosts named by
// their ssh alias or host name. The list and the current host persist in QSettings. Only host
// names are stored, never keys or passwords: ssh reads those from its own config and agent.
#include "host/AgentTransport.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>

class QSettings;

namespace strata {

struct HostEntry {
    enum class Kind { Local, Ssh };
    Kind kind = Kind::Local;
    QString sshHost;   // the ssh destination (alias from ~/.ssh/config or host name); empty for local

    static HostEntry local() { return {}; }
    static HostEntry ssh(const QString &host) { return {Kind::Ssh, host}; }
    // "local" or "ssh:HOST"; invalid ids give an entry whose isValid() is false.
    static HostEntry fromId(const QString &id);

    bool isLocal() const { return kind == Kind::Local; }
    bool isValid() const { return isLocal() || !sshHost.isEmpty(); }
    QString id() const;            // "local", "ssh:gpu-box": the persisted form
    QString displayName() const;   // "local", "gpu-box": what the status bar shows
    bool operator==(const HostEntry &other) const { return id() == other.id(); }
};

// How transports reach the agent; empty fields pick LocalProcessTransport's defaults.
struct HostTransportOptions {
    QString localPython;
    QString localAgentDir;
    QString remotePython = QStringLiteral("python3");
    // Extra ssh options: fail within seconds on an unreachable host instead of hanging.
    QStringList sshOptions{QStringLiteral("-o"), QStringLiteral("ConnectTimeout=15")};
};

// LocalProcessTransport for the local entry, SshTransport(HOST) for an SSH one.
std::unique_ptr<AgentTransport> createTransport(const HostEntry &host, const HostTransportOptions &options);

// Empty when `host` is a usable ssh destination, else why not (whitespace, a leading '-' that
// ssh would read as an option, something that looks like a password).
QString checkSshHostName(const QString &host);

// The concrete `Host` aliases of an ssh config file (patterns with * ? ! are left out), in order.
QStringList sshConfigHosts(const QString &configPath);
QString defaultSshConfigPath();   // ~/.ssh/config

class HostSettings : public QObject {
    Q_OBJECT
public:
    // The app's settings (QSettings IniFormat, user scope, "Strata"/"strata").
    explicit HostSettings(QObject *parent = nullptr);
    // A settings file of its own (tests).
    explicit HostSettings(const QString &iniPath, QObject *parent = nullptr);
    ~HostSettings() override;

    QVector<HostEntry> hosts() const { return m_hosts; }   // local first, then SSH hosts as added
    HostEntry currentHost() const { return m_current; }
    QString settingsPath() const;

    // False with `error` set when the name is unusable or already listed.
    bool addSshHost(const QString &host, QString *error = nullptr);
    bool removeHost(const QString &id);      // the local host cannot be removed
    bool setCurrentHost(const QString &id);  // must be listed

signals:
    void hostsChanged();
    void currentHostChanged(const strata::HostEntry &host);

private:
    void load();
    void save();
    int indexOf(const QString &id) const;

    std::unique_ptr<QSettings> m_settings;
    QVector<HostEntry> m_hosts;
    HostEntry m_current;
};

} // namespace strata

Q_DECLARE_METATYPE(strata::HostEntry)
