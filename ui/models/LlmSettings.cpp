#include "models/LlmSettings.h"

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSettings>

#ifdef STRATA_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

namespace strata {

using rewrite::llm::ProviderConfig;

namespace {

const QString kGroupKey = QStringLiteral("llm/endpoints");
const QString kKeyringService = QStringLiteral("Strata");

QString keyringKey(const QString &endpointName)
{
    return QStringLiteral("llm/") + endpointName;
}

// A key read from the keyring, held in memory for the run; never written anywhere.
class MemorySecret : public rewrite::llm::SecretSource {
public:
    explicit MemorySecret(QString key) : m_key(std::move(key)) {}
    Expected<QString> secret(const QString &) override { return m_key; }

private:
    QString m_key;
};

#ifdef STRATA_HAVE_KEYCHAIN
// Runs a keychain job to its end (the keyring may prompt); the job deletes itself.
void runJob(QKeychain::Job *job)
{
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, &QEventLoop::quit);
    job->setInsecureFallback(false);  // never a plain-text copy
    job->start();
    loop.exec();
}
#endif

} // namespace

LlmSettings::LlmSettings(QSettings *settings, QObject *parent)
    : QObject(parent), m_settings(settings ? settings : new QSettings), m_ownsSettings(!settings)
{
}

LlmSettings::~LlmSettings()
{
    if (m_ownsSettings)
        delete m_settings;
}

QVector<LlmEndpoint> LlmSettings::endpoints() const
{
    QVector<LlmEndpoint> list;
    const QJsonArray stored = QJsonDocument::fromJson(m_settings->value(kGroupKey).toByteArray()).array();
    for (const QJsonValue &value : stored) {
        const QJsonObject json = value.toObject();
        Expected<ProviderConfig> config = rewrite::llm::providerConfigFromJson(json.value(QLatin1String("config")).toObject(),
                                                                              QStringLiteral("settings"));
        if (config)  // an entry a newer Strata wrote and this one cannot read is skipped, not lost
            list.append({json.value(QLatin1String("name")).toString(), *config});
    }
    return list;
}

void LlmSettings::save(const QVector<LlmEndpoint> &endpoints)
{
    QJsonArray stored;
    for (const LlmEndpoint &endpoint : endpoints)
        stored.append(QJsonObject{{QStringLiteral("name"), endpoint.name},
                                  {QStringLiteral("config"), rewrite::llm::toJson(endpoint.config)}});
    m_settings->setValue(kGroupKey, QJsonDocument(stored).toJson(QJsonDocument::Compact));
    m_settings->sync();
    emit changed();
}

QString LlmSettings::setEndpoint(const LlmEndpoint &endpoint)
{
    if (endpoint.name.trimmed().isEmpty() || endpoint.name.contains(u'/'))
        return tr("an endpoint needs a name without '/'");
    if (endpoint.config.baseUrl.isEmpty() || endpoint.config.model.isEmpty())
        return tr("%1: an endpoint needs a base URL and a model").arg(endpoint.name);
    QVector<LlmEndpoint> list = endpoints();
    auto it = std::find_if(list.begin(), list.end(), [&](const LlmEndpoint &e) { return e.name == endpoint.name; });
    if (it != list.end())
        *it = endpoint;
    else
        list.append(endpoint);
    save(list);
    return {};
}

void LlmSettings::removeEndpoint(const QString &name)
{
    QVector<LlmEndpoint> list = endpoints();
    list.removeIf([&](const LlmEndpoint &e) { return e.name == name; });
    save(list);
}

bool LlmSettings::keyringBuiltIn()
{
#ifdef STRATA_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

QString LlmSettings::storeKey(const QString &endpointName, const QString &key)
{
#ifdef STRATA_HAVE_KEYCHAIN
    auto *job = new QKeychain::WritePasswordJob(kKeyringService);
    job->setKey(keyringKey(endpointName));
    job->setTextData(key);
    runJob(job);
    if (job->error() != QKeychain::NoError)
        return tr("%1: the system keyring did not take the key (%2); set the endpoint's environment variable instead")
            .arg(endpointName, job->errorString());
    return {};
#else
    Q_UNUSED(key);
    return tr("%1: this build has no keyring support; set the endpoint's environment variable instead").arg(endpointName);
#endif
}

Expected<QString> LlmSettings::readKey(const QString &endpointName)
{
#ifdef STRATA_HAVE_KEYCHAIN
    auto *job = new QKeychain::ReadPasswordJob(kKeyringService);
    job->setKey(keyringKey(endpointName));
    runJob(job);
    if (job->error() != QKeychain::NoError)
        return ReadError{{}, 0, 0, tr("%1: no key in the system keyring (%2)").arg(endpointName, job->errorString())};
    return job->textData();
#else
    return ReadError{{}, 0, 0, tr("%1: this build has no keyring support").arg(endpointName)};
#endif
}

Expected<ProviderConfig> LlmSettings::resolved(const QString &endpointName)
{
    const QVector<LlmEndpoint> list = endpoints();
    auto it = std::find_if(list.begin(), list.end(), [&](const LlmEndpoint &e) { return e.name == endpointName; });
    if (it == list.end())
        return ReadError{{}, 0, 0, tr("no LLM endpoint named %1").arg(endpointName)};
    ProviderConfig config = it->config;
    if (keyringBuiltIn()) {
        if (Expected<QString> key = readKey(endpointName); key && !key->isEmpty()) {
            config.keyName = keyringKey(endpointName);
            config.secrets = std::make_shared<MemorySecret>(*key);
            return config;
        }
    }
    if (Expected<QString> key = rewrite::llm::resolveApiKey(config); !key)
        return ReadError{{}, 0, 0, tr("%1: %2 (and no key in the system keyring)").arg(endpointName, key.error().message)};
    return config;
}

} // namespace strata
