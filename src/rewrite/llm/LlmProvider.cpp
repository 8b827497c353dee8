#include "rewrite/llm/LlmProvider.h"

#include "rewrite/llm/FolderProvider.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::rewrite::llm {

void TokenLedger::record(const TokenUsage &usage)
{
    std::lock_guard lock(m_mutex);
    m_last = usage;
    m_total.inputTokens += usage.inputTokens;
    m_total.outputTokens += usage.outputTokens;
    ++m_calls;
}

TokenUsage TokenLedger::lastCall() const
{
    std::lock_guard lock(m_mutex);
    return m_last;
}

TokenUsage TokenLedger::total() const
{
    std::lock_guard lock(m_mutex);
    return m_total;
}

int TokenLedger::calls() const
{
    std::lock_guard lock(m_mutex);
    return m_calls;
}

ReadError answerError(const QString &message)
{
    return ReadError{{}, 0, 0, message};
}

Expected<QJsonObject> answerObject(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return answerError(QStringLiteral("answered with a body that is not a JSON object (%1 at offset %2): \"%3\"")
                               .arg(parseError.errorString()).arg(parseError.offset)
                               .arg(QString::fromUtf8(body).simplified().left(120)));
    return document.object();
}

QString apiErrorText(const QByteArray &body)
{
    const QJsonObject json = QJsonDocument::fromJson(body).object();
    const QJsonValue error = json.value(QLatin1String("error"));
    if (error.isObject()) {
        const QJsonObject detail = error.toObject();
        const QString type = detail.value(QLatin1String("type")).toString();
        const QString message = detail.value(QLatin1String("message")).toString().simplified();
        return type.isEmpty() ? message : QStringLiteral("%1: %2").arg(type, message);
    }
    if (error.isString())  // some OpenAI-compatible servers (older Ollama) send a bare string
        return error.toString();
    return QString::fromUtf8(body).simplified().left(300);
}

HttpLlmProvider::HttpLlmProvider(ProviderConfig config)
    : m_config(std::move(config)), m_prompts(m_config.maxFindingsInPrompt)
{
}

QString HttpLlmProvider::httpErrorText(const HttpResponse &response) const
{
    const QString detail = apiErrorText(response.body);
    QString text = QStringLiteral("answered HTTP %1").arg(response.status);
    if (response.attempts > 1)
        text += QStringLiteral(" after %1 attempts").arg(response.attempts);
    if (response.status == 401 || response.status == 403)
        text += QStringLiteral(" (check the API key%1)")
                    .arg(m_config.secrets ? QString() : QStringLiteral(" in %1").arg(m_config.apiKeyEnv));
    return detail.isEmpty() ? text : QStringLiteral("%1: %2").arg(text, detail);
}

Expected<Completion> HttpLlmProvider::complete(const Prompt &prompt)
{
    const QString url = m_config.endpointUrl();
    Expected<QString> key = resolveApiKey(m_config);
    if (!key)
        return key.error();
    const auto fail = [&](const QString &message) {
        return ReadError{url, 0, 0, redacted(QStringLiteral("%1: POST %2 %3").arg(id(), url, message), *key)};
    };

    HttpClient http(m_config.retry, m_config.connectTimeoutMs, m_config.totalTimeoutMs);
    http.setCancelFlag(m_cancel);
    http.setSecrets({*key});
    http.setLogSink(m_log);
    Expected<HttpResponse> response = http.postJson(url, requestHeaders(*key), requestBody(prompt), id());
    if (!response)
        return response.error();  // already redacted by the client
    if (response->status < 200 || response->status > 299)
        return fail(httpErrorText(*response));
    Expected<Completion> completion = parseAnswer(response->body);
    if (!completion)
        return fail(completion.error().message);
    m_tokens.record(completion->usage);
    return completion;
}

namespace {

// Best effort: a full disk loses the replay copy, not the answer the loop is about to check.
void saveAnswer(const QString &dir, const RewriteRequest &request, const QString &model, const QString &text)
{
    const QString path = savedAnswerPath(dir, request, model);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(text.toUtf8());
}

} // namespace

Expected<QVector<RewriteProposal>> HttpLlmProvider::propose(const RewriteRequest &request)
{
    const TokenUsage spent = m_tokens.total();
    if (m_config.tokenBudget > 0 && spent.inputTokens + spent.outputTokens >= m_config.tokenBudget)
        return ReadError{m_config.endpointUrl(), 0, 0,
                         QStringLiteral("%1: the token budget of %2 is spent (%3 used)")
                             .arg(id()).arg(m_config.tokenBudget).arg(spent.inputTokens + spent.outputTokens)};
    if (request.maxProposals <= 0)
        return QVector<RewriteProposal>{};

    const Prompt prompt = m_prompts.build(request);
    Expected<Completion> completion = complete(prompt);
    if (!completion)
        return completion.error();
    if (!m_answersDir.isEmpty())
        saveAnswer(m_answersDir, request, m_config.model, completion->text);
    const QString origin = QStringLiteral("answer of %1").arg(id());
    if (completion->stop == Completion::Stop::Refused)
        return ReadError{origin, 0, 0,
                         QStringLiteral("the model refused (%1)%2")
                             .arg(completion->stopReason,
                                  completion->refusal.isEmpty() ? QString() : QStringLiteral(": ") + completion->refusal.left(300))};

    QStringList shownIds;
    for (const diagnosis::Finding &finding : m_prompts.rankedFindings(request))
        shownIds << finding.ruleId;
    const ExtractionContext context{request.taskText, origin, completion->stop == Completion::Stop::Truncated};
    Expected<RewriteProposal> proposal =
        proposalFromAnswer(completion->text, request, context, providerName(), m_config.model, shownIds);
    if (!proposal)
        return proposal.error();
    proposal->tokens = completion->usage;
    return QVector<RewriteProposal>{*proposal};
}

std::unique_ptr<HttpLlmProvider> makeHttpProvider(const ProviderConfig &config)
{
    if (config.kind == ApiKind::Anthropic)
        return std::make_unique<AnthropicProvider>(config);
    return std::make_unique<OpenAiProvider>(config);
}

Expected<RewriteProposal> proposalFromAnswer(const QString &answer, const RewriteRequest &request,
                                             const ExtractionContext &context, const QString &provider,
                                             const QString &recipeId, const QStringList &findingIds)
{
    Expected<ExtractedAnswer> extracted = extractAnswer(answer, context);
    if (!extracted)
        return extracted.error();
    const QByteArray hash = QCryptographicHash::hash(extracted->code.toUtf8(), QCryptographicHash::Sha256).toHex();
    if (request.alreadyTried.contains(QString::fromLatin1(hash), Qt::CaseInsensitive))
        return ReadError{context.answerOrigin, 0, 0,
                         QStringLiteral("the answer proposes a file that was already tried (sha256 %1)")
                             .arg(QString::fromLatin1(hash.left(12)))};

    RewriteProposal proposal;
    proposal.provider = provider;
    proposal.recipeId = recipeId;
    proposal.title = extracted->title.isEmpty() ? QStringLiteral("rewrite by %1").arg(recipeId) : extracted->title;
    proposal.rationale = extracted->rationale;
    proposal.newText = extracted->code;
    for (const QString &ruleId : extracted->ruleIds) {
        if (findingIds.contains(ruleId) && !proposal.findingRuleIds.contains(ruleId))
            proposal.findingRuleIds << ruleId;
    }
    if (proposal.findingRuleIds.isEmpty())
        proposal.findingRuleIds = findingIds;
    return proposal;
}

} // namespace strata::rewrite::llm
