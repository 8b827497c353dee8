#include "models/HostSettings.h"

#include "host/AgentTransport.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSettings>
#include <QTextStream>

namespace strata {

namespace {

const QString kLocalId = QStringLiteral("local");
const QString kSshPrefix = QStringLiteral("ssh:");
const QString kHostsKey = QStringLiteral("hosts/list");
const QString kCurrentKey = QStringLiteral("hosts/current");

} // namespace

HostEntry HostEntry::fromId(const QString &id)
{
    if (id == kLocalId)
        return local();
    if (id.startsWith(kSshPrefix) && checkSshHostName(id.mid(kSshPrefix.size())).isEmpty())
        return ssh(id.mid(kSshPrefix.size()));
    return {Kind::Ssh, {}};  // invalid
}

QString HostEntry::id() const
{
    return isLocal() ? kLocalId : kSshPrefix + sshHost;
}

QString HostEntry::displayName() const
{
    return isLocal() ? kLocalId : sshHost;
}

std::unique_ptr<AgentTransport> createTransport(const HostEntry &host, const HostTransportOptions &options)
{
    if (host.isLocal())
        return std::make_unique<LocalProcessTransport>(options.localPython, options.localAgentDir);
    return std::make_unique<SshTransport>(host.sshHost, options.remotePython, options.sshOptions);
}

QString checkSshHostName(const QString &host)
{
    if (host.trimmed().isEmpty())
        return HostSettings::tr("the host name is empty");
    if (host.startsWith(QLatin1Char('-')))
        return HostSettings::tr("a host name cannot start with '-' (ssh would read it as an option)");
    static const QRegularExpression allowed(QStringLiteral("^[A-Za-z0-9._@%:\\[\\]-]+$"));
    if (!allowed.match(host).hasMatch())
        return HostSettings::tr("a host name may hold only letters, digits and . _ - @ : [ ] %");
    // "user:secret@host": never store a password, and ssh would not take it anyway.
    const int at = host.indexOf(QLatin1Char('@'));
    if (at > 0 && host.left(at).contains(QLatin1Char(':')))
        return HostSettings::tr("this looks like user:password@host; give only user@host or an ssh alias "
                          "(passwords are never stored)");
    return {};
}

QStringList sshConfigHosts(const QString &configPath)
{
    QFile file(configPath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    static const QRegularExpression hostLine(QStringLiteral("^\\s*Host(?:\\s*=\\s*|\\s+)(.+)$"),
                                             QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression separators(QStringLiteral("\\s+"));
    static const QRegularExpression pattern(QStringLiteral("[*?!]"));
    QStringList hosts;
    QTextStream stream(&file);
    while (!stream.atEnd()) {
        const QRegularExpressionMatch match = hostLine.match(stream.readLine());
        if (!match.hasMatch())
            continue;
        QString names = match.captured(1);
        const int comment = names.indexOf(QLatin1Char('#'));
        if (comment >= 0)
            names.truncate(comment);
        for (const QString &name : names.split(separators, Qt::SkipEmptyParts))
            if (!pattern.match(name).hasMatch() && !hosts.contains(name))
                hosts.append(name);
    }
    return hosts;
}

QString defaultSshConfigPath()
{
    return QDir::home().filePath(QStringLiteral(".ssh/config"));
}

HostSettings::HostSettings(QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope,
                                             QStringLiteral("Strata"), QStringLiteral("strata")))
{
    load();
}

HostSettings::HostSettings(const QString &iniPath, QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>(iniPath, QSettings::IniFormat))
{
    load();
}

HostSettings::~HostSettings() = default;

QString HostSettings::settingsPath() const
{
    return m_settings->fileName();
}

void HostSettings::load()
{
    m_hosts = {HostEntry::local()};
    for (const QString &id : m_settings->value(kHostsKey).toStringList()) {
        const HostEntry entry = HostEntry::fromId(id);
        // A hand-edited or damaged entry is skipped, not fatal.
        if (entry.isValid() && !entry.isLocal() && indexOf(entry.id()) < 0)
            m_hosts.append(entry);
    }
    const int current = indexOf(m_settings->value(kCurrentKey, kLocalId).toString());
    m_current = current >= 0 ? m_hosts[current] : HostEntry::local();
}

void HostSettings::save()
{
    QStringList ids;
    for (const HostEntry &host : std::as_const(m_hosts))
        if (!host.isLocal())
            ids.append(host.id());
    m_settings->setValue(kHostsKey, ids);
    m_settings->setValue(kCurrentKey, m_current.id());
    m_settings->sync();
}

int HostSettings::indexOf(const QString &id) const
{
    for (int i = 0; i < m_hosts.size(); ++i)
        if (m_hosts[i].id() == id)
            return i;
    return -1;
}

bool HostSettings::addSshHost(const QString &host, QString *error)
{
    const QString name = host.trimmed();
    QString problem = checkSshHostName(name);
    if (problem.isEmpty() && indexOf(HostEntry::ssh(name).id()) >= 0)
        problem = HostSettings::tr("%1 is already in the list").arg(name);
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    m_hosts.append(HostEntry::ssh(name));
    save();
    emit hostsChanged();
    return true;
}

bool HostSettings::removeHost(const QString &id)
{
    const int index = indexOf(id);
    if (index < 0 || m_hosts[index].isLocal())
        return false;
    m_hosts.removeAt(index);
    const bool wasCurrent = m_current.id() == id;
    if (wasCurrent)
        m_current = HostEntry::local();
    save();
    emit hostsChanged();
    if (wasCurrent)
        emit currentHostChanged(m_current);
    return true;
}

bool HostSettings::setCurrentHost(const QString &id)
{
    const int index = indexOf(id);
    if (index < 0)
        return false;
    if (m_current.id() == id)
        return true;
    m_current = m_hosts[index];
    save();
    emit currentHostChanged(m_current);
    return true;
}

} // namespace strata
