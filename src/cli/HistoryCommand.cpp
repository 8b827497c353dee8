// strata-cli history: what the store holds, kernel by kernel, newest compile last.
#include "cli/CliCommon.h"
#include "cli/TaskCommon.h"

#include "store/Store.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace strata::cli {

namespace {

QJsonObject compileJson(const CompileRecord &c)
{
    QJsonObject json{{QStringLiteral("id"), c.id},
                     {QStringLiteral("target"), c.target},
                     {QStringLiteral("status"), c.ok ? QStringLiteral("ok") : QStringLiteral("failed")},
                     {QStringLiteral("work_dir"), c.workDir},
                     {QStringLiteral("duration_s"), c.durationSeconds},
                     {QStringLiteral("created"), c.created.toString(Qt::ISODateWithMs)},
                     {QStringLiteral("spec"), c.spec}};
    if (!c.ok)
        json.insert(QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), c.errorMessage},
                                                         {QStringLiteral("file"), c.errorFile},
                                                         {QStringLiteral("line"), c.errorLine}});
    return json;
}

void printCompile(const CompileRecord &c)
{
    out() << "  #" << c.id << "  " << c.created.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
          << "  " << c.target << "  " << (c.ok ? QStringLiteral("ok    ") : QStringLiteral("failed"))
          << "  " << QString::number(c.durationSeconds, 'f', 2) << " s  " << c.workDir << "\n";
    if (!c.ok) {
        const QString where = c.errorFile.isEmpty() ? QString()
                            : c.errorLine > 0 ? QStringLiteral("%1:%2: ").arg(c.errorFile).arg(c.errorLine)
                                              : c.errorFile + QStringLiteral(": ");
        out() << "      " << where << c.errorMessage.section(QLatin1Char('\n'), -1).trimmed() << "\n";
    }
}

} // namespace

int runHistory(const QStringList &argv)
{
    QCommandLineParser parser;
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store file (default: $XDG_DATA_HOME/strata/strata.db)."), QStringLiteral("FILE"));
    const QCommandLineOption kernel(QStringLiteral("kernel"), QStringLiteral("Only kernels with this name."), QStringLiteral("NAME"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption tasks(QStringLiteral("tasks"), QStringLiteral("List the task files and the run/verify/time/profile/ceilings calls instead."));
    parser.addOptions({db, kernel, json, tasks});
    if (const int code = parseOrExit(parser, argv, QStringLiteral("strata-cli history [--db FILE] [--kernel NAME | --tasks] [--json]\n"
                                                                  "Lists the recorded kernels and their compiles, or the tasks and their runs.")); code >= 0)
        return code;
    const QString path = parser.isSet(db) ? parser.value(db) : defaultStorePath();
    if (!QFileInfo::exists(path))
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("no store here (strata-cli compile creates it)")});
    Expected<std::unique_ptr<Store>> store = Store::open(path);
    if (!store)
        return fail(ExitStoreFailed, store.error());
    if (parser.isSet(tasks))
        return printTaskHistory(**store, path, parser.isSet(json));
    Expected<QVector<KernelRecord>> kernels = (*store)->listKernels();
    if (!kernels)
        return fail(ExitStoreFailed, kernels.error());
    QJsonArray kernelsJson;
    for (const KernelRecord &k : *kernels) {
        if (parser.isSet(kernel) && k.kernelName != parser.value(kernel))
            continue;
        Expected<QVector<CompileRecord>> compiles = (*store)->compilesForKernel(k.id);
        if (!compiles)
            return fail(ExitStoreFailed, compiles.error());
        QJsonArray compilesJson;
        if (!parser.isSet(json))
            out() << k.kernelName << "  " << k.sourcePath << "  (source " << k.sourceSha256.left(12) << ")\n";
        for (const CompileRecord &c : *compiles) {
            if (parser.isSet(json))
                compilesJson.append(compileJson(c));
            else
                printCompile(c);
        }
        kernelsJson.append(QJsonObject{{QStringLiteral("id"), k.id},
                                       {QStringLiteral("kernel"), k.kernelName},
                                       {QStringLiteral("source_path"), k.sourcePath},
                                       {QStringLiteral("source_sha256"), k.sourceSha256},
                                       {QStringLiteral("compiles"), compilesJson}});
    }
    if (parser.isSet(json))
        out() << QJsonDocument(QJsonObject{{QStringLiteral("store"), path}, {QStringLiteral("kernels"), kernelsJson}})
                     .toJson(QJsonDocument::Indented);
    out().flush();
    return ExitOk;
}

} // namespace strata::cli
