// The HTTP providers against a local server speaking the real OpenAI chat completions and
// Anthropic messages formats: normal answers, token accounting, malformed and cut-off answers,
// refusals, timeouts, retries (Retry-After, 5xx), no retry on 401, refused connections, key
// redaction and cancellation.
#include "LlmTestData.h"
#include "LocalLlmServer.h"

#include "rewrite/llm/LlmProvider.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <thread>

using namespace strata;
using namespace strata::rewrite;
using namespace strata::rewrite::llm;
using namespace strata::testing;

namespace {

const char kKeyVariable[] = "STRATA_TEST_LLM_KEY";
const QString kKey = QStringLiteral("sk-test-9f8e7d6c5b4a39281706f5e4d3c2b1a0");

ProviderConfig localConfig(ApiKind kind, const LocalLlmServer &server)
{
    ProviderConfig config = defaultConfig(kind);
    config.baseUrl = kind == ApiKind::Anthropic ? server.url() : server.url(QStringLiteral("/v1"));
    config.model = kind == ApiKind::Anthropic ? QStringLiteral("claude-test") : QStringLiteral("test-model");
    config.apiKeyEnv = QString::fromLatin1(kKeyVariable);
    config.temperature = 0.2;
    config.maxTokens = 4096;
    config.connectTimeoutMs = 2000;
    config.totalTimeoutMs = 10000;
    config.retry.maxRetries = 3;
    config.retry.backoffBaseMs = 10;
    config.retry.backoffMaxMs = 50;
    return config;
}

QJsonObject jsonOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

} // namespace

class TestLlmProviders : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { qputenv(kKeyVariable, kKey.toUtf8()); }

    void openAiAnswerBecomesProposalWithTheRealWireFormat()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()))});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        QCOMPARE(provider.id(), QStringLiteral("openai:test-model"));

        const Expected<QVector<RewriteProposal>> result = provider.propose(scaleCopyRequest());
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QCOMPARE(result->size(), 1);
        const RewriteProposal &proposal = result->first();
        QCOMPARE(proposal.provider, QStringLiteral("openai"));
        QCOMPARE(proposal.recipeId, QStringLiteral("test-model"));
        QCOMPARE(proposal.newText, improvedTaskText());
        QCOMPARE(proposal.title, QStringLiteral("larger blocks and more warps"));
        QVERIFY(proposal.rationale.startsWith(QStringLiteral("fewer, fuller programs")));
        QCOMPARE(proposal.findingRuleIds, (QStringList{"L3.scalar-global-access", "L1.small-block"}));
        QCOMPARE(proposal.tokens, (TokenUsage{1200, 800}));

        const QVector<ReceivedRequest> requests = server.requests();
        QCOMPARE(requests.size(), 1);
        QCOMPARE(requests[0].method, QByteArray("POST"));
        QCOMPARE(requests[0].path, QByteArray("/v1/chat/completions"));
        QCOMPARE(requests[0].headers.value("authorization"), "Bearer " + kKey.toUtf8());
        QCOMPARE(requests[0].headers.value("content-type"), QByteArray("application/json"));
        const QJsonObject body = jsonOf(requests[0].body);
        QCOMPARE(body.value("model").toString(), QStringLiteral("test-model"));
        QCOMPARE(body.value("max_tokens").toInt(), 4096);
        QCOMPARE(body.value("temperature").toDouble(), 0.2);
        QCOMPARE(body.value("stream").toBool(true), false);
        const QJsonArray messages = body.value("messages").toArray();
        QCOMPARE(messages.size(), 2);
        QCOMPARE(messages[0].toObject().value("role").toString(), QStringLiteral("system"));
        QCOMPARE(messages[1].toObject().value("role").toString(), QStringLiteral("user"));
        const QString user = messages[1].toObject().value("content").toString();
        QVERIFY(user.contains(scaleCopyRequest().taskText));
        QVERIFY(user.contains(QStringLiteral("ld.global.b32 {%r5}, [%rd3];")));
        QVERIFY(user.indexOf("L3.scalar-global-access") < user.indexOf("L1.small-block"));
    }

    void localServerWithoutKeyGetsNoAuthHeader()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()))});
        ProviderConfig config = localConfig(ApiKind::OpenAi, server);
        config.apiKeyEnv.clear();  // vLLM / Ollama started without --api-key
        config.temperature.reset();
        config.maxTokensField = QStringLiteral("max_completion_tokens");
        OpenAiProvider provider(config);
        QVERIFY(provider.propose(scaleCopyRequest()));
        const ReceivedRequest request = server.requests().value(0);
        QVERIFY(!request.headers.contains("authorization"));
        const QJsonObject body = jsonOf(request.body);
        QVERIFY(!body.contains("temperature"));
        QVERIFY(!body.contains("max_tokens"));
        QCOMPARE(body.value("max_completion_tokens").toInt(), 4096);
    }

    void tokensAreCountedPerCallAndInTotal()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()), "stop", 1000, 300)});
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()), "stop", 1100, 400)});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        QVERIFY(provider.propose(scaleCopyRequest()));
        QCOMPARE(provider.tokens().lastCall(), (TokenUsage{1000, 300}));
        QVERIFY(provider.propose(scaleCopyRequest()));
        QCOMPARE(provider.tokens().lastCall(), (TokenUsage{1100, 400}));
        QCOMPARE(provider.tokens().total(), (TokenUsage{2100, 700}));
        QCOMPARE(provider.tokens().calls(), 2);
    }

    void tokenBudgetStopsFurtherCalls()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()), "stop", 1000, 300)});
        ProviderConfig config = localConfig(ApiKind::OpenAi, server);
        config.tokenBudget = 1200;
        OpenAiProvider provider(config);
        QVERIFY(provider.propose(scaleCopyRequest()));
        const auto second = provider.propose(scaleCopyRequest());
        QVERIFY(!second);
        QVERIFY2(second.error().message.contains("token budget of 1200 is spent (1300 used)"), qPrintable(second.error().message));
        QCOMPARE(server.requests().size(), 1);
    }

    void anthropicAnswerBecomesProposalWithTheRealWireFormat()
    {
        LocalLlmServer server;
        server.enqueue({200, anthropicAnswer(contractAnswer(improvedTaskText()), "end_turn", 1500, 900, 200)});
        AnthropicProvider provider(localConfig(ApiKind::Anthropic, server));
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QCOMPARE(result->first().provider, QStringLiteral("anthropic"));
        QCOMPARE(result->first().newText, improvedTaskText());
        QCOMPARE(result->first().tokens, (TokenUsage{1700, 900}));  // cache reads count as input

        const ReceivedRequest request = server.requests().value(0);
        QCOMPARE(request.path, QByteArray("/v1/messages"));
        QCOMPARE(request.headers.value("x-api-key"), kKey.toUtf8());
        QCOMPARE(request.headers.value("anthropic-version"), QByteArray("2023-06-01"));
        QVERIFY(!request.headers.contains("authorization"));
        const QJsonObject body = jsonOf(request.body);
        QCOMPARE(body.value("model").toString(), QStringLiteral("claude-test"));
        QCOMPARE(body.value("max_tokens").toInt(), 4096);
        QVERIFY(body.value("system").toString().contains("Triton"));
        const QJsonArray messages = body.value("messages").toArray();
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages[0].toObject().value("role").toString(), QStringLiteral("user"));
    }

    void malformedJsonIsAClearError()
    {
        LocalLlmServer server;
        server.enqueue({200, QByteArray("{\"choices\": [{\"message\": {\"content\": \"half")});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains("not a JSON object"), qPrintable(result.error().message));
        QVERIFY(result.error().message.contains(server.url("/v1/chat/completions")));
        QCOMPARE(provider.tokens().calls(), 0);
    }

    void truncatedAnswersAreReportedAsCutOff_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::newRow("openai finish_reason length") << false;
        QTest::newRow("anthropic stop_reason max_tokens") << true;
    }
    void truncatedAnswersAreReportedAsCutOff()
    {
        QFETCH(bool, anthropic);
        const QString cut = contractAnswer(improvedTaskText()).section(QStringLiteral("class ModelNew"), 0, 0)
                            + QStringLiteral("class ModelNew(torch.nn.Module):\n    def __init__(self, al");
        LocalLlmServer server;
        server.enqueue({200, anthropic ? anthropicAnswer(cut, "max_tokens", 1500, 4096) : openAiAnswer(cut, "length", 1200, 4096)});
        auto provider = makeHttpProvider(localConfig(anthropic ? ApiKind::Anthropic : ApiKind::OpenAi, server));
        const auto result = provider->propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains("cut off at the token limit"), qPrintable(result.error().message));
        QCOMPARE(provider->tokens().lastCall().outputTokens, 4096);  // paid for even though unusable
    }

    void refusalsAreErrors_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::newRow("openai refusal field") << false;
        QTest::newRow("anthropic stop_reason refusal") << true;
    }
    void refusalsAreErrors()
    {
        QFETCH(bool, anthropic);
        LocalLlmServer server;
        const QString refusal = QStringLiteral("I can't help with that request.");
        server.enqueue({200, anthropic ? anthropicAnswer(refusal, "refusal") : openAiAnswer(QString(), "stop", 100, 10, refusal)});
        auto provider = makeHttpProvider(localConfig(anthropic ? ApiKind::Anthropic : ApiKind::OpenAi, server));
        const auto result = provider->propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains("the model refused"), qPrintable(result.error().message));
        QVERIFY(result.error().message.contains(refusal));
    }

    void slowAnswerBeyondTheTimeoutFails()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText())), {}, 4000});
        ProviderConfig config = localConfig(ApiKind::OpenAi, server);
        config.totalTimeoutMs = 400;
        config.retry.maxRetries = 0;
        OpenAiProvider provider(config);
        QElapsedTimer timer;
        timer.start();
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY(timer.elapsed() < 3000);
        QVERIFY2(result.error().message.contains("Timeout was reached"), qPrintable(result.error().message));
    }

    void retryAfterIsHonouredBeforeTheNextAttempt()
    {
        LocalLlmServer server;
        server.enqueue({429, apiError("rate_limit_error", "slow down", false), {{"Retry-After", "1"}}});
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText()))});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        QStringList log;
        provider.setLogSink([&log](const QString &line) { log << line; });
        QElapsedTimer timer;
        timer.start();
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QVERIFY2(timer.elapsed() >= 950, qPrintable(QString::number(timer.elapsed())));  // not the 10 ms backoff
        QCOMPARE(server.requests().size(), 2);
        QCOMPARE(log.size(), 1);
        QVERIFY2(log[0].contains("HTTP 429") && log[0].contains("Retry-After"), qPrintable(log[0]));
    }

    void serverErrorsAreRetriedWithBackoff()
    {
        LocalLlmServer server;
        server.enqueue({500, apiError("api_error", "internal", true)});
        server.enqueue({529, apiError("overloaded_error", "Overloaded", true)});
        server.enqueue({200, anthropicAnswer(contractAnswer(improvedTaskText()))});
        AnthropicProvider provider(localConfig(ApiKind::Anthropic, server));
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QCOMPARE(server.requests().size(), 3);
    }

    void serverErrorsBeyondTheRetriesAreReported()
    {
        LocalLlmServer server;
        for (int i = 0; i < 3; ++i)
            server.enqueue({503, apiError("server_error", "upstream down", false)});
        ProviderConfig config = localConfig(ApiKind::OpenAi, server);
        config.retry.maxRetries = 2;
        OpenAiProvider provider(config);
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains("answered HTTP 503 after 3 attempts: server_error: upstream down"),
                 qPrintable(result.error().message));
        QCOMPARE(server.requests().size(), 3);
    }

    void unauthorizedIsNotRetried()
    {
        LocalLlmServer server;
        server.enqueue({401, apiError("authentication_error", "invalid x-api-key", true)});
        AnthropicProvider provider(localConfig(ApiKind::Anthropic, server));
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QCOMPARE(server.requests().size(), 1);
        QVERIFY2(result.error().message.contains("HTTP 401"), qPrintable(result.error().message));
        QVERIFY(result.error().message.contains(QString::fromLatin1(kKeyVariable)));  // says where the key came from
    }

    void spentQuotaIsNotRetried()
    {
        LocalLlmServer server;
        server.enqueue({429, apiError("insufficient_quota", "You exceeded your current quota", false)});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QCOMPARE(server.requests().size(), 1);
        QVERIFY(result.error().message.contains("exceeded your current quota"));
    }

    void refusedConnectionIsRetriedThenReported()
    {
        LocalLlmServer unused;
        ProviderConfig config = localConfig(ApiKind::OpenAi, unused);
        config.baseUrl = QStringLiteral("http://127.0.0.1:%1/v1").arg(closedLocalPort());
        config.retry.maxRetries = 1;
        OpenAiProvider provider(config);
        QStringList log;
        provider.setLogSink([&log](const QString &line) { log << line; });
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY2(result.error().message.contains("failed after 2 attempt(s)"), qPrintable(result.error().message));
        QVERIFY(result.error().message.contains("connect", Qt::CaseInsensitive));
        QCOMPARE(result.error().file, config.endpointUrl());
        QCOMPARE(log.size(), 1);
    }

    void missingKeyNamesTheVariable()
    {
        LocalLlmServer server;
        ProviderConfig config = localConfig(ApiKind::OpenAi, server);
        config.apiKeyEnv = QStringLiteral("STRATA_TEST_UNSET_KEY_VARIABLE");
        OpenAiProvider provider(config);
        const auto result = provider.propose(scaleCopyRequest());
        QVERIFY(!result);
        QVERIFY(result.error().message.contains("STRATA_TEST_UNSET_KEY_VARIABLE is not set"));
        QCOMPARE(server.requests().size(), 0);
    }

    void keysNeverAppearInErrorsOrLogs_data()
    {
        QTest::addColumn<bool>("anthropic");
        QTest::addColumn<int>("status");
        QTest::newRow("openai 400") << false << 400;
        QTest::newRow("anthropic 400") << true << 400;
        QTest::newRow("openai 500 after retries") << false << 500;
        QTest::newRow("anthropic 429 after retries") << true << 429;
    }
    void keysNeverAppearInErrorsOrLogs()
    {
        QFETCH(bool, anthropic);
        QFETCH(int, status);
        LocalLlmServer server;
        ProviderConfig config = localConfig(anthropic ? ApiKind::Anthropic : ApiKind::OpenAi, server);
        config.retry.maxRetries = 2;
        for (int i = 0; i <= config.retry.maxRetries; ++i)  // every attempt echoes the headers back
            server.enqueue({status, {}, {}, 0, true});
        auto provider = makeHttpProvider(config);
        QStringList log;
        provider->setLogSink([&log](const QString &line) { log << line; });
        const auto result = provider->propose(scaleCopyRequest());
        QVERIFY(!result);
        const QString text = result.error().toString();
        QVERIFY2(text.contains("headers were"), qPrintable(text));  // the echo did reach the error
        QVERIFY2(!text.contains(kKey), qPrintable(text));
        QVERIFY(text.contains("[redacted]"));
        for (const QString &line : log)
            QVERIFY2(!line.contains(kKey), qPrintable(line));
        QCOMPARE(server.requests().size(), status == 400 ? 1 : 3);
    }

    void cancellationStopsAWaitingRequest()
    {
        LocalLlmServer server;
        server.enqueue({200, openAiAnswer(contractAnswer(improvedTaskText())), {}, 5000});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        qint64 elapsed = 0;
        const auto result = proposeCancelledAfter(provider, 300, &elapsed);
        QVERIFY(!result);
        QVERIFY2(result.error().message.endsWith("cancelled"), qPrintable(result.error().message));
        QVERIFY2(elapsed < 2500, qPrintable(QString::number(elapsed)));
    }

    void cancellationStopsABackoffWait()
    {
        LocalLlmServer server;
        server.enqueue({429, apiError("rate_limit_error", "slow down", false), {{"Retry-After", "30"}}});
        OpenAiProvider provider(localConfig(ApiKind::OpenAi, server));
        qint64 elapsed = 0;
        const auto result = proposeCancelledAfter(provider, 300, &elapsed);
        QVERIFY(!result);
        QVERIFY(result.error().message.endsWith("cancelled"));
        QVERIFY(elapsed < 5000);
        QCOMPARE(server.requests().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestLlmProviders)
#include "tst_llm_providers.moc"
