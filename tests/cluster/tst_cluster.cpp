// src/cluster without a cluster: the run folder's plan and scripts (run through bash with a
// stand-in strata-cli), squeue/sacct parsing, tool failures, the host list, the GPUs a host's
// workers are spread over, the merge of element stores, and submissions against stand-in
// sbatch/squeue/sacct that record what they are asked. The real cluster: slurm_suite_test.sh.
#include "cluster/HostPool.h"
#include "cluster/ResultsMerge.h"
#include "cluster/SlurmPlan.h"
#include "cluster/SlurmStatus.h"
#include "cluster/SlurmSubmitter.h"
#include "cluster/ToolRun.h"
#include "optimize/SuiteBench.h"
#include "store/Store.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;
using namespace strata::cluster;

namespace {

void writeText(const QString &path, const QString &text, bool executable = false)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text.toUtf8());
    file.close();
    if (executable)
        file.setPermissions(file.permissions() | QFile::ExeOwner);
}

// A run of `stem` in the store at `path`: "finished" with `outcomeStatus`, or left "cancelled".
void storeRun(const QString &path, const QString &suiteDir, const QString &stem, const QString &runStatus,
              const QString &outcomeStatus)
{
    Expected<std::unique_ptr<Store>> store = Store::open(path);
    QVERIFY(store);
    OptimizeRunRecord run;
    run.suite = QFileInfo(suiteDir).fileName();
    run.taskPath = suiteDir + u'/' + stem + QStringLiteral(".py");
    run.taskName = stem;
    run.taskSha256 = QStringLiteral("0");
    run.host = QStringLiteral("local");
    Expected<qint64> id = (*store)->beginOptimizeRun(run);
    QVERIFY(id);
    CandidateRow initial;
    initial.runId = *id;
    initial.provider = QStringLiteral("initial");
    initial.path = run.taskPath;
    initial.sourceText = QStringLiteral("class ModelNew:\n    pass\n");
    initial.sourceSha256 = QStringLiteral("0");
    initial.state = QStringLiteral("accepted");
    QVERIFY((*store)->insertCandidate(initial));
    const QJsonObject outcome{{QStringLiteral("task"), stem}, {QStringLiteral("status"), outcomeStatus}};
    QVERIFY((*store)->finishOptimizeRun(*id, runStatus, outcome));
}

} // namespace

class TestCluster : public QObject {
    Q_OBJECT

private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_suite = m_dir.filePath(QStringLiteral("suite"));
        for (const char *stem : {"alpha", "beta", "gamma"})
            writeText(m_suite + QStringLiteral("/%1.py").arg(QLatin1String(stem)), QStringLiteral("class ModelNew:\n    pass\n"));
        m_path = qgetenv("PATH");
    }
    void cleanup() { qputenv("PATH", m_path); }

    void batchesAreContiguousAndEven()
    {
        const QStringList stems{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d"), QStringLiteral("e")};
        const QVector<QStringList> two = splitIntoBatches(stems, 2);
        QCOMPARE(two.size(), 2);
        QCOMPARE(two[0], (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}));
        QCOMPARE(two[1], (QStringList{QStringLiteral("d"), QStringLiteral("e")}));
        QCOMPARE(splitIntoBatches(stems, 0).size(), 5);
        QCOMPARE(splitIntoBatches(stems, 9).size(), 5);
        QCOMPARE(arraySpec({0, 1, 2, 4, 6, 7}), QStringLiteral("0-2,4,6-7"));
        QCOMPARE(arraySpec({3}), QStringLiteral("3"));
    }

    // The element script, run by bash as Slurm would, hands the right batch and paths to strata-cli.
    void elementScriptRunsItsBatch()
    {
        const QString argsFile = m_dir.filePath(QStringLiteral("args.txt"));
        const QString fakeCli = m_dir.filePath(QStringLiteral("bin dir/strata-cli"));
        writeText(fakeCli, QStringLiteral("#!/bin/bash\nprintf '%s\\n' \"$@\" > '%1'\n").arg(argsFile), true);
        SlurmPlan plan;
        plan.runDir = m_dir.filePath(QStringLiteral("run"));
        plan.suiteDir = m_suite;
        plan.cli = fakeCli;
        plan.workingDir = m_dir.path();
        plan.batches = splitIntoBatches({QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("gamma")}, 2);
        plan.benchArgs = {QStringLiteral("--proposals"), QStringLiteral("/tmp/it's here"), QStringLiteral("--interpret")};
        QCOMPARE(writePlan(plan), QString());
        QProcess bash;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("1"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("bash"), {plan.elementScriptPath()});
        QVERIFY(bash.waitForFinished());
        QCOMPARE(bash.exitCode(), 0);
        QFile args(argsFile);
        QVERIFY(args.open(QIODevice::ReadOnly));
        const QStringList got = QString::fromUtf8(args.readAll()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(got, (QStringList{QStringLiteral("bench"), m_suite, QStringLiteral("--only"), QStringLiteral("gamma"),
                                   QStringLiteral("--db"), plan.storePath(1), QStringLiteral("--json"), plan.partPath(1),
                                   QStringLiteral("--work-dir"), plan.workDir(1), QStringLiteral("--proposals"),
                                   QStringLiteral("/tmp/it's here"), QStringLiteral("--interpret")}));
        // An index the plan does not have is refused, not run on some other batch.
        env.insert(QStringLiteral("SLURM_ARRAY_TASK_ID"), QStringLiteral("7"));
        bash.setProcessEnvironment(env);
        bash.start(QStringLiteral("bash"), {plan.elementScriptPath()});
        QVERIFY(bash.waitForFinished());
        QCOMPARE(bash.exitCode(), 2);
        // The plan reads back as written.
        Expected<SlurmPlan> read = readPlan(plan.runDir);
        QVERIFY(read);
        QCOMPARE(read->batches, plan.batches);
        QCOMPARE(read->benchArgs, plan.benchArgs);
    }

    void parsesSqueueAndSacct()
    {
        const QVector<ElementState> queued = parseSqueue(QStringLiteral("12|0|RUNNING|node3\n12|1|PENDING|(Priority)\n13|N/A|PENDING|(Dependency)\n"));
        QCOMPARE(queued.size(), 3);
        QCOMPARE(queued[1].index, 1);
        QCOMPARE(queued[1].state, QStringLiteral("PENDING"));
        QCOMPARE(queued[2].index, -1);
        const QVector<ElementState> accounted = parseSacct(QStringLiteral(
            "12_0|COMPLETED|0:0\n12_0.batch|COMPLETED|0:0\n12_1|CANCELLED by 0|0:15\n12_[2-5]|PENDING|0:0\n13|COMPLETED|0:0\n"));
        QCOMPARE(accounted.size(), 3);
        QCOMPARE(accounted[1].state, QStringLiteral("CANCELLED"));
        QueueView view;
        view.queued = queued;
        view.accounted = accounted;
        QCOMPARE(view.element({12}, 0)->state, QStringLiteral("RUNNING"));  // squeue before sacct
        QCOMPARE(view.element({12}, 1)->state, QStringLiteral("PENDING"));
        QVERIFY(!view.element({12}, 4));
        QCOMPARE(view.job(13)->reason, QStringLiteral("(Dependency)"));
        QVERIFY(view.anyLive({12}));
        QVERIFY(!view.anyLive({11}));
    }

    void toolFailuresNameTheCommand()
    {
        Expected<QString> missing = runTool(QStringLiteral("strata-no-such-tool"), {QStringLiteral("--x")});
        QVERIFY(!missing);
        QVERIFY2(missing.error().toString().startsWith(QStringLiteral("strata-no-such-tool --x")), qPrintable(missing.error().toString()));
        QVERIFY(missing.error().message.contains(QStringLiteral("not on PATH")));
        Expected<QString> failing = runTool(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("echo no accounting >&2; exit 3")});
        QVERIFY(!failing);
        QVERIFY2(failing.error().message.contains(QStringLiteral("exited with status 3: no accounting")), qPrintable(failing.error().message));
        Expected<QString> ok = runTool(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("echo 42")});
        QVERIFY(ok);
        QCOMPARE(ok->trimmed(), QStringLiteral("42"));
    }

    void hostListAndDevices()
    {
        // A backend's mask, under a name no runtime reads, so the test's own environment decides.
        const QVector<DeviceMask> masks{{QStringLiteral("STRATA_TEST_VISIBLE_DEVICES"), {{QStringLiteral("STRATA_TEST_ORDER"), QStringLiteral("bus")}}}};
        qunsetenv("STRATA_TEST_VISIBLE_DEVICES");
        Expected<QVector<optimize::BenchHost>> hosts = parseHosts(QStringLiteral("ssh:gpu1=2,local"), 3, masks);
        QVERIFY(hosts);
        QCOMPARE(hosts->size(), 2);
        QCOMPARE(hosts->at(0).name, QStringLiteral("ssh:gpu1"));
        QCOMPARE(hosts->at(0).jobs, 2);
        QCOMPARE(hosts->at(1).jobs, 3);
        QVERIFY(hosts->at(1).splitDevices);
        QVERIFY(hosts->at(1).inheritedDevices.isEmpty());
        QVERIFY(!parseHosts(QStringLiteral("ftp:x"), 1, masks));
        QVERIFY(!parseHosts(QStringLiteral("ssh:a=0"), 1, masks));
        QVERIFY(!parseHosts(QStringLiteral(","), 1, masks));
        // A list this process was started with (Slurm's, a person's) is the one spread.
        qputenv("STRATA_TEST_VISIBLE_DEVICES", "4,6");
        QCOMPARE(benchHost(QStringLiteral("local"), 1, masks).inheritedDevices, (QStringList{QStringLiteral("4"), QStringLiteral("6")}));
        qunsetenv("STRATA_TEST_VISIBLE_DEVICES");
        // No backend can restrict its devices: every worker sees all of them.
        QVERIFY(!benchHost(QStringLiteral("local"), 1, {}).splitDevices);

        const QJsonObject twoGpus{{QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0}},
                                                                       QJsonObject{{QStringLiteral("index"), 1}}}}};
        const QJsonObject oneGpu{{QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0}}}}};
        QCOMPARE(optimize::workerDevices(twoGpus, {}), (QStringList{QStringLiteral("0"), QStringLiteral("1")}));
        QCOMPARE(optimize::workerDevices(oneGpu, {}), QStringList{QString()});  // as before: environment untouched
        QCOMPARE(optimize::workerDevices(QJsonObject{}, {}), QStringList{QString()});
        // Slurm's (or a person's) device list wins over what the agent's `info` lists.
        QCOMPARE(optimize::workerDevices(twoGpus, {QStringLiteral("2"), QStringLiteral("5")}), (QStringList{QStringLiteral("2"), QStringLiteral("5")}));
        QCOMPARE(optimize::workerDevices(twoGpus, {QStringLiteral("3")}), QStringList{QString()});
    }

    // Element 0 ran alpha (finished) and was cut in beta; element 1 never started.
    void mergesStoresAndReportsProgress()
    {
        SlurmPlan plan = plannedRun();
        storeRun(plan.storePath(0), m_suite, QStringLiteral("alpha"), QStringLiteral("finished"), QStringLiteral("no_gain"));
        // A cancel during the initial check stores a "failed" outcome on a resumable run.
        storeRun(plan.storePath(0), m_suite, QStringLiteral("beta"), QStringLiteral("cancelled"), QStringLiteral("failed"));
        Expected<QVector<TaskProgress>> progress = storeProgress(plan);
        QVERIFY(progress);
        QCOMPARE(progress->size(), 3);
        QCOMPARE(progress->at(0).state, QStringLiteral("no_gain"));
        QCOMPARE(progress->at(0).candidates, 1);
        QCOMPARE(progress->at(1).state, QStringLiteral("interrupted"));
        QCOMPARE(progress->at(2).state, QStringLiteral("pending"));
        QVERIFY(!QFile::exists(plan.storePath(1)));  // reading never creates a store

        Expected<optimize::SuiteOutcome> merged = mergeRun(plan);
        QVERIFY(merged);
        QCOMPARE(merged->tasks.size(), 3);
        QCOMPARE(merged->tasks[0].status, QStringLiteral("no_gain"));
        QCOMPARE(merged->tasks[0].candidates.size(), 1);
        QCOMPARE(merged->tasks[1].status, QStringLiteral("interrupted"));
        QCOMPARE(merged->tasks[2].status, QStringLiteral("pending"));
        QCOMPARE(merged->coverage, optimize::Coverage::Part);

        storeRun(plan.storePath(0), m_suite, QStringLiteral("beta"), QStringLiteral("finished"), QStringLiteral("improved"));
        storeRun(plan.storePath(1), m_suite, QStringLiteral("gamma"), QStringLiteral("finished"), QStringLiteral("failed"));
        merged = mergeRun(plan);
        QVERIFY(merged);
        QCOMPARE(merged->tasks[1].status, QStringLiteral("improved"));  // the newest run of a task wins
        QCOMPARE(merged->coverage, optimize::Coverage::Merged);
    }

    // Submissions against stand-in sbatch/squeue/sacct: the array and its dependent merge, a
    // refusal while the old array is queued, a resubmission of the unfinished element alone.
    void submitsAndResubmitsWhatIsLeft()
    {
        const QString bin = fakeSlurm();
        qputenv("PATH", (bin + u':' + m_path).toUtf8());
        SubmitRequest request = requestFor(QStringLiteral("run2"));
        request.resources = {QStringLiteral("gpu"), QStringLiteral("gpu:1"), QStringLiteral("1:00:00"), {QStringLiteral("--account=x")}};
        Expected<Submission> first = submitRun(request);
        QVERIFY2(first, first ? "" : qPrintable(first.error().toString()));
        QCOMPARE(first->arrayJob, 100);
        QCOMPARE(first->mergeJob, 101);
        QCOMPARE(first->elements, (QList<int>{0, 1}));
        const QStringList calls = readLines(bin + QStringLiteral("/sbatch.calls"));
        QCOMPARE(calls.size(), 2);
        QVERIFY(calls[0].contains(QStringLiteral("--array=0-1 ")));
        QVERIFY(calls[0].contains(QStringLiteral("--partition=gpu --gres=gpu:1 --time=1:00:00 --account=x")));
        QVERIFY(calls[1].contains(QStringLiteral("--dependency=afterany:100")));
        QVERIFY(!calls[1].contains(QStringLiteral("--gres")));  // the merge needs no GPU

        // The array still runs: a second submission would put two elements on one store.
        writeText(bin + QStringLiteral("/squeue.out"), QStringLiteral("100|1|RUNNING|node1\n"));
        Expected<Submission> refused = submitRun(request);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(QStringLiteral("scancel 100")), qPrintable(refused.error().message));

        // Element 0's tasks finished, element 1 was cut: only element 1 runs again.
        writeText(bin + QStringLiteral("/squeue.out"), QString());
        const SlurmPlan plan = first->plan;
        storeRun(plan.storePath(0), m_suite, QStringLiteral("alpha"), QStringLiteral("finished"), QStringLiteral("no_gain"));
        storeRun(plan.storePath(0), m_suite, QStringLiteral("beta"), QStringLiteral("finished"), QStringLiteral("no_gain"));
        Expected<Submission> second = submitRun(request);
        QVERIFY(second);
        QCOMPARE(second->elements, QList<int>{1});
        QCOMPARE(second->finishedTasks, 2);
        QCOMPARE(readPlan(plan.runDir)->arrayJobs, (QVector<qint64>{100, 102}));

        // A folder planned for other tasks is not resumed with these.
        request.only = {QStringLiteral("alpha")};
        Expected<Submission> other = submitRun(request);
        QVERIFY(!other);
        QVERIFY(other.error().message.contains(QStringLiteral("planned for other tasks")));
    }

    void missingSbatchIsAnError()
    {
        qputenv("PATH", m_dir.filePath(QStringLiteral("empty-bin")).toUtf8());
        Expected<Submission> submission = submitRun(requestFor(QStringLiteral("run3")));
        QVERIFY(!submission);
        QVERIFY2(submission.error().toString().startsWith(QStringLiteral("sbatch --parsable")), qPrintable(submission.error().toString()));
        QVERIFY(submission.error().message.contains(QStringLiteral("sbatch is not on PATH")));
    }

private:
    SlurmPlan plannedRun()
    {
        SlurmPlan plan;
        plan.runDir = m_dir.filePath(QStringLiteral("run"));
        plan.suiteDir = m_suite;
        plan.batches = {{QStringLiteral("alpha"), QStringLiteral("beta")}, {QStringLiteral("gamma")}};
        return plan;
    }

    SubmitRequest requestFor(const QString &runName)
    {
        SubmitRequest request;
        request.suiteDir = m_suite;
        request.runDir = m_dir.filePath(runName);
        request.cli = QStringLiteral("/opt/strata/bin/strata-cli");
        request.workingDir = m_dir.path();
        request.arrayMax = 2;
        return request;
    }

    // sbatch records its arguments and prints job ids from 100 up; squeue prints squeue.out;
    // sacct fails as on a cluster without accounting.
    QString fakeSlurm()
    {
        const QString bin = m_dir.filePath(QStringLiteral("fake-slurm"));
        writeText(bin + QStringLiteral("/sbatch"),
                  QStringLiteral("#!/bin/bash\nd=\"$(dirname \"$0\")\"\necho \"$*\" >> \"$d/sbatch.calls\"\n"
                                 "n=$(cat \"$d/next\" 2>/dev/null || echo 100)\necho $((n + 1)) > \"$d/next\"\necho \"$n;cluster\"\n"),
                  true);
        writeText(bin + QStringLiteral("/squeue"), QStringLiteral("#!/bin/bash\ncat \"$(dirname \"$0\")/squeue.out\" 2>/dev/null || true\n"), true);
        writeText(bin + QStringLiteral("/sacct"), QStringLiteral("#!/bin/bash\necho 'Slurm accounting storage is disabled' >&2\nexit 1\n"), true);
        return bin;
    }

    static QStringList readLines(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts) : QStringList();
    }

    QTemporaryDir m_dir;
    QString m_suite;
    QByteArray m_path;
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
