#include "rewrite/llm/ProviderConfig.h"

#include <QJsonValue>

namespace strata::rewrite::llm {

QString apiKindName(ApiKind kind)
{
    return kind == ApiKind::Anthropic ? QStringLiteral("anthropic") : QStringLiteral("openai");
}

std::optional<ApiKind> apiKindFromName(const QString &name)
{
    if (name == QLatin1String("openai"))
        return ApiKind::OpenAi;
    if (name == QLatin1String("anthropic"))
        return ApiKind::Anthropic;
    return std::nullopt;
}

QString ProviderConfig::providerId() const
{
    return apiKindName(kind) + QLatin1Char(':') + model;
}

QString ProviderConfig::endpointUrl() const
{
    QString base = baseUrl;
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    return base + (kind == ApiKind::Anthropic ? QStringLiteral("/v1/messages")
                                              : QStringLiteral("/chat/completions"));
}

ProviderConfig defaultConfig(ApiKind kind)
{
    ProviderConfig config;
    config.kind = kind;
    if (kind == ApiKind::Anthropic) {
        config.baseUrl = QStringLiteral("https://api.anthropic.com");
        config.apiKeyEnv = QStringLiteral("ANTHROPIC_API_KEY");
    } else {
        config.baseUrl = QStringLiteral("https://api.openai.com/v1");
        config.apiKeyEnv = QStringLiteral("OPENAI_API_KEY");
    }
    return config;
}

namespace {

ReadError configError(const QString &origin, const QString &message)
{
    return ReadError{origin, 0, 0, message};
}

// Reads an optional whole number >= minimum into `target`; false (with `error`) when it is not one.
bool readInt(const QJsonObject &json, const char *key, int minimum, int *target, QString *error)
{
    const QJsonValue value = json.value(QLatin1String(key));
    if (value.isUndefined())
        return true;
    const double number = value.toDouble(-1);
    if (!value.isDouble() || number != qint64(number) || number < minimum) {
        *error = QStringLiteral("'%1' must be a whole number >= %2").arg(QLatin1String(key)).arg(minimum);
        return false;
    }
    *target = int(number);
    return true;
}

} // namespace

Expected<ProviderConfig> providerConfigFromJson(const QJsonObject &json, const QString &origin)
{
    if (json.contains(QLatin1String("api_key")))
        return configError(origin, QStringLiteral("'api_key' is not read from files: put the key in an "
                                                  "environment variable and name it in 'api_key_env'"));
    const QString kindName = json.value(QLatin1String("kind")).toString();
    const std::optional<ApiKind> kind = apiKindFromName(kindName);
    if (!kind)
        return configError(origin, QStringLiteral("'kind' must be \"openai\" or \"anthropic\", not \"%1\"").arg(kindName));
    ProviderConfig config = defaultConfig(*kind);
    config.model = json.value(QLatin1String("model")).toString();
    if (config.model.isEmpty())
        return configError(origin, QStringLiteral("'model' is missing"));
    config.baseUrl = json.value(QLatin1String("base_url")).toString(config.baseUrl);
    if (!config.baseUrl.startsWith(QLatin1String("http://")) && !config.baseUrl.startsWith(QLatin1String("https://")))
        return configError(origin, QStringLiteral("'base_url' must start with http:// or https://, not \"%1\"").arg(config.baseUrl));
    config.apiKeyEnv = json.value(QLatin1String("api_key_env")).toString(config.apiKeyEnv);
    config.keyName = json.value(QLatin1String("key_name")).toString();
    if (json.contains(QLatin1String("temperature"))) {
        const QJsonValue temperature = json.value(QLatin1String("temperature"));
        if (!temperature.isDouble() || temperature.toDouble() < 0 || temperature.toDouble() > 2)
            return configError(origin, QStringLiteral("'temperature' must be a number in 0..2"));
        config.temperature = temperature.toDouble();
    }
    config.maxTokensField = json.value(QLatin1String("max_tokens_field")).toString(config.maxTokensField);
    if (config.maxTokensField != QLatin1String("max_tokens") && config.maxTokensField != QLatin1String("max_completion_tokens"))
        return configError(origin, QStringLiteral("'max_tokens_field' must be \"max_tokens\" or \"max_completion_tokens\""));
    QString error;
    int tokenBudget = 0;
    if (!readInt(json, "max_tokens", 1, &config.maxTokens, &error)
        || !readInt(json, "connect_timeout_ms", 1, &config.connectTimeoutMs, &error)
        || !readInt(json, "timeout_ms", 1, &config.totalTimeoutMs, &error)
        || !readInt(json, "retries", 0, &config.retry.maxRetries, &error)
        || !readInt(json, "backoff_ms", 0, &config.retry.backoffBaseMs, &error)
        || !readInt(json, "max_findings", 1, &config.maxFindingsInPrompt, &error)
        || !readInt(json, "token_budget", 0, &tokenBudget, &error))
        return configError(origin, error);
    config.tokenBudget = tokenBudget;
    return config;
}

QJsonObject toJson(const ProviderConfig &config)
{
    QJsonObject json{
        {QStringLiteral("kind"), apiKindName(config.kind)},
        {QStringLiteral("base_url"), config.baseUrl},
        {QStringLiteral("model"), config.model},
        {QStringLiteral("api_key_env"), config.apiKeyEnv},
        {QStringLiteral("max_tokens"), config.maxTokens},
        {QStringLiteral("max_tokens_field"), config.maxTokensField},
        {QStringLiteral("connect_timeout_ms"), config.connectTimeoutMs},
        {QStringLiteral("timeout_ms"), config.totalTimeoutMs},
        {QStringLiteral("retries"), config.retry.maxRetries},
        {QStringLiteral("backoff_ms"), config.retry.backoffBaseMs},
        {QStringLiteral("max_findings"), config.maxFindingsInPrompt},
        {QStringLiteral("token_budget"), double(config.tokenBudget)},
    };
    if (!config.keyName.isEmpty())
        json.insert(QStringLiteral("key_name"), config.keyName);
    if (config.temperature)
        json.insert(QStringLiteral("temperature"), *config.temperature);
    return json;
}

Expected<QString> resolveApiKey(const ProviderConfig &config)
{
    if (config.secrets) {
        Expected<QString> key = config.secrets->secret(config.keyName);
        if (!key)
            return ReadError{config.providerId(), 0, 0,
                             QStringLiteral("no API key '%1' in the secret store: %2").arg(config.keyName, key.error().message)};
        return key;
    }
    if (config.apiKeyEnv.isEmpty())
        return QString();
    const QString key = qEnvironmentVariable(config.apiKeyEnv.toLocal8Bit().constData()).trimmed();
    if (key.isEmpty())
        return ReadError{config.providerId(), 0, 0,
                         QStringLiteral("the API key variable %1 is not set (or empty)").arg(config.apiKeyEnv)};
    return key;
}

QString redacted(QString text, const QString &secret)
{
    if (!secret.isEmpty())
        text.replace(secret, QStringLiteral("[redacted]"));
    return text;
}

} // namespace strata::rewrite::llm
