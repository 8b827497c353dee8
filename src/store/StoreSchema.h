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

// In ascending version order, starting at 1.
const QVector<Migration> &migrations();
int latestVersion();

// Reads the version of an open database: 0 for an empty one, -1 when it is not a Strata store
// (it has tables but no schema_version). On SQL failure returns -1 and fills `error`.
int readVersion(QSqlDatabase &db, QString *error);

// Applies every migration above the database's current version, each in its own transaction.
bool migrate(QSqlDatabase &db, int fromVersion, QString *error);

} // namespace strata::storeschema
