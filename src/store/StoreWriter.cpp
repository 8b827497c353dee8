// Store's writing half: each record call is one transaction that either lands whole or not at all.
#include "store/Store.h"

#include "store/StoreInternal.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QVariant>

namespace strata {

using namespace storeinternal;

namespace {

QString ptxasJson(const PtxasInfo &info)
{
    return compactJson({{QStringLiteral("registers"), info.registers},
                        {QStringLiteral("spill_stores_bytes"), info.spillStoreBytes},
                        {QStringLiteral("spill_loads_bytes"), info.spillLoadBytes},
                        {QStringLiteral("stack_bytes"), info.stackBytes},
                        {QStringLiteral("shared_bytes"), info.sharedBytes},
                        {QStringLiteral("warnings"), QJsonArray::fromStringList(info.warnings)}});
}

// Everything one compile row needs, successful or not.
struct CompileRow {
    QString kernel, sourcePath, sourceSha256, target, workDir;
    QVariant protocol;
    QJsonObject spec;
    double durationSeconds = 0;
    bool ok = true;
    ReadError error;
    QString ptxas, metadata;
};

Expected<qint64> kernelId(WriteTransaction &tx, const CompileRow &row)
{
    ReadError error;
    QSqlQuery insert(tx.db());
    insert.prepare(QStringLiteral("INSERT OR IGNORE INTO kernels (source_path, kernel_name, source_sha256) "
                                  "VALUES (?, ?, ?)"));
    insert.addBindValue(row.sourcePath);
    insert.addBindValue(row.kernel);
    insert.addBindValue(row.sourceSha256);
    if (!run(insert, tx.path(), QStringLiteral("cannot record kernel %1").arg(row.kernel), &error))
        return error;
    QSqlQuery select(tx.db());
    select.prepare(QStringLiteral("SELECT id FROM kernels WHERE source_path = ? AND kernel_name = ? "
                                  "AND source_sha256 = ?"));
    select.addBindValue(row.sourcePath);
    select.addBindValue(row.kernel);
    select.addBindValue(row.sourceSha256);
    if (!run(select, tx.path(), QStringLiteral("cannot find kernel %1").arg(row.kernel), &error))
        return error;
    if (!select.next())
        return ReadError{tx.path(), 0, 0, QStringLiteral("kernel %1 vanished while recording").arg(row.kernel)};
    return select.value(0).toLongLong();
}

Expected<qint64> insertCompile(WriteTransaction &tx, qint64 kernel, const CompileRow &row)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral(
        "INSERT INTO compiles (kernel_id, spec_json, target, status, error_message, error_file, "
        "error_line, work_dir, duration_s, ptxas_json, metadata_json, source_path, protocol) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    query.addBindValue(kernel);
    query.addBindValue(compactJson(row.spec));
    query.addBindValue(row.target);
    query.addBindValue(row.ok ? QStringLiteral("ok") : QStringLiteral("failed"));
    query.addBindValue(row.ok ? QVariant() : QVariant(row.error.message));
    query.addBindValue(row.ok ? QVariant() : QVariant(row.error.file));
    query.addBindValue(row.ok ? QVariant() : QVariant(row.error.line));
    query.addBindValue(row.workDir);
    query.addBindValue(row.durationSeconds);
    query.addBindValue(row.ptxas.isEmpty() ? QVariant() : QVariant(row.ptxas));
    query.addBindValue(row.metadata.isEmpty() ? QVariant() : QVariant(row.metadata));
    query.addBindValue(row.sourcePath);
    query.addBindValue(row.protocol);
    ReadError error;
    if (!run(query, tx.path(), QStringLiteral("cannot record compile of %1").arg(row.kernel), &error))
        return error;
    return query.lastInsertId().toLongLong();
}

bool insertArtifacts(WriteTransaction &tx, qint64 compile, const CompileResult &result, ReadError *error)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral("INSERT INTO artifacts (compile_id, name, path, size, sha256) "
                                 "VALUES (?, ?, ?, ?, ?)"));
    for (auto it = result.artifacts.cbegin(); it != result.artifacts.cend(); ++it) {
        query.addBindValue(compile);
        query.addBindValue(it.key());
        query.addBindValue(it->path);
        query.addBindValue(it->size);
        query.addBindValue(it->sha256);
        if (!run(query, tx.path(), QStringLiteral("cannot record artifact %1").arg(it.key()), error))
            return false;
    }
    return true;
}

bool insertPassDumps(WriteTransaction &tx, qint64 compile, const CompileResult &result, ReadError *error)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral("INSERT INTO pass_dumps (compile_id, idx, pass, argument, anchor, stage, "
                                 "path, size, sha256) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    for (const PassDumpRef &dump : result.passDumps) {
        for (const QVariant &value : {QVariant(compile), QVariant(dump.index), QVariant(dump.passName),
                                      QVariant(dump.argument), QVariant(dump.anchor), QVariant(dump.stage),
                                      QVariant(dump.file.path), QVariant(dump.file.size),
                                      QVariant(dump.file.sha256)})
            query.addBindValue(value);
        const QString what = QStringLiteral("cannot record pass dump %1 (%2)").arg(dump.index).arg(dump.passName);
        if (!run(query, tx.path(), what, error))
            return false;
    }
    return true;
}

bool insertRemarks(WriteTransaction &tx, qint64 compile, const CompileResult &result, ReadError *error)
{
    QSqlQuery query(tx.db());
    query.prepare(QStringLiteral("INSERT INTO remarks (compile_id, file, line, column, severity, message) "
                                 "VALUES (?, ?, ?, ?, ?, ?)"));
    for (const Remark &remark : result.remarks) {
        for (const QVariant &value : {QVariant(compile), QVariant(remark.loc.file), QVariant(remark.loc.line),
                                      QVariant(remark.loc.column), QVariant(remark.severity),
                                      QVariant(remark.message)})
            query.addBindValue(value);
        if (!run(query, tx.path(), QStringLiteral("cannot record a remark"), error))
            return false;
    }
    return true;
}

CompileRow rowFor(const CompileResult &result)
{
    CompileRow row;
    row.kernel = result.kernel;
    row.sourcePath = result.sourcePath;
    row.sourceSha256 = result.artifacts.value(QStringLiteral("source")).sha256;
    if (row.sourceSha256.isEmpty())
        row.sourceSha256 = fileSha256(result.sourcePath);
    row.target = result.target;
    row.workDir = result.workDir;
    row.protocol = result.protocol.toVariant();
    row.spec = result.spec;
    row.durationSeconds = result.durationSeconds;
    row.ptxas = ptxasJson(result.ptxas);
    row.metadata = compactJson(result.metadata);
    return row;
}

} // namespace

Expected<qint64> Store::recordCompile(const CompileResult &result)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    const CompileRow row = rowFor(result);
    Expected<qint64> kernel = kernelId(tx, row);
    if (!kernel)
        return kernel.error();
    Expected<qint64> compile = insertCompile(tx, *kernel, row);
    if (!compile)
        return compile.error();
    if (!insertArtifacts(tx, *compile, result, &error) || !insertPassDumps(tx, *compile, result, &error)
        || !insertRemarks(tx, *compile, result, &error) || !tx.commit(&error))
        return error;
    return compile;
}

Expected<qint64> Store::recordFailedCompile(const FailedCompile &failure)
{
    WriteTransaction tx(connection(m_connectionName), m_path);
    ReadError error;
    if (!tx.begin(&error))
        return error;
    CompileRow row;
    row.kernel = failure.kernel;
    row.sourcePath = failure.sourcePath;
    row.sourceSha256 = failure.sourceSha256.isEmpty() ? fileSha256(failure.sourcePath) : failure.sourceSha256;
    row.target = failure.target;
    row.workDir = failure.workDir;
    row.spec = failure.spec;
    row.durationSeconds = failure.durationSeconds;
    row.ok = false;
    row.error = failure.error;
    Expected<qint64> kernel = kernelId(tx, row);
    if (!kernel)
        return kernel.error();
    Expected<qint64> compile = insertCompile(tx, *kernel, row);
    if (!compile)
        return compile.error();
    if (!tx.commit(&error))
        return error;
    return compile;
}

} // namespace strata
