#include "trace/TritonParseTrace.h"

#include "trace/TraceLines.h"
#include "trace/TraceSpec.h"

#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace strata::trace {

namespace {

const QLatin1String kAutotunerFile("triton/runtime/autotuner.py");

bool hasAutotunerFrame(const QJsonArray &stack, QLatin1String function)
{
    for (const QJsonValue &frame : stack) {
        const QJsonObject object = frame.toObject();
        if (object.value(QStringLiteral("filename")).toString().contains(kAutotunerFile)
            && object.value(QStringLiteral("name")).toString() == function)
            return true;
    }
    return false;
}

// Stage ids of the IR files in file_content: "add_kernel.ttgir" -> "ttgir"; the metadata .json
// and the binaries tritonparse leaves out of file_content are no stages.
QStringList stagesOf(const QJsonObject &fileContent)
{
    static const QStringList pipeline{QStringLiteral("ttir"), QStringLiteral("ttgir"), QStringLiteral("llir"),
                                      QStringLiteral("ptx"), QStringLiteral("amdgcn"), QStringLiteral("sass")};
    QStringList stages;
    for (auto it = fileContent.begin(); it != fileContent.end(); ++it) {
        const QString suffix = QFileInfo(it.key()).suffix();
        if (!suffix.isEmpty() && suffix != QLatin1String("json") && it.value().isString())
            stages.append(suffix);
    }
    std::stable_sort(stages.begin(), stages.end(), [](const QString &a, const QString &b) {
        const auto rank = [](const QString &stage) { return pipeline.contains(stage) ? pipeline.indexOf(stage) : pipeline.size(); };
        return rank(a) < rank(b);
    });
    return stages;
}

QVector<qint64> gridOf(const QJsonValue &value)
{
    QVector<qint64> grid;
    for (const QJsonValue &dim : value.toArray())
        grid.append(dim.toInteger());
    return grid;
}

class TraceIndexer {
public:
    TraceIndexer(QString path, TargetNamer namer) : m_namer(std::move(namer)) { m_index.path = std::move(path); }

    std::optional<ReadError> visit(int line, const QByteArray &text);
    TraceIndex finish(int lines);

private:
    ReadError errorAt(int line, const QString &message) const { return ReadError{m_index.path, line, 0, message}; }
    std::optional<ReadError> readCompilation(int line, const QJsonObject &event);
    std::optional<ReadError> readLaunch(int line, const QJsonObject &event);
    void readAutotuneAnalysis(const QJsonObject &event);
    void attachLaunch(TraceKernel &kernel, int line, const QJsonObject &event, bool benchmark);

    TraceIndex m_index;
    TargetNamer m_namer;
    QHash<QString, int> m_byHash;
    QHash<QString, QVector<QPair<int, QJsonObject>>> m_earlyLaunches;  // launches seen before their compile
    QStringList m_winners;
    int m_gridlessLaunches = 0;
};

std::optional<ReadError> TraceIndexer::visit(int line, const QByteArray &text)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return errorAt(line, QStringLiteral("not a JSON line (%1 at byte %2); is this a tritonparse trace?")
                                 .arg(parseError.errorString()).arg(parseError.offset));
    const QJsonObject event = doc.object();
    const QString type = event.value(QStringLiteral("event_type")).toString();
    if (!doc.isObject() || type.isEmpty())
        return errorAt(line, QStringLiteral("not a tritonparse event: no \"event_type\""));
    if (type == QLatin1String("compilation"))
        return readCompilation(line, event);
    if (type == QLatin1String("launch"))
        return readLaunch(line, event);
    if (type == QLatin1String("autotune_analysis"))
        readAutotuneAnalysis(event);
    ++m_index.otherEvents;
    return std::nullopt;
}

std::optional<ReadError> TraceIndexer::readCompilation(int line, const QJsonObject &event)
{
    ++m_index.compilationEvents;
    const QJsonObject payload = event.value(QStringLiteral("payload")).toObject();
    const QJsonObject metadata = payload.value(QStringLiteral("metadata")).toObject();
    const QJsonValue fileContent = payload.value(QStringLiteral("file_content"));
    for (const auto &[key, present] : {std::pair{"payload.metadata.name", metadata.value(QStringLiteral("name")).isString()},
                                       std::pair{"payload.metadata.hash", metadata.value(QStringLiteral("hash")).isString()},
                                       std::pair{"payload.metadata.target", metadata.value(QStringLiteral("target")).isObject()},
                                       std::pair{"payload.file_content", fileContent.isObject()}})
        if (!present)
            return errorAt(line, QStringLiteral("compilation event lacks %1").arg(QLatin1String(key)));
    TraceKernel kernel;
    kernel.line = line;
    kernel.name = metadata.value(QStringLiteral("name")).toString();
    kernel.hash = metadata.value(QStringLiteral("hash")).toString();
    if (m_byHash.contains(kernel.hash)) {
        m_index.notes << QStringLiteral("line %1: %2 compiled again with the same hash (kept line %3)")
                             .arg(line).arg(kernel.name).arg(m_index.kernels[m_byHash[kernel.hash]].line);
        return std::nullopt;
    }
    kernel.target = targetName(metadata, m_namer);
    kernel.numWarps = metadata.value(QStringLiteral("num_warps")).toInt();
    kernel.numStages = metadata.value(QStringLiteral("num_stages")).toInt();
    kernel.cacheHit = metadata.value(QStringLiteral("cache_hit")).toBool();
    kernel.stages = stagesOf(fileContent.toObject());
    const QJsonObject source = payload.value(QStringLiteral("python_source")).toObject();
    kernel.sourceFile = source.value(QStringLiteral("file_path")).toString();
    kernel.wholeFileSource = source.value(QStringLiteral("start_line")).toInt(1) == 1 && source.contains(QStringLiteral("function_start_line"));
    kernel.autotuneBenchmarked = hasAutotunerFrame(event.value(QStringLiteral("stack")).toArray(), QLatin1String("_bench"));
    if (Expected<QJsonObject> spec = specFromCompilation(payload, m_namer))
        kernel.spec = *spec;
    else
        kernel.specProblem = spec.error().message;
    kernel.config = kernel.spec.value(QStringLiteral("constexprs")).toObject();
    kernel.config.insert(QStringLiteral("num_warps"), kernel.numWarps);
    kernel.config.insert(QStringLiteral("num_stages"), kernel.numStages);
    m_byHash.insert(kernel.hash, int(m_index.kernels.size()));
    m_index.kernels.append(kernel);
    for (const auto &[launchLine, launch] : m_earlyLaunches.take(kernel.hash))
        attachLaunch(m_index.kernels.last(), launchLine, launch,
                     hasAutotunerFrame(launch.value(QStringLiteral("stack")).toArray(), QLatin1String("_bench")));
    return std::nullopt;
}

void TraceIndexer::attachLaunch(TraceKernel &kernel, int line, const QJsonObject &event, bool benchmark)
{
    TraceLaunches &launches = kernel.launches;
    const bool firstCounted = !benchmark && launches.count == 0;
    const bool firstAny = launches.count == 0 && launches.benchmarkCount == 0;
    (benchmark ? launches.benchmarkCount : launches.count) += 1;
    if (benchmark)
        kernel.autotuneBenchmarked = true;
    else if (hasAutotunerFrame(event.value(QStringLiteral("stack")).toArray(), QLatin1String("run")))
        kernel.autotuneWinner = true;
    if (firstCounted || firstAny) {
        launches.grid = gridOf(event.value(QStringLiteral("grid")));
        launches.args = event.value(QStringLiteral("extracted_args")).toObject();
        launches.firstLine = line;
    }
}

std::optional<ReadError> TraceIndexer::readLaunch(int line, const QJsonObject &event)
{
    ++m_index.launchEvents;
    if (!event.value(QStringLiteral("name")).isString())
        return errorAt(line, QStringLiteral("launch event lacks \"name\""));
    // Without tritonparse's JIT hook a launch carries neither grid nor compilation metadata.
    const QString hash = event.value(QStringLiteral("compilation_metadata")).toObject().value(QStringLiteral("hash")).toString();
    if (hash.isEmpty() || !event.value(QStringLiteral("grid")).isArray()) {
        ++m_gridlessLaunches;
        return std::nullopt;
    }
    const bool benchmark = hasAutotunerFrame(event.value(QStringLiteral("stack")).toArray(), QLatin1String("_bench"));
    if (const auto it = m_byHash.constFind(hash); it != m_byHash.cend())
        attachLaunch(m_index.kernels[*it], line, event, benchmark);
    else
        m_earlyLaunches[hash].append({line, event});
    return std::nullopt;
}

void TraceIndexer::readAutotuneAnalysis(const QJsonObject &event)
{
    const QString winner = event.value(QStringLiteral("winner_compilation_hash")).toString();
    if (!winner.isEmpty())
        m_winners.append(winner);
}

TraceIndex TraceIndexer::finish(int lines)
{
    m_index.lines = lines;
    for (const QString &winner : std::as_const(m_winners))
        if (const auto it = m_byHash.constFind(winner); it != m_byHash.cend())
            m_index.kernels[*it].autotuneWinner = true;
    QHash<QString, int> compilesOfName, seen;
    for (const TraceKernel &kernel : std::as_const(m_index.kernels))
        ++compilesOfName[kernel.name];
    for (TraceKernel &kernel : m_index.kernels) {
        const int ordinal = ++seen[kernel.name];
        kernel.label = compilesOfName[kernel.name] > 1 ? QStringLiteral("%1#%2").arg(kernel.name).arg(ordinal) : kernel.name;
        if (!kernel.spec.isEmpty() && !kernel.launches.grid.isEmpty()) {
            QJsonArray grid;
            for (const qint64 dim : std::as_const(kernel.launches.grid))
                grid.append(dim);
            kernel.spec.insert(QStringLiteral("grid"), grid);
        }
    }
    for (auto it = m_earlyLaunches.cbegin(); it != m_earlyLaunches.cend(); ++it)
        m_index.notes << QStringLiteral("%1 launches of %2 (hash %3) whose compilation is not in the trace")
                             .arg(it->size()).arg(it->first().second.value(QStringLiteral("name")).toString(), it.key().left(8));
    if (m_gridlessLaunches > 0)
        m_index.notes << QStringLiteral("%1 launch events carry no grid or compilation hash (tritonparse's launch hook ran "
                                        "without its JIT hook)").arg(m_gridlessLaunches);
    return std::move(m_index);
}

} // namespace

QString TraceKernel::configText() const
{
    QStringList parts;
    const QJsonObject constexprs = spec.value(QStringLiteral("constexprs")).toObject();
    for (auto it = constexprs.begin(); it != constexprs.end(); ++it)
        parts << QStringLiteral("%1=%2").arg(it.key(), it.value().toVariant().toString());
    parts << QStringLiteral("num_warps=%1").arg(numWarps) << QStringLiteral("num_stages=%1").arg(numStages);
    return parts.join(u' ');
}

Expected<TraceIndex> readTrace(const QString &path, const TargetNamer &namer)
{
    TraceIndexer indexer(path, namer);
    const Expected<int> lines = forEachTraceLine(path, [&indexer](int line, const QByteArray &text, bool *) {
        return indexer.visit(line, text);
    });
    if (!lines)
        return lines.error();
    TraceIndex index = indexer.finish(*lines);
    if (index.kernels.isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("the trace holds no compilation event (%1 lines, %2 launches): was "
                                                    "tritonparse initialised before the kernels compiled?")
                                         .arg(index.lines).arg(index.launchEvents)};
    return index;
}

Expected<QJsonObject> readTraceEvent(const QString &path, int line)
{
    std::optional<QJsonObject> found;
    const Expected<int> read = forEachTraceLine(path, [&](int number, const QByteArray &text, bool *stop) -> std::optional<ReadError> {
        if (number != line)
            return std::nullopt;
        *stop = true;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject())
            return ReadError{path, line, 0, QStringLiteral("not a JSON line (%1)").arg(error.errorString())};
        found = doc.object();
        return std::nullopt;
    });
    if (!read)
        return read.error();
    if (!found)
        return ReadError{path, line, 0, QStringLiteral("the trace has no line %1 (changed since it was read?)").arg(line)};
    return *found;
}

Expected<int> findKernel(const TraceIndex &trace, const QString &selector)
{
    if (selector.isEmpty() && trace.kernels.size() == 1)
        return 0;
    QVector<int> byName;
    static const QRegularExpression hexPrefix(QStringLiteral("^[0-9a-fA-F]{6,}$"));
    const bool maybeHash = hexPrefix.match(selector).hasMatch();
    for (int i = 0; i < trace.kernels.size(); ++i) {
        const TraceKernel &kernel = trace.kernels[i];
        if (kernel.label == selector || (maybeHash && kernel.hash.startsWith(selector, Qt::CaseInsensitive)))
            return i;
        if (kernel.name == selector)
            byName.append(i);
    }
    if (byName.size() == 1)
        return byName.first();
    QVector<int> preferred;
    for (const int i : std::as_const(byName))
        if (trace.kernels[i].autotuneWinner)
            preferred.append(i);
    if (preferred.isEmpty())
        for (const int i : std::as_const(byName))
            if (trace.kernels[i].launches.count > 0)
                preferred.append(i);
    if (preferred.size() == 1)
        return preferred.first();
    QStringList labels;
    for (const int i : byName.isEmpty() ? QVector<int>() : byName)
        labels << trace.kernels[i].label;
    if (labels.isEmpty())
        for (const TraceKernel &kernel : trace.kernels)
            labels << kernel.label;
    return ReadError{trace.path, 0, 0, QStringLiteral("%1 kernel \"%2\" in this trace; choose one of: %3")
                                           .arg(byName.isEmpty() ? QStringLiteral("no") : QStringLiteral("more than one"), selector,
                                                labels.join(QStringLiteral(", ")))};
}

bool looksLikeTrace(const QString &path)
{
    return path.endsWith(QLatin1String(".ndjson")) || path.endsWith(QLatin1String(".ndjson.gz"))
        || path.endsWith(QLatin1String(".ndjson.zst"));
}

} // namespace strata::trace
