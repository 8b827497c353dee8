#include "trace/TraceLines.h"

#include <QFile>

#include <zlib.h>
#include <zstd.h>

#include <memory>

namespace strata::trace {

namespace {

constexpr qint64 kChunkBytes = 1 << 18;

// Splits decompressed bytes into lines and hands complete ones to the visitor.
class LineSplitter {
public:
    LineSplitter(const LineVisitor &visit) : m_visit(visit) {}

    std::optional<ReadError> feed(const char *data, qsizetype size)
    {
        m_pending.append(data, size);
        qsizetype start = 0;
        for (qsizetype newline; !m_stopped && (newline = m_pending.indexOf('\n', start)) >= 0; start = newline + 1) {
            if (auto error = deliver(m_pending.sliced(start, newline - start)))
                return error;
        }
        m_pending.remove(0, start);
        return std::nullopt;
    }
    // The last line may lack its newline.
    std::optional<ReadError> finish()
    {
        const QByteArray rest = std::exchange(m_pending, {});
        return rest.trimmed().isEmpty() || m_stopped ? std::nullopt : deliver(rest);
    }
    int lines() const { return m_line; }
    bool stopped() const { return m_stopped; }

private:
    std::optional<ReadError> deliver(const QByteArray &line)
    {
        ++m_line;
        if (line.trimmed().isEmpty())
            return std::nullopt;
        return m_visit(m_line, line.endsWith('\r') ? line.chopped(1) : line, &m_stopped);
    }

    const LineVisitor &m_visit;
    QByteArray m_pending;
    int m_line = 0;
    bool m_stopped = false;
};

ReadError corrupt(const QString &path, const LineSplitter &lines, const QString &what)
{
    if (lines.lines() == 0)
        return ReadError{path, 0, 0, QStringLiteral("%1 (before its first line)").arg(what)};
    return ReadError{path, lines.lines(), 0,
                     QStringLiteral("%1 (after line %2 of the decompressed trace)").arg(what).arg(lines.lines())};
}

// gzip members one after another, as tritonparse writes them; a member cut short is an error.
std::optional<ReadError> readGzip(QFile &file, LineSplitter &lines)
{
    z_stream stream{};
    if (inflateInit2(&stream, 15 + 32) != Z_OK)  // 15 + 32: zlib or gzip header, detected
        return ReadError{file.fileName(), 0, 0, QStringLiteral("cannot start the gzip decoder")};
    std::unique_ptr<z_stream, int (*)(z_stream *)> guard(&stream, inflateEnd);
    QByteArray out(kChunkBytes, Qt::Uninitialized);
    bool inMember = false;
    while (!file.atEnd() && !lines.stopped()) {
        QByteArray in = file.read(kChunkBytes);
        stream.next_in = reinterpret_cast<Bytef *>(in.data());
        stream.avail_in = uInt(in.size());
        while (stream.avail_in > 0 && !lines.stopped()) {
            inMember = true;
            stream.next_out = reinterpret_cast<Bytef *>(out.data());
            stream.avail_out = uInt(out.size());
            const uInt inputBefore = stream.avail_in;
            const int status = inflate(&stream, Z_NO_FLUSH);
            const bool stuck = status == Z_BUF_ERROR && stream.avail_in == inputBefore && stream.avail_out == uInt(out.size());
            if ((status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) || stuck)
                return corrupt(file.fileName(), lines,
                               QStringLiteral("corrupt gzip data: %1").arg(QString::fromUtf8(stream.msg ? stream.msg : "inflate failed")));
            if (auto error = lines.feed(out.constData(), out.size() - qsizetype(stream.avail_out)))
                return error;
            if (status == Z_STREAM_END) {  // the next member, if any, starts right after
                inflateReset(&stream);
                inMember = false;
            }
        }
    }
    if (inMember && !lines.stopped())
        return corrupt(file.fileName(), lines, QStringLiteral("the gzip data is cut short (truncated file?)"));
    return std::nullopt;
}

std::optional<ReadError> readZstd(QFile &file, LineSplitter &lines)
{
    std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream *)> stream(ZSTD_createDStream(), ZSTD_freeDStream);
    ZSTD_initDStream(stream.get());
    QByteArray out(qsizetype(ZSTD_DStreamOutSize()), Qt::Uninitialized);
    size_t lastHint = 0;
    while (!file.atEnd() && !lines.stopped()) {
        QByteArray in = file.read(kChunkBytes);
        ZSTD_inBuffer input{in.constData(), size_t(in.size()), 0};
        while (input.pos < input.size && !lines.stopped()) {
            ZSTD_outBuffer output{out.data(), size_t(out.size()), 0};
            lastHint = ZSTD_decompressStream(stream.get(), &output, &input);
            if (ZSTD_isError(lastHint))
                return corrupt(file.fileName(), lines,
                               QStringLiteral("corrupt zstd data: %1").arg(QString::fromUtf8(ZSTD_getErrorName(lastHint))));
            if (auto error = lines.feed(out.constData(), qsizetype(output.pos)))
                return error;
        }
    }
    if (lastHint != 0 && !lines.stopped())  // 0: the last frame ended
        return corrupt(file.fileName(), lines, QStringLiteral("the zstd data is cut short (truncated file?)"));
    return std::nullopt;
}

std::optional<ReadError> readPlain(QFile &file, LineSplitter &lines)
{
    while (!file.atEnd() && !lines.stopped()) {
        const QByteArray in = file.read(kChunkBytes);
        if (auto error = lines.feed(in.constData(), in.size()))
            return error;
    }
    return std::nullopt;
}

} // namespace

TraceCompression traceCompression(const QByteArray &head)
{
    if (head.startsWith("\x1f\x8b"))
        return TraceCompression::Gzip;
    if (head.startsWith("\x28\xb5\x2f\xfd"))
        return TraceCompression::Zstd;
    return TraceCompression::None;
}

Expected<int> forEachTraceLine(const QString &path, const LineVisitor &visit)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot open the trace: %1").arg(file.errorString())};
    LineSplitter lines(visit);
    std::optional<ReadError> error;
    switch (traceCompression(file.peek(4))) {
    case TraceCompression::Gzip: error = readGzip(file, lines); break;
    case TraceCompression::Zstd: error = readZstd(file, lines); break;
    case TraceCompression::None: error = readPlain(file, lines); break;
    }
    if (!error)
        error = lines.finish();
    if (error)
        return *error;
    return lines.lines();
}

} // namespace strata::trace
