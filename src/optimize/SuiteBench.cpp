#include "optimize/SuiteBench.h"

#include "host/HostConnection.h"
#include "optimize/AgentSession.h"
#include "optimize/OptimizeLoop.h"
#include "rewrite/RewriteProvider.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonArray>
#include <QMutex>
#include <QThread>


namespace strata::optimize {

namespace {

constexpr int kInfoTimeoutMs = 120 * 1000;

bool definesModelNew(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.readAll().contains("class ModelNew");
}

// The device and versions the figures belong to, from the agent's `info`.
void describeEnvironment(HostConnection &agent, SuiteOutcome &suite)
{
    const RpcReply reply = agent.callBlocking(QStringLiteral("info"), {}, kInfoTimeoutMs);
    if (!reply.ok)
        return;
    const QJsonObject info = reply.result.toObject();
    suite.triton = info.value(QStringLiteral("triton")).toString();
    suite.torch = info.value(QStringLiteral("torch")).toString();
    const QJsonArray gpus = info.value(QStringLiteral("gpus")).toArray();
    if (!gpus.isEmpty()) {
        suite.device = gpus.first().toObject().value(QStringLiteral("name")).toString();
        suite.driver = gpus.first().toObject().value(QStringLiteral("driver")).toString();
    } else {
        suite.device = QStringLiteral("cpu (no GPU)");
    }
}

TaskOutcome failedTask(const QString &path, const QString &why)
{
    TaskOutcome outcome;
    outcome.taskId = QFileInfo(path).completeBaseName();
    outcome.taskPath = path;
    outcome.status = QStringLiteral("failed");
    outcome.failure = why;
    return outcome;
}

// One worker: its own agent, store connection and providers; takes tasks until none are left.
class Worker {
public:
    Worker(const BenchSetup &setup, GpuGate &gate, const QStringList &tasks, std::atomic_int &next,
           QVector<TaskOutcome> &outcomes, QMutex &mutex, const QString &deviceName)
        : m_setup(setup), m_gate(gate), m_tasks(tasks), m_next(next), m_outcomes(outcomes), m_mutex(mutex),
          m_deviceName(deviceName) {}

    void run()
    {
        std::unique_ptr<HostConnection> agent = m_setup.agentFactory();
        QString why;
        Expected<std::unique_ptr<Store>> store = Store::open(m_setup.storePath);
        if (!store)
            why = store.error().toString();
        else if (!agent->start(&why))
            why = QStringLiteral("the agent did not start: ") + why;
        std::vector<std::unique_ptr<rewrite::RewriteProvider>> owned = m_setup.providerFactory
                                                                           ? m_setup.providerFactory()
                                                                           : std::vector<std::unique_ptr<rewrite::RewriteProvider>>{};
        QVector<rewrite::RewriteProvider *> providers;
        for (const auto &provider : owned)
            providers.append(provider.get());
        for (int index = m_next++; index < m_tasks.size(); index = m_next++) {
            const QString &path = m_tasks[index];
            if (m_setup.cancel && m_setup.cancel->load())
                break;
            TaskOutcome outcome = why.isEmpty() ? runOne(path, *agent, **store, providers) : failedTask(path, why);
            QMutexLocker lock(&m_mutex);
            m_outcomes[index] = outcome;
            if (m_setup.taskFinished)
                m_setup.taskFinished(index, outcome);
            report(QStringLiteral("[%1/%2] %3: %4").arg(index + 1).arg(m_tasks.size()).arg(outcome.taskId, summary(outcome)));
        }
        if (agent)
            agent->stop();
    }

private:
    static QString summary(const TaskOutcome &outcome)
    {
        if (const std::optional<double> speedup = outcome.speedup(); speedup && outcome.status != QLatin1String("failed"))
            return QStringLiteral("%1 %2x").arg(outcome.status).arg(*speedup, 0, 'f', 2);
        return QStringLiteral("%1 (%2)").arg(outcome.status, outcome.failure.left(160));
    }

    void report(const QString &line) const
    {
        if (m_setup.progress)
            m_setup.progress(line);
    }

    TaskOutcome runOne(const QString &path, HostConnection &agent, Store &store,
                       const QVector<rewrite::RewriteProvider *> &providers)
    {
        AgentSession session(agent, m_gate, m_setup.options.callTimeoutSeconds);
        session.setInterpret(m_setup.interpret);
        session.setCancel(m_setup.cancel);
        LoopContext context{session, store, *m_setup.plugins, providers};
        context.host = m_setup.host;
        context.suite = QFileInfo(m_setup.suiteDir).fileName();
        context.deviceName = m_deviceName;
        context.cancel = m_setup.cancel;
        context.progress = [this](const QString &line) {
            QMutexLocker lock(&m_mutex);
            report(line);
        };
        return optimizeTask(path, m_setup.options, context);
    }

    const BenchSetup &m_setup;
    GpuGate &m_gate;
    const QStringList &m_tasks;
    std::atomic_int &m_next;
    QVector<TaskOutcome> &m_outcomes;
    QMutex &m_mutex;
    QString m_deviceName;
};

} // namespace

Expected<QStringList> suiteTasks(const QString &suiteDir, const QStringList &only)
{
    const QDir dir(suiteDir);
    if (!dir.exists())
        return ReadError{suiteDir, 0, 0, QStringLiteral("no such suite folder")};
    QStringList tasks;
    for (const QFileInfo &file : dir.entryInfoList({QStringLiteral("*.py")}, QDir::Files, QDir::Name)) {
        if (!only.isEmpty() && !only.contains(file.completeBaseName()))
            continue;
        // "_name.py" is a task set aside (suites/README.md); --only can still ask for it.
        if (file.fileName().startsWith(u'_') && !only.contains(file.completeBaseName()))
            continue;
        if (definesModelNew(file.absoluteFilePath()))
            tasks.append(file.absoluteFilePath());
    }
    for (const QString &name : only)
        if (!std::any_of(tasks.begin(), tasks.end(), [&name](const QString &path) { return QFileInfo(path).completeBaseName() == name; }))
            return ReadError{suiteDir, 0, 0, QStringLiteral("no task named %1 in the suite").arg(name)};
    if (tasks.isEmpty())
        return ReadError{suiteDir, 0, 0, QStringLiteral("no task file (a *.py defining ModelNew) in the suite folder")};
    return tasks;
}

Expected<SuiteOutcome> pendingSuite(const QString &suiteDir)
{
    Expected<QStringList> tasks = suiteTasks(suiteDir, {});
    if (!tasks)
        return tasks.error();
    static const QRegularExpression category(QStringLiteral("[\"']category[\"']\\s*:\\s*[\"']([^\"']+)[\"']"));
    SuiteOutcome suite;
    suite.suite = QFileInfo(suiteDir).fileName();
    for (const QString &path : *tasks) {
        TaskOutcome pending;
        pending.taskId = QFileInfo(path).completeBaseName();
        pending.taskPath = path;
        pending.status = QStringLiteral("pending");
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            pending.category = category.match(QString::fromUtf8(file.readAll())).captured(1);
        suite.tasks.append(pending);
    }
    return suite;
}

Expected<SuiteOutcome> runSuite(const BenchSetup &setup)
{
    Expected<QStringList> tasks = suiteTasks(setup.suiteDir, setup.only);
    if (!tasks)
        return tasks.error();
    SuiteOutcome suite;
    suite.suite = QFileInfo(setup.suiteDir).fileName();
    suite.date = QDateTime::currentDateTimeUtc();
    {
        std::unique_ptr<HostConnection> probe = setup.agentFactory();
        QString why;
        if (!probe->start(&why))
            return ReadError{setup.suiteDir, 0, 0, QStringLiteral("the agent did not start: ") + why};
        describeEnvironment(*probe, suite);
        probe->stop();
    }
    GpuGate gate;
    std::atomic_int next = 0;
    QVector<TaskOutcome> outcomes(tasks->size());
    QMutex mutex;
    // QThreads, not std::threads: each worker's agent connection needs a Qt event dispatcher.
    std::vector<std::unique_ptr<QThread>> threads;
    const int jobs = std::clamp(setup.jobs, 1, int(tasks->size()));
    for (int i = 0; i < jobs; ++i) {
        threads.emplace_back(QThread::create([&] {
            Worker worker(setup, gate, *tasks, next, outcomes, mutex, suite.device);
            worker.run();
        }));
        threads.back()->start();
    }
    for (const auto &thread : threads)
        thread->wait();
    bool everyTaskRan = true;
    for (int i = 0; i < tasks->size(); ++i)
        if (outcomes[i].taskId.isEmpty()) {
            outcomes[i] = failedTask((*tasks)[i], QStringLiteral("not run (cancelled)"));
            everyTaskRan = false;
        }
    suite.tasks = outcomes;
    // A cancelled run is a part even when it was asked for the whole suite: what it lacks was
    // never measured, so it must not be picked as the suite's results.
    const bool whole = setup.only.isEmpty() && everyTaskRan && suite.interrupted() == 0;
    suite.coverage = whole ? Coverage::Whole : Coverage::Part;
    return suite;
}

} // namespace strata::optimize
