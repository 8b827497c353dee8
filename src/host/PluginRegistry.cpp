#include "host/PluginRegistry.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>

namespace strata {

PluginRegistry::PluginRegistry() = default;

PluginRegistry::~PluginRegistry()
{
    // Plugin instances stay alive until the loaders go; we never unload (Qt discourages it). The
    // target facts they answered for stop being asked before the loaders go.
    for (const Loaded &loaded : m_loaded)
        diagnosis::removeTargetLimitsSource(loaded.limitsSource);
}

QString PluginRegistry::defaultPluginDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_PLUGIN_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/../lib/strata/plugins"));
}

int PluginRegistry::loadFromDirectory(const QString &dir)
{
    const QDir folder(dir);
    if (!folder.exists()) {
        m_errors.append({dir, QStringLiteral("plugin folder does not exist (set STRATA_PLUGIN_DIR)")});
        return 0;
    }
    int loaded = 0;
    const QStringList files = folder.entryList(QDir::Files | QDir::Readable, QDir::Name);
    for (const QString &name : files) {
        if (QLibrary::isLibrary(name) && loadFile(folder.absoluteFilePath(name)))
            ++loaded;
    }
    return loaded;
}

bool PluginRegistry::loadFile(const QString &path)
{
    auto loader = std::make_unique<QPluginLoader>(path);
    const QJsonObject meta = loader->metaData();
    if (meta.isEmpty()) {
        // Qt reads metadata without loading; empty means it is no Qt plugin at all.
        loader->load();
        m_errors.append({path, QStringLiteral("not a Qt plugin: %1").arg(loader->errorString())});
        return false;
    }
    const QString iid = meta.value(QStringLiteral("IID")).toString();
    if (iid != QLatin1String(StrataBackendPlugin_iid)) {
        m_errors.append({path, QStringLiteral("plugin implements \"%1\", not a Strata backend (\"%2\")")
                                   .arg(iid, QLatin1String(StrataBackendPlugin_iid))});
        return false;
    }
    QObject *instance = loader->instance();
    auto *backend = qobject_cast<BackendPlugin *>(instance);
    if (!backend) {
        m_errors.append({path, instance ? QStringLiteral("plugin object does not implement BackendPlugin")
                                        : QStringLiteral("cannot load plugin: %1").arg(loader->errorString())});
        return false;
    }
    if (this->backend(backend->id())) {
        m_errors.append({path, QStringLiteral("a backend with id \"%1\" is already loaded; skipped").arg(backend->id())});
        return false;
    }
    const QJsonObject data = meta.value(QStringLiteral("MetaData")).toObject();
    PluginInfo info{backend->id(), data.value(QStringLiteral("Name")).toString(),
                    data.value(QStringLiteral("Version")).toString(),
                    data.value(QStringLiteral("CompatVersion")).toString(), path};
    // The core's rules and recipes count a target's units through diagnosis::targetLimits().
    const int limitsSource = diagnosis::addTargetLimitsSource(
        [backend](const QString &target) { return backend->targetLimits(target); });
    m_loaded.push_back(Loaded{std::move(loader), backend, info, limitsSource});
    return true;
}

QVector<BackendPlugin *> PluginRegistry::backends() const
{
    QVector<BackendPlugin *> all;
    for (const Loaded &loaded : m_loaded)
        all.append(loaded.backend);
    return all;
}

QVector<PluginInfo> PluginRegistry::plugins() const
{
    QVector<PluginInfo> all;
    for (const Loaded &loaded : m_loaded)
        all.append(loaded.info);
    return all;
}

BackendPlugin *PluginRegistry::backend(const QString &id) const
{
    for (const Loaded &loaded : m_loaded) {
        if (loaded.backend->id() == id)
            return loaded.backend;
    }
    return nullptr;
}

QString PluginRegistry::targetFromTriton(const QJsonObject &tritonTarget) const
{
    for (const Loaded &loaded : m_loaded)
        if (const QString target = loaded.backend->targetFromTriton(tritonTarget); !target.isEmpty())
            return target;
    return {};
}

BackendPlugin *PluginRegistry::backendForTarget(const QString &target) const
{
    for (const Loaded &loaded : m_loaded) {
        if (loaded.backend->targets().contains(target))
            return loaded.backend;
    }
    return nullptr;
}

} // namespace strata
