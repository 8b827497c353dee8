#pragma once
// The LLM endpoints the app knows (Settings > LLM Endpoints): kept in QSettings as the JSON of
// rewrite::llm::toJson(ProviderConfig), which never holds a key. A key is read from the
// environment variable the endpoint names, or from the system keyring (QtKeychain: service
// "Strata", key "llm/<name>") when the app was built with it and a keyring answers. Nothing
// ever writes a key to a file: QtKeychain's plain-text fallback stays off.
#include "rewrite/llm/ProviderConfig.h"

#include <QObject>
#include <QVector>

class QSettings;

namespace strata {

struct LlmEndpoint {
    QString name;  // "local-vllm", "openai-gpt"
    rewrite::llm::ProviderConfig config;
};

class LlmSettings : public QObject {
    Q_OBJECT
public:
    // `settings`: where the endpoints live (null: the app's QSettings).
    explicit LlmSettings(QSettings *settings = nullptr, QObject *parent = nullptr);
    ~LlmSettings() override;

    QVector<LlmEndpoint> endpoints() const;
    // Adds or replaces the endpoint of that name. Empty on success, else why not.
    QString setEndpoint(const LlmEndpoint &endpoint);
    void removeEndpoint(const QString &name);

    static bool keyringBuiltIn();  // compiled with QtKeychain
    // Blocking (the keyring may ask the user). Empty on success, else why not (never the key).
    QString storeKey(const QString &endpointName, const QString &key);
    Expected<QString> readKey(const QString &endpointName);
    // The endpoint ready to use: its key from the keyring when one is stored there, else from its
    // environment variable, checked now; errors name the endpoint and where the key was looked for.
    Expected<rewrite::llm::ProviderConfig> resolved(const QString &endpointName);

signals:
    void changed();

private:
    void save(const QVector<LlmEndpoint> &endpoints);

    QSettings *m_settings;
    bool m_ownsSettings;
};

} // namespace strata
