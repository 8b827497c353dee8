// OpenAI chat completions: POST {base}/chat/completions with a Bearer key; the answer is
// choices[0].message.content, finish_reason says "stop" / "length" / "content_filter", a
// refusal comes in message.refusal, usage in prompt_tokens / completion_tokens. vLLM, SGLang,
// Ollama, DeepSeek and DashScope's compatible mode speak the same format.
#include "rewrite/llm/LlmProvider.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::rewrite::llm {

namespace {

// content is a string, null (refusals, tool calls), or on some servers an array of text parts.
QString contentText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    QString text;
    for (const QJsonValue &part : content.toArray()) {
        const QJsonObject object = part.toObject();
        if (object.value(QLatin1String("type")).toString() == QLatin1String("text"))
            text += object.value(QLatin1String("text")).toString();
    }
    return text;
}

} // namespace

QByteArray OpenAiProvider::requestBody(const Prompt &prompt) const
{
    const QJsonArray messages{
        QJsonObject{{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), prompt.system}},
        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), prompt.user}},
    };
    QJsonObject body{
        {QStringLiteral("model"), config().model},
        {QStringLiteral("messages"), messages},
        {QStringLiteral("stream"), false},
        {config().maxTokensField, config().maxTokens},
    };
    if (config().temperature)
        body.insert(QStringLiteral("temperature"), *config().temperature);
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

QList<QPair<QByteArray, QByteArray>> OpenAiProvider::requestHeaders(const QString &apiKey) const
{
    if (apiKey.isEmpty())  // local servers started without --api-key
        return {};
    return {{QByteArrayLiteral("Authorization"), "Bearer " + apiKey.toUtf8()}};
}

Expected<Completion> OpenAiProvider::parseAnswer(const QByteArray &body) const
{
    const Expected<QJsonObject> answer = answerObject(body);
    if (!answer)
        return answer.error();
    const QJsonObject &json = *answer;
    if (json.contains(QLatin1String("error")))  // some compatible servers report errors with status 200
        return answerError(QStringLiteral("answered with an error: %1").arg(apiErrorText(body)));

    Completion completion;
    const QJsonObject usage = json.value(QLatin1String("usage")).toObject();
    completion.usage.inputTokens = usage.value(QLatin1String("prompt_tokens")).toInteger();
    completion.usage.outputTokens = usage.value(QLatin1String("completion_tokens")).toInteger();

    const QJsonArray choices = json.value(QLatin1String("choices")).toArray();
    if (choices.isEmpty())
        return answerError(QStringLiteral("answered without any choices"));
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject message = choice.value(QLatin1String("message")).toObject();
    completion.text = contentText(message.value(QLatin1String("content")));
    completion.stopReason = choice.value(QLatin1String("finish_reason")).toString();
    completion.refusal = message.value(QLatin1String("refusal")).toString();

    if (!completion.refusal.isEmpty() || completion.stopReason == QLatin1String("content_filter"))
        completion.stop = Completion::Stop::Refused;
    else if (completion.stopReason == QLatin1String("length"))
        completion.stop = Completion::Stop::Truncated;
    else if (completion.text.trimmed().isEmpty())
        return answerError(QStringLiteral("answered with an empty message (finish_reason \"%1\")").arg(completion.stopReason));
    return completion;
}

} // namespace strata::rewrite::llm
