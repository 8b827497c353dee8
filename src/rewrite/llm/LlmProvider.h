#pragma once
// The HTTP LLM providers: one request per propose() to an OpenAI-compatible chat completions
// endpoint (OpenAI, vLLM, SGLang, Ollama, DeepSeek, DashScope) or to Anthropic's messages API,
// the answer read by CodeExtraction into one proposal. Token use is counted per call and in
// total so the loop can hold a budget; a configured tokenBudget is also enforced here.
#include "rewrite/RewriteProvider.h"
#include "rewrite/llm/CodeExtraction.h"
#include "rewrite/llm/HttpClient.h"
#include "rewrite/llm/PromptBuilder.h"
#include "rewrite/llm/ProviderConfig.h"

#include <QJsonObject>

#include <atomic>
#include <memory>
#include <mutex>

namespace strata::rewrite::llm {

// What one API answer says, in the terms both APIs share.
struct Completion {
    enum class Stop { Complete, Truncated, Refused };
    QString text;        // the answer's text (all text parts joined)
    Stop stop = Stop::Complete;
    QString stopReason;  // as the API said it: "stop", "length", "end_turn", "max_tokens", "refusal"
    QString refusal;     // the model's refusal text, when it gave one
    TokenUsage usage;
};

// Token counts over a provider's life; safe to read from another thread while a call runs.
class TokenLedger {
public:
    void record(const TokenUsage &usage);
    TokenUsage lastCall() const;
    TokenUsage total() const;
    int calls() const;

private:
    mutable std::mutex m_mutex;
    TokenUsage m_last, m_total;
    int m_calls = 0;
};

class HttpLlmProvider : public RewriteProvider {
public:
    explicit HttpLlmProvider(ProviderConfig config);

    QString id() const override { return m_config.providerId(); }
    // One call, at most one proposal. Errors name the endpoint and what went wrong.
    Expected<QVector<RewriteProposal>> propose(const RewriteRequest &request) override;

    void setCancelFlag(const std::atomic<bool> *flag) { m_cancel = flag; }
    void setLogSink(LogSink sink) { m_log = std::move(sink); }
    // Keeps every raw answer under DIR/<task>/ (FolderProvider replays such a folder).
    void setAnswersDir(const QString &dir) { m_answersDir = dir; }
    const ProviderConfig &config() const { return m_config; }
    const TokenLedger &tokens() const { return m_tokens; }

    // The wire format, exposed for tests.
    virtual QByteArray requestBody(const Prompt &prompt) const = 0;
    virtual QList<QPair<QByteArray, QByteArray>> requestHeaders(const QString &apiKey) const = 0;
    // Reads a 2xx body; an error says what is wrong with it.
    virtual Expected<Completion> parseAnswer(const QByteArray &body) const = 0;

protected:
    QString providerName() const { return apiKindName(m_config.kind); }

private:
    Expected<Completion> complete(const Prompt &prompt);
    QString httpErrorText(const HttpResponse &response) const;

    ProviderConfig m_config;
    PromptBuilder m_prompts;
    TokenLedger m_tokens;
    const std::atomic<bool> *m_cancel = nullptr;
    LogSink m_log;
    QString m_answersDir;
};

class OpenAiProvider : public HttpLlmProvider {
public:
    using HttpLlmProvider::HttpLlmProvider;
    QByteArray requestBody(const Prompt &prompt) const override;
    QList<QPair<QByteArray, QByteArray>> requestHeaders(const QString &apiKey) const override;
    Expected<Completion> parseAnswer(const QByteArray &body) const override;
};

class AnthropicProvider : public HttpLlmProvider {
public:
    using HttpLlmProvider::HttpLlmProvider;
    QByteArray requestBody(const Prompt &prompt) const override;
    QList<QPair<QByteArray, QByteArray>> requestHeaders(const QString &apiKey) const override;
    Expected<Completion> parseAnswer(const QByteArray &body) const override;
};

// The provider for config.kind.
std::unique_ptr<HttpLlmProvider> makeHttpProvider(const ProviderConfig &config);

// The message of an API error body ({"error":{"message","type"}} in both APIs), else a bounded
// start of the body; empty for an empty body.
QString apiErrorText(const QByteArray &body);

// An error about an answer (no file or line to name).
ReadError answerError(const QString &message);
// An answer's body as a JSON object, or the error saying what it is instead.
Expected<QJsonObject> answerObject(const QByteArray &body);

// An answer turned into a proposal, with every check of extractAnswer plus "tried before"
// (request.alreadyTried). `provider` and `recipeId` label it ("openai", the model name);
// `findingIds` are the findings the prompt showed, used when the answer names none of them.
Expected<RewriteProposal> proposalFromAnswer(const QString &answer, const RewriteRequest &request,
                                             const ExtractionContext &context, const QString &provider,
                                             const QString &recipeId, const QStringList &findingIds);

} // namespace strata::rewrite::llm
