// Store's reading half: listings of kernels and compiles, and a compile back as a CompileResult.
#include "store/Store.h"

#include "store/StoreInternal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QVariant>

namespace strata {

using namespace storeinternal;

namespace {

QDateTime parseTime(const QVariant &text)
{
    return QDateTime::fromString(text.toString(), Qt::ISODateWithMs);
}

bool readArtifacts(QSqlDatabase db, const QString &path, qint64 id, CompileResult *result, ReadError *error)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT name, path, size, sha256 FROM artifacts WHERE compile_id = ?"));
    query.addBindValue(id);
    if (!run(query, path, QStringLiteral("cannot read artifacts of compile %1").arg(id), error))
        return false;
    while (query.next())
        result->artifacts.insert(query.value(0).toString(),
                                 ArtifactRef{query.value(1).toString(), query.value(2).toLongLong(),
                                             query.value(3).toString()});
    return true;
}

bool readPassDumps(QSqlDatabase db, const QString &path, qint64 id, CompileResult *result, ReadError *error)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT idx, pass, argument, anchor, stage, path, size, sha256 "
                                 "FROM pass_dumps WHERE compile_id = ? ORDER BY idx"));
    query.addBindValue(id);
    if (!run(query, path, QStringLiteral("cannot read pass dumps of compile %1").arg(id), error))
        return false;
    while (query.next()) {
        PassDumpRef dump;
        dump.index = query.value(0).toInt();
        dump.passName = query.value(1).toString();
        dump.argument = query.value(2).toString();
        dump.anchor = query.value(3).toString();
        dump.stage = query.value(4).toString();
        dump.file = ArtifactRef{query.value(5).toString(), query.value(6).toLongLong(), query.value(7).toString()};
        result->passDumps.append(dump);
    }
    return true;
}

bool readRemarks(QSqlDatabase db, const QString &path, qint64 id, CompileResult *result, ReadError *error)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT file, line, column, severity, message FROM remarks "
                                 "WHERE compile_id = ? ORDER BY id"));
    query.addBindValue(id);
    if (!run(query, path, QStringLiteral("cannot read remarks of compile %1").arg(id), error))
        return false;
    while (query.next()) {
        Remark remark;
        remark.loc = SourceLocation{query.value(0).toString(), query.value(1).toInt(), query.value(2).toInt()};
        remark.severity = query.value(3).toString();
        remark.message = query.value(4).toString();
        result->remarks.append(remark);
    }
    return true;
}

} // namespace

Expected<QVector<KernelRecord>> Store::listKernels() const
{
    QSqlQuery query(connection(m_connectionName));
    query.prepare(QStringLiteral("SELECT id, source_path, kernel_name, source_sha256, created FROM kernels "
                                 "ORDER BY id"));
    ReadError error;
    if (!run(query, m_path, QStringLiteral("cannot list kernels"), &error))
        return error;
    QVector<KernelRecord> kernels;
    while (query.next())
        kernels.append(KernelRecord{query.value(0).toLongLong(), query.value(1).toString(),
                                    query.value(2).toString(), query.value(3).toString(),
                                    parseTime(query.value(4))});
    return kernels;
}

Expected<QVector<CompileRecord>> Store::compilesForKernel(qint64 kernelId) const
{
    QSqlQuery query(connection(m_connectionName));
    query.prepare(QStringLiteral("SELECT id, kernel_id, spec_json, target, status, error_message, error_file, "
                                 "error_line, work_dir, duration_s, created FROM compiles "
                                 "WHERE kernel_id = ? ORDER BY id"));
    query.addBindValue(kernelId);
    ReadError error;
    if (!run(query, m_path, QStringLiteral("cannot list compiles of kernel %1").arg(kernelId), &error))
        return error;
    QVector<CompileRecord> compiles;
    while (query.next()) {
        CompileRecord record;
        record.id = query.value(0).toLongLong();
        record.kernelId = query.value(1).toLongLong();
        record.spec = parseObject(query.value(2));
        record.target = query.value(3).toString();
        record.ok = query.value(4).toString() == QLatin1String("ok");
        record.errorMessage = query.value(5).toString();
        record.errorFile = query.value(6).toString();
        record.errorLine = query.value(7).toInt();
        record.workDir = query.value(8).toString();
        record.durationSeconds = query.value(9).toDouble();
        record.created = parseTime(query.value(10));
        compiles.append(record);
    }
    return compiles;
}

Expected<CompileResult> Store::loadCompile(qint64 compileId) const
{
    QSqlDatabase db = connection(m_connectionName);
    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "SELECT k.kernel_name, COALESCE(c.source_path, k.source_path), c.target, c.work_dir, c.spec_json, "
        "c.duration_s, c.ptxas_json, c.metadata_json, c.protocol, c.status "
        "FROM compiles c JOIN kernels k ON k.id = c.kernel_id WHERE c.id = ?"));
    query.addBindValue(compileId);
    ReadError error;
    if (!run(query, m_path, QStringLiteral("cannot read compile %1").arg(compileId), &error))
        return error;
    if (!query.next())
        return ReadError{m_path, 0, 0, QStringLiteral("no compile with id %1").arg(compileId)};
    if (query.value(9).toString() != QLatin1String("ok"))
        return ReadError{m_path, 0, 0, QStringLiteral("compile %1 failed; it has no result").arg(compileId)};
    CompileResult result;
    result.kernel = query.value(0).toString();
    result.sourcePath = query.value(1).toString();
    result.target = query.value(2).toString();
    result.workDir = query.value(3).toString();
    result.spec = parseObject(query.value(4));
    result.durationSeconds = query.value(5).toDouble();
    result.ptxas = ptxasFromJson(parseObject(query.value(6)));
    result.metadata = parseObject(query.value(7));
    if (!query.value(8).isNull())
        result.protocol = QJsonValue::fromVariant(query.value(8));
    if (!readArtifacts(db, m_path, compileId, &result, &error) || !readPassDumps(db, m_path, compileId, &result, &error)
        || !readRemarks(db, m_path, compileId, &result, &error))
        return error;
    return result;
}

} // namespace strata
