#include "optimize/ResultsCatalog.h"

#include "optimize/OutcomeJson.h"

#include <QDir>
#include <QFileInfo>

namespace strata::optimize {

namespace {

// Complete before part/unknown, then newer, then more tasks.
bool preferred(const ResultsChoice &a, const ResultsChoice &b)
{
    if (isComplete(a.coverage) != isComplete(b.coverage))
        return isComplete(a.coverage);
    if (a.date != b.date)
        return a.date > b.date;
    return a.tasks > b.tasks;
}

} // namespace

QString ResultsChoice::describe() const
{
    return QStringLiteral("%1 (%2, %3 tasks, %4)")
        .arg(QFileInfo(path).fileName(), coverageName(coverage))
        .arg(tasks)
        .arg(date.toUTC().toString(Qt::ISODate));
}

Expected<ResultsChoice> newestResults(const QString &folder)
{
    const QDir dir(folder);
    if (!dir.exists())
        return ReadError{folder, 0, 0, QStringLiteral("no such folder")};
    std::optional<ResultsChoice> best;
    QStringList skipped;
    for (const QFileInfo &file : dir.entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        Expected<SuiteOutcome> suite = readSuiteOutcomeFile(file.filePath());
        if (!suite) {
            skipped.append(QStringLiteral("%1: %2").arg(file.fileName(), suite.error().message));
            continue;
        }
        ResultsChoice candidate{file.filePath(), suite->coverage, int(suite->tasks.size()), suite->date, {}};
        if (!best || preferred(candidate, *best))
            best = candidate;
    }
    if (!best)
        return ReadError{folder, 0, 0, QStringLiteral("no bench results file (schema strata.bench) in the folder")};
    best->skipped = skipped;
    return *best;
}

Expected<QString> resolveResultsPath(const QString &path, QString *note)
{
    if (!QFileInfo(path).isDir())
        return path;
    Expected<ResultsChoice> choice = newestResults(path);
    if (!choice)
        return choice.error();
    if (note) {
        *note = isComplete(choice->coverage)
            ? QStringLiteral("newest complete results in %1: %2").arg(path, choice->describe())
            : QStringLiteral("no complete results in %1; opened the newest part: %2").arg(path, choice->describe());
    }
    return choice->path;
}

} // namespace strata::optimize
