// strata-cli trace: lists the kernels a tritonparse trace compiled and writes any of them as a
// compile folder; map and diagnose read a trace + --kernel through importTraceKernel().
#include "cli/CliCommon.h"
#include "host/PluginRegistry.h"

#include "trace/TraceImport.h"
#include "trace/TritonParseTrace.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace strata::cli {

namespace {

const char *const kUsage =
    "strata-cli trace TRACE [--list] [--json]\n"
    "strata-cli trace TRACE --kernel NAME --out DIR [--json]\n"
    "strata-cli trace TRACE --all --out DIR\n"
    "Reads a tritonparse trace (.ndjson, .bin.ndjson, .ndjson.gz; plain, gzip or zstd) and lists\n"
    "every kernel it compiled: target, config (constexprs, num_warps, num_stages), IR stages,\n"
    "launches and grid, autotune role. --kernel writes one as a compile folder (what `map`,\n"
    "`diagnose` and the app read); NAME is a kernel name, NAME#N for the N-th compile of it, or a\n"
    "hash prefix. --all writes every kernel to DIR/<label>/.";

QString gridText(const QVector<qint64> &grid)
{
    QStringList dims;
    for (const qint64 dim : grid)
        dims << QString::number(dim);
    return dims.isEmpty() ? QStringLiteral("-") : dims.join(u'x');
}

QString autotuneText(const trace::TraceKernel &kernel)
{
    if (kernel.autotuneWinner)
        return QStringLiteral("winner");
    return kernel.autotuneBenchmarked ? QStringLiteral("benchmarked") : QString();
}

void printList(const trace::TraceIndex &index)
{
    out() << "Trace " << index.path << ": " << index.kernels.size() << " compiled kernels, " << index.launchEvents
          << " launches, " << index.lines << " lines\n";
    out() << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7\n")
                 .arg(QStringLiteral("kernel"), -24).arg(QStringLiteral("target"), -7).arg(QStringLiteral("config"), -40)
                 .arg(QStringLiteral("stages"), -26).arg(QStringLiteral("launches"), -9).arg(QStringLiteral("grid"), -9)
                 .arg(QStringLiteral("autotune"));
    for (const trace::TraceKernel &kernel : index.kernels) {
        QString launches = QString::number(kernel.launches.count);
        if (kernel.launches.benchmarkCount > 0)
            launches += QStringLiteral("+%1b").arg(kernel.launches.benchmarkCount);
        out() << QStringLiteral("  %1 %2 %3 %4 %5 %6 %7\n")
                     .arg(kernel.label, -24).arg(kernel.target, -7).arg(kernel.configText(), -40)
                     .arg(kernel.stages.join(u' '), -26).arg(launches, -9).arg(gridText(kernel.launches.grid), -9)
                     .arg(autotuneText(kernel));
        if (!kernel.specProblem.isEmpty())
            out() << "      no spec: " << kernel.specProblem << "\n";
    }
    if (index.launchEvents == 0)
        out() << "No launch events: the trace was recorded without launch tracing (or on a machine without a GPU).\n";
    for (const QString &note : index.notes)
        out() << "Note: " << note << "\n";
}

QJsonObject listJson(const trace::TraceIndex &index)
{
    QJsonArray kernels;
    for (const trace::TraceKernel &kernel : index.kernels)
        kernels.append(trace::kernelJson(kernel));
    return {{QStringLiteral("schema"), QStringLiteral("strata.trace")},
            {QStringLiteral("version"), 1},
            {QStringLiteral("trace"), QFileInfo(index.path).absoluteFilePath()},
            {QStringLiteral("lines"), index.lines},
            {QStringLiteral("compilation_events"), index.compilationEvents},
            {QStringLiteral("launch_events"), index.launchEvents},
            {QStringLiteral("other_events"), index.otherEvents},
            {QStringLiteral("kernels"), kernels},
            {QStringLiteral("notes"), QJsonArray::fromStringList(index.notes)}};
}

int writeAll(const trace::TraceIndex &index, const QString &outDir)
{
    for (int i = 0; i < index.kernels.size(); ++i) {
        const QString dir = QDir(outDir).filePath(index.kernels[i].label);
        Expected<CompileResult> result = trace::importKernel(index, i, dir);
        if (!result)
            return fail(ExitBadInput, result.error());
        out() << index.kernels[i].label << " -> " << dir << "\n";
    }
    return ExitOk;
}

} // namespace

trace::TargetNamer targetNamer(const PluginRegistry &plugins)
{
    return [&plugins](const QJsonObject &tritonTarget) { return plugins.targetFromTriton(tritonTarget); };
}

Expected<QString> importTraceKernel(const QString &tracePath, const QString &selector, const QString &outDir,
                                    const PluginRegistry &plugins)
{
    Expected<trace::TraceIndex> index = trace::readTrace(tracePath, targetNamer(plugins));
    if (!index)
        return index.error();
    Expected<int> chosen = trace::findKernel(*index, selector);
    if (!chosen)
        return chosen.error();
    Expected<CompileResult> result = trace::importKernel(*index, *chosen, outDir);
    if (!result)
        return result.error();
    return QDir(outDir).filePath(QStringLiteral("compile.json"));
}

bool isTracePath(const QString &path)
{
    return trace::looksLikeTrace(path);
}

int runTrace(const QStringList &argv)
{
    QCommandLineParser parser;
    const QCommandLineOption list(QStringLiteral("list"), QStringLiteral("List the compiled kernels (the default)."));
    const QCommandLineOption kernel(QStringLiteral("kernel"), QStringLiteral("The kernel to write: NAME, NAME#N or a hash prefix."), QStringLiteral("NAME"));
    const QCommandLineOption all(QStringLiteral("all"), QStringLiteral("Write every kernel, each to DIR/<label>/."));
    const QCommandLineOption outDir(QStringLiteral("out"), QStringLiteral("Folder for the compile (created if missing)."), QStringLiteral("DIR"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON: the kernel list, or the written compile result."));
    parser.addOptions({list, kernel, all, outDir, json});
    parser.addPositionalArgument(QStringLiteral("TRACE"), QStringLiteral("A tritonparse trace."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(kUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("trace takes exactly one TRACE file (see --help)"));
    const bool writes = parser.isSet(kernel) || parser.isSet(all);
    if (writes && !parser.isSet(outDir))
        return fail(ExitUsage, QStringLiteral("--kernel and --all need --out DIR"));
    if (parser.isSet(kernel) && parser.isSet(all))
        return fail(ExitUsage, QStringLiteral("--kernel and --all exclude each other"));
    const QString path = parser.positionalArguments().first();
    if (!QFileInfo(path).isFile())
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("no such trace file")});
    const std::unique_ptr<PluginRegistry> plugins = loadPlugins(false);
    Expected<trace::TraceIndex> index = trace::readTrace(path, targetNamer(*plugins));
    if (!index)
        return fail(ExitBadInput, index.error());
    if (parser.isSet(all))
        return writeAll(*index, parser.value(outDir));
    if (!parser.isSet(kernel)) {
        if (parser.isSet(json))
            out() << QJsonDocument(listJson(*index)).toJson(QJsonDocument::Indented);
        else
            printList(*index);
        return ExitOk;
    }
    Expected<int> chosen = trace::findKernel(*index, parser.value(kernel));
    if (!chosen)
        return fail(ExitBadInput, chosen.error());
    const QString dir = QFileInfo(parser.value(outDir)).absoluteFilePath();
    Expected<CompileResult> result = trace::importKernel(*index, *chosen, dir);
    if (!result)
        return fail(ExitBadInput, result.error());
    if (parser.isSet(json)) {
        out() << QJsonDocument(toJson(*result)).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    const trace::TraceKernel &picked = index->kernels[*chosen];
    out() << "Wrote " << picked.label << " (" << picked.configText() << ", " << picked.target << ") -> " << dir << "\n"
          << "Stages: " << result->artifacts.keys().join(u' ') << "\n";
    if (!picked.specProblem.isEmpty())
        out() << "No spec (" << picked.specProblem << "): L1 launch rules and recompiles are off for it.\n";
    return ExitOk;
}

} // namespace strata::cli
