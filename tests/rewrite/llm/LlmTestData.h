#pragma once
// What the LLM tests share: a rewrite request on the scale_copy smoke task with a three-finding
// diagnosis, a plausible improved task file, and answers in the two APIs' real wire formats.
#include "diagnosis/model/Finding.h"
#include "rewrite/RewriteProvider.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>

namespace strata::testing {

inline QString scaleCopyPath()
{
    return QStringLiteral(STRATA_SOURCE_DIR "/suites/tasks-smoke/scale_copy.py");
}

inline QString readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return QString::fromUtf8(file.readAll());
}

// The smoke task with a bigger block and more warps: a change a model might plausibly make.
inline QString improvedTaskText()
{
    QString text = readText(scaleCopyPath());
    text.replace(QStringLiteral("triton.cdiv(n, 4096),)](x, out, self.alpha, n, BLOCK=4096, num_warps=8)"),
                 QStringLiteral("triton.cdiv(n, 8192),)](x, out, self.alpha, n, BLOCK=8192, num_warps=16)"));
    if (text == readText(scaleCopyPath()))
        qFatal("scale_copy.py changed: update improvedTaskText()");
    return text;
}

inline rewrite::RewriteRequest scaleCopyRequest()
{
    using namespace diagnosis;
    rewrite::RewriteRequest request;
    request.taskPath = scaleCopyPath();
    request.taskText = readText(scaleCopyPath());
    request.kernelName = QStringLiteral("scale_kernel");
    request.deviceName = QStringLiteral("NVIDIA H200");
    request.timing = QJsonObject{{QStringLiteral("ms"), 0.61}, {QStringLiteral("roofline_pct"), 71.5},
                                 {QStringLiteral("bound"), QStringLiteral("memory")}};

    Finding launch;
    launch.ruleId = QStringLiteral("L1.small-block");
    launch.level = Level::L1;
    launch.title = QStringLiteral("block of 4096 elements per program");
    launch.severity = Severity::Low;
    launch.confidence = 0.6;
    launch.span = SourceSpan{request.taskPath, 43, 9, 43, 96};
    launch.cause = QStringLiteral("Each program moves little data, so launch overhead shows.");
    launch.recipes = {QStringLiteral("block-size-sweep")};

    Finding scalar;
    scalar.ruleId = QStringLiteral("L3.scalar-global-access");
    scalar.level = Level::L3;
    scalar.title = QStringLiteral("global load is 32 bits wide");
    scalar.severity = Severity::High;
    scalar.confidence = 0.9;
    scalar.span = SourceSpan{request.taskPath, 23, 5, 23, 90};
    scalar.cause = QStringLiteral("The load is not vectorized because alignment is unknown.");
    scalar.evidence = {Evidence::irOp(QStringLiteral("ptx"), 41, QStringLiteral("ld.global.b32"),
                                      QStringLiteral("ld.global.b32 {%r5}, [%rd3];"), QStringLiteral("scalar load")),
                       Evidence::metric(QStringLiteral("vector_width"), 1, QStringLiteral("elements")),
                       Evidence::counterfactual(QStringLiteral("n_elements divisible by 16"), QStringLiteral("ld.global.b32"),
                                                QStringLiteral("ld.global.v4.b32"))};
    scalar.gapShare = GapShare{0.4, false};

    Finding spill;
    spill.ruleId = QStringLiteral("L3.register-spill");
    spill.level = Level::L3;
    spill.title = QStringLiteral("registers spill");
    spill.severity = Severity::Medium;
    spill.confidence = 0.5;

    request.diagnosis.kernel = request.kernelName;
    request.diagnosis.sourcePath = request.taskPath;
    request.diagnosis.addFindings(Level::L1, {launch});
    request.diagnosis.addFindings(Level::L3, {spill, scalar});
    // The ladder ranks the scalar load first, then the block size; the spill is unranked.
    request.rankedRuleIds = {QStringLiteral("L3.scalar-global-access"), QStringLiteral("L1.small-block")};
    return request;
}

// A model answer following the output contract.
inline QString contractAnswer(const QString &code, const QString &lineEnd = QStringLiteral("\n"))
{
    QString answer = QStringLiteral("Title: larger blocks and more warps\n"
                                    "Rationale: fewer, fuller programs hide the scalar-load latency (L3.scalar-global-access)\n"
                                    "Findings: L3.scalar-global-access, L1.small-block\n\n"
                                    "```python\n%1```\n").arg(code);
    answer.replace(QStringLiteral("\n"), lineEnd);
    return answer;
}

inline QByteArray openAiAnswer(const QString &content, const QString &finishReason = QStringLiteral("stop"),
                               int promptTokens = 1200, int completionTokens = 800, const QString &refusal = {})
{
    QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")},
                        {QStringLiteral("content"), content.isNull() ? QJsonValue(QJsonValue::Null) : QJsonValue(content)},
                        {QStringLiteral("refusal"), refusal.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(refusal)}};
    const QJsonObject choice{{QStringLiteral("index"), 0}, {QStringLiteral("message"), message},
                             {QStringLiteral("logprobs"), QJsonValue::Null}, {QStringLiteral("finish_reason"), finishReason}};
    const QJsonObject json{
        {QStringLiteral("id"), QStringLiteral("chatcmpl-test1")},
        {QStringLiteral("object"), QStringLiteral("chat.completion")},
        {QStringLiteral("created"), 1764590000},
        {QStringLiteral("model"), QStringLiteral("test-model")},
        {QStringLiteral("choices"), QJsonArray{choice}},
        {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), promptTokens},
                                              {QStringLiteral("completion_tokens"), completionTokens},
                                              {QStringLiteral("total_tokens"), promptTokens + completionTokens}}},
    };
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

inline QByteArray anthropicAnswer(const QString &text, const QString &stopReason = QStringLiteral("end_turn"),
                                  int inputTokens = 1500, int outputTokens = 900, int cacheReadTokens = 0)
{
    QJsonArray content;
    if (!text.isEmpty())
        content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}});
    const QJsonObject json{
        {QStringLiteral("id"), QStringLiteral("msg_01TestAnswer")},
        {QStringLiteral("type"), QStringLiteral("message")},
        {QStringLiteral("role"), QStringLiteral("assistant")},
        {QStringLiteral("model"), QStringLiteral("claude-test")},
        {QStringLiteral("content"), content},
        {QStringLiteral("stop_reason"), stopReason},
        {QStringLiteral("stop_sequence"), QJsonValue::Null},
        {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), inputTokens},
                                              {QStringLiteral("output_tokens"), outputTokens},
                                              {QStringLiteral("cache_creation_input_tokens"), 0},
                                              {QStringLiteral("cache_read_input_tokens"), cacheReadTokens}}},
    };
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}

inline QByteArray apiError(const QString &type, const QString &message, bool anthropicShape)
{
    QJsonObject json{{QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), type}, {QStringLiteral("message"), message}}}};
    if (anthropicShape)
        json.insert(QStringLiteral("type"), QStringLiteral("error"));
    return QJsonDocument(json).toJson(QJsonDocument::Compact);
}


// provider.propose(scaleCopyRequest()) with the provider's cancel flag raised after `afterMs`, as
// Ctrl-C or a deadline would; *elapsedMs: how long propose() took.
template <typename Provider>
auto proposeCancelledAfter(Provider &provider, int afterMs, qint64 *elapsedMs)
{
    std::atomic<bool> cancel = false;
    provider.setCancelFlag(&cancel);
    std::thread canceller([&cancel, afterMs] {
        std::this_thread::sleep_for(std::chrono::milliseconds(afterMs));
        cancel = true;
    });
    QElapsedTimer timer;
    timer.start();
    auto result = provider.propose(scaleCopyRequest());
    *elapsedMs = timer.elapsed();
    canceller.join();
    provider.setCancelFlag(nullptr);
    return result;
}

} // namespace strata::testing
