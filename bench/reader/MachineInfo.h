#pragma once
// What a benchmark result needs to be comparable later: where, with what, from which commit.
#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace strata::bench {

QString unameString();         // "Linux 6.1.0 x86_64"
QString cpuModel();            // /proc/cpuinfo "model name", empty when unknown
QString compilerString();      // "GCC 12.2.0"
QString gitCommit(const QString &sourceDir);  // empty when not a git checkout or git is missing
long peakRssKiB();             // getrusage(RUSAGE_SELF).ru_maxrss

// All of the above plus Qt and LLVM versions, as one JSON object.
QJsonObject environmentJson(const QString &sourceDir, const QString &llvmVersion);

// Writes `report` to <outDir>/<name>-<yyyy-MM-dd of date>.json and says so on stdout; on failure
// says why on stderr. Returns the process exit code to use (0 or 1).
int writeResult(const QString &outDir, const QString &name, const QDateTime &date, const QJsonObject &report);

} // namespace strata::bench
