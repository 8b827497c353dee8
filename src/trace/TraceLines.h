#pragma once
// Reads a tritonparse trace line by line, whatever its compression: plain NDJSON, gzip (one member
// or many: tritonparse's own gzip mode writes one member per event, `tritonparse parse` writes
// .ndjson.gz), or zstd frames. The format is told by the file's first bytes, not its name.
#include "core/Expected.h"

#include <QByteArray>
#include <QString>
#include <functional>

namespace strata::trace {

enum class TraceCompression { None, Gzip, Zstd };

// Called with each line (1-based number, without the newline). Returning a ReadError stops the
// read with that error; setting `*stop` ends it early without one.
using LineVisitor = std::function<std::optional<ReadError>(int lineNumber, const QByteArray &line, bool *stop)>;

// Visits every non-empty line (until the visitor stops). Fails, naming the file and the last complete line, when the file
// cannot be opened or its compressed data is corrupt or cut short. Returns the number of lines.
Expected<int> forEachTraceLine(const QString &path, const LineVisitor &visit);

// The compression the first bytes of `path` announce.
TraceCompression traceCompression(const QByteArray &head);

} // namespace strata::trace
