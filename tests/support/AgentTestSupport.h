#pragma once
// What tests that start the real agent share: which python runs it, and whether that python can
// import what the test needs (the test then skips with this reason instead of failing).
#include <QFileInfo>
#include <QProcess>
#include <QString>

namespace strata::testing {

// $STRATA_PYTHON (ctest sets it to the project's .venv), else .venv/bin/python, else python3:
// the same order as LocalProcessTransport::defaultPython(), without linking the host library.
inline QString agentPython()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_PYTHON");
    if (!fromEnv.isEmpty())
        return fromEnv;
    const QString venv = QStringLiteral(STRATA_SOURCE_DIR "/.venv/bin/python");
    return QFileInfo(venv).isExecutable() ? venv : QStringLiteral("python3");
}

// True when `python -c "import <modules>"` succeeds; else `why` says what failed.
inline bool pythonImports(const QString &modules, QString *why)
{
    QProcess probe;
    probe.start(agentPython(), {QStringLiteral("-c"), QStringLiteral("import ") + modules});
    if (probe.waitForFinished(60000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
        return true;
    *why = QStringLiteral("%1 is not importable by %2 (set STRATA_PYTHON): %3")
               .arg(modules, agentPython(), QString::fromUtf8(probe.readAllStandardError()).trimmed().right(300));
    return false;
}

} // namespace strata::testing
