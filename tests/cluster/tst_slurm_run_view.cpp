// The Run dock's read-only view of a Slurm run: it shows each task's state from the element
// stores, and a failing tool (no squeue here) as a line naming the command, without a dialog.
#include "cluster/SlurmPlan.h"
#include "store/Store.h"
#include "views/RunPanel.h"
#include "views/SlurmRunView.h"

#include <QPlainTextEdit>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

class TestSlurmRunView : public QObject {
    Q_OBJECT

private slots:
    void showsTheStoresAndNamesFailingTools()
    {
        QTemporaryDir dir;
        cluster::SlurmPlan plan;
        plan.runDir = dir.filePath(QStringLiteral("run"));
        plan.suiteDir = dir.filePath(QStringLiteral("suite"));
        plan.batches = {{QStringLiteral("alpha")}, {QStringLiteral("beta")}};
        QCOMPARE(cluster::writePlan(plan), QString());
        {
            Expected<std::unique_ptr<Store>> store = Store::open(plan.storePath(0));
            QVERIFY(store);
            OptimizeRunRecord run;
            run.suite = QStringLiteral("suite");
            run.taskPath = plan.suiteDir + QStringLiteral("/alpha.py");
            run.taskName = QStringLiteral("alpha");
            run.taskSha256 = QStringLiteral("0");
            run.host = QStringLiteral("local");
            QVERIFY((*store)->beginOptimizeRun(run));
        }
        RunPanel panel;  // the view lives in the Run dock
        SlurmRunView *view = panel.findChild<SlurmRunView *>();
        QVERIFY(view);
        view->setRunDir(plan.runDir);
        view->waitForRefresh();
        const QString text = view->statusView()->toPlainText();
        QVERIFY2(text.contains(QStringLiteral("2 tasks in 2 elements, 0 finished")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("alpha cut (resumes on resubmission)")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("beta pending")), qPrintable(text));

        plan.arrayJobs = {7};  // now Slurm must be asked, and there is no squeue on this PATH
        QCOMPARE(cluster::writePlan(plan), QString());
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", dir.filePath(QStringLiteral("no-bin")).toUtf8());
        view->refresh();
        view->waitForRefresh();
        qputenv("PATH", path);
        QVERIFY2(view->statusView()->toPlainText().startsWith(QStringLiteral("squeue ")), qPrintable(view->statusView()->toPlainText()));
        QVERIFY(view->statusView()->toPlainText().contains(QStringLiteral("squeue is not on PATH")));
    }
};

QTEST_MAIN(TestSlurmRunView)
#include "tst_slurm_run_view.moc"
