// The SQLite store: fresh schema, migration from version 1, refusing a newer store untouched,
// whole-or-nothing writes, and a CompileResult round trip.
#include "store/Store.h"
#include "store/StoreSchema.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

CompileResult sampleResult(const QString &kernel = QStringLiteral("add_kernel"))
{
    CompileResult r;
    r.protocol = 1;
    r.kernel = kernel;
    r.sourcePath = QStringLiteral("/tmp/strata-fixture-src/vector_add.py");
    r.target = QStringLiteral("sm_90");
    r.workDir = QStringLiteral("/tmp/out");
    r.spec = QJsonObject{{QStringLiteral("kernel"), kernel},
                         {QStringLiteral("divisibility_16"), QJsonArray{QStringLiteral("x_ptr")}}};
    r.durationSeconds = 2.5;
    r.artifacts.insert(QStringLiteral("source"), {QStringLiteral("/tmp/out/source.py"), 771, QStringLiteral("aa11")});
    r.artifacts.insert(QStringLiteral("ptx"), {QStringLiteral("/tmp/out/add_kernel.ptx"), 5400, QStringLiteral("bb22")});
    r.passDumps.append({0, QStringLiteral("Inliner"), QStringLiteral("inline"), QStringLiteral("builtin.module"),
                        QStringLiteral("ttir"), {QStringLiteral("/tmp/out/passes/000-inline.mlir"), 900, QStringLiteral("cc33")}});
    r.passDumps.append({1, QStringLiteral("TritonGPUCoalesce"), QStringLiteral("tritongpu-coalesce"),
                        QStringLiteral("builtin.module"), QStringLiteral("ttgir"),
                        {QStringLiteral("/tmp/out/passes/001-tritongpu-coalesce.mlir"), 1200, QStringLiteral("dd44")}});
    r.remarks.append({{r.sourcePath, 18, 16}, QStringLiteral("remark"),
                      QStringLiteral("Warning: vectorization fails vec = 1 origin vec = 4 numElems = 4 mask is 1")});
    r.ptxas.registers = 26;
    r.ptxas.spillStoreBytes = 8;
    r.ptxas.spillLoadBytes = 12;
    r.ptxas.sharedBytes = 1024;
    r.ptxas.warnings = {QStringLiteral("Registers are spilled to local memory")};
    r.metadata = QJsonObject{{QStringLiteral("num_warps"), 4}, {QStringLiteral("shared"), 0}};
    return r;
}

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

// Builds a database at `version` by running the schema history by hand, as an older Strata did.
void writeDatabaseAtVersion(const QString &path, int version)
{
    const QString name = QStringLiteral("tst-writer");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        for (const storeschema::Migration &m : storeschema::migrations()) {
            if (m.version > version)
                break;
            for (const QString &statement : m.statements)
                QVERIFY2(q.exec(statement), qPrintable(statement));
        }
        QVERIFY(q.exec(QStringLiteral("UPDATE schema_version SET version = %1").arg(version)));
        if (version == 1) {
            QVERIFY(q.exec("INSERT INTO kernels (id, source_path, kernel_name, source_sha256) "
                           "VALUES (7, '/k/old.py', 'old_kernel', 'ee55')"));
            QVERIFY(q.exec("INSERT INTO compiles (id, kernel_id, spec_json, target, status, work_dir, duration_s) "
                           "VALUES (3, 7, '{\"kernel\":\"old_kernel\"}', 'sm_80', 'ok', '/w', 1.5)"));
            QVERIFY(q.exec("INSERT INTO artifacts (compile_id, name, path, size, sha256) "
                           "VALUES (3, 'ptx', '/w/old.ptx', 10, 'ff66')"));
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
}

} // namespace

class TestStore : public QObject {
    Q_OBJECT

private slots:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); QVERIFY(m_dir->isValid()); }
    void freshStoreHasLatestSchema();
    void roundTripsACompileResult();
    void recordsFailedCompiles();
    void migratesVersionOneStore();
    void roundsAreRowsOfTheirOwn();
    void refusesNewerStoreUntouched();
    void failedWriteRollsBack();
    void twoStoresAtOnce();
    void notAStore();

private:
    QString dbPath() const { return m_dir->filePath(QStringLiteral("strata.db")); }
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestStore::freshStoreHasLatestSchema()
{
    auto store = Store::open(m_dir->filePath(QStringLiteral("sub/dir/strata.db")));
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE((*store)->schemaVersion(), storeschema::latestVersion());
    QCOMPARE(storeschema::latestVersion(), 5);
    QVERIFY((*store)->listKernels()->isEmpty());
}

void TestStore::roundTripsACompileResult()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    const CompileResult original = sampleResult();
    Expected<qint64> id = (*store)->recordCompile(original);
    QVERIFY2(id, qPrintable(id ? QString() : id.error().toString()));

    Expected<CompileResult> loaded = (*store)->loadCompile(*id);
    QVERIFY2(loaded, qPrintable(loaded ? QString() : loaded.error().toString()));
    QCOMPARE(toJson(*loaded), toJson(original));
    QCOMPARE(loaded->protocol.toInt(), 1);
    QCOMPARE(loaded->passDumps[1].passName, QStringLiteral("TritonGPUCoalesce"));
    QCOMPARE(loaded->remarks[0].loc.line, 18);
    QCOMPARE(loaded->ptxas.registers, 26);

    const QVector<KernelRecord> kernels = *(*store)->listKernels();
    QCOMPARE(kernels.size(), 1);
    QCOMPARE(kernels[0].kernelName, QStringLiteral("add_kernel"));
    QCOMPARE(kernels[0].sourceSha256, QStringLiteral("aa11"));   // the source artifact's hash
    QVERIFY(kernels[0].created.isValid());
    // A second compile of the same source lands under the same kernel.
    QVERIFY((*store)->recordCompile(original));
    QCOMPARE((*store)->listKernels()->size(), 1);
    const QVector<CompileRecord> compiles = *(*store)->compilesForKernel(kernels[0].id);
    QCOMPARE(compiles.size(), 2);
    QVERIFY(compiles[0].ok);
    QCOMPARE(compiles[0].target, QStringLiteral("sm_90"));
    QCOMPARE(compiles[0].durationSeconds, 2.5);
    QCOMPARE(compiles[0].spec, original.spec);
}

void TestStore::recordsFailedCompiles()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    FailedCompile failure{QStringLiteral("bad_kernel"), QStringLiteral("/tmp/bad.py"), QStringLiteral("1234"),
                          QStringLiteral("sm_90"), {}, QStringLiteral("/tmp/o"), 0.7,
                          ReadError{QStringLiteral("/tmp/bad.py"), 9, 0, QStringLiteral("NameError('undefined_thing is not defined')")}};
    Expected<qint64> id = (*store)->recordFailedCompile(failure);
    QVERIFY(id);
    const QVector<KernelRecord> kernels = *(*store)->listKernels();
    QCOMPARE(kernels.size(), 1);
    const QVector<CompileRecord> compiles = *(*store)->compilesForKernel(kernels[0].id);
    QCOMPARE(compiles.size(), 1);
    QVERIFY(!compiles[0].ok);
    QCOMPARE(compiles[0].errorFile, QStringLiteral("/tmp/bad.py"));
    QCOMPARE(compiles[0].errorLine, 9);
    QVERIFY(compiles[0].errorMessage.contains(QStringLiteral("undefined_thing")));
    Expected<CompileResult> loaded = (*store)->loadCompile(*id);
    QVERIFY(!loaded);
    QVERIFY(loaded.error().message.contains(QStringLiteral("failed")));
}

void TestStore::migratesVersionOneStore()
{
    writeDatabaseAtVersion(dbPath(), 1);
    auto store = Store::open(dbPath());
    QVERIFY2(store, qPrintable(store ? QString() : store.error().toString()));
    QCOMPARE((*store)->schemaVersion(), storeschema::latestVersion());
    // What version 1 held is still there...
    const QVector<KernelRecord> kernels = *(*store)->listKernels();
    QCOMPARE(kernels.size(), 1);
    QCOMPARE(kernels[0].kernelName, QStringLiteral("old_kernel"));
    Expected<CompileResult> old = (*store)->loadCompile(3);
    QVERIFY2(old, qPrintable(old ? QString() : old.error().toString()));
    QCOMPARE(old->target, QStringLiteral("sm_80"));
    QCOMPARE(old->artifacts.value(QStringLiteral("ptx")).path, QStringLiteral("/w/old.ptx"));
    QCOMPARE(old->sourcePath, QStringLiteral("/k/old.py"));   // from the kernel row: v1 had no column
    QVERIFY(old->passDumps.isEmpty());
    QCOMPARE(old->ptxas.registers, -1);
    // ... and version 2's tables take new compiles.
    Expected<qint64> id = (*store)->recordCompile(sampleResult());
    QVERIFY(id);
    QCOMPARE((*store)->loadCompile(*id)->passDumps.size(), 2);
}

void TestStore::roundsAreRowsOfTheirOwn()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    OptimizeRunRecord run;
    run.taskPath = QStringLiteral("/t/softmax.py");
    run.taskName = QStringLiteral("softmax");
    run.taskSha256 = QStringLiteral("ab");
    run.host = QStringLiteral("local");
    const Expected<qint64> runId = (*store)->beginOptimizeRun(run);
    QVERIFY(runId);
    CandidateRow candidate;
    candidate.runId = *runId;
    candidate.provider = QStringLiteral("initial");
    candidate.sourceText = QStringLiteral("pass");
    candidate.sourceSha256 = QStringLiteral("cd");
    candidate.state = QStringLiteral("accepted");
    const Expected<qint64> candidateId = (*store)->insertCandidate(candidate);
    QVERIFY(candidateId);
    const CandidateRow before = (*store)->candidatesForRun(*runId)->first();

    for (int iteration : {1, 2}) {
        RoundRow round;
        round.runId = *runId;
        round.iteration = iteration;
        round.candidateId = *candidateId;
        round.round = QJsonObject{{QStringLiteral("iteration"), iteration}};
        round.ladder = QJsonObject{{QStringLiteral("kernel"), QStringLiteral("softmax_kernel")}};
        QVERIFY((*store)->insertRound(round));
    }
    const Expected<QVector<RoundRow>> rounds = (*store)->roundsForRun(*runId);
    QVERIFY(rounds);
    QCOMPARE(rounds->size(), 2);
    QCOMPARE(rounds->at(1).iteration, 2);
    QCOMPARE(rounds->at(1).candidateId, *candidateId);
    QCOMPARE(rounds->at(1).ladder.value(QStringLiteral("kernel")).toString(), QStringLiteral("softmax_kernel"));
    QVERIFY(rounds->at(0).created.isValid());
    QVERIFY((*store)->roundsForRun(*runId + 1)->isEmpty());
    // Recording rounds leaves the diagnosed candidate as it was (a resumed run relies on it).
    const CandidateRow after = (*store)->candidatesForRun(*runId)->first();
    QCOMPARE(after.updated, before.updated);
    QCOMPARE(after.evidence, before.evidence);
}

void TestStore::refusesNewerStoreUntouched()
{
    writeDatabaseAtVersion(dbPath(), storeschema::latestVersion());
    {
        const QString name = QStringLiteral("tst-bump");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(dbPath());
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(QStringLiteral("UPDATE schema_version SET version = 99")));
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    const QByteArray before = fileHash(dbPath());
    auto store = Store::open(dbPath());
    QVERIFY(!store);
    QVERIFY2(store.error().message.contains(QStringLiteral("schema version 99")), qPrintable(store.error().toString()));
    QVERIFY(store.error().message.contains(QStringLiteral("newer")));
    QCOMPARE(store.error().file, dbPath());
    QCOMPARE(fileHash(dbPath()), before);
    QVERIFY(!QFile::exists(dbPath() + QStringLiteral("-wal")));   // not even switched to WAL
}

void TestStore::failedWriteRollsBack()
{
    auto store = Store::open(dbPath());
    QVERIFY(store);
    const CompileResult first = sampleResult();
    Expected<qint64> firstId = (*store)->recordCompile(first);
    QVERIFY(firstId);

    // Two dumps with one index break UNIQUE(compile_id, idx) after the kernel, compile and
    // artifact rows were already inserted: all of them must go.
    CompileResult broken = sampleResult(QStringLiteral("other_kernel"));
    broken.passDumps[1].index = broken.passDumps[0].index;
    Expected<qint64> brokenId = (*store)->recordCompile(broken);
    QVERIFY(!brokenId);
    QVERIFY2(brokenId.error().message.contains(QStringLiteral("pass dump 0")), qPrintable(brokenId.error().toString()));
    QCOMPARE(brokenId.error().file, dbPath());

    const QVector<KernelRecord> kernels = *(*store)->listKernels();
    QCOMPARE(kernels.size(), 1);
    QCOMPARE(kernels[0].kernelName, QStringLiteral("add_kernel"));
    QCOMPARE((*store)->compilesForKernel(kernels[0].id)->size(), 1);
    QCOMPARE(toJson(*(*store)->loadCompile(*firstId)), toJson(first));
    // The store still takes writes afterwards (no transaction left open).
    QVERIFY((*store)->recordCompile(sampleResult(QStringLiteral("third_kernel"))));
    QCOMPARE((*store)->listKernels()->size(), 2);
}

void TestStore::twoStoresAtOnce()
{
    auto a = Store::open(dbPath());
    auto b = Store::open(m_dir->filePath(QStringLiteral("other.db")));
    auto c = Store::open(dbPath());   // a second connection to the same file
    QVERIFY(a && b && c);
    QVERIFY((*a)->recordCompile(sampleResult()));
    QCOMPARE((*b)->listKernels()->size(), 0);
    QCOMPARE((*c)->listKernels()->size(), 1);
}

void TestStore::notAStore()
{
    {
        const QString name = QStringLiteral("tst-foreign");
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(dbPath());
            QVERIFY(db.open());
            QVERIFY(QSqlQuery(db).exec(QStringLiteral("CREATE TABLE photos (id INTEGER)")));
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    auto store = Store::open(dbPath());
    QVERIFY(!store);
    QVERIFY(store.error().message.contains(QStringLiteral("not a Strata store")));
    QFile text(m_dir->filePath(QStringLiteral("text.db")));
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("hello, this is no database at all, just some text to fill the header...........\n");
    text.close();
    auto garbage = Store::open(text.fileName());
    QVERIFY(!garbage);
    QCOMPARE(garbage.error().file, text.fileName());
}

QTEST_GUILESS_MAIN(TestStore)
#include "tst_store.moc"
