#pragma once
// Id-stamped background work (the idea of KDAB hotspot's job tracker). Each start() stamps the
// job with a new id and runs it on the thread pool; its result reaches `deliver` on the
// receiver's thread through a queued call, and only if no newer job was started (or cancel()
// called) meanwhile and the receiver still lives. Stale results are dropped, never shown.
//
//   JobTracker loader(this);
//   loader.start([path](const JobTracker::IsCancelled &cancelled) { return readCompileResultFile(path); },
//                [this](Expected<CompileResult> result) { show(result); });
#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QtConcurrent>
#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>

namespace strata {

class JobTracker {
public:
    // Long jobs poll this and return early when it says true; their result is dropped anyway.
    using IsCancelled = std::function<bool()>;

    explicit JobTracker(QObject *receiver);
    ~JobTracker();   // cancels; a running job finishes on its own and is dropped
    JobTracker(const JobTracker &) = delete;
    JobTracker &operator=(const JobTracker &) = delete;

    // `job(const IsCancelled &)` runs off the receiver's thread and returns a value; `deliver(value)`
    // runs on the receiver's thread. Returns the job's id.
    template <typename Job, typename Deliver>
    quint64 start(Job job, Deliver deliver);

    void cancel();                   // drops whatever is running
    quint64 currentJobId() const { return m_state->current.load(); }
    bool isJobRunning() const { return m_state->running.load() > 0; }
    // Blocks until every job started by this tracker has returned (tests, shutdown).
    void waitForIdle();

private:
    // Shared with the jobs, so a job that outlives the tracker still has somewhere to look.
    struct State {
        std::atomic<quint64> current{0};
        std::atomic<int> running{0};
    };
    QPointer<QObject> m_receiver;
    std::shared_ptr<State> m_state;
    QList<QFuture<void>> m_futures;
};

template <typename Job, typename Deliver>
quint64 JobTracker::start(Job job, Deliver deliver)
{
    const quint64 id = ++m_state->current;
    std::shared_ptr<State> state = m_state;
    QPointer<QObject> receiver = m_receiver;
    IsCancelled cancelled = [state, id, receiver] { return !receiver || state->current.load() != id; };
    ++state->running;
    m_futures.removeIf([](const QFuture<void> &f) { return f.isFinished(); });
    m_futures.append(QtConcurrent::run([job = std::move(job), deliver = std::move(deliver), cancelled,
                                        receiver, state]() mutable {
        auto result = job(cancelled);
        --state->running;
        if (cancelled())
            return;
        QMetaObject::invokeMethod(
            receiver.data(),
            [deliver = std::move(deliver), result = std::move(result), cancelled]() mutable {
                if (!cancelled())   // checked again: a newer job may have started in between
                    deliver(std::move(result));
            },
            Qt::QueuedConnection);
    }));
    return id;
}

} // namespace strata
