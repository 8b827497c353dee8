#include "MachineInfo.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QtGlobal>

#include <cstdio>
#include <cstdlib>

#include <sys/resource.h>
#include <sys/utsname.h>

namespace strata::bench {

QString unameString()
{
    utsname info{};
    if (uname(&info) != 0)
        return {};
    return QStringLiteral("%1 %2 %3 %4").arg(QString::fromLocal8Bit(info.sysname), QString::fromLocal8Bit(info.release),
                                             QString::fromLocal8Bit(info.version), QString::fromLocal8Bit(info.machine));
}

QString cpuModel()
{
    QFile cpuinfo(QStringLiteral("/proc/cpuinfo"));
    if (!cpuinfo.open(QIODevice::ReadOnly))
        return {};
    static const QRegularExpression modelName(QStringLiteral(R"(^model name\s*:\s*(.+)$)"),
                                              QRegularExpression::MultilineOption);
    return modelName.match(QString::fromLocal8Bit(cpuinfo.readAll())).captured(1).trimmed();
}

QString compilerString()
{
#if defined(__clang__)
    return QStringLiteral("Clang ") + QStringLiteral(__clang_version__);
#elif defined(__GNUC__)
    return QStringLiteral("GCC %1.%2.%3").arg(__GNUC__).arg(__GNUC_MINOR__).arg(__GNUC_PATCHLEVEL__);
#else
    return QStringLiteral("unknown");
#endif
}

QString gitCommit(const QString &sourceDir)
{
    QProcess git;
    git.setWorkingDirectory(sourceDir);
    git.start(QStringLiteral("git"), {QStringLiteral("rev-parse"), QStringLiteral("HEAD")});
    if (!git.waitForFinished(5000) || git.exitStatus() != QProcess::NormalExit || git.exitCode() != 0)
        return {};
    return QString::fromLatin1(git.readAllStandardOutput()).trimmed();
}

long peakRssKiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;  // KiB on Linux
}

QJsonObject environmentJson(const QString &sourceDir, const QString &llvmVersion)
{
    const QString commit = gitCommit(sourceDir);
    double load[3] = {0, 0, 0};
    getloadavg(load, 3);  // a busy machine inflates every timing: record how busy it was
    return QJsonObject{
        {QStringLiteral("load_average_1min"), load[0]},
        {QStringLiteral("machine"), unameString()},
        {QStringLiteral("cpu_model"), cpuModel()},
        {QStringLiteral("compiler"), compilerString()},
        {QStringLiteral("qt_version"), QString::fromLatin1(qVersion())},
        {QStringLiteral("llvm_version"), llvmVersion},
        {QStringLiteral("git_commit"), commit.isEmpty() ? QJsonValue() : QJsonValue(commit)},
    };
}

int writeResult(const QString &outDir, const QString &name, const QDateTime &date, const QJsonObject &report)
{
    const QString path = QStringLiteral("%1/%2-%3.json").arg(outDir, name, date.toString(QStringLiteral("yyyy-MM-dd")));
    QDir().mkpath(outDir);
    QFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(QJsonDocument(report).toJson()) < 0) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return 1;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return 0;
}

} // namespace strata::bench
