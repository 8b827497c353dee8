#pragma once
// The store's schema history. Each migration brings a database from version-1 to version; a
// fresh database runs them all in order. Never edit a released migration: append a new one.
#include <QString>
#include <QStringList>
#include <QVector>

class QSqlDatabase;

namespace strata::storeschema {

struct Migration {
    int version = 0;
    QString description;
    QStringList statements;
};

// PRAGMA application_id of every Strata store ("STRA"): another program's SQLite file is refused.
constexpr int kApplicationId = 0x53545241;

// In ascending version order, starting at 1.
const QVector<Migration> &migrations();
int latestVersion();

// Reads the version of an open database: 0 for an empty one, -1 (with `error` filled) when it is
// not a Strata store (another program's application_id, tables but no schema_version, a
// user_version without tables), when schema_version and PRAGMA user_version disagree, or on SQL
// failure. A result above latestVersion() is a store from a newer Strata.
int readVersion(QSqlDatabase &db, QString *error);

// Applies every migration above the database's current version, each in its own transaction
// (each sets PRAGMA user_version to its version), then stamps application_id.
bool migrate(QSqlDatabase &db, int fromVersion, QString *error);

} // namespace strata::storeschema
