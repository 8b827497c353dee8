// What does not need a server: reading answers (fences, CRLF, truncation, prose, unchanged
// files, sanity checks), the prompt (ranking, evidence, rules, contract), provider configs and
// secrets, the retry policy, and the manual provider's file round trip and cancellation.
#include "LlmTestData.h"

#include "rewrite/llm/CodeExtraction.h"
#include "rewrite/llm/FolderProvider.h"
#include "rewrite/llm/HttpClient.h"
#include "rewrite/llm/ManualProvider.h"
#include "rewrite/llm/PromptBuilder.h"
#include "rewrite/llm/ProviderConfig.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QSaveFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <thread>

using namespace strata;
using namespace strata::rewrite;
using namespace strata::rewrite::llm;
using namespace strata::testing;

namespace {

ExtractionContext contextFor(bool truncated = false)
{
    return ExtractionContext{readText(scaleCopyPath()), QStringLiteral("answer of test"), truncated};
}

class MapSecrets : public SecretSource {
public:
    Expected<QString> secret(const QString &name) override
    {
        ++asked;
        if (name == QLatin1String("strata/openai"))
            return QStringLiteral("sk-from-keyring");
        return ReadError{{}, 0, 0, QStringLiteral("no such entry")};
    }
    int asked = 0;
};

void writeFileLater(const QString &path, const QString &text, int delayMs)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
    QSaveFile file(path);
    if (file.open(QIODevice::WriteOnly)) {
        file.write(text.toUtf8());
        file.commit();
    }
}

} // namespace

class TestLlmAnswers : public QObject {
    Q_OBJECT
private slots:
    void picksThePythonBlockWithModelNew()
    {
        const QString answer = QStringLiteral("Here is a helper first:\n```python\ndef helper():\n    pass\n```\n"
                                              "And a shell line:\n```sh\nclass ModelNew\n```\n")
                               + contractAnswer(improvedTaskText());
        QCOMPARE(fencedBlocks(answer).size(), 3);
        const auto extracted = extractAnswer(answer, contextFor());
        QVERIFY2(extracted, qPrintable(extracted ? QString() : extracted.error().toString()));
        QCOMPARE(extracted->code, improvedTaskText());
        QCOMPARE(extracted->title, QStringLiteral("larger blocks and more warps"));
        QCOMPARE(extracted->ruleIds, (QStringList{"L3.scalar-global-access", "L1.small-block"}));
    }

    void readsCrlfUntaggedAndBoldLabels()
    {
        QString answer = QStringLiteral("**Rationale:** wider blocks\n\n```\n%1```\n").arg(improvedTaskText());
        answer.replace(QStringLiteral("\n"), QStringLiteral("\r\n"));
        const auto extracted = extractAnswer(answer, contextFor());
        QVERIFY2(extracted, qPrintable(extracted ? QString() : extracted.error().toString()));
        QCOMPARE(extracted->code, improvedTaskText());  // '\n' line ends again
        QCOMPARE(extracted->rationale, QStringLiteral("wider blocks"));
        QVERIFY(extracted->title.isEmpty());
    }

    void missingClosingFenceIsAcceptedUnlessTruncated()
    {
        const QString answer = QStringLiteral("Rationale: bigger blocks\n```python\n%1").arg(improvedTaskText());
        const auto accepted = extractAnswer(answer, contextFor(false));
        QVERIFY(accepted);
        QVERIFY(!accepted->fenceClosed);
        QCOMPARE(accepted->code, improvedTaskText());
        const auto truncated = extractAnswer(answer, contextFor(true));
        QVERIFY(!truncated);
        QVERIFY(truncated.error().message.contains("cut off at the token limit"));
        QCOMPARE(truncated.error().line, 2);  // the opening fence's line in the answer
        // Cut off after the closing fence (in trailing prose): the file itself is whole.
        const auto closedThenCut = extractAnswer(contractAnswer(improvedTaskText()) + "This works because", contextFor(true));
        QVERIFY(closedThenCut);
        QVERIFY(closedThenCut->fenceClosed);
    }

    void proseOnlyAnswerIsAClearError()
    {
        const auto extracted = extractAnswer(QStringLiteral("You could try a larger BLOCK size and more warps."), contextFor());
        QVERIFY(!extracted);
        QVERIFY(extracted.error().message.contains("no python code block (prose only)"));
        QVERIFY(extracted.error().message.contains("larger BLOCK size"));
        QCOMPARE(extracted.error().file, QStringLiteral("answer of test"));
        QVERIFY(!extractAnswer(QString(), contextFor()));
    }

    void fragmentWithoutModelNewIsAnError()
    {
        const auto extracted = extractAnswer(QStringLiteral("```python\nBLOCK = 8192\n```"), contextFor());
        QVERIFY(!extracted);
        QVERIFY(extracted.error().message.contains("no class ModelNew"));
    }

    void bareCodeWithoutFencesIsAccepted()
    {
        const auto extracted = extractAnswer(improvedTaskText(), contextFor());
        QVERIFY(extracted);
        QCOMPARE(extracted->code, improvedTaskText());
    }

    void unchangedFileIsNoChange()
    {
        // Trailing spaces and a missing final newline do not make a change.
        QString same = readText(scaleCopyPath());
        same.replace(QStringLiteral("import torch\n"), QStringLiteral("import torch   \n"));
        const auto extracted = extractAnswer(QStringLiteral("```python\n%1\n```").arg(same.trimmed()), contextFor());
        QVERIFY(!extracted);
        QVERIFY2(extracted.error().message.startsWith("no change"), qPrintable(extracted.error().message));
    }

    void sanityChecksNameWhatIsMissing_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no triton") << "@triton.jit\n" << "" << "no @triton.jit kernel";
        QTest::newRow("no get_inputs") << "def get_inputs():" << "def make_inputs():" << "no def get_inputs()";
        QTest::newRow("lost get_init_inputs") << "def get_init_inputs():" << "def init_inputs():" << "lost def get_init_inputs()";
    }
    void sanityChecksNameWhatIsMissing()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, problem);
        QString code = improvedTaskText();
        code.replace(from, to);
        const auto extracted = extractAnswer(contractAnswer(code), contextFor());
        QVERIFY(!extracted);
        QVERIFY2(extracted.error().message.contains(problem), qPrintable(extracted.error().message));
    }

    void promptRanksFindingsAndStatesRulesAndContract()
    {
        const RewriteRequest request = scaleCopyRequest();
        const PromptBuilder builder(2);
        const QVector<diagnosis::Finding> ranked = builder.rankedFindings(request);
        QCOMPARE(ranked.size(), 2);  // the unranked spill is cut by the limit
        QCOMPARE(ranked[0].ruleId, QStringLiteral("L3.scalar-global-access"));
        QCOMPARE(ranked[1].ruleId, QStringLiteral("L1.small-block"));
        QCOMPARE(PromptBuilder(5).rankedFindings(request).last().ruleId, QStringLiteral("L3.register-spill"));

        const Prompt prompt = builder.build(request);
        QVERIFY(prompt.user.contains(request.taskText));
        QVERIFY(prompt.user.contains("NVIDIA H200"));
        QVERIFY(prompt.user.contains("median time: 0.61 ms"));
        QVERIFY(prompt.user.contains("71.5% of the roofline"));
        QVERIFY(prompt.user.contains("bound: memory"));
        QVERIFY(prompt.user.contains("explains about 40% of the gap"));
        QVERIFY(prompt.user.contains("PTX line 42: ld.global.b32 {%r5}, [%rd3]; (scalar load)"));
        QVERIFY(prompt.user.contains("vector_width = 1 elements"));
        QVERIFY(prompt.user.contains("with \"n_elements divisible by 16\", ld.global.b32 became ld.global.v4.b32"));
        QVERIFY(prompt.user.contains("line 23: `tl.store(out_ptr + offsets"));  // the quoted source line
        QVERIFY(prompt.user.contains("Known fixes: block-size-sweep"));
        QVERIFY(!prompt.user.contains("L3.register-spill"));
        for (const QString &rule : rewriteConstraints())
            QVERIFY(prompt.user.contains(rule));
        QVERIFY(prompt.user.contains("```python\n<the complete new task file"));
        QVERIFY(prompt.user.contains("Rationale:"));
        QVERIFY(!prompt.user.contains("## Tolerance"));  // unknown: not stated

        RewriteRequest loose = request;
        loose.outputTolerance = 0.02;
        QVERIFY(builder.build(loose).user.contains("relative error (||out - ref|| / ||ref||) of 0.02"));
    }

    void folderReplaysAnswersPerTask()
    {
        // DIR/<task>/ holds that task's answers (*.md, read like a model's reply) and files (*.py),
        // proposed in name order; other tasks get DIR's own files.
        QTemporaryDir dir;
        RewriteRequest request = scaleCopyRequest();
        request.taskName = QStringLiteral("scale_copy");
        const QString taskDir = dir.filePath(QStringLiteral("scale_copy"));
        QVERIFY(QDir().mkpath(taskDir));
        const QString first = savedAnswerPath(dir.path(), request, QStringLiteral("gpt-5/mini"));
        QCOMPARE(QFileInfo(first).fileName(), QStringLiteral("001-gpt-5_mini.md"));
        writeFileLater(first, contractAnswer(improvedTaskText()), 0);
        QCOMPARE(QFileInfo(savedAnswerPath(dir.path(), request, QStringLiteral("m"))).fileName(), QStringLiteral("002-m.md"));
        writeFileLater(taskDir + QStringLiteral("/zz_hand.py"), improvedTaskText() + QStringLiteral("# by hand\n"), 0);
        writeFileLater(dir.filePath(QStringLiteral("other.py")), improvedTaskText() + QStringLiteral("# shared\n"), 0);

        FolderProvider provider(dir.path());
        const auto proposals = provider.propose(request);
        QVERIFY2(proposals, qPrintable(proposals ? QString() : proposals.error().toString()));
        QCOMPARE(proposals->size(), 2);
        QCOMPARE(proposals->at(0).recipeId, QStringLiteral("001-gpt-5_mini.md"));
        QCOMPARE(proposals->at(0).title, QStringLiteral("larger blocks and more warps"));
        QCOMPARE(proposals->at(0).newText, improvedTaskText());
        QCOMPARE(proposals->at(1).recipeId, QStringLiteral("zz_hand.py"));

        RewriteRequest other = request;
        other.taskName = QStringLiteral("softmax");
        const auto shared = provider.propose(other);
        QVERIFY(shared);
        QCOMPARE(shared->size(), 1);
        QCOMPARE(shared->first().recipeId, QStringLiteral("other.py"));

        // Replayed once: an answer already tried is skipped, not an error.
        RewriteRequest tried = request;
        tried.alreadyTried << QString::fromLatin1(
            QCryptographicHash::hash(improvedTaskText().toUtf8(), QCryptographicHash::Sha256).toHex());
        QCOMPARE(provider.propose(tried)->size(), 1);

        // A malformed answer names its file, and nothing of the folder is proposed.
        writeFileLater(taskDir + QStringLiteral("/003-bad.md"), QStringLiteral("Sorry, I cannot help."), 0);
        const auto broken = provider.propose(request);
        QVERIFY(!broken);
        QVERIFY2(broken.error().file.endsWith(QLatin1String("003-bad.md")), qPrintable(broken.error().toString()));
    }

    void configReadsJsonAndRefusesLiteralKeys()
    {
        const QJsonObject json{{"kind", "openai"}, {"base_url", "http://localhost:8000/v1/"}, {"model", "qwen"},
                               {"api_key_env", "VLLM_KEY"}, {"retries", 5}, {"timeout_ms", 60000}, {"temperature", 0.3}};
        const auto config = providerConfigFromJson(json, "llm.json");
        QVERIFY2(config, qPrintable(config ? QString() : config.error().toString()));
        QCOMPARE(config->endpointUrl(), QStringLiteral("http://localhost:8000/v1/chat/completions"));
        QCOMPARE(config->retry.maxRetries, 5);
        QCOMPARE(config->totalTimeoutMs, 60000);
        QCOMPARE(config->providerId(), QStringLiteral("openai:qwen"));
        const auto back = providerConfigFromJson(toJson(*config), "again");
        QVERIFY(back);
        QCOMPARE(toJson(*back), toJson(*config));

        QJsonObject withKey = json;
        withKey.insert("api_key", "sk-literal");
        const auto refused = providerConfigFromJson(withKey, "llm.json");
        QVERIFY(!refused);
        QVERIFY(!refused.error().toString().contains("sk-literal"));
        QCOMPARE(refused.error().file, QStringLiteral("llm.json"));
        QVERIFY(!providerConfigFromJson({{"kind", "gemini"}, {"model", "x"}}, "llm.json"));
        QVERIFY(!providerConfigFromJson({{"kind", "openai"}, {"model", "x"}, {"retries", -1}}, "llm.json"));
        QCOMPARE(defaultConfig(ApiKind::Anthropic).endpointUrl(), QStringLiteral("https://api.anthropic.com/v1/messages"));
    }

    void apiKeyComesFromTheSecretSourceOrTheEnvironment()
    {
        ProviderConfig config = defaultConfig(ApiKind::OpenAi);
        config.model = QStringLiteral("m");
        config.apiKeyEnv = QStringLiteral("STRATA_TEST_ENV_KEY");
        qputenv("STRATA_TEST_ENV_KEY", " sk-from-env \n");
        QCOMPARE(*resolveApiKey(config), QStringLiteral("sk-from-env"));
        qunsetenv("STRATA_TEST_ENV_KEY");
        QVERIFY(resolveApiKey(config).error().message.contains("STRATA_TEST_ENV_KEY"));

        auto secrets = std::make_shared<MapSecrets>();
        config.secrets = secrets;
        config.keyName = QStringLiteral("strata/openai");
        QCOMPARE(*resolveApiKey(config), QStringLiteral("sk-from-keyring"));
        QCOMPARE(secrets->asked, 1);
        config.keyName = QStringLiteral("strata/other");
        QVERIFY(resolveApiKey(config).error().message.contains("strata/other"));

        config.secrets.reset();
        config.apiKeyEnv.clear();  // a local server without auth
        QVERIFY(resolveApiKey(config)->isEmpty());
        QCOMPARE(redacted("key sk-1 and sk-1", "sk-1"), QStringLiteral("key [redacted] and [redacted]"));
    }

    void backoffGrowsIsCappedAndJittered()
    {
        const RetryPolicy policy{5, 100, 1000, 60000};
        QCOMPARE(HttpClient::backoffMs(policy, 1, 1.0), 100);
        QCOMPARE(HttpClient::backoffMs(policy, 2, 1.0), 200);
        QCOMPARE(HttpClient::backoffMs(policy, 3, 1.0), 400);
        QCOMPARE(HttpClient::backoffMs(policy, 8, 1.0), 1000);
        QCOMPARE(HttpClient::backoffMs(policy, 3, 0.0), 200);
        const QDateTime now(QDate(2026, 12, 1), QTime(12, 0), QTimeZone::utc());
        QCOMPARE(*HttpClient::retryAfterMs("2", now), 2000);
        QCOMPARE(*HttpClient::retryAfterMs("Tue, 01 Dec 2026 12:00:07 GMT", now), 7000);
        QCOMPARE(*HttpClient::retryAfterMs("Tue, 01 Dec 2026 11:59:00 GMT", now), 0);  // already past
        QVERIFY(!HttpClient::retryAfterMs("soon", now));
        QVERIFY(!HttpClient::retryAfterMs("", now));
        QVERIFY(HttpClient::isRetryable(429, "{}"));
        QVERIFY(HttpClient::isRetryable(529, "{}"));
        QVERIFY(!HttpClient::isRetryable(429, R"({"error":{"type":"rate_limit_error","details":{"error_code":"enforced_spend_limit_reached"}}})"));
        QVERIFY(!HttpClient::isRetryable(401, "{}"));
        QVERIFY(!HttpClient::isRetryable(400, "{}"));
    }

    void manualProviderRoundTripThroughFiles()
    {
        QTemporaryDir dir;
        ManualConfig config;
        config.workDir = dir.path();
        config.pollIntervalMs = 50;
        config.timeoutMs = 10000;
        ManualProvider provider(config);
        writeFileLater(config.resolvedAnswerPath(), QStringLiteral("stale answer"), 0);  // from an earlier round

        std::thread answerer([&] {
            // Wait for the prompt, then answer as a person would, a little later.
            QElapsedTimer waited;
            waited.start();
            while (!QFileInfo::exists(config.resolvedPromptPath()) && waited.elapsed() < 5000)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            writeFileLater(config.resolvedAnswerPath(), contractAnswer(improvedTaskText(), "\r\n"), 300);
        });
        const auto result = provider.propose(scaleCopyRequest());
        answerer.join();
        QVERIFY2(result, qPrintable(result ? QString() : result.error().toString()));
        QCOMPARE(result->size(), 1);
        QCOMPARE(result->first().provider, QStringLiteral("manual"));
        QCOMPARE(result->first().newText, improvedTaskText());
        QCOMPARE(result->first().title, QStringLiteral("larger blocks and more warps"));
        const QString prompt = readText(config.resolvedPromptPath());
        QVERIFY(prompt.contains(scaleCopyRequest().taskText));
        QVERIFY(prompt.contains("L3.scalar-global-access"));
        QCOMPARE(readText(config.resolvedAnswerPath() + ".previous"), QStringLiteral("stale answer"));
    }

    void manualProviderTimesOutAndCancels()
    {
        QTemporaryDir dir;
        ManualConfig config;
        config.workDir = dir.path();
        config.answerPath = dir.filePath("answers/mine.txt");
        config.pollIntervalMs = 50;
        config.timeoutMs = 300;
        ManualProvider provider(config);
        const auto timedOut = provider.propose(scaleCopyRequest());
        QVERIFY(!timedOut);
        QCOMPARE(timedOut.error().file, config.answerPath);
        QVERIFY(timedOut.error().message.contains("no answer file after 0.3 s"));

        config.timeoutMs = 60000;
        ManualProvider patient(config);
        qint64 elapsed = 0;
        const auto cancelled = proposeCancelledAfter(patient, 200, &elapsed);
        QVERIFY(!cancelled);
        QVERIFY(cancelled.error().message.startsWith("cancelled"));
        QVERIFY(elapsed < 5000);
    }

    void pastedAnswerGetsTheSameChecks()
    {
        QTemporaryDir dir;
        ManualProvider provider(ManualConfig{dir.path()});
        const RewriteRequest request = scaleCopyRequest();
        QVERIFY(provider.promptText(request).contains("## Answer format"));
        const auto pasted = provider.proposeFromText(request, contractAnswer(improvedTaskText()));
        QVERIFY(pasted);
        QCOMPARE(pasted->first().findingRuleIds, (QStringList{"L3.scalar-global-access", "L1.small-block"}));
        QVERIFY(!provider.proposeFromText(request, QStringLiteral("Sorry, I don't know.")));

        RewriteRequest tried = request;
        tried.alreadyTried << QString::fromLatin1(
            QCryptographicHash::hash(improvedTaskText().toUtf8(), QCryptographicHash::Sha256).toHex());
        const auto again = provider.proposeFromText(tried, contractAnswer(improvedTaskText()));
        QVERIFY(!again);
        QVERIFY(again.error().message.contains("already tried"));
    }
};

QTEST_GUILESS_MAIN(TestLlmAnswers)
#include "tst_llm_answers.moc"
