// Anthropic messages: POST {base}/v1/messages with x-api-key and anthropic-version 2023-06-01;
// the system prompt is a top-level field and max_tokens is required. The answer is a list of
// content blocks (text ones are read, thinking ones skipped), stop_reason says "end_turn" /
// "stop_sequence" / "max_tokens" / "refusal", usage in input_tokens / output_tokens.
#include "rewrite/llm/LlmProvider.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::rewrite::llm {

namespace {

constexpr char kAnthropicVersion[] = "2023-06-01";

} // namespace

QByteArray AnthropicProvider::requestBody(const Prompt &prompt) const
{
    const QJsonArray messages{
        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), prompt.user}},
    };
    QJsonObject body{
        {QStringLiteral("model"), config().model},
        {QStringLiteral("max_tokens"), config().maxTokens},
        {QStringLiteral("system"), prompt.system},
        {QStringLiteral("messages"), messages},
    };
    if (config().temperature)
        body.insert(QStringLiteral("temperature"), std::min(1.0, *config().temperature));  // Anthropic: 0..1
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QList<QPair<QByteArray, QByteArray>> AnthropicProvider::requestHeaders(const QString &apiKey) const
{
    QList<QPair<QByteArray, QByteArray>> headers{{QByteArrayLiteral("anthropic-version"), QByteArray(kAnthropicVersion)}};
    if (!apiKey.isEmpty())
        headers.append({QByteArrayLiteral("x-api-key"), apiKey.toUtf8()});
    return headers;
}

Expected<Completion> AnthropicProvider::parseAnswer(const QByteArray &body) const
{
    const Expected<QJsonObject> answer = answerObject(body);
    if (!answer)
        return answer.error();
    const QJsonObject &json = *answer;
    if (json.value(QLatin1String("type")).toString() == QLatin1String("error"))
        return answerError(QStringLiteral("answered with an error: %1").arg(apiErrorText(body)));

    Completion completion;
    const QJsonObject usage = json.value(QLatin1String("usage")).toObject();
    // Cached prompt tokens are billed input too; count them so a budget is not undershot.
    completion.usage.inputTokens = usage.value(QLatin1String("input_tokens")).toInteger()
                                   + usage.value(QLatin1String("cache_creation_input_tokens")).toInteger()
                                   + usage.value(QLatin1String("cache_read_input_tokens")).toInteger();
    completion.usage.outputTokens = usage.value(QLatin1String("output_tokens")).toInteger();

    const QJsonValue content = json.value(QLatin1String("content"));
    if (!content.isArray())
        return answerError(QStringLiteral("answered without a content list"));
    for (const QJsonValue &block : content.toArray()) {
        const QJsonObject object = block.toObject();
        if (object.value(QLatin1String("type")).toString() == QLatin1String("text"))
            completion.text += object.value(QLatin1String("text")).toString();
    }
    completion.stopReason = json.value(QLatin1String("stop_reason")).toString();
    if (completion.stopReason == QLatin1String("refusal")) {
        completion.stop = Completion::Stop::Refused;
        completion.refusal = completion.text.trimmed();
    } else if (completion.stopReason == QLatin1String("max_tokens")) {
        completion.stop = Completion::Stop::Truncated;
    } else if (completion.text.trimmed().isEmpty()) {
        return answerError(QStringLiteral("answered without text (stop_reason \"%1\")").arg(completion.stopReason));
    }
    return completion;
}

} // namespace strata::rewrite::llm
