#pragma once
// Runs strata-cli (or another program) as the CLI tests do: its exit code and both streams, a
// kill after `timeoutMs` said in `err`, and a one-string description for failure messages.
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace strata::testing {

struct CliRun {
    int exitCode = -1;  // -2: it crashed; -1: it did not finish
    QString out, err;
};

inline CliRun runProgram(const QString &program, const QStringList &args, int timeoutMs,
                         const QProcessEnvironment &env = QProcessEnvironment::systemEnvironment())
{
    QProcess process;
    process.setProcessEnvironment(env);
    process.start(program, args);
    CliRun run;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        run.err = QStringLiteral("%1 did not finish within the test's timeout").arg(program);
        return run;
    }
    run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2;
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

inline QString describe(const CliRun &run)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(run.exitCode).arg(run.out.left(4000), run.err.left(2000));
}

} // namespace strata::testing
