// Which files the store accepts: a file that is not SQLite (even one byte) is refused and left
// as it was, never replaced; PRAGMA user_version and application_id agree with the schema version
// and a newer, foreign or inconsistent store is refused untouched. docs/cli.md names the version.
#include "store/Store.h"
#include "store/StoreSchema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    QCOMPARE(file.write(bytes), bytes.size());
}

// Runs `statements` on the SQLite file at `path` with a plain connection (no Store).
void execOn(const QString &path, const QStringList &statements)
{
    const QString name = QStringLiteral("tst-header-exec");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery query(db);
        for (const QString &statement : statements)
            QVERIFY2(query.exec(statement), qPrintable(statement));
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

int pragmaOn(const QString &path, const QString &pragma)
{
    const QString name = QStringLiteral("tst-header-read");
    int value = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery query(db);
            if (query.exec(QStringLiteral("PRAGMA ") + pragma) && query.next())
                value = query.value(0).toInt();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return value;
}

// A current store, closed again, with one compile in it.
void writeCurrentStore(const QString &path)
{
    auto store = Store::open(path);
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    CompileResult result;
    result.kernel = QStringLiteral("add_kernel");
    result.sourcePath = QStringLiteral("/k/add.py");
    result.target = QStringLiteral("sm_90");
    result.artifacts.insert(QStringLiteral("source"), {QStringLiteral("/k/source.py"), 10, QStringLiteral("aa11")});
    const Expected<qint64> id = (*store)->recordCompile(result);
    QVERIFY2(id, qPrintable(id ? QString() : id.error().toString()));
}

} // namespace

class TestStoreHeader : public QObject {
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); QVERIFY(m_dir->isValid()); }
    void nonSqliteFileIsRefusedUntouched_data();
    void nonSqliteFileIsRefusedUntouched();
    void emptyFileBecomesAStore();
    void freshStoreStampsTheHeader();
    void olderUnstampedStoreIsStamped();
    void newerUserVersionIsRefusedUntouched();
    void foreignApplicationIdIsRefused();
    void userVersionWithoutTablesIsForeign();
    void disagreeingVersionsAreRefused();
    void docsNameTheSchemaVersion();

private:
    QString dbPath() const { return m_dir->filePath(QStringLiteral("strata.db")); }
    void expectRefusedUntouched(const QString &needle);
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestStoreHeader::expectRefusedUntouched(const QString &needle)
{
    const QByteArray before = fileHash(dbPath());
    const qint64 sizeBefore = QFileInfo(dbPath()).size();
    auto store = Store::open(dbPath());
    QVERIFY(!store);
    QVERIFY2(store.error().message.contains(needle), qPrintable(store.error().toString()));
    QCOMPARE(store.error().file, dbPath());
    QCOMPARE(QFileInfo(dbPath()).size(), sizeBefore);
    QCOMPARE(fileHash(dbPath()), before);
    // The read-only probe of a WAL-mode store may leave SQLite's empty -wal beside it, never a write.
    QCOMPARE(QFileInfo(dbPath() + QStringLiteral("-wal")).size(), 0);
}

void TestStoreHeader::nonSqliteFileIsRefusedUntouched_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::newRow("one byte") << QByteArray("x");
    QTest::newRow("one newline") << QByteArray("\n");
    QTest::newRow("short text") << QByteArray("notes: remember the milk\n");
    QTest::newRow("almost the magic") << QByteArray("SQLite format 2\0", 16);
    QTest::newRow("binary page") << QByteArray(4096, '\x7f');
}

void TestStoreHeader::nonSqliteFileIsRefusedUntouched()
{
    QFETCH(QByteArray, content);
    writeFile(dbPath(), content);
    expectRefusedUntouched(QStringLiteral("not an SQLite database"));
    QCOMPARE(QFileInfo(dbPath()).size(), qint64(content.size()));
}

void TestStoreHeader::emptyFileBecomesAStore()
{
    writeFile(dbPath(), {});
    auto store = Store::open(dbPath());
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE((*store)->schemaVersion(), storeschema::latestVersion());
}

void TestStoreHeader::freshStoreStampsTheHeader()
{
    writeCurrentStore(dbPath());
    QCOMPARE(pragmaOn(dbPath(), QStringLiteral("user_version")), storeschema::latestVersion());
    QCOMPARE(pragmaOn(dbPath(), QStringLiteral("application_id")), storeschema::kApplicationId);
}

void TestStoreHeader::olderUnstampedStoreIsStamped()
{
    // A store written before Strata set the header: tables at the latest version, user_version 0.
    writeCurrentStore(dbPath());
    execOn(dbPath(), {QStringLiteral("PRAGMA user_version = 0"), QStringLiteral("PRAGMA application_id = 0")});
    QCOMPARE(pragmaOn(dbPath(), QStringLiteral("user_version")), 0);
    auto store = Store::open(dbPath());
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE((*store)->listKernels()->size(), 1);
    store->reset();
    QCOMPARE(pragmaOn(dbPath(), QStringLiteral("user_version")), storeschema::latestVersion());
    QCOMPARE(pragmaOn(dbPath(), QStringLiteral("application_id")), storeschema::kApplicationId);
}

void TestStoreHeader::newerUserVersionIsRefusedUntouched()
{
    writeCurrentStore(dbPath());
    execOn(dbPath(), {QStringLiteral("PRAGMA user_version = 99")});
    expectRefusedUntouched(QStringLiteral("schema version 99, newer"));
}

void TestStoreHeader::foreignApplicationIdIsRefused()
{
    writeCurrentStore(dbPath());
    execOn(dbPath(), {QStringLiteral("PRAGMA application_id = 1234")});
    expectRefusedUntouched(QStringLiteral("application_id 0x000004d2 belongs to another program"));
}

void TestStoreHeader::userVersionWithoutTablesIsForeign()
{
    execOn(dbPath(), {QStringLiteral("PRAGMA user_version = 7")});
    expectRefusedUntouched(QStringLiteral("user_version 7 and no tables"));
}

void TestStoreHeader::disagreeingVersionsAreRefused()
{
    writeCurrentStore(dbPath());
    execOn(dbPath(), {QStringLiteral("PRAGMA user_version = 2")});
    expectRefusedUntouched(QStringLiteral("schema_version table says %1, PRAGMA user_version says 2")
                               .arg(storeschema::latestVersion()));
}

void TestStoreHeader::docsNameTheSchemaVersion()
{
    QFile docs(QStringLiteral(STRATA_SOURCE_DIR "/docs/cli.md"));
    QVERIFY(docs.open(QIODevice::ReadOnly));
    const QRegularExpression sentence(QStringLiteral("store's schema is version (\\d+)"));
    const QRegularExpressionMatch match = sentence.match(QString::fromUtf8(docs.readAll()));
    QVERIFY2(match.hasMatch(), "docs/cli.md no longer says \"store's schema is version N\"");
    QCOMPARE(match.captured(1).toInt(), storeschema::latestVersion());
}

QTEST_GUILESS_MAIN(TestStoreHeader)
#include "tst_store_header.moc"
