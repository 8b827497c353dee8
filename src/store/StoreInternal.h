#pragma once
// Helpers shared by the store's reading and writing halves (not part of the public API).
#include "core/Expected.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <QVariant>

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

inline QString fileSha256(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

inline QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

inline QJsonObject parseObject(const QVariant &text)
{
    return QJsonDocument::fromJson(text.toString().toUtf8()).object();
}

// One write transaction; rolls back in its destructor unless committed.
class WriteTransaction {
public:
    WriteTransaction(QSqlDatabase db, QString dbPath) : m_db(std::move(db)), m_path(std::move(dbPath)) {}
    ~WriteTransaction() { if (m_open) m_db.rollback(); }
    WriteTransaction(const WriteTransaction &) = delete;
    WriteTransaction &operator=(const WriteTransaction &) = delete;

    bool begin(ReadError *error)
    {
        m_open = m_db.transaction();
        if (!m_open)
            *error = sqlError(m_path, QStringLiteral("cannot start a write"), m_db.lastError());
        return m_open;
    }
    bool commit(ReadError *error)
    {
        if (m_db.commit()) {
            m_open = false;
            return true;
        }
        *error = sqlError(m_path, QStringLiteral("cannot commit the write"), m_db.lastError());
        return false;
    }
    QSqlDatabase &db() { return m_db; }
    const QString &path() const { return m_path; }

private:
    QSqlDatabase m_db;
    QString m_path;
    bool m_open = false;
};

} // namespace strata::storeinternal
