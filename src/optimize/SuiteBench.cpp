#include "optimize/SuiteBench.h"

#include "host/HostConnection.h"
#include "optimize/AgentSession.h"
#include "optimize/OptimizeLoop.h"
#include "optimize/SuiteEnvironment.h"
#include "rewrite/RewriteProvider.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QJsonArray>
#include <QMutex>
#include <QThread>
#include <QWaitCondition>

#include <map>
#include <optional>


namespace strata::optimize {

namespace {

constexpr int kInfoTimeoutMs = 120 * 1000;

bool definesModelNew(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.readAll().contains("class ModelNew");
}

bool isSet(const std::atomic_bool *flag)
{
    return flag && flag->load();
}

// Why a task never started: a cancel, else the pool's last host error, else a drain.
QString whyNotRun(const BenchSetup &setup, const QString &lastHostError)
{
    if (!isSet(setup.cancel) && !lastHostError.isEmpty())
        return lastHostError;
    if (!isSet(setup.cancel) && isSet(setup.drain))
        return QStringLiteral("not run (drained: no task starts after the stop-starting time)");
    return QStringLiteral("not run (cancelled)");
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

// The tasks not yet done, shared by every worker of every host. A task a dropped-out host was
// running goes back to the front (it resumes from the store), at most kMaxReturns times; workers
// wait while tasks are in flight elsewhere, since one of them may come back.
class TaskQueue {
public:
    static constexpr int kMaxReturns = 3;

    explicit TaskQueue(int count) : m_returns(count, 0)
    {
        for (int i = 0; i < count; ++i)
            m_pending.append(i);
    }

    // Nothing once `stop` (a cancel or a drain) is set.
    std::optional<int> take(const std::function<bool()> &stop)
    {
        QMutexLocker lock(&m_mutex);
        while (m_pending.isEmpty() && m_inFlight > 0 && !stop())
            m_changed.wait(&m_mutex, 200);
        if (m_pending.isEmpty() || stop())
            return std::nullopt;
        ++m_inFlight;
        return m_pending.takeFirst();
    }
    void done()
    {
        QMutexLocker lock(&m_mutex);
        --m_inFlight;
        m_changed.wakeAll();
    }
    // `counted`: the task ran and was cut (a start that failed before it ran does not count).
    // False when the task came back too often: the caller fails it.
    bool giveBack(int index, bool counted)
    {
        QMutexLocker lock(&m_mutex);
        --m_inFlight;
        m_changed.wakeAll();
        if (counted && ++m_returns[index] > kMaxReturns)
            return false;
        m_pending.prepend(index);
        return true;
    }
    void hostFailed(const QString &why)
    {
        QMutexLocker lock(&m_mutex);
        m_lastHostError = why;
    }
    QString lastHostError() const
    {
        QMutexLocker lock(&m_mutex);
        return m_lastHostError;
    }

private:
    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    QList<int> m_pending;
    QVector<int> m_returns;
    int m_inFlight = 0;
    QString m_lastHostError;
};

// What every worker of a run shares.
struct RunShared {
    const BenchSetup &setup;
    const QStringList &tasks;
    TaskQueue &queue;
    QVector<TaskOutcome> &outcomes;
    QMutex &mutex;  // outcomes and progress lines
    QString deviceName;
    bool nameWorkers = false;  // several hosts or GPUs: each result line says where it ran
};

// One worker: its own agent (on its host, seeing its GPU), store connection and providers; takes
// tasks until none are left, or until its host stops answering.
class Worker {
public:
    Worker(RunShared &shared, const BenchHost &host, QString device, GpuGate &gate)
        : m_shared(shared), m_setup(shared.setup), m_host(host), m_device(std::move(device)), m_gate(gate) {}

    // Raised by the run's thread when the run is cancelled; by the worker when its agent dies.
    std::atomic_bool stop = false;

    void run()
    {
        Expected<std::unique_ptr<Store>> store = Store::open(m_setup.storePath);
        std::vector<std::unique_ptr<rewrite::RewriteProvider>> owned = m_setup.providerFactory
                                                                           ? m_setup.providerFactory()
                                                                           : std::vector<std::unique_ptr<rewrite::RewriteProvider>>{};
        QVector<rewrite::RewriteProvider *> providers;
        for (const auto &provider : owned)
            providers.append(provider.get());
        std::unique_ptr<HostConnection> agent = m_host.agentFactory(m_device);
        QObject::connect(agent.get(), &HostConnection::disconnected, agent.get(), [this](const QString &why) {
            m_lost = why;
            stop = true;  // the loop stops as under a cancel: what it was doing stays resumable
        });
        const auto stopped = [this] { return isSet(m_setup.cancel) || isSet(m_setup.drain); };
        while (std::optional<int> index = m_shared.queue.take(stopped)) {
            const QString &path = m_shared.tasks[*index];
            if (!store) {
                record(*index, failedTask(path, store.error().toString()));
                continue;
            }
            if (!agent->isRunning()) {
                if (QString why; !startAgent(*agent, &why)) {
                    m_shared.queue.giveBack(*index, false);
                    m_shared.queue.hostFailed(why);
                    say(QStringLiteral("[host %1] leaves the run: %2").arg(where(), why));
                    break;
                }
            }
            m_lost.clear();
            stop = isSet(m_setup.cancel);
            TaskOutcome outcome = runOne(path, *agent, **store, providers);
            if (!m_lost.isEmpty() && !isSet(m_setup.cancel)) {
                returnCutTask(*index);
                continue;  // the next task restarts the agent, or finds the host gone
            }
            record(*index, outcome);
        }
        agent->stop();
    }

private:
    static QString summary(const TaskOutcome &outcome)
    {
        if (const std::optional<double> speedup = outcome.speedup(); speedup && outcome.status != QLatin1String("failed"))
            return QStringLiteral("%1 %2x").arg(outcome.status).arg(*speedup, 0, 'f', 2);
        return QStringLiteral("%1 (%2)").arg(outcome.status, outcome.failure.left(160));
    }

    QString where() const
    {
        return m_device.isEmpty() ? m_host.name : QStringLiteral("%1 gpu %2").arg(m_host.name, m_device);
    }

    void say(const QString &line) const
    {
        QMutexLocker lock(&m_shared.mutex);
        if (m_setup.progress)
            m_setup.progress(line);
    }

    // Started and answering: a host that refuses ssh starts a process that exits at once.
    static bool startAgent(HostConnection &agent, QString *why)
    {
        if (!agent.start(why)) {
            *why = QStringLiteral("the agent did not start: ") + *why;
            return false;
        }
        const RpcReply reply = agent.callBlocking(QStringLiteral("info"), {}, kInfoTimeoutMs);
        if (reply.ok)
            return true;
        *why = QStringLiteral("the agent did not answer: ") + reply.error.toString();
        agent.stop();
        return false;
    }

    void returnCutTask(int index)
    {
        const QString &path = m_shared.tasks[index];
        const QString stem = QFileInfo(path).completeBaseName();
        const QString why = m_lost.section(u'\n', 0, 0);
        if (m_shared.queue.giveBack(index, true)) {
            say(QStringLiteral("[host %1] dropped out during %2 (%3): the task goes back to the queue").arg(where(), stem, why));
            return;
        }
        record(index, failedTask(path, QStringLiteral("its host dropped out %1 times while running it; last: %2")
                                           .arg(TaskQueue::kMaxReturns + 1).arg(why)),
               false);
    }

    void record(int index, const TaskOutcome &outcome, bool inFlight = true)
    {
        if (inFlight)
            m_shared.queue.done();
        QMutexLocker lock(&m_shared.mutex);
        m_shared.outcomes[index] = outcome;
        if (m_setup.taskFinished)
            m_setup.taskFinished(index, outcome);
        QString line = QStringLiteral("[%1/%2] %3: %4").arg(index + 1).arg(m_shared.tasks.size()).arg(outcome.taskId, summary(outcome));
        if (m_shared.nameWorkers)
            line += QStringLiteral(" (on %1)").arg(where());
        if (m_setup.progress)
            m_setup.progress(line);
    }

    TaskOutcome runOne(const QString &path, HostConnection &agent, Store &store,
                       const QVector<rewrite::RewriteProvider *> &providers)
    {
        AgentSession session(agent, m_gate, m_setup.options.callTimeoutSeconds);
        session.setInterpret(m_setup.interpret);
        session.setTarget(m_setup.options.target);   // the agent routes each task call by it
        session.setCancel(&stop);
        LoopContext context{session, store, *m_setup.plugins, providers};
        context.host = m_host.name;
        context.suite = QFileInfo(m_setup.suiteDir).fileName();
        context.deviceName = m_shared.deviceName;
        context.cancel = &stop;
        context.drain = m_setup.drain;
        context.progress = [this](const QString &line) { say(line); };
        return optimizeTask(path, m_setup.options, context);
    }

    RunShared &m_shared;
    const BenchSetup &m_setup;
    const BenchHost &m_host;
    QString m_device;
    GpuGate &m_gate;
    QString m_lost;  // why the agent went away during the current task; empty: it did not
};

// The hosts of a run: the pool, or the one host of a plain run (every worker sees every GPU).
QVector<BenchHost> hostsOf(const BenchSetup &setup)
{
    if (!setup.hosts.isEmpty())
        return setup.hosts;
    BenchHost host;
    host.name = setup.host;
    host.jobs = setup.jobs;
    host.agentFactory = [factory = setup.agentFactory](const QString &) { return factory(); };
    host.splitDevices = false;
    return {host};
}

// A host's `info`, or why it cannot be used.
Expected<QJsonObject> probeHost(const BenchHost &host)
{
    std::unique_ptr<HostConnection> probe = host.agentFactory(QString());
    QString why;
    if (!probe->start(&why))
        return ReadError{host.name, 0, 0, QStringLiteral("the agent did not start: ") + why};
    const RpcReply reply = probe->callBlocking(QStringLiteral("info"), {}, kInfoTimeoutMs);
    probe->stop();
    if (!reply.ok)
        return ReadError{host.name, 0, 0, QStringLiteral("the agent did not answer info: ") + reply.error.toString()};
    return reply.result.toObject();
}

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

QStringList workerDevices(const QJsonObject &info, const QStringList &inherited)
{
    QStringList devices = inherited;
    if (devices.isEmpty())
        for (const QJsonValue &gpu : info.value(QStringLiteral("gpus")).toArray())
            devices.append(QString::number(gpu.toObject().value(QStringLiteral("index")).toInt(int(devices.size()))));
    if (devices.size() <= 1)
        return {QString()};
    return devices;
}

Expected<SuiteOutcome> runSuite(const BenchSetup &setup)
{
    Expected<QStringList> tasks = suiteTasks(setup.suiteDir, setup.only);
    if (!tasks)
        return tasks.error();
    SuiteOutcome suite;
    suite.suite = QFileInfo(setup.suiteDir).fileName();
    suite.date = QDateTime::currentDateTimeUtc();
    const QVector<BenchHost> hosts = hostsOf(setup);
    // Each host once, up front: its GPUs, and the figures' environment (the first host's).
    QVector<QPair<const BenchHost *, QString>> groups;  // a host and one of its GPUs ("": all)
    QString unusable;
    for (const BenchHost &host : hosts) {
        Expected<QJsonObject> info = probeHost(host);
        if (!info) {
            unusable = info.error().message;
            if (setup.progress)
                setup.progress(QStringLiteral("[host %1] not used: %2").arg(host.name, unusable));
            continue;
        }
        if (groups.isEmpty())
            describeEnvironment(*info, setup.options.target, suite);
        const QStringList devices = host.splitDevices ? workerDevices(*info, host.inheritedDevices) : QStringList{QString()};
        for (const QString &device : devices)
            groups.append({&host, device});
    }
    if (groups.isEmpty())
        return ReadError{setup.suiteDir, 0, 0, unusable};

    TaskQueue queue(int(tasks->size()));
    QVector<TaskOutcome> outcomes(tasks->size());
    QMutex mutex;
    RunShared shared{setup, *tasks, queue, outcomes, mutex, suite.device, groups.size() > 1};
    // One gate per GPU: agents of one machine ("local" named twice) share it.
    std::map<QString, std::unique_ptr<GpuGate>> gates;
    std::vector<std::unique_ptr<Worker>> workers;
    for (const auto &[host, device] : groups) {
        std::unique_ptr<GpuGate> &gate = gates[host->name + u'|' + device];
        if (!gate)
            gate = std::make_unique<GpuGate>(QStringLiteral("gpu"));  // the worker adds its visible GPUs
        const int jobs = std::clamp(host->jobs, 1, int(tasks->size()));
        for (int i = 0; i < jobs; ++i)
            workers.push_back(std::make_unique<Worker>(shared, *host, device, *gate));
    }
    // QThreads, not std::threads: each worker's agent connection needs a Qt event dispatcher.
    std::vector<std::unique_ptr<QThread>> threads;
    for (const auto &worker : workers) {
        threads.emplace_back(QThread::create([&worker] { worker->run(); }));
        threads.back()->start();
    }
    // A cancel reaches each worker through its own flag (which its host's loss raises too).
    for (const auto &thread : threads)
        while (!thread->wait(100))
            if (isSet(setup.cancel))
                for (const auto &worker : workers)
                    worker->stop = true;
    bool everyTaskRan = true;
    const QString noHost = queue.lastHostError();
    for (int i = 0; i < tasks->size(); ++i)
        if (outcomes[i].taskId.isEmpty()) {
            outcomes[i] = failedTask((*tasks)[i], whyNotRun(setup, noHost));
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
