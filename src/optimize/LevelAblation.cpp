#include "optimize/LevelAblation.h"

#include "store/Store.h"

#include <QElapsedTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QTextStream>

#include <algorithm>

namespace strata::optimize {

using diagnosis::Level;

std::optional<Level> levelOfFinding(const QString &ruleId)
{
    if (const std::optional<Level> level = diagnosis::levelFromName(ruleId.section(u'.', 0, 0)); level && ruleId.contains(u'.'))
        return level;
    // The recipes' own triggers: "source: serial running-sum loop", "launch: fewer than 2
    // programs per SM" are read from the source and the captured launch (what L1 triage sees);
    // "timing: memory-bound" needs the measured time (L2).
    if (ruleId.startsWith(QLatin1String("source:")) || ruleId.startsWith(QLatin1String("launch:")))
        return Level::L1;
    if (ruleId.startsWith(QLatin1String("timing:")))
        return Level::L2;
    return std::nullopt;
}

std::optional<Level> bestFromLevel(const TaskOutcome &task)
{
    std::optional<Level> deepest;
    for (const QString &rule : task.winningFindings) {
        const std::optional<Level> level = levelOfFinding(rule);
        if (level && (!deepest || int(*level) > int(*deepest)))
            deepest = level;
    }
    return deepest;
}

QString pathForLevel(const QString &path, Level level)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().isEmpty() ? QString() : u'.' + info.suffix();
    return info.dir().filePath(QStringLiteral("%1-%2%3").arg(info.completeBaseName(), diagnosis::levelName(level), suffix));
}

QString workDirForLevel(const QString &workDir, Level level)
{
    return workDir + u'/' + diagnosis::levelName(level);
}

namespace {

qint64 suiteTokens(const SuiteOutcome &suite)
{
    qint64 tokens = 0;
    for (const TaskOutcome &task : suite.tasks)
        tokens += task.tokens;
    return tokens;
}

int improvedTasks(const SuiteOutcome &suite)
{
    return int(std::count_if(suite.tasks.begin(), suite.tasks.end(),
                             [](const TaskOutcome &task) { return task.status == QLatin1String("improved"); }));
}

QJsonValue levelValue(const std::optional<Level> &level)
{
    return level ? QJsonValue(int(*level)) : QJsonValue(QJsonValue::Null);
}

} // namespace

std::optional<double> Ablation::marginalGeomean(int index) const
{
    if (index <= 0 || index >= runs.size() || runs[index - 1].suite.geomeanSpeedup() <= 0)
        return std::nullopt;
    return runs[index].suite.geomeanSpeedup() / runs[index - 1].suite.geomeanSpeedup();
}

QJsonObject Ablation::toJson() const
{
    QJsonArray levels;
    for (int index = 0; index < runs.size(); ++index) {
        const LevelRun &run = runs[index];
        const std::optional<double> marginal = marginalGeomean(index);
        QJsonArray tasks;
        for (const TaskOutcome &task : run.suite.tasks) {
            const std::optional<double> speedup = task.speedup();
            tasks.append(QJsonObject{{QStringLiteral("task"), task.taskId},
                                     {QStringLiteral("status"), task.status},
                                     {QStringLiteral("speedup"), speedup ? QJsonValue(*speedup) : QJsonValue(QJsonValue::Null)},
                                     {QStringLiteral("best_from_level"), levelValue(bestFromLevel(task))},
                                     {QStringLiteral("winning_findings"), QJsonArray::fromStringList(task.winningFindings)}});
        }
        levels.append(QJsonObject{{QStringLiteral("max_level"), int(run.maxLevel)},
                                  {QStringLiteral("geomean_speedup"), run.suite.geomeanSpeedup()},
                                  {QStringLiteral("marginal_geomean"), marginal ? QJsonValue(*marginal) : QJsonValue(QJsonValue::Null)},
                                  {QStringLiteral("geomean_vs_best_baseline"), run.suite.geomeanVsBestBaseline()},
                                  {QStringLiteral("wall_s"), run.wallSeconds},
                                  {QStringLiteral("tokens"), suiteTokens(run.suite)},
                                  {QStringLiteral("improved"), improvedTasks(run.suite)},
                                  {QStringLiteral("failures"), run.suite.failures()},
                                  {QStringLiteral("coverage"), coverageName(run.suite.coverage)},
                                  {QStringLiteral("results"), run.resultsPath},
                                  {QStringLiteral("tasks"), tasks}});
    }
    const SuiteOutcome *first = runs.isEmpty() ? nullptr : &runs.first().suite;
    return QJsonObject{{QStringLiteral("schema"), QString::fromLatin1(kAblationSchema)},
                       {QStringLiteral("version"), kAblationVersion},
                       {QStringLiteral("suite"), first ? first->suite : QString()},
                       {QStringLiteral("device"), first ? first->device : QString()},
                       {QStringLiteral("triton"), first ? first->triton : QString()},
                       {QStringLiteral("torch"), first ? first->torch : QString()},
                       {QStringLiteral("commit"), first ? first->commit : QString()},
                       {QStringLiteral("date"), first ? first->date.toUTC().toString(Qt::ISODate) : QString()},
                       {QStringLiteral("levels"), levels}};
}

QString Ablation::table() const
{
    QString text;
    QTextStream out(&text);
    out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n").arg(QStringLiteral("max level"), -10).arg(QStringLiteral("geomean"), 8)
               .arg(QStringLiteral("marginal"), 9).arg(QStringLiteral("vs best baseline"), 17).arg(QStringLiteral("improved"), 9)
               .arg(QStringLiteral("wall s"), 8).arg(QStringLiteral("tokens"), 8);
    for (int index = 0; index < runs.size(); ++index) {
        const LevelRun &run = runs[index];
        const std::optional<double> marginal = marginalGeomean(index);
        out << QStringLiteral("%1 %2 %3 %4 %5 %6 %7\n").arg(diagnosis::levelName(run.maxLevel), -10)
                   .arg(QStringLiteral("%1x").arg(run.suite.geomeanSpeedup(), 0, 'f', 2), 8)
                   .arg(marginal ? QStringLiteral("%1x").arg(*marginal, 0, 'f', 3) : QStringLiteral("-"), 9)
                   .arg(QStringLiteral("%1x").arg(run.suite.geomeanVsBestBaseline(), 0, 'f', 2), 17)
                   .arg(QStringLiteral("%1/%2").arg(improvedTasks(run.suite)).arg(run.suite.tasks.size()), 9)
                   .arg(run.wallSeconds, 8, 'f', 0).arg(suiteTokens(run.suite), 8);
    }
    if (!runs.isEmpty()) {
        out << "\nthe level whose findings each task's winning rewrites acted on (deepest), per cap:\n";
        const SuiteOutcome &last = runs.last().suite;
        for (int i = 0; i < last.tasks.size(); ++i) {
            out << QStringLiteral("  %1").arg(last.tasks[i].taskId.left(28), -28);
            for (const LevelRun &run : runs) {
                const TaskOutcome *task = i < run.suite.tasks.size() ? &run.suite.tasks[i] : nullptr;
                const std::optional<Level> level = task ? bestFromLevel(*task) : std::nullopt;
                const std::optional<double> speedup = task ? task->speedup() : std::nullopt;
                out << QStringLiteral("  %1: %2 %3").arg(diagnosis::levelName(run.maxLevel))
                           .arg(speedup ? QStringLiteral("%1x").arg(*speedup, 0, 'f', 2) : QStringLiteral("-"), 6)
                           .arg(level ? diagnosis::levelName(*level) : QStringLiteral("--"));
            }
            out << "\n";
        }
    }
    return text;
}

Expected<Ablation> runLevelAblation(const BenchSetup &setup, const std::function<void(LevelRun &run)> &finished)
{
    Ablation ablation;
    for (int cap = 1; cap <= int(setup.options.maxLevel); ++cap) {
        if (setup.cancel && *setup.cancel)
            break;
        const Level level = Level(cap);
        BenchSetup capped = setup;
        capped.options.maxLevel = level;
        capped.storePath = pathForLevel(setup.storePath, level);
        capped.options.workDir = workDirForLevel(setup.options.workDir, level);
        if (setup.progress)
            setup.progress(QStringLiteral("ablation: the suite with the ladder capped at %1 (store %2)")
                               .arg(diagnosis::levelName(level), capped.storePath));
        Expected<std::unique_ptr<Store>> store = Store::open(capped.storePath);  // migrated before the workers open it
        if (!store)
            return store.error();
        store->reset();
        QElapsedTimer clock;
        clock.start();
        Expected<SuiteOutcome> suite = runSuite(capped);
        if (!suite)
            return suite.error();
        LevelRun run{level, std::move(*suite), clock.elapsed() / 1000.0, {}};
        if (finished)
            finished(run);
        ablation.runs.append(std::move(run));
    }
    return ablation;
}

} // namespace strata::optimize
