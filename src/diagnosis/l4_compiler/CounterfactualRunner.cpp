#include "diagnosis/l4_compiler/CounterfactualRunner.h"

#include "compile/LoadedCompile.h"
#include "host/HostConnection.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

namespace strata::diagnosis {

namespace {

// Shared between the event loop and the reply callbacks, which may outlive compileAll() when
// the overall deadline passes first.
struct Batch {
    QVector<CounterfactualCompile> results;
    QVector<std::shared_ptr<QTemporaryDir>> workDirs;
    QVector<QElapsedTimer> clocks;
    int next = 0;
    int inFlight = 0;
    int done = 0;
    bool abandoned = false;
};

QString failureText(const RpcError &error, const QString &kernel)
{
    return QStringLiteral("%1 (kernel %2)").arg(error.toString(), kernel);
}

} // namespace

AgentCounterfactualRunner::AgentCounterfactualRunner(HostConnection &agent, CounterfactualKernel kernel,
                                                     int maxConcurrent, int timeoutSeconds)
    : m_agent(agent), m_kernel(std::move(kernel)), m_maxConcurrent(std::max(1, maxConcurrent)),
      m_timeoutSeconds(timeoutSeconds)
{
}

QVector<CounterfactualCompile> AgentCounterfactualRunner::compileAll(const QVector<SpecChange> &changes)
{
    auto batch = std::make_shared<Batch>();
    for (const SpecChange &change : changes)
        batch->results.append(CounterfactualCompile{change, std::nullopt, {}, 0});
    batch->workDirs.resize(changes.size());
    batch->clocks.resize(changes.size());
    if (changes.isEmpty())
        return {};

    QEventLoop loop;
    const CounterfactualKernel kernel = m_kernel;
    std::function<void()> launchNext;
    launchNext = [&, batch, kernel]() {
        while (batch->inFlight < m_maxConcurrent && batch->next < batch->results.size()) {
            const int index = batch->next++;
            auto workDir = std::make_shared<QTemporaryDir>();
            batch->workDirs[index] = workDir;
            batch->clocks[index].start();
            QJsonObject spec = batch->results[index].change.spec;
            spec.insert(QStringLiteral("kernel"), kernel.kernel);
            spec.insert(QStringLiteral("target"), kernel.target);
            // A source-edit change compiles its text from a copy with the same file name (line
            // numbers stay those of the kernel file).
            QString sourcePath = kernel.sourcePath;
            if (const QString &text = batch->results[index].change.sourceText; !text.isEmpty()) {
                QDir(workDir->path()).mkpath(QStringLiteral("edited"));
                sourcePath = workDir->filePath(QStringLiteral("edited/") + QFileInfo(kernel.sourcePath).fileName());
                QFile copy(sourcePath);
                if (!copy.open(QIODevice::WriteOnly) || copy.write(text.toUtf8()) < 0) {
                    batch->results[index].error = QStringLiteral("%1: cannot write the edited source").arg(sourcePath);
                    continue;
                }
            }
            // Counterfactuals need only the stages: no pass dumps, which cost most of a compile.
            const QJsonObject params{{QStringLiteral("source_path"), sourcePath},
                                     {QStringLiteral("kernel"), kernel.kernel},
                                     {QStringLiteral("spec"), spec},
                                     {QStringLiteral("target"), kernel.target},
                                     {QStringLiteral("work_dir"), workDir->path()},
                                     {QStringLiteral("pass_dumps"), false},
                                     {QStringLiteral("timeout_s"), m_timeoutSeconds}};
            ++batch->inFlight;
            m_agent.call(QStringLiteral("compile"), params, [batch, index, kernel, &loop, &launchNext](const RpcReply &reply) {
                if (batch->abandoned)
                    return;
                CounterfactualCompile &result = batch->results[index];
                result.seconds = batch->clocks[index].elapsed() / 1000.0;
                if (!reply.ok) {
                    result.error = failureText(reply.error, kernel.kernel);
                } else if (Expected<CompileResult> parsed = parseCompileResult(reply.result.toObject()); !parsed) {
                    result.error = parsed.error().toString();
                } else if (Expected<LoadedCompile> loaded = loadCompile(*parsed, kernel.stages); !loaded) {
                    result.error = loaded.error().toString();
                } else if (Expected<KernelIrFacts> facts = collectIrFacts(*loaded, rulesOrDefault(kernel.rules)); !facts) {
                    result.error = facts.error().toString();
                } else {
                    result.facts = std::move(*facts);
                }
                batch->workDirs[index].reset();  // the facts are plain data; the files can go
                --batch->inFlight;
                ++batch->done;
                if (batch->done == batch->results.size())
                    loop.quit();
                else
                    launchNext();
            });
        }
    };
    launchNext();
    // Every compile has its own agent-side timeout; this guards against an agent that hangs.
    const int rounds = (changes.size() + m_maxConcurrent - 1) / m_maxConcurrent;
    QTimer::singleShot((m_timeoutSeconds + 60) * 1000 * rounds, &loop, &QEventLoop::quit);
    if (batch->done < batch->results.size())
        loop.exec();
    batch->abandoned = true;
    for (CounterfactualCompile &result : batch->results) {
        if (!result.facts && result.error.isEmpty())
            result.error = QStringLiteral("no reply from the agent in time (kernel %1)").arg(kernel.kernel);
    }
    return batch->results;
}

} // namespace strata::diagnosis
