#include "store/StoreSchema.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>

namespace strata::storeschema {

namespace {

// Version 1: what a compile is and which files it produced.
Migration initialSchema()
{
    return {1, QStringLiteral("kernels, compiles, artifacts"), {
        QStringLiteral("CREATE TABLE schema_version (version INTEGER NOT NULL)"),
        QStringLiteral("INSERT INTO schema_version (version) VALUES (0)"),
        QStringLiteral(
            "CREATE TABLE kernels ("
            " id INTEGER PRIMARY KEY,"
            " source_path TEXT NOT NULL,"
            " kernel_name TEXT NOT NULL,"
            " source_sha256 TEXT NOT NULL,"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
            " UNIQUE (source_path, kernel_name, source_sha256))"),
        QStringLiteral(
            "CREATE TABLE compiles ("
            " id INTEGER PRIMARY KEY,"
            " kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,"
            " spec_json TEXT NOT NULL,"
            " target TEXT NOT NULL,"
            " status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),"
            " error_message TEXT,"
            " error_file TEXT,"
            " error_line INTEGER,"
            " work_dir TEXT,"
            " duration_s REAL,"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"),
        QStringLiteral("CREATE INDEX compiles_by_kernel ON compiles (kernel_id)"),
        QStringLiteral(
            "CREATE TABLE artifacts ("
            " id INTEGER PRIMARY KEY,"
            " compile_id INTEGER NOT NULL REFERENCES compiles(id) ON DELETE CASCADE,"
            " name TEXT NOT NULL,"
            " path TEXT NOT NULL,"
            " size INTEGER NOT NULL,"
            " sha256 TEXT NOT NULL,"
            " UNIQUE (compile_id, name))"),
    }};
}

// Version 2: what the compiler said about it: per-pass dumps, remarks, ptxas figures, metadata.
Migration diagnosticsSchema()
{
    return {2, QStringLiteral("pass dumps, remarks, ptxas figures, metadata"), {
        QStringLiteral(
            "CREATE TABLE pass_dumps ("
            " id INTEGER PRIMARY KEY,"
            " compile_id INTEGER NOT NULL REFERENCES compiles(id) ON DELETE CASCADE,"
            " idx INTEGER NOT NULL,"
            " pass TEXT NOT NULL,"
            " argument TEXT,"
            " anchor TEXT,"
            " stage TEXT,"
            " path TEXT NOT NULL,"
            " size INTEGER NOT NULL,"
            " sha256 TEXT NOT NULL,"
            " UNIQUE (compile_id, idx))"),
        QStringLiteral(
            "CREATE TABLE remarks ("
            " id INTEGER PRIMARY KEY,"
            " compile_id INTEGER NOT NULL REFERENCES compiles(id) ON DELETE CASCADE,"
            " file TEXT, line INTEGER, column INTEGER,"
            " severity TEXT NOT NULL,"
            " message TEXT NOT NULL)"),
        QStringLiteral("ALTER TABLE compiles ADD COLUMN ptxas_json TEXT"),
        QStringLiteral("ALTER TABLE compiles ADD COLUMN metadata_json TEXT"),
        QStringLiteral("ALTER TABLE compiles ADD COLUMN source_path TEXT"),
        QStringLiteral("ALTER TABLE compiles ADD COLUMN protocol"  /* untyped: keeps 1 or "1" as sent */),
    }};
}

// Version 3: task files (KernelBench format) and every task-method call on them, as it arrived:
// the result JSON whole, or the error of a failed call, and the kernels the call captured.
Migration taskSchema()
{
    return {3, QStringLiteral("tasks, task runs, captured kernel specs"), {
        QStringLiteral(
            "CREATE TABLE tasks ("
            " id INTEGER PRIMARY KEY,"
            " path TEXT NOT NULL,"
            " sha256 TEXT NOT NULL,"
            " meta_json TEXT,"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
            " UNIQUE (path, sha256))"),
        QStringLiteral(
            "CREATE TABLE task_runs ("
            " id INTEGER PRIMARY KEY,"
            " task_id INTEGER REFERENCES tasks(id) ON DELETE CASCADE," /* null: ceilings, no task */
            " method TEXT NOT NULL,"
            " host TEXT NOT NULL,"
            " status TEXT NOT NULL CHECK (status IN ('ok', 'failed')),"
            " params_json TEXT,"
            " result_json TEXT,"   /* the result as the agent sent it, also when it was malformed */
            " verdict TEXT,"
            " error_code INTEGER,"
            " error_kind TEXT,"
            " error_message TEXT,"
            " error_json TEXT,"
            " device TEXT,"
            " duration_s REAL,"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"),
        QStringLiteral("CREATE INDEX task_runs_by_task ON task_runs (task_id)"),
        QStringLiteral(
            "CREATE TABLE task_kernels ("
            " id INTEGER PRIMARY KEY,"
            " run_id INTEGER NOT NULL REFERENCES task_runs(id) ON DELETE CASCADE,"
            " idx INTEGER NOT NULL,"
            " kernel TEXT NOT NULL,"
            " source_path TEXT,"
            " line INTEGER,"
            " grid_json TEXT,"
            " spec_json TEXT NOT NULL,"
            " launches INTEGER,"
            " ptx_sha256 TEXT,"
            " UNIQUE (run_id, idx))"),
    }};
}

// Version 4: optimization runs (one per task and start) and every candidate they tried, written
// as it happens so that a killed run resumes without losing a finished candidate.
Migration optimizeSchema()
{
    return {4, QStringLiteral("optimization runs and candidates"), {
        QStringLiteral(
            "CREATE TABLE opt_runs ("
            " id INTEGER PRIMARY KEY,"
            " suite TEXT,"
            " task_path TEXT NOT NULL,"
            " task_name TEXT NOT NULL,"
            " task_sha256 TEXT NOT NULL,"
            " host TEXT NOT NULL,"
            " config_json TEXT,"
            " status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'cancelled')),"
            " outcome_json TEXT,"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
            " finished TEXT)"),
        QStringLiteral("CREATE INDEX opt_runs_by_task ON opt_runs (task_path, task_sha256)"),
        QStringLiteral(
            "CREATE TABLE opt_candidates ("
            " id INTEGER PRIMARY KEY,"
            " run_id INTEGER NOT NULL REFERENCES opt_runs(id) ON DELETE CASCADE,"
            " parent_id INTEGER,"
            " iteration INTEGER NOT NULL,"
            " provider TEXT NOT NULL,"
            " recipe TEXT,"
            " title TEXT,"
            " path TEXT,"
            " source_text TEXT NOT NULL,"
            " source_sha256 TEXT NOT NULL,"
            " findings_json TEXT,"
            " expected_json TEXT,"
            " state TEXT NOT NULL,"
            " detail TEXT,"
            " median_ms REAL,"
            " speedup_vs_parent REAL,"
            " evidence_json TEXT,"   /* diagnosis, verdict, timing summaries of this candidate */
            " tokens_in INTEGER NOT NULL DEFAULT 0,"
            " tokens_out INTEGER NOT NULL DEFAULT 0,"
            " review TEXT NOT NULL DEFAULT '',"
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),"
            " updated TEXT)"),
        QStringLiteral("CREATE INDEX opt_candidates_by_run ON opt_candidates (run_id)"),
    }};
}

// Version 5: each round's diagnosis, a row of its own. It was kept on the diagnosed candidate's
// evidence, which rewrote a finished candidate every round (and its update stamp on resume).
Migration roundsSchema()
{
    return {5, QStringLiteral("diagnosis of each optimization round"), {
        QStringLiteral(
            "CREATE TABLE opt_rounds ("
            " id INTEGER PRIMARY KEY,"
            " run_id INTEGER NOT NULL REFERENCES opt_runs(id) ON DELETE CASCADE,"
            " iteration INTEGER NOT NULL,"
            " candidate_id INTEGER,"
            " round_json TEXT NOT NULL,"   /* RoundDiagnosis: ranked findings, what was measured */
            " ladder_json TEXT,"           /* the whole ladder's result of that round */
            " created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')))"),
        QStringLiteral("CREATE INDEX opt_rounds_by_run ON opt_rounds (run_id)"),
    }};
}

bool pragmaValue(QSqlDatabase &db, const QString &name, int *value, QString *error)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA ") + name) || !query.next()) {
        *error = query.lastError().text();
        return false;
    }
    *value = query.value(0).toInt();
    return true;
}

// The schema_version table and PRAGMA user_version must agree. user_version 0 is a store from
// before Strata stamped the header (migrate() stamps it). The larger of the two decides whether
// the store is newer than this build, so a newer Strata that moves on from the table still is.
int reconcileVersions(int tableVersion, int userVersion, QString *error)
{
    if (userVersion == 0 || userVersion == tableVersion)
        return tableVersion;
    const int newest = std::max(tableVersion, userVersion);
    if (newest > latestVersion())
        return newest;
    *error = QStringLiteral("inconsistent Strata store: the schema_version table says %1, PRAGMA user_version says %2")
                 .arg(tableVersion).arg(userVersion);
    return -1;
}

bool exec(QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    *error = QStringLiteral("%1 (in: %2)").arg(query.lastError().text(), sql.left(80));
    return false;
}

bool apply(QSqlDatabase &db, const Migration &migration, QString *error)
{
    if (!db.transaction()) {
        *error = db.lastError().text();
        return false;
    }
    for (const QString &statement : migration.statements) {
        if (!exec(db, statement, error)) {
            db.rollback();
            *error = QStringLiteral("migration to schema %1 (%2) failed: %3")
                         .arg(migration.version).arg(migration.description, *error);
            return false;
        }
    }
    // user_version lives in the file header, so tools that never look at our tables (sqlite3,
    // file(1)) see the same version; it is written in the migration's transaction.
    const QString bump = QStringLiteral("UPDATE schema_version SET version = %1").arg(migration.version);
    const QString stamp = QStringLiteral("PRAGMA user_version = %1").arg(migration.version);
    if (!exec(db, bump, error) || !exec(db, stamp, error) || !db.commit()) {
        db.rollback();
        return false;
    }
    return true;
}

} // namespace

const QVector<Migration> &migrations()
{
    static const QVector<Migration> all{initialSchema(), diagnosticsSchema(), taskSchema(), optimizeSchema(), roundsSchema()};
    return all;
}

int latestVersion()
{
    return migrations().constLast().version;
}

int readVersion(QSqlDatabase &db, QString *error)
{
    int applicationId = 0;
    int userVersion = 0;
    if (!pragmaValue(db, QStringLiteral("application_id"), &applicationId, error)
        || !pragmaValue(db, QStringLiteral("user_version"), &userVersion, error))
        return -1;
    if (applicationId != 0 && applicationId != kApplicationId) {
        *error = QStringLiteral("not a Strata store (SQLite application_id 0x%1 belongs to another program)")
                     .arg(quint32(applicationId), 8, 16, QLatin1Char('0'));
        return -1;
    }
    QSqlQuery tables(db);
    if (!tables.exec(QStringLiteral("SELECT name FROM sqlite_master WHERE type = 'table'"))) {
        *error = tables.lastError().text();
        return -1;
    }
    QStringList names;
    while (tables.next())
        names.append(tables.value(0).toString());
    if (names.isEmpty()) {
        if (userVersion == 0)
            return 0;
        *error = QStringLiteral("not a Strata store (an SQLite database with user_version %1 and no tables)")
                     .arg(userVersion);
        return -1;
    }
    if (!names.contains(QStringLiteral("schema_version"))) {
        *error = QStringLiteral("not a Strata store (no schema_version table)");
        return -1;
    }
    QSqlQuery version(db);
    if (!version.exec(QStringLiteral("SELECT MAX(version) FROM schema_version")) || !version.next()) {
        *error = version.lastError().text();
        return -1;
    }
    return reconcileVersions(version.value(0).toInt(), userVersion, error);
}

bool migrate(QSqlDatabase &db, int fromVersion, QString *error)
{
    for (const Migration &migration : migrations()) {
        if (migration.version > fromVersion && !apply(db, migration, error))
            return false;
    }
    // Stores written before the header was stamped get their application_id and user_version now.
    return exec(db, QStringLiteral("PRAGMA application_id = %1").arg(kApplicationId), error)
        && exec(db, QStringLiteral("PRAGMA user_version = %1").arg(latestVersion()), error);
}

} // namespace strata::storeschema
