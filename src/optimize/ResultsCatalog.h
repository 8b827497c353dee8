#pragma once
// Which bench results file to open when a user names a folder of them (bench/results): the newest
// complete one. Completeness is the file's own "coverage" field (whole or merged), never its name;
// a part is opened only when a folder holds nothing complete, and the choice says so.
#include "core/Expected.h"
#include "optimize/Outcome.h"

#include <QString>
#include <QStringList>

namespace strata::optimize {

struct ResultsChoice {
    QString path;
    Coverage coverage = Coverage::Unknown;
    int tasks = 0;
    QDateTime date;
    QStringList skipped;  // "file: why" for each JSON file of the folder that is not a results file
    // "hopper-core-H200-2026-12-02-merged.json (merged, 48 tasks, 2026-12-02T01:14:13Z)"
    QString describe() const;
};

// The newest complete results in folder (newest by the file's "date"; ties: more tasks), else the
// newest of any coverage with a note in skipped. An error when the folder holds no results file.
Expected<ResultsChoice> newestResults(const QString &folder);

// A path that may be a results file or a folder of them: the file itself, or newestResults().
Expected<QString> resolveResultsPath(const QString &path, QString *note = nullptr);

} // namespace strata::optimize
