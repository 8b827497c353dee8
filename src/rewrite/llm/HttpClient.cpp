#include "rewrite/llm/HttpClient.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>
#include <QTimeZone>
#include <QUrl>

#include <curl/curl.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>

namespace strata::rewrite::llm {

namespace {

void initCurlOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

size_t appendBody(char *data, size_t size, size_t count, void *target)
{
    static_cast<QByteArray *>(target)->append(data, qsizetype(size * count));
    return size * count;
}

// One header line per call; a status line starts a new header block (redirects, 100 Continue).
size_t collectHeader(char *data, size_t size, size_t count, void *target)
{
    auto *headers = static_cast<QMap<QString, QString> *>(target);
    const QString line = QString::fromLatin1(data, qsizetype(size * count)).trimmed();
    if (line.startsWith(QLatin1String("HTTP/")))
        headers->clear();
    const qsizetype colon = line.indexOf(QLatin1Char(':'));
    if (colon > 0)
        headers->insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
    return size * count;
}

// libcurl calls this often during a transfer (also while waiting for the answer); a non-zero
// return aborts it with CURLE_ABORTED_BY_CALLBACK.
int checkCancel(void *flag, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *cancel = static_cast<const std::atomic<bool> *>(flag);
    return cancel && cancel->load() ? 1 : 0;
}

bool isLoopback(const QString &url)
{
    const QString host = QUrl(url).host();
    return host == QLatin1String("localhost") || host == QLatin1String("127.0.0.1") || host == QLatin1String("::1");
}

// Failures where the same request may well succeed a moment later.
bool isTransientTransportError(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
        return true;
    default:
        return false;
    }
}

} // namespace

struct HttpClient::Attempt {
    CURLcode code = CURLE_OK;
    QString transportError;  // libcurl's message when code != CURLE_OK
    HttpResponse response;
};

HttpClient::HttpClient(RetryPolicy retry, int connectTimeoutMs, int totalTimeoutMs)
    : m_retry(retry), m_connectTimeoutMs(connectTimeoutMs), m_totalTimeoutMs(totalTimeoutMs)
{
    initCurlOnce();
}

int HttpClient::backoffMs(const RetryPolicy &policy, int retryNumber, double jitter01)
{
    const double exponential = policy.backoffBaseMs * std::pow(2.0, std::max(0, retryNumber - 1));
    const double capped = std::min(exponential, double(policy.backoffMaxMs));
    // Full exponential delay scaled into [0.5, 1.0] so that clients that failed together spread out.
    return int(capped * (0.5 + 0.5 * std::clamp(jitter01, 0.0, 1.0)));
}

std::optional<int> HttpClient::retryAfterMs(const QString &value, const QDateTime &nowUtc)
{
    const QString trimmed = value.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    bool isNumber = false;
    const double seconds = trimmed.toDouble(&isNumber);
    if (isNumber)
        return seconds < 0 ? std::nullopt : std::optional<int>(int(std::min(seconds * 1000, double(std::numeric_limits<int>::max()))));
    // An HTTP-date (RFC 9110 IMF-fixdate): "Tue, 01 Dec 2026 12:00:07 GMT", always in GMT.
    QString date = trimmed.section(QLatin1Char(','), 1).trimmed();
    if (!date.endsWith(QLatin1String(" GMT")))
        return std::nullopt;
    date.chop(4);
    QDateTime when = QDateTime::fromString(date, QStringLiteral("dd MMM yyyy HH:mm:ss"));
    if (!when.isValid() || !nowUtc.isValid())
        return std::nullopt;
    when.setTimeZone(QTimeZone::utc());
    return int(std::clamp<qint64>(nowUtc.msecsTo(when), 0, std::numeric_limits<int>::max()));
}

bool HttpClient::isRetryable(long status, const QByteArray &body)
{
    if (status == 429)  // rate limited, unless the money ran out: that does not pass by waiting
        return !body.contains("insufficient_quota") && !body.contains("enforced_spend_limit_reached");
    return status == 408 || status == 409 || (status >= 500 && status <= 599);
}

QString HttpClient::scrub(QString text) const
{
    for (const QString &secret : m_secrets)
        text = redacted(std::move(text), secret);
    return text;
}

void HttpClient::log(const QString &line) const
{
    if (m_log)
        m_log(scrub(line));
}

bool HttpClient::sleepUnlessCancelled(int ms) const
{
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < ms) {
        if (cancelled())
            return false;
        QThread::msleep(ulong(std::min<qint64>(25, ms - timer.elapsed() + 1)));
    }
    return !cancelled();
}

HttpClient::Attempt HttpClient::performOnce(const QString &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                                            const QByteArray &body)
{
    Attempt attempt;
    CURL *curl = curl_easy_init();
    if (!curl) {
        attempt.code = CURLE_FAILED_INIT;
        attempt.transportError = QStringLiteral("libcurl could not start a transfer");
        return attempt;
    }
    curl_slist *headerList = nullptr;
    headerList = curl_slist_append(headerList, "Content-Type: application/json");
    headerList = curl_slist_append(headerList, "Expect:");  // no 100-continue round trip
    for (const auto &[name, value] : headers)
        headerList = curl_slist_append(headerList, (name + ": " + value).constData());
    char errorBuffer[CURL_ERROR_SIZE] = {};
    const QByteArray urlBytes = url.toUtf8();

    curl_easy_setopt(curl, CURLOPT_URL, urlBytes.constData());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headerList);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.constData());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "strata/" STRATA_VERSION);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, long(m_connectTimeoutMs));
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(m_totalTimeoutMs));
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errorBuffer);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &attempt.response.body);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, collectHeader);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &attempt.response.headers);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, checkCancel);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, const_cast<std::atomic<bool> *>(m_cancel));
    if (isLoopback(url))  // a local vLLM/Ollama is never behind the user's proxy
        curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");

    attempt.code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &attempt.response.status);
    if (attempt.code != CURLE_OK) {
        const QString detail = QString::fromUtf8(errorBuffer).trimmed();
        attempt.transportError = QString::fromUtf8(curl_easy_strerror(attempt.code))
                                 + (detail.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(detail));
    }
    curl_slist_free_all(headerList);
    curl_easy_cleanup(curl);
    return attempt;
}

Expected<HttpResponse> HttpClient::postJson(const QString &url, const QList<QPair<QByteArray, QByteArray>> &headers,
                                            const QByteArray &body, const QString &what)
{
    const int attemptsAllowed = 1 + std::max(0, m_retry.maxRetries);
    const auto fail = [&](const QString &message) {
        return ReadError{scrub(url), 0, 0, scrub(QStringLiteral("%1: POST %2 %3").arg(what, url, message))};
    };
    for (int attemptNumber = 1;; ++attemptNumber) {
        if (cancelled())
            return fail(QStringLiteral("cancelled"));
        Attempt attempt = performOnce(url, headers, body);
        attempt.response.attempts = attemptNumber;
        if (attempt.code == CURLE_ABORTED_BY_CALLBACK)
            return fail(QStringLiteral("cancelled"));

        const bool transportFailed = attempt.code != CURLE_OK;
        const bool retryable = transportFailed ? isTransientTransportError(attempt.code)
                                               : isRetryable(attempt.response.status, attempt.response.body);
        const QString problem = transportFailed ? attempt.transportError
                                                : QStringLiteral("HTTP %1").arg(attempt.response.status);
        if (!retryable || attemptNumber >= attemptsAllowed) {
            if (!transportFailed)
                return attempt.response;  // the caller reads the API's error body
            return fail(QStringLiteral("failed after %1 attempt(s): %2").arg(attemptNumber).arg(problem));
        }

        int delayMs = backoffMs(m_retry, attemptNumber, QRandomGenerator::global()->generateDouble());
        const std::optional<int> serverDelay =
            retryAfterMs(attempt.response.headers.value(QStringLiteral("retry-after")), QDateTime::currentDateTimeUtc());
        if (serverDelay) {
            if (*serverDelay > m_retry.maxRetryAfterMs)
                return fail(QStringLiteral("%1 with Retry-After %2 s, longer than the %3 s this client waits")
                                .arg(problem).arg(*serverDelay / 1000).arg(m_retry.maxRetryAfterMs / 1000));
            delayMs = *serverDelay;
        }
        log(QStringLiteral("%1: %2 from %3, retry %4/%5 in %6 ms%7")
                .arg(what, problem, url).arg(attemptNumber).arg(attemptsAllowed - 1).arg(delayMs)
                .arg(serverDelay ? QStringLiteral(" (Retry-After)") : QString()));
        if (!sleepUnlessCancelled(delayMs))
            return fail(QStringLiteral("cancelled"));
    }
}

} // namespace strata::rewrite::llm
