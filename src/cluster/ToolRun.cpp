#include "cluster/ToolRun.h"

#include <QProcess>
#include <QStandardPaths>

namespace strata::cluster {

QString commandLine(const QString &program, const QStringList &arguments)
{
    return (QStringList{program} + arguments).join(u' ');
}

Expected<QString> runTool(const QString &program, const QStringList &arguments, int timeoutMs)
{
    const QString command = commandLine(program, arguments);
    auto failure = [&command](const QString &why) { return ReadError{command, 0, 0, why}; };
    if (QStandardPaths::findExecutable(program).isEmpty() && !program.contains(u'/'))
        return failure(QStringLiteral("%1 is not on PATH (is Slurm installed on this machine?)").arg(program));
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForStarted())
        return failure(QStringLiteral("could not start %1: %2").arg(program, process.errorString()));
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return failure(QStringLiteral("%1 gave no answer within %2 s").arg(program).arg(timeoutMs / 1000));
    }
    const QString errors = QString::fromUtf8(process.readAllStandardError()).trimmed();
    if (process.exitStatus() != QProcess::NormalExit)
        return failure(QStringLiteral("%1 crashed%2").arg(program, errors.isEmpty() ? QString() : QStringLiteral(": ") + errors));
    if (process.exitCode() != 0)
        return failure(QStringLiteral("%1 exited with status %2%3")
                           .arg(program)
                           .arg(process.exitCode())
                           .arg(errors.isEmpty() ? QString() : QStringLiteral(": ") + errors));
    return QString::fromUtf8(process.readAllStandardOutput());
}

} // namespace strata::cluster
