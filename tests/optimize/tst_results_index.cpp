// The results index (optimize/ResultsIndex.h): task summaries equal to what the whole-file reader
// reads, whole tasks read back by offset, the same errors as the streaming reader, and a review
// written by splicing one task into the file with every other byte kept.
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsIndex.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::optimize;

namespace {

// Sources with every character that could fool a scanner: quotes, backslashes, braces and
// brackets inside strings, and a long one that crosses the scanner's 1 MiB chunk boundary.
QString trickySource(int task, int candidate)
{
    QString text = QStringLiteral("s = \"}]{[\\\\\"  # task %1 candidate %2\n\tx = '\\\\'\n").arg(task).arg(candidate);
    if (task == 1 && candidate == 1)
        text += QString(1200 * 1024, u'x') + QStringLiteral("\\\"]}");
    return text;
}

SuiteOutcome sampleSuite(int tasks)
{
    SuiteOutcome suite;
    suite.suite = QStringLiteral("sample");
    suite.device = QStringLiteral("NVIDIA H200");
    suite.date = QDateTime(QDate(2026, 12, 4), QTime(12, 0), Qt::UTC);
    suite.coverage = Coverage::Whole;
    for (int i = 0; i < tasks; ++i) {
        TaskOutcome task;
        task.taskId = QStringLiteral("task_%1").arg(i);
        task.taskPath = QStringLiteral("suites/sample/task_%1.py").arg(i);
        task.category = QStringLiteral("reduction");
        task.status = QStringLiteral("improved");
        task.initialMs = 1.0 + i;
        task.bestMs = 0.5;
        task.winningRecipes = {QStringLiteral("recipe:grow-block")};
        for (int c = 0; c < 3; ++c) {
            CandidateRecord candidate;
            candidate.id = c + 1;
            candidate.parentId = c;
            candidate.provider = c ? QStringLiteral("recipe") : QStringLiteral("initial");
            candidate.state = QStringLiteral("accepted");
            candidate.sourceText = trickySource(i, c);
            candidate.medianMs = 0.25;
            task.candidates.append(candidate);
        }
        RoundDiagnosis round;
        round.iteration = 1;
        round.candidateId = 1;
        round.kernel = QStringLiteral("kernel");
        round.findings.append(RoundFinding{QStringLiteral("L1.multi-pass-reread"), QStringLiteral("t"), QStringLiteral("high"), 3, 0.5, false, QStringLiteral("untested")});
        task.rounds.append(round);
        suite.tasks.append(task);
    }
    return suite;
}

QByteArray taskJson(const TaskOutcome &task)
{
    return QJsonDocument(toJson(task, true)).toJson(QJsonDocument::Compact);
}

} // namespace

class TestResultsIndex : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }

    void summariesMatchTheWholeReaderAndTasksLoadWhole()
    {
        const SuiteOutcome suite = sampleSuite(4);
        const QString path = write(QJsonDocument(toJson(suite, true)).toJson(QJsonDocument::Indented));
        Expected<ResultsIndex> index = ResultsIndex::open(path);
        QVERIFY2(index, qPrintable(index ? QString() : index.error().toString()));
        QCOMPARE(index->taskCount(), 4);
        QCOMPARE(index->summary().suite, QStringLiteral("sample"));
        QCOMPARE(index->summary().coverage, Coverage::Whole);
        for (int i = 0; i < 4; ++i) {
            const TaskOutcome &summary = index->summary().tasks[i];
            QVERIFY(summary.candidates.isEmpty() && summary.rounds.isEmpty());
            QCOMPARE(taskJson(summary), taskJson(taskSummary(suite.tasks[i])));
            Expected<TaskOutcome> whole = index->loadTask(i);
            QVERIFY2(whole, qPrintable(whole ? QString() : whole.error().toString()));
            QCOMPARE(taskJson(*whole), taskJson(suite.tasks[i]));  // sources with quotes and brackets intact
        }
        QVERIFY(!index->loadTask(4));
    }

    void headerAfterTheTasksIsRead()
    {
        // Writers may put the header after "tasks"; the compact form has no line breaks at all.
        const QJsonObject json = toJson(sampleSuite(2), true);
        QByteArray text = "{\"tasks\":" + QJsonDocument(json.value(QLatin1String("tasks")).toArray()).toJson(QJsonDocument::Compact);
        for (const QString &key : json.keys())
            if (key != QLatin1String("tasks"))
                text += ",\"" + key.toUtf8() + "\":" + QJsonDocument(QJsonArray{json.value(key)}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
        text += '}';
        Expected<ResultsIndex> index = ResultsIndex::open(write(text));
        QVERIFY2(index, qPrintable(index ? QString() : index.error().toString()));
        QCOMPARE(index->summary().device, QStringLiteral("NVIDIA H200"));
        QCOMPARE(index->taskCount(), 2);
    }

    void errorsNameTheFileThePathAndTheLine_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("line");
        const QByteArray good = QJsonDocument(toJson(sampleSuite(2), true)).toJson(QJsonDocument::Indented);
        QByteArray badTime = good;
        badTime.replace("\"initial_ms\": 2", "\"initial_ms\": \"fast\"");
        const int badLine = int(badTime.left(badTime.indexOf("\"fast\"")).count('\n')) + 1;
        QTest::newRow("summary field") << badTime << QStringLiteral("tasks[1].initial_ms") << badLine;
        QTest::newRow("cut short") << good.left(good.size() / 2) << QStringLiteral("not valid JSON") << 0;
        QTest::newRow("tasks not an array") << QByteArray("{\"schema\":\"strata.bench\",\"version\":1,\"tasks\":{}}")
                                            << QStringLiteral("results.tasks is not an array") << 1;
        QTest::newRow("no tasks") << QByteArray("{\"schema\":\"strata.bench\",\"version\":1}")
                                  << QStringLiteral("results.tasks is missing") << 0;
        QTest::newRow("not an object") << QByteArray("[1]") << QStringLiteral("not a JSON object") << 1;
    }

    void errorsNameTheFileThePathAndTheLine()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, message);
        QFETCH(int, line);
        const QString path = write(text);
        Expected<ResultsIndex> index = ResultsIndex::open(path);
        QVERIFY(!index);
        QVERIFY2(index.error().file == path && index.error().message.contains(message), qPrintable(index.error().toString()));
        if (line > 0)
            QCOMPARE(index.error().line, line);
    }

    void aBrokenCandidateIsReportedWhenItsTaskLoads()
    {
        const SuiteOutcome suite = sampleSuite(2);
        QByteArray text = QJsonDocument(toJson(suite, true)).toJson(QJsonDocument::Indented);
        const qsizetype at = text.lastIndexOf("\"median_ms\": 0.25");  // the last task's last candidate
        QVERIFY(at > 0);
        text.replace(at, qstrlen("\"median_ms\": 0.25"), "\"median_ms\": -1");
        const QString path = write(text);
        Expected<ResultsIndex> index = ResultsIndex::open(path);
        QVERIFY(index);  // candidates are checked when their task is looked at
        QVERIFY(index->loadTask(0));
        Expected<TaskOutcome> broken = index->loadTask(1);
        QVERIFY(!broken);
        QVERIFY2(broken.error().file == path && broken.error().message.contains(QLatin1String("tasks[1].candidates[2].median_ms")),
                 qPrintable(broken.error().toString()));
    }

    void aReplacedTaskKeepsEveryOtherByte()
    {
        const SuiteOutcome suite = sampleSuite(3);
        const QByteArray before = QJsonDocument(toJson(suite, true)).toJson(QJsonDocument::Indented);
        const QString path = write(before);
        Expected<ResultsIndex> index = ResultsIndex::open(path);
        QVERIFY(index);
        const TaskSpan span = index->span(1);
        TaskOutcome reviewed = *index->loadTask(1);
        reviewed.candidates[2].reviewState = QStringLiteral("accepted");
        QCOMPARE(index->replaceTask(1, reviewed), QString());

        const QByteArray after = read(path);
        QCOMPARE(after.left(span.offset), before.left(span.offset));
        QCOMPARE(after.right(before.size() - span.offset - span.length), before.mid(span.offset + span.length));
        QCOMPARE(index->loadTask(1)->candidates[2].reviewState, QStringLiteral("accepted"));
        QCOMPARE(taskJson(*index->loadTask(2)), taskJson(suite.tasks[2]));  // its span moved with the splice
        Expected<SuiteOutcome> reread = readSuiteOutcomeFile(path);
        QVERIFY(reread);
        QCOMPARE(reread->tasks[1].candidates[2].reviewState, QStringLiteral("accepted"));
        Expected<ResultsIndex> reopened = ResultsIndex::open(path);
        QVERIFY(reopened);
        QCOMPARE(reopened->span(2).line, index->span(2).line);
    }

    void aFileChangedOnDiskIsNeitherReadNorOverwritten()
    {
        const QString path = write(QJsonDocument(toJson(sampleSuite(2), true)).toJson());
        Expected<ResultsIndex> index = ResultsIndex::open(path);
        QVERIFY(index);
        const QByteArray theirs = QJsonDocument(toJson(sampleSuite(1), true)).toJson();
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(theirs);
        file.close();
        QVERIFY(!index->loadTask(0));
        QVERIFY(index->loadTask(0).error().message.contains(QLatin1String("changed on disk")));
        QVERIFY(index->replaceTask(0, sampleSuite(2).tasks[0]).contains(QLatin1String("changed on disk")));
        QCOMPARE(read(path), theirs);
    }

private:
    QString write(const QByteArray &text)
    {
        const QString path = m_dir.filePath(QStringLiteral("results-%1.json").arg(m_files++));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    static QByteArray read(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QTemporaryDir m_dir;
    int m_files = 0;
};

QTEST_GUILESS_MAIN(TestResultsIndex)
#include "tst_results_index.moc"
