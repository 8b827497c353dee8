#include "store/Store.h"

#include "store/StoreInternal.h"
#include "store/StoreSchema.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <atomic>

namespace strata {

using namespace storeinternal;

namespace {

QString uniqueConnectionName(const QString &role)
{
    static std::atomic<quint64> counter{0};
    return QStringLiteral("strata-store-%1-%2").arg(role).arg(++counter);
}

// Removes a connection once every QSqlDatabase handle to it is gone.
void dropConnection(const QString &name)
{
    {
        QSqlDatabase db = QSqlDatabase::database(name, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

// SQLite itself treats a file that is not a database, but is shorter than one page, as empty and
// overwrites it on the first write. Check the header ourselves: a non-empty file that does not
// start with SQLite's magic string is someone else's and is never touched.
Expected<bool> checkSqliteHeader(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot open store: %1").arg(file.errorString())};
    if (file.size() == 0)
        return true;   // nothing to lose: created by mktemp or touch, initialized like a new store
    static const QByteArray magic("SQLite format 3\0", 16);
    if (file.read(magic.size()) != magic)
        return ReadError{path, 0, 0, QStringLiteral("not a Strata store: the file is not an SQLite database "
                                                    "(%1 bytes); refusing to overwrite it, give another --db")
                                         .arg(file.size())};
    return true;
}

// Reads the schema version of an existing file without writing to it (read-only connection),
// so that a store from a newer Strata is never touched.
Expected<int> probeVersion(const QString &path)
{
    const QString name = uniqueConnectionName(QStringLiteral("probe"));
    int version = -1;
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            error = db.lastError().text();
        else
            version = storeschema::readVersion(db, &error);
    }
    dropConnection(name);
    if (version < 0)
        return ReadError{path, 0, 0, QStringLiteral("cannot open store: %1").arg(error)};
    return version;
}

bool pragma(QSqlDatabase &db, const QString &statement, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(statement))
        return true;
    *error = query.lastError().text();
    return false;
}

bool configureConnection(QSqlDatabase &db, QString *error)
{
    return pragma(db, QStringLiteral("PRAGMA foreign_keys = ON"), error)
        && pragma(db, QStringLiteral("PRAGMA journal_mode = WAL"), error)
        && pragma(db, QStringLiteral("PRAGMA synchronous = NORMAL"), error);
}

} // namespace

Store::Store(QString path, QString connectionName)
    : m_path(std::move(path)), m_connectionName(std::move(connectionName))
{
}

Store::~Store()
{
    dropConnection(m_connectionName);
}

Expected<std::unique_ptr<Store>> Store::open(const QString &path)
{
    if (!QSqlDatabase::isDriverAvailable(QStringLiteral("QSQLITE")))
        return ReadError{path, 0, 0, QStringLiteral("the Qt SQLite driver (QSQLITE) is not available")};
    int version = 0;
    if (QFileInfo::exists(path)) {
        if (Expected<bool> header = checkSqliteHeader(path); !header)
            return header.error();
        Expected<int> probed = probeVersion(path);
        if (!probed)
            return probed.error();
        version = *probed;
    } else if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        return ReadError{path, 0, 0, QStringLiteral("cannot create the store's folder")};
    }
    const int latest = storeschema::latestVersion();
    if (version > latest)
        return ReadError{path, 0, 0, QStringLiteral("store has schema version %1, newer than this "
                                                    "Strata knows (%2); use a newer Strata or another --db")
                                         .arg(version).arg(latest)};

    const QString name = uniqueConnectionName(QStringLiteral("rw"));
    std::unique_ptr<Store> store(new Store(path, name));  // owns the connection from here on
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
    QString error;
    if (!db.open())
        return ReadError{path, 0, 0, QStringLiteral("cannot open store: %1").arg(db.lastError().text())};
    if (!configureConnection(db, &error) || !storeschema::migrate(db, version, &error))
        return ReadError{path, 0, 0, error};
    return store;
}

int Store::schemaVersion() const
{
    QSqlDatabase db = connection(m_connectionName);
    QString error;
    return storeschema::readVersion(db, &error);
}

QString defaultStorePath()
{
    QString dataHome = qEnvironmentVariable("XDG_DATA_HOME");
    if (dataHome.isEmpty())
        dataHome = QDir::homePath() + QStringLiteral("/.local/share");
    return dataHome + QStringLiteral("/strata/strata.db");
}

} // namespace strata
