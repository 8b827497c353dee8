#include "trace/TraceImport.h"

#include "trace/TraceSpec.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace strata::trace {

namespace {

Expected<QJsonObject> writeArtifact(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        return ReadError{path, 0, 0, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return QJsonObject{{QStringLiteral("path"), QFileInfo(path).fileName()},
                       {QStringLiteral("size"), qint64(bytes.size())},
                       {QStringLiteral("sha256"), QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex())}};
}

QJsonObject launchesJson(const TraceLaunches &launches)
{
    QJsonArray grid;
    for (const qint64 dim : launches.grid)
        grid.append(dim);
    return {{QStringLiteral("count"), launches.count},
            {QStringLiteral("autotune_benchmark_count"), launches.benchmarkCount},
            {QStringLiteral("grid"), grid},
            {QStringLiteral("args"), launches.args},
            {QStringLiteral("first_line"), launches.firstLine}};
}

} // namespace

QJsonObject kernelJson(const TraceKernel &kernel)
{
    return {{QStringLiteral("label"), kernel.label},
            {QStringLiteral("name"), kernel.name},
            {QStringLiteral("hash"), kernel.hash},
            {QStringLiteral("line"), kernel.line},
            {QStringLiteral("target"), kernel.target},
            {QStringLiteral("num_warps"), kernel.numWarps},
            {QStringLiteral("num_stages"), kernel.numStages},
            {QStringLiteral("config"), kernel.config},
            {QStringLiteral("stages"), QJsonArray::fromStringList(kernel.stages)},
            {QStringLiteral("source_file"), kernel.sourceFile},
            {QStringLiteral("whole_file_source"), kernel.wholeFileSource},
            {QStringLiteral("cache_hit"), kernel.cacheHit},
            {QStringLiteral("spec"), kernel.spec},
            {QStringLiteral("spec_problem"), kernel.specProblem},
            {QStringLiteral("launches"), launchesJson(kernel.launches)},
            {QStringLiteral("autotune"), QJsonObject{{QStringLiteral("benchmarked"), kernel.autotuneBenchmarked},
                                                     {QStringLiteral("winner"), kernel.autotuneWinner}}}};
}

namespace {

// Seconds from metadata.times (microseconds): IR initialisation plus every lowering stage.
double compileSeconds(const QJsonObject &metadata)
{
    const QJsonObject times = metadata.value(QStringLiteral("times")).toObject();
    double micros = times.value(QStringLiteral("ir_initialization")).toDouble();
    for (const QJsonValue &stage : times.value(QStringLiteral("lowering_stages")).toArray())
        micros += stage.toArray().at(1).toDouble();
    return micros / 1e6;
}

} // namespace

QString sourceFileText(const QJsonObject &pythonSource)
{
    const QString code = pythonSource.value(QStringLiteral("code")).toString();
    const int startLine = pythonSource.value(QStringLiteral("start_line")).toInt(1);
    if (startLine <= 1)
        return code;
    // Blank lines up to the function keep its line numbers; the imports (when there is room) let
    // the agent recompile it for counterfactuals. Helpers outside the function are not in the trace.
    QStringList padding(startLine - 1, QString());
    if (padding.size() >= 2) {
        padding[0] = QStringLiteral("import triton");
        padding[1] = QStringLiteral("import triton.language as tl");
    }
    return padding.join(u'\n') + u'\n' + code;
}

Expected<CompileResult> importKernel(const TraceIndex &trace, int kernelIndex, const QString &outDir)
{
    if (kernelIndex < 0 || kernelIndex >= trace.kernels.size())
        return ReadError{trace.path, 0, 0, QStringLiteral("no kernel %1 in this trace").arg(kernelIndex)};
    const TraceKernel &kernel = trace.kernels[kernelIndex];
    Expected<QJsonObject> event = readTraceEvent(trace.path, kernel.line);
    if (!event)
        return event.error();
    const QJsonObject payload = event->value(QStringLiteral("payload")).toObject();
    const QJsonObject metadata = payload.value(QStringLiteral("metadata")).toObject();
    if (!QDir().mkpath(outDir))
        return ReadError{outDir, 0, 0, QStringLiteral("cannot create the folder for the imported kernel")};
    const QDir dir(outDir);

    QJsonObject artifacts;
    Expected<QJsonObject> source = writeArtifact(dir.filePath(QStringLiteral("source.py")),
                                                 sourceFileText(payload.value(QStringLiteral("python_source")).toObject()).toUtf8());
    if (!source)
        return source.error();
    artifacts.insert(QStringLiteral("source"), *source);
    const QJsonObject files = payload.value(QStringLiteral("file_content")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString stage = QFileInfo(it.key()).suffix();
        if (stage.isEmpty() || stage == QLatin1String("json") || stage == QLatin1String("source") || !it.value().isString())
            continue;
        Expected<QJsonObject> written = writeArtifact(dir.filePath(kernel.name + u'.' + stage), it.value().toString().toUtf8());
        if (!written)
            return written.error();
        artifacts.insert(stage, *written);
    }
    QJsonObject recorded = metadata;
    QJsonObject origin = kernelJson(kernel);
    origin.insert(QStringLiteral("trace"), QFileInfo(trace.path).absoluteFilePath());
    recorded.insert(QStringLiteral("tritonparse"), origin);
    const QJsonObject compileJson{{QStringLiteral("kernel"), kernel.name},
                                  {QStringLiteral("source_path"), kernel.sourceFile},
                                  {QStringLiteral("target"), kernel.target},
                                  {QStringLiteral("work_dir"), QStringLiteral(".")},
                                  {QStringLiteral("spec"), kernel.spec},
                                  {QStringLiteral("duration_s"), compileSeconds(metadata)},
                                  {QStringLiteral("artifacts"), artifacts},
                                  {QStringLiteral("pass_dumps"), QJsonArray()},
                                  {QStringLiteral("remarks"), QJsonArray()},
                                  {QStringLiteral("ptxas"), QJsonObject{{QStringLiteral("registers"), QJsonValue()}}},
                                  {QStringLiteral("metadata"), recorded}};
    const QString jsonPath = dir.filePath(QStringLiteral("compile.json"));
    if (Expected<QJsonObject> written = writeArtifact(jsonPath, QJsonDocument(compileJson).toJson(QJsonDocument::Indented)); !written)
        return written.error();
    return readCompileResultFile(jsonPath);
}

} // namespace strata::trace
