#include "compile/CompileResult.h"

#include "compile/CompileFolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace strata {

namespace {

// Reads one compile.json object; every error names the file and the key that is wrong.
class ResultParser {
public:
    ResultParser(const QJsonObject &json, QString origin, QString baseDir)
        : m_json(json), m_origin(std::move(origin)), m_baseDir(std::move(baseDir)),
          m_locator(m_baseDir, json.value(QStringLiteral("work_dir")).toString()) {}

    Expected<CompileResult> parse();

private:
    bool requireString(const QJsonObject &obj, const QString &key, const QString &where, QString *out);
    bool readArtifact(const QJsonObject &obj, const QString &where, const QString &what, ArtifactRef *out);
    bool readArtifacts(CompileResult *result);
    bool readPassDumps(CompileResult *result);
    bool readRemarks(CompileResult *result);
    bool readPtxas(CompileResult *result);
    bool readStageRuns(CompileResult *result);
    bool fail(const QString &message);

    const QJsonObject &m_json;
    QString m_origin;
    QString m_baseDir;
    ArtifactLocator m_locator;   // relative paths, and old absolute ones of a moved folder
    ReadError m_error;
};

bool ResultParser::fail(const QString &message)
{
    m_error = ReadError{m_origin, 0, 0, message};
    return false;
}

bool ResultParser::requireString(const QJsonObject &obj, const QString &key, const QString &where,
                                 QString *out)
{
    const QJsonValue value = obj.value(key);
    if (!value.isString())
        return fail(value.isUndefined()
                        ? QStringLiteral("compile result lacks the key \"%1\"%2").arg(key, where)
                        : QStringLiteral("compile result key \"%1\"%2 is not a string").arg(key, where));
    *out = value.toString();
    return true;
}

bool ResultParser::readArtifact(const QJsonObject &obj, const QString &where, const QString &what, ArtifactRef *out)
{
    QString path;
    if (!requireString(obj, QStringLiteral("path"), where, &path))
        return false;
    out->path = m_locator.locate(path);
    out->size = obj.value(QStringLiteral("size")).toInteger(0);
    out->sha256 = obj.value(QStringLiteral("sha256")).toString();
    if (obj.contains(QStringLiteral("size")) && !out->path.isEmpty())
        m_locator.checkSize(what, out->path, out->size);
    return true;
}

bool ResultParser::readArtifacts(CompileResult *result)
{
    const QJsonValue artifacts = m_json.value(QStringLiteral("artifacts"));
    if (!artifacts.isObject())
        return fail(artifacts.isUndefined()
                        ? QStringLiteral("compile result lacks the key \"artifacts\"")
                        : QStringLiteral("compile result key \"artifacts\" is not an object"));
    const QJsonObject map = artifacts.toObject();
    for (auto it = map.begin(); it != map.end(); ++it) {
        const QString where = QStringLiteral(" in artifact \"%1\"").arg(it.key());
        if (!it.value().isObject())
            return fail(QStringLiteral("artifact \"%1\" is not an object").arg(it.key()));
        ArtifactRef ref;
        if (!readArtifact(it.value().toObject(), where, it.key(), &ref))
            return false;
        result->artifacts.insert(it.key(), ref);
    }
    return true;
}

bool ResultParser::readPassDumps(CompileResult *result)
{
    const QJsonArray dumps = m_json.value(QStringLiteral("pass_dumps")).toArray();
    for (qsizetype i = 0; i < dumps.size(); ++i) {
        const QJsonObject obj = dumps.at(i).toObject();
        const QString where = QStringLiteral(" in pass_dumps[%1]").arg(i);
        PassDumpRef dump;
        dump.index = obj.value(QStringLiteral("index")).toInt(int(i));
        if (!requireString(obj, QStringLiteral("pass"), where, &dump.passName))
            return false;
        // A dump left out to save space (fixtures) keeps its size and hash but has a null path.
        if (obj.value(QStringLiteral("path")).isNull()) {
            dump.file.size = obj.value(QStringLiteral("size")).toInteger(0);
            dump.file.sha256 = obj.value(QStringLiteral("sha256")).toString();
        } else if (!readArtifact(obj, where, QStringLiteral("pass dump %1").arg(dump.index), &dump.file)) {
            return false;
        }
        dump.argument = obj.value(QStringLiteral("argument")).toString();
        dump.anchor = obj.value(QStringLiteral("anchor")).toString();
        dump.stage = obj.value(QStringLiteral("stage")).toString();
        // "internal_after" (the pipeliner's snapshots) keeps the before-dump reading it always had.
        dump.after = obj.value(QStringLiteral("kind")).toString() == QLatin1String("after");
        result->passDumps.append(dump);
    }
    return true;
}

bool ResultParser::readRemarks(CompileResult *result)
{
    const QJsonArray remarks = m_json.value(QStringLiteral("remarks")).toArray();
    for (const QJsonValue &value : remarks) {
        const QJsonObject obj = value.toObject();
        Remark remark;
        remark.loc.file = obj.value(QStringLiteral("file")).toString();
        remark.loc.line = obj.value(QStringLiteral("line")).toInt();
        remark.loc.column = obj.value(QStringLiteral("column")).toInt();
        remark.severity = obj.value(QStringLiteral("severity")).toString();
        remark.message = obj.value(QStringLiteral("message")).toString();
        result->remarks.append(remark);
    }
    return true;
}

bool ResultParser::readPtxas(CompileResult *result)
{
    result->ptxas = ptxasFromJson(m_json.value(QStringLiteral("ptxas")).toObject());
    return true;
}

bool ResultParser::readStageRuns(CompileResult *result)
{
    const QJsonValue stages = m_json.value(QStringLiteral("stages"));
    if (stages.isUndefined())
        return true;   // NVIDIA results do not send it
    if (!stages.isArray())
        return fail(QStringLiteral("compile result key \"stages\" is not an array"));
    const QJsonArray runs = stages.toArray();
    for (qsizetype i = 0; i < runs.size(); ++i) {
        const QJsonObject obj = runs.at(i).toObject();
        const QString where = QStringLiteral(" in stages[%1]").arg(i);
        StageRun run;
        QString status;
        if (!requireString(obj, QStringLiteral("stage"), where, &run.stage)
            || !requireString(obj, QStringLiteral("status"), where, &status))
            return false;
        if (status != QLatin1String("ran") && status != QLatin1String("skipped"))
            return fail(QStringLiteral("compile result key \"status\"%1 is \"%2\", not \"ran\" or \"skipped\"").arg(where, status));
        run.ran = status == QLatin1String("ran");
        run.reason = obj.value(QStringLiteral("reason")).toString();
        for (const QJsonValue &tool : obj.value(QStringLiteral("tools")).toArray())
            run.tools.append(tool.toString());
        result->stageRuns.append(run);
    }
    return true;
}

Expected<CompileResult> ResultParser::parse()
{
    CompileResult result;
    if (!requireString(m_json, QStringLiteral("kernel"), {}, &result.kernel)
        || !requireString(m_json, QStringLiteral("source_path"), {}, &result.sourcePath)
        || !requireString(m_json, QStringLiteral("target"), {}, &result.target)
        || !readArtifacts(&result) || !readPassDumps(&result) || !readRemarks(&result)
        || !readPtxas(&result) || !readStageRuns(&result))
        return m_error;
    result.backend = m_json.value(QStringLiteral("backend")).toString();
    result.protocol = m_json.value(QStringLiteral("protocol"));
    const QString recordedDir = m_json.value(QStringLiteral("work_dir")).toString();
    result.workDir = m_baseDir.isEmpty() ? recordedDir : m_locator.folder();
    result.warnings = m_locator.warnings();
    result.spec = m_json.value(QStringLiteral("spec")).toObject();
    result.metadata = m_json.value(QStringLiteral("metadata")).toObject();
    result.durationSeconds = m_json.value(QStringLiteral("duration_s")).toDouble();
    return result;
}

QJsonObject artifactJson(const ArtifactRef &ref)
{
    return {{QStringLiteral("path"), ref.path},
            {QStringLiteral("size"), ref.size},
            {QStringLiteral("sha256"), ref.sha256}};
}

QJsonObject ptxasJson(const PtxasInfo &info)
{
    return {{QStringLiteral("registers"), info.registers >= 0 ? QJsonValue(info.registers) : QJsonValue()},
            {QStringLiteral("spill_stores_bytes"), info.spillStoreBytes},
            {QStringLiteral("spill_loads_bytes"), info.spillLoadBytes},
            {QStringLiteral("stack_bytes"), info.stackBytes},
            {QStringLiteral("shared_bytes"), info.sharedBytes},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(info.warnings)}};
}

QJsonArray stageRunsJson(const QVector<StageRun> &runs)
{
    QJsonArray array;
    for (const StageRun &run : runs) {
        QJsonObject obj{{QStringLiteral("stage"), run.stage},
                        {QStringLiteral("status"), run.ran ? QStringLiteral("ran") : QStringLiteral("skipped")}};
        if (!run.reason.isEmpty())
            obj.insert(QStringLiteral("reason"), run.reason);
        if (!run.tools.isEmpty())
            obj.insert(QStringLiteral("tools"), QJsonArray::fromStringList(run.tools));
        array.append(obj);
    }
    return array;
}

} // namespace

Expected<CompileResult> parseCompileResult(const QJsonObject &json, const QString &baseDir)
{
    return ResultParser(json, QStringLiteral("compile result"), baseDir).parse();
}

Expected<CompileResult> readCompileResultFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot open compile result: %1").arg(file.errorString())};
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return ReadError{path, 0, 0, QStringLiteral("not valid JSON at byte %1: %2")
                                          .arg(parseError.offset).arg(parseError.errorString())};
    if (!doc.isObject())
        return ReadError{path, 0, 0, QStringLiteral("a compile result must be a JSON object")};
    const QString dir = QFileInfo(path).absolutePath();
    return ResultParser(doc.object(), path, dir).parse();
}

QJsonObject toJson(const CompileResult &result)
{
    QJsonObject artifacts;
    for (auto it = result.artifacts.cbegin(); it != result.artifacts.cend(); ++it)
        artifacts.insert(it.key(), artifactJson(it.value()));
    QJsonArray dumps;
    for (const PassDumpRef &dump : result.passDumps) {
        QJsonObject obj = artifactJson(dump.file);
        obj.insert(QStringLiteral("index"), dump.index);
        obj.insert(QStringLiteral("pass"), dump.passName);
        obj.insert(QStringLiteral("argument"), dump.argument);
        obj.insert(QStringLiteral("anchor"), dump.anchor);
        obj.insert(QStringLiteral("stage"), dump.stage);
        if (dump.after)   // "before" is the default an NVIDIA result never spells out
            obj.insert(QStringLiteral("kind"), QStringLiteral("after"));
        dumps.append(obj);
    }
    QJsonArray remarks;
    for (const Remark &remark : result.remarks)
        remarks.append(QJsonObject{{QStringLiteral("file"), remark.loc.file},
                                   {QStringLiteral("line"), remark.loc.line},
                                   {QStringLiteral("column"), remark.loc.column},
                                   {QStringLiteral("severity"), remark.severity},
                                   {QStringLiteral("message"), remark.message}});
    QJsonObject json{{QStringLiteral("kernel"), result.kernel},
                     {QStringLiteral("source_path"), result.sourcePath},
                     {QStringLiteral("target"), result.target},
                     {QStringLiteral("work_dir"), result.workDir},
                     {QStringLiteral("spec"), result.spec},
                     {QStringLiteral("duration_s"), result.durationSeconds},
                     {QStringLiteral("artifacts"), artifacts},
                     {QStringLiteral("pass_dumps"), dumps},
                     {QStringLiteral("remarks"), remarks},
                     {QStringLiteral("ptxas"), ptxasJson(result.ptxas)},
                     {QStringLiteral("metadata"), result.metadata}};
    if (!result.protocol.isUndefined() && !result.protocol.isNull())
        json.insert(QStringLiteral("protocol"), result.protocol);
    // Only backends that send them (an NVIDIA result's JSON stays as it was).
    if (!result.backend.isEmpty())
        json.insert(QStringLiteral("backend"), result.backend);
    if (!result.stageRuns.isEmpty())
        json.insert(QStringLiteral("stages"), stageRunsJson(result.stageRuns));
    return json;
}

PtxasInfo ptxasFromJson(const QJsonObject &obj)
{
    PtxasInfo info;
    // null (unknown) stays -1; the agent writes null when ptxas printed no register count.
    const QJsonValue registers = obj.value(QStringLiteral("registers"));
    info.registers = registers.isDouble() ? registers.toInt() : -1;
    info.spillStoreBytes = obj.value(QStringLiteral("spill_stores_bytes")).toInt();
    info.spillLoadBytes = obj.value(QStringLiteral("spill_loads_bytes")).toInt();
    info.stackBytes = obj.value(QStringLiteral("stack_bytes")).toInt();
    info.sharedBytes = obj.value(QStringLiteral("shared_bytes")).toInt();
    for (const QJsonValue &warning : obj.value(QStringLiteral("warnings")).toArray())
        info.warnings.append(warning.toString());
    return info;
}

} // namespace strata
