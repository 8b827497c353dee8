#include "cluster/HostPool.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"

#include <QProcessEnvironment>
#include <QSet>

namespace strata::cluster {

namespace {

// The variables that restrict an agent to `device`: each mask's list, and its ordering variables
// unless the device list was inherited (a list someone else set keeps whatever order they chose).
QVector<QPair<QString, QString>> maskVariables(const QVector<DeviceMask> &masks, const QString &device, bool ownOrder)
{
    QVector<QPair<QString, QString>> variables;
    for (const DeviceMask &mask : masks) {
        variables.append({mask.variable, device});
        if (ownOrder)
            variables += mask.orderVariables;
    }
    return variables;
}

// The local agent, restricted to one device.
class DeviceLocalTransport : public LocalProcessTransport {
public:
    explicit DeviceLocalTransport(QVector<QPair<QString, QString>> variables) : m_variables(std::move(variables)) {}

protected:
    QProcessEnvironment environment() const override
    {
        QProcessEnvironment env = LocalProcessTransport::environment();
        for (const auto &[name, value] : m_variables)
            env.insert(name, value);
        return env;
    }

private:
    QVector<QPair<QString, QString>> m_variables;
};

QStringList inheritedLocalDevices(const QVector<DeviceMask> &masks)
{
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const DeviceMask &mask : masks)
        if (env.contains(mask.variable))
            return env.value(mask.variable).split(u',', Qt::SkipEmptyParts);
    return {};
}

// ssh runs the remote command through the remote shell: `env` sets the variables there.
QString remotePython(const QVector<QPair<QString, QString>> &variables)
{
    if (variables.isEmpty())
        return QStringLiteral("python3");
    QStringList assignments;
    for (const auto &[name, value] : variables)
        assignments.append(name + u'=' + value);
    return QStringLiteral("env %1 python3").arg(assignments.join(u' '));
}

} // namespace

optimize::BenchHost benchHost(const QString &name, int jobs, const QVector<DeviceMask> &masks)
{
    optimize::BenchHost host;
    host.name = name;
    host.jobs = jobs;
    host.splitDevices = !masks.isEmpty();
    if (name.startsWith(QLatin1String("ssh:"))) {
        const QString address = name.mid(4);
        host.agentFactory = [address, masks](const QString &device) {
            const auto variables = device.isEmpty() ? QVector<QPair<QString, QString>>{} : maskVariables(masks, device, true);
            return std::make_unique<HostConnection>(std::make_unique<SshTransport>(address, remotePython(variables)));
        };
        return host;
    }
    host.inheritedDevices = inheritedLocalDevices(masks);
    const bool ownOrder = host.inheritedDevices.isEmpty();
    host.agentFactory = [masks, ownOrder](const QString &device) {
        const auto variables = device.isEmpty() ? QVector<QPair<QString, QString>>{} : maskVariables(masks, device, ownOrder);
        return std::make_unique<HostConnection>(std::make_unique<DeviceLocalTransport>(variables));
    };
    return host;
}

QVector<DeviceMask> deviceMasks(const PluginRegistry &plugins, const QString &target)
{
    QVector<DeviceMask> masks;
    const QVector<BackendPlugin *> backends = target.isEmpty() ? plugins.backends() : QVector<BackendPlugin *>{plugins.backendForTarget(target)};
    for (const BackendPlugin *backend : backends) {
        if (!backend)
            continue;
        const DeviceMask mask = backend->deviceMask();
        if (!mask.isEmpty())
            masks.append(mask);
    }
    return masks;
}

Expected<QVector<optimize::BenchHost>> parseHosts(const QString &list, int jobs, const QVector<DeviceMask> &masks)
{
    QVector<optimize::BenchHost> hosts;
    for (const QString &entry : list.split(u',', Qt::SkipEmptyParts)) {
        const QString name = entry.section(u'=', 0, 0).trimmed();
        int hostJobs = jobs;
        if (entry.contains(u'=')) {
            bool isNumber = false;
            hostJobs = entry.section(u'=', 1).toInt(&isNumber);
            if (!isNumber || hostJobs < 1)
                return ReadError{QStringLiteral("--hosts"), 0, 0,
                                 QStringLiteral("\"%1\": the number after = is the host's tasks at a time (1 or more)").arg(entry)};
        }
        if (name != QLatin1String("local") && !(name.startsWith(QLatin1String("ssh:")) && name.size() > 4))
            return ReadError{QStringLiteral("--hosts"), 0, 0, QStringLiteral("\"%1\" is not local or ssh:HOST").arg(entry)};
        hosts.append(benchHost(name, hostJobs, masks));
    }
    if (hosts.isEmpty())
        return ReadError{QStringLiteral("--hosts"), 0, 0, QStringLiteral("no host given (local, ssh:HOST, comma-separated)")};
    return hosts;
}

} // namespace strata::cluster
