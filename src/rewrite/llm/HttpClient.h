#pragma once
// A blocking JSON POST over libcurl with the patience an LLM endpoint needs: connect and total
// timeouts, retries with exponential backoff and jitter on 429, 5xx and connection failures (a
// server's Retry-After wins), none on other 4xx, and cancellation through an atomic flag that a
// libcurl progress callback checks. Every error and log line has the secrets redacted.
#include "core/Expected.h"
#include "rewrite/llm/ProviderConfig.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace strata::rewrite::llm {

struct HttpResponse {
    long status = 0;
    QMap<QString, QString> headers;  // names lower-case; the last value of a repeated header
    QByteArray body;
    int attempts = 0;                // how many requests it took
};

using LogSink = std::function<void(const QString &line)>;

class HttpClient {
public:
    HttpClient(RetryPolicy retry, int connectTimeoutMs, int totalTimeoutMs);

    // The flag is read, never written; null: not cancellable. It must outlive the calls.
    void setCancelFlag(const std::atomic<bool> *flag) { m_cancel = flag; }
    void setLogSink(LogSink sink) { m_log = std::move(sink); }
    // Strings that must never appear in an error or a log line (API keys).
    void setSecrets(QStringList secrets) { m_secrets = std::move(secrets); }

    // POSTs `body` as JSON. A response with any status is a value once retries are over (the
    // caller reads the API's error body); an error means no response: timeout, refused
    // connection, cancellation. `what` names the endpoint in errors ("openai:gpt-4o").
    Expected<HttpResponse> postJson(const QString &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                                    const QByteArray &body, const QString &what);

    // The delay before attempt `retryNumber` (1 = first retry); exposed for tests of the policy.
    static int backoffMs(const RetryPolicy &policy, int retryNumber, double jitter01);
    // Retry-After as seconds or an HTTP date, in ms from `nowUtc`; nullopt when absent or unreadable.
    static std::optional<int> retryAfterMs(const QString &value, const QDateTime &nowUtc);
    // 408, 409, 429 and 5xx, except a 429 that says the account's quota or spend limit is used up.
    static bool isRetryable(long status, const QByteArray &body);

private:
    struct Attempt;
    Attempt performOnce(const QString &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                        const QByteArray &body);
    bool sleepUnlessCancelled(int ms) const;
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    QString scrub(QString text) const;
    void log(const QString &line) const;

    RetryPolicy m_retry;
    int m_connectTimeoutMs;
    int m_totalTimeoutMs;
    const std::atomic<bool> *m_cancel = nullptr;
    LogSink m_log;
    QStringList m_secrets;
};

} // namespace strata::rewrite::llm
