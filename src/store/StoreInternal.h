#pragma once
// Helpers shared by the store's reading and writing halves (not part of the public API).
#include "core/Expected.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>

namespace strata::storeinternal {

inline QSqlDatabase connection(const QString &name)
{
    return QSqlDatabase::database(name, /*open=*/false);
}

inline ReadError sqlError(const QString &dbPath, const QString &what, const QSqlError &error)
{
    return ReadError{dbPath, 0, 0, QStringLiteral("%1: %2").arg(what, error.text())};
}

// Prepares and runs `query`; on failure leaves the error in `error`.
inline bool run(QSqlQuery &query, const QString &dbPath, const QString &what, ReadError *error)
{
    if (query.exec())
        return true;
    *error = sqlError(dbPath, what, query.lastError());
    return false;
}

} // namespace strata::storeinternal
