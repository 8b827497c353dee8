#pragma once
// Finds and loads the backend plugins (plugins/nvidia, ...) from one folder. A file that is not a
// plugin, or a plugin for another interface, is reported in errors() and skipped: one broken
// file never stops the others from loading.
#include "host/BackendPlugin.h"

#include <QJsonObject>
#include <QString>
#include <QVector>
#include <memory>

class QPluginLoader;

namespace strata {

struct PluginInfo {
    QString id;              // BackendPlugin::id()
    QString name;            // from the plugin's JSON metadata
    QString version;
    QString compatVersion;
    QString file;
};

struct PluginLoadError {
    QString file;
    QString message;

    QString toString() const { return file + QStringLiteral(": ") + message; }
};

class PluginRegistry {
public:
    PluginRegistry();
    ~PluginRegistry();
    PluginRegistry(const PluginRegistry &) = delete;
    PluginRegistry &operator=(const PluginRegistry &) = delete;

    // $STRATA_PLUGIN_DIR, else <dir of the executable>/../lib/strata/plugins.
    static QString defaultPluginDir();

    // Loads every library file in `dir`; returns how many backends loaded. A missing folder is an
    // error too (recorded, returns 0). Loading the same id twice keeps the first.
    int loadFromDirectory(const QString &dir);
    int loadDefault() { return loadFromDirectory(defaultPluginDir()); }

    QVector<BackendPlugin *> backends() const;
    QVector<PluginInfo> plugins() const;
    BackendPlugin *backend(const QString &id) const;
    // The first backend that lists `target` ("sm_90"); nullptr when none does.
    BackendPlugin *backendForTarget(const QString &target) const;
    // The target id the first backend that claims Triton's GPUTarget gives it (a tritonparse
    // trace's metadata.target); empty when none does.
    QString targetFromTriton(const QJsonObject &tritonTarget) const;

    const QVector<PluginLoadError> &errors() const { return m_errors; }

private:
    bool loadFile(const QString &path);

    struct Loaded {
        std::unique_ptr<QPluginLoader> loader;
        BackendPlugin *backend = nullptr;
        PluginInfo info;
        int limitsSource = 0;   // its diagnosis::addTargetLimitsSource id
    };
    std::vector<Loaded> m_loaded;
    QVector<PluginLoadError> m_errors;
};

} // namespace strata
