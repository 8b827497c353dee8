#pragma once
// How an LLM provider is reached: which wire format, where, which model, where its API key comes
// from, and how patient the HTTP client is. The key itself is never stored here: only the NAME of
// an environment variable or a SecretSource that looks it up when a request is made (the GUI backs
// that with the system keyring), so a config can be saved, shown and logged without leaking it.
#include "core/Expected.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>

namespace strata::rewrite::llm {

enum class ApiKind { OpenAi, Anthropic };

QString apiKindName(ApiKind kind);  // "openai", "anthropic"
std::optional<ApiKind> apiKindFromName(const QString &name);

// Where a secret lives (the system keyring, a test's map). `name` is the config's keyName.
class SecretSource {
public:
    virtual ~SecretSource() = default;
    // The secret, or an error saying why it is unavailable (never containing the secret).
    virtual Expected<QString> secret(const QString &name) = 0;
};

// Backoff between attempts: base * 2^(attempt-1), capped, times a random factor in [0.5, 1.0].
// A server's Retry-After wins over the computed delay (up to maxRetryAfterMs).
struct RetryPolicy {
    int maxRetries = 3;             // attempts after the first, on 429/5xx/connection errors
    int backoffBaseMs = 1000;
    int backoffMaxMs = 30000;
    int maxRetryAfterMs = 120000;   // a longer Retry-After ends the attempts with an error
};

struct ProviderConfig {
    ApiKind kind = ApiKind::OpenAi;
    QString baseUrl;        // OpenAI-compatible: ".../v1" (POST {base}/chat/completions);
                            // Anthropic: "https://api.anthropic.com" (POST {base}/v1/messages)
    QString model;
    QString apiKeyEnv;      // environment variable holding the key ("OPENAI_API_KEY"); may be empty
    QString keyName;        // the name asked of `secrets` when set ("strata/openai")
    std::shared_ptr<SecretSource> secrets;  // wins over apiKeyEnv when set
    std::optional<double> temperature;      // left out of the request when unset (some models reject it)
    int maxTokens = 8192;                   // answer budget per call
    QString maxTokensField = QStringLiteral("max_tokens");  // OpenAI: or "max_completion_tokens"
    int connectTimeoutMs = 10000;
    int totalTimeoutMs = 300000;            // one attempt, connect to last byte
    RetryPolicy retry;
    int maxFindingsInPrompt = 5;
    qint64 tokenBudget = 0;                 // input + output over the provider's life; 0 = no limit

    // "openai:MODEL", "anthropic:MODEL"
    QString providerId() const;
    // {base}/chat/completions or {base}/v1/messages (one slash between the parts)
    QString endpointUrl() const;
};

// Defaults for one kind: the public endpoint and its usual key variable. A local server (vLLM,
// SGLang, Ollama) only needs baseUrl and model changed and apiKeyEnv cleared.
ProviderConfig defaultConfig(ApiKind kind);

// Reads {"kind","base_url","model","api_key_env","key_name","temperature","max_tokens",
// "max_tokens_field","connect_timeout_ms","timeout_ms","retries","backoff_ms","token_budget"}.
// A literal key ("api_key") is refused: keys are not kept in files. `origin` names the input.
Expected<ProviderConfig> providerConfigFromJson(const QJsonObject &json, const QString &origin);
// The same fields back (no key: there is none to write).
QJsonObject toJson(const ProviderConfig &config);

// The API key: from `secrets` when set, else the environment variable; empty when the config
// names neither (local servers without auth). An error names the variable or key name only.
Expected<QString> resolveApiKey(const ProviderConfig &config);

// `text` with every occurrence of `secret` replaced by "[redacted]" (no-op for an empty secret).
QString redacted(QString text, const QString &secret);

} // namespace strata::rewrite::llm
