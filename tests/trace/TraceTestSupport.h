#pragma once
// The committed tritonparse traces (tests/fixtures/traces, generate_traces.py) and helpers that
// write damaged copies of them.
#include <QByteArray>
#include <QFile>
#include <QString>

namespace strata::testing {

// Cross-compiled on a CPU host: 5 compilation events, no launches, plain NDJSON.
inline QString cpuTrace() { return QStringLiteral(STRATA_FIXTURES_DIR "/traces/cpu/trace.ndjson"); }
// Run on an H200 with launch tracing: tritonparse's gzip form (one member per event).
inline QString h200Trace() { return QStringLiteral(STRATA_FIXTURES_DIR "/traces/h200/trace.bin.ndjson"); }
// `tritonparse parse` of h200Trace(): a single gzip stream with analysis events added.
inline QString h200Parsed() { return QStringLiteral(STRATA_FIXTURES_DIR "/traces/h200/trace_mapped.ndjson.gz"); }

// An Expected's error text, or nothing when it holds a value (safe as a QVERIFY2 message).
template <typename T>
QString whyNot(const T &expected)
{
    return expected ? QString() : expected.error().toString();
}

inline QByteArray readAll(const QString &path)
{
    QFile file(path);
    file.open(QIODevice::ReadOnly);
    return file.readAll();
}

inline bool writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

} // namespace strata::testing
