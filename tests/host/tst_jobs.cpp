// JobTracker: results arrive on the receiver's thread, only for the newest job, never after
// cancel() or once the receiver is gone.
#include "compile/LoadedCompile.h"
#include "jobs/JobTracker.h"

#include <QSemaphore>
#include <QThread>
#include <QtTest>

using namespace strata;

class TestJobs : public QObject {
    Q_OBJECT

private slots:
    void deliversOnReceiverThread();
    void newerJobDropsOlderResult();
    void cancelDropsResult();
    void deadReceiverGetsNothing();
    void loadsACompileInTheBackground();
};

void TestJobs::deliversOnReceiverThread()
{
    JobTracker tracker(this);
    QThread *jobThread = nullptr;
    QThread *deliveryThread = nullptr;
    int delivered = 0;
    const quint64 id = tracker.start(
        [&](const JobTracker::IsCancelled &) { jobThread = QThread::currentThread(); return 42; },
        [&](int value) { deliveryThread = QThread::currentThread(); delivered = value; });
    QCOMPARE(id, tracker.currentJobId());
    QTRY_COMPARE(delivered, 42);
    QVERIFY(jobThread != QThread::currentThread());
    QCOMPARE(deliveryThread, QThread::currentThread());
    QVERIFY(!tracker.isJobRunning());
}

void TestJobs::newerJobDropsOlderResult()
{
    JobTracker tracker(this);
    QSemaphore release;
    QStringList delivered;
    tracker.start([&](const JobTracker::IsCancelled &) { release.acquire(); return QStringLiteral("old"); },
                  [&](const QString &value) { delivered.append(value); });
    tracker.start([](const JobTracker::IsCancelled &) { return QStringLiteral("new"); },
                  [&](const QString &value) { delivered.append(value); });
    QTRY_COMPARE(delivered, QStringList{QStringLiteral("new")});
    release.release();   // the old job finishes now; its result must be dropped
    tracker.waitForIdle();
    QCoreApplication::processEvents();
    QCOMPARE(delivered, QStringList{QStringLiteral("new")});
}

void TestJobs::cancelDropsResult()
{
    JobTracker tracker(this);
    QSemaphore started, release;
    bool sawCancel = false;
    bool delivered = false;
    tracker.start(
        [&](const JobTracker::IsCancelled &cancelled) {
            started.release();
            release.acquire();
            sawCancel = cancelled();
            return 1;
        },
        [&](int) { delivered = true; });
    started.acquire();
    tracker.cancel();
    release.release();
    tracker.waitForIdle();
    QCoreApplication::processEvents();
    QVERIFY(sawCancel);
    QVERIFY(!delivered);
}

void TestJobs::deadReceiverGetsNothing()
{
    auto receiver = std::make_unique<QObject>();
    JobTracker tracker(receiver.get());
    QSemaphore release;
    bool delivered = false;
    tracker.start([&](const JobTracker::IsCancelled &) { release.acquire(); return 1; },
                  [&](int) { delivered = true; });
    receiver.reset();
    release.release();
    tracker.waitForIdle();
    QCoreApplication::processEvents();
    QVERIFY(!delivered);
}

void TestJobs::loadsACompileInTheBackground()
{
    const QString path = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/aligned/compile.json");
    if (!QFile::exists(path))
        QSKIP("vector_add/aligned fixture missing");
    JobTracker tracker(this);
    std::optional<Expected<LoadedCompile>> loaded;
    tracker.start(
        [path](const JobTracker::IsCancelled &) -> Expected<LoadedCompile> {
            Expected<CompileResult> result = readCompileResultFile(path);
            if (!result)
                return result.error();
            return loadCompile(*result, {{QStringLiteral("source"), {}, {}, StageFormat::PythonSource, 0},
                                         {QStringLiteral("ptx"), {}, {}, StageFormat::Ptx, 1}});
        },
        [&](Expected<LoadedCompile> result) { loaded = std::move(result); });
    QTRY_VERIFY(loaded.has_value());
    QVERIFY(*loaded);
    QCOMPARE((**loaded).result.kernel, QStringLiteral("add_kernel"));
    QVERIFY((**loaded).listing(QStringLiteral("ptx")));
}

QTEST_GUILESS_MAIN(TestJobs)
#include "tst_jobs.moc"
