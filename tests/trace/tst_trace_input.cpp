// Damaged and unusual trace files: each fails with an error naming the file and the line (or
// says where the compressed data broke), never a crash; zstd frames read like plain lines.
#include "TraceTestSupport.h"

#include "trace/TraceImport.h"
#include "trace/TritonParseTrace.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <zstd.h>

using namespace strata;
using namespace strata::trace;
using namespace strata::testing;

namespace {

QList<QByteArray> cpuLines()
{
    return readAll(cpuTrace()).split('\n');
}

QByteArray zstdFrame(const QByteArray &data)
{
    QByteArray frame(qsizetype(ZSTD_compressBound(size_t(data.size()))), Qt::Uninitialized);
    const size_t size = ZSTD_compress(frame.data(), size_t(frame.size()), data.constData(), size_t(data.size()), 3);
    frame.resize(qsizetype(size));
    return frame;
}

// The first compilation event with one key removed (a dotted path into the event).
QByteArray withoutKey(const QString &path)
{
    QJsonObject event = QJsonDocument::fromJson(cpuLines().first()).object();
    const QStringList keys = path.split(u'.');
    QJsonObject payload = event.value(QStringLiteral("payload")).toObject();
    if (keys.size() == 2) {
        payload.remove(keys[1]);
    } else {
        QJsonObject inner = payload.value(keys[1]).toObject();
        inner.remove(keys[2]);
        payload.insert(keys[1], inner);
    }
    event.insert(QStringLiteral("payload"), payload);
    return QJsonDocument(event).toJson(QJsonDocument::Compact) + '\n';
}

} // namespace

class TraceInputTest : public QObject {
    Q_OBJECT
private slots:
    void init() { QVERIFY(m_dir.isValid()); }
    void truncatedGzip_data();
    void truncatedGzip();
    void corruptGzip();
    void notJsonLine();
    void lastLineCutShort();
    void compilationEventMissingFields_data();
    void compilationEventMissingFields();
    void launchWithoutName();
    void noCompilationEvent();
    void zstdFrames();
    void kernelWithoutSpecStillImports();

private:
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

void TraceInputTest::truncatedGzip_data()
{
    QTest::addColumn<QString>("fixture");
    QTest::newRow("one gzip stream (parse output)") << h200Parsed();
    QTest::newRow("gzip members (raw trace)") << h200Trace();
}

void TraceInputTest::truncatedGzip()
{
    QFETCH(QString, fixture);
    const QByteArray whole = readAll(fixture);
    const QString cut = path(QStringLiteral("cut.ndjson.gz"));
    QVERIFY(writeAll(cut, whole.left(whole.size() * 6 / 10)));
    const Expected<TraceIndex> index = readTrace(cut, {});
    QVERIFY(!index);
    QCOMPARE(index.error().file, cut);
    QVERIFY2(index.error().message.contains(QStringLiteral("cut short")), qPrintable(whyNot(index)));
    QVERIFY(index.error().line > 0);  // the last line read whole
}

void TraceInputTest::corruptGzip()
{
    QByteArray bytes = readAll(h200Parsed());
    for (qsizetype i = 2000; i < 2400; ++i)
        bytes[i] = char(bytes[i] ^ 0x5a);
    const QString corrupt = path(QStringLiteral("corrupt.ndjson.gz"));
    QVERIFY(writeAll(corrupt, bytes));
    const Expected<TraceIndex> index = readTrace(corrupt, {});
    QVERIFY(!index);
    QCOMPARE(index.error().file, corrupt);
    QVERIFY2(index.error().message.contains(QStringLiteral("corrupt gzip data")), qPrintable(whyNot(index)));
}

void TraceInputTest::notJsonLine()
{
    const QList<QByteArray> lines = cpuLines();
    const QString bad = path(QStringLiteral("bad.ndjson"));
    QVERIFY(writeAll(bad, lines[0] + "\n" + "[tritonparse] this is a log line, not JSON\n" + lines[1] + "\n"));
    const Expected<TraceIndex> index = readTrace(bad, {});
    QVERIFY(!index);
    QCOMPARE(index.error().file, bad);
    QCOMPARE(index.error().line, 2);
    QVERIFY2(index.error().message.contains(QStringLiteral("not a JSON line")), qPrintable(whyNot(index)));
    QVERIFY(index.error().toString().startsWith(bad + QStringLiteral(":2:")));
}

void TraceInputTest::lastLineCutShort()
{
    const QByteArray whole = readAll(cpuTrace());
    const QString cut = path(QStringLiteral("cut.ndjson"));
    QVERIFY(writeAll(cut, whole.left(whole.size() - 5000)));  // inside the last event
    const Expected<TraceIndex> index = readTrace(cut, {});
    QVERIFY(!index);
    QCOMPARE(index.error().line, 5);
}

void TraceInputTest::compilationEventMissingFields_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("named");
    QTest::newRow("hash") << QStringLiteral("payload.metadata.hash") << QStringLiteral("payload.metadata.hash");
    QTest::newRow("name") << QStringLiteral("payload.metadata.name") << QStringLiteral("payload.metadata.name");
    QTest::newRow("target") << QStringLiteral("payload.metadata.target") << QStringLiteral("payload.metadata.target");
    QTest::newRow("file_content") << QStringLiteral("payload.file_content") << QStringLiteral("payload.file_content");
    QTest::newRow("metadata") << QStringLiteral("payload.metadata") << QStringLiteral("payload.metadata.name");
}

void TraceInputTest::compilationEventMissingFields()
{
    QFETCH(QString, key);
    QFETCH(QString, named);
    const QString bad = path(QStringLiteral("missing.ndjson"));
    QVERIFY(writeAll(bad, cpuLines()[1] + "\n" + withoutKey(key)));
    const Expected<TraceIndex> index = readTrace(bad, {});
    QVERIFY(!index);
    QCOMPARE(index.error().file, bad);
    QCOMPARE(index.error().line, 2);
    QCOMPARE(index.error().message, QStringLiteral("compilation event lacks ") + named);
}

void TraceInputTest::launchWithoutName()
{
    const QString bad = path(QStringLiteral("launch.ndjson"));
    QVERIFY(writeAll(bad, cpuLines()[0] + "\n{\"event_type\": \"launch\", \"grid\": [1]}\n"));
    const Expected<TraceIndex> index = readTrace(bad, {});
    QVERIFY(!index);
    QCOMPARE(index.error().line, 2);
    QCOMPARE(index.error().message, QStringLiteral("launch event lacks \"name\""));
}

void TraceInputTest::noCompilationEvent()
{
    const QString launchesOnly = path(QStringLiteral("launches.ndjson"));
    QVERIFY(writeAll(launchesOnly, "{\"event_type\": \"launch\", \"name\": \"k\"}\n\n"));
    const Expected<TraceIndex> index = readTrace(launchesOnly, {});
    QVERIFY(!index);
    QVERIFY(index.error().message.contains(QStringLiteral("no compilation event")));
    QVERIFY(!readTrace(path(QStringLiteral("absent.ndjson")), {}));
}

// tritonparse's zstd mode writes one frame per event, like its gzip mode.
void TraceInputTest::zstdFrames()
{
    QByteArray frames;
    for (const QByteArray &line : cpuLines())
        if (!line.isEmpty())
            frames += zstdFrame(line + '\n');
    const QString zstd = path(QStringLiteral("trace.bin.ndjson"));
    QVERIFY(writeAll(zstd, frames));
    const Expected<TraceIndex> index = readTrace(zstd, {});
    QVERIFY2(index, qPrintable(whyNot(index)));
    QCOMPARE(index->kernels.size(), 5);
    QCOMPARE(index->kernels[1].spec, readTrace(cpuTrace(), {})->kernels[1].spec);
    const QString cut = path(QStringLiteral("cut.bin.ndjson"));
    QVERIFY(writeAll(cut, frames.left(frames.size() - 100)));
    const Expected<TraceIndex> truncated = readTrace(cut, {});
    QVERIFY(!truncated);
    QVERIFY2(truncated.error().message.contains(QStringLiteral("zstd data is cut short")), qPrintable(whyNot(truncated)));
}

// An event whose parameters cannot be typed (no python_source) is still listed and imported;
// only the spec is missing, and the listing says why.
void TraceInputTest::kernelWithoutSpecStillImports()
{
    const QString noSource = path(QStringLiteral("nosource.ndjson"));
    QVERIFY(writeAll(noSource, withoutKey(QStringLiteral("payload.python_source"))));
    const Expected<TraceIndex> index = readTrace(noSource, {});
    QVERIFY2(index, qPrintable(whyNot(index)));
    QVERIFY(index->kernels.first().spec.isEmpty());
    QVERIFY(index->kernels.first().specProblem.contains(QStringLiteral("def add_kernel")));
    QTemporaryDir out;
    const Expected<CompileResult> result = importKernel(*index, 0, out.path());
    QVERIFY2(result, qPrintable(whyNot(result)));
    QVERIFY(result->artifacts.contains(QStringLiteral("ptx")));
}

QTEST_GUILESS_MAIN(TraceInputTest)
#include "tst_trace_input.moc"
