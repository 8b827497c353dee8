#include "cluster/HostPool.h"

#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include <QProcessEnvironment>
#include <QSet>

namespace strata::cluster {

namespace {

// The local agent, restricted to one GPU. PCI bus order makes the index the one nvidia-smi
// (and so the agent's `info`) gives that GPU; a list inherited from the environment is kept in
// whatever order its owner (Slurm, a person) set.
class DeviceLocalTransport : public LocalProcessTransport {
public:
    DeviceLocalTransport(QString device, bool pciOrder) : m_device(std::move(device)), m_pciOrder(pciOrder) {}

protected:
    QProcessEnvironment environment() const override
    {
        QProcessEnvironment env = LocalProcessTransport::environment();
        if (!m_device.isEmpty()) {
            env.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), m_device);
            if (m_pciOrder)
                env.insert(QStringLiteral("CUDA_DEVICE_ORDER"), QStringLiteral("PCI_BUS_ID"));
        }
        return env;
    }

private:
    QString m_device;
    bool m_pciOrder;
};

QStringList inheritedLocalDevices()
{
    const QString visible = QProcessEnvironment::systemEnvironment().value(QStringLiteral("CUDA_VISIBLE_DEVICES"));
    return visible.split(u',', Qt::SkipEmptyParts);
}

} // namespace

optimize::BenchHost benchHost(const QString &name, int jobs)
{
    optimize::BenchHost host;
    host.name = name;
    host.jobs = jobs;
    if (name.startsWith(QLatin1String("ssh:"))) {
        const QString address = name.mid(4);
        host.agentFactory = [address](const QString &device) {
            // ssh runs the remote command through the remote shell: `env` sets the variable there.
            const QString python = device.isEmpty()
                                       ? QStringLiteral("python3")
                                       : QStringLiteral("env CUDA_VISIBLE_DEVICES=%1 CUDA_DEVICE_ORDER=PCI_BUS_ID python3").arg(device);
            return std::make_unique<HostConnection>(std::make_unique<SshTransport>(address, python));
        };
        return host;
    }
    host.inheritedDevices = inheritedLocalDevices();
    const bool pciOrder = host.inheritedDevices.isEmpty();
    host.agentFactory = [pciOrder](const QString &device) {
        return std::make_unique<HostConnection>(std::make_unique<DeviceLocalTransport>(device, pciOrder));
    };
    return host;
}

Expected<QVector<optimize::BenchHost>> parseHosts(const QString &list, int jobs)
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
        hosts.append(benchHost(name, hostJobs));
    }
    if (hosts.isEmpty())
        return ReadError{QStringLiteral("--hosts"), 0, 0, QStringLiteral("no host given (local, ssh:HOST, comma-separated)")};
    return hosts;
}

} // namespace strata::cluster
