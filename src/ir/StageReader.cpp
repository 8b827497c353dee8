#include "ir/StageReader.h"

#include "core/TextLines.h"

#include "ir/llvm/LlvmIrReader.h"
#include "ir/mlir/MlirReader.h"
#include "ir/ptx/PtxReader.h"
#include "ir/sass/SassReader.h"

#include <QFile>
#include <QFileInfo>
#include <QStringList>

namespace strata::ir {
namespace {

// The kernel's own Python file: every line is its own source location, so the source pane joins
// the location map like any other stage.
StageListing readPythonSource(const QString &text, const QString &path)
{
    StageListing listing;
    const QStringList lines = splitLines(text);
    listing.lines.reserve(lines.size());
    for (int i = 0; i < lines.size(); ++i) {
        const QString trimmed = lines[i].trimmed();
        const LineKind kind = trimmed.isEmpty() ? LineKind::Blank
            : trimmed.startsWith(QLatin1Char('#')) ? LineKind::Comment
                                                    : LineKind::Other;
        listing.lines.append(ListingLine{lines[i], kind, {}, {SourceLocation{path, i + 1, 0}}});
    }
    return listing;
}

StageListing readPlainText(const QString &text)
{
    StageListing listing;
    const QStringList lines = splitLines(text);
    listing.lines.reserve(lines.size());
    for (const QString &line : lines)
        listing.lines.append(ListingLine{line, line.trimmed().isEmpty() ? LineKind::Blank : LineKind::Other, {}, {}});
    return listing;
}

Expected<StageListing> readByFormat(StageFormat format, const QString &text, const QString &path)
{
    switch (format) {
    case StageFormat::MlirText: return readMlirListing(text, path);
    case StageFormat::LlvmIr: return readLlvmIrListing(text, path);
    case StageFormat::Ptx: return readPtxListing(text, path);
    case StageFormat::Sass: return readSassListing(text, path);
    case StageFormat::PythonSource: return readPythonSource(text, path);
    case StageFormat::PlainText: return readPlainText(text);
    case StageFormat::Binary:
        return ReadError{path, 0, 0, QStringLiteral("a binary artifact has no text to read"), ProblemKind::NotAStage};
    }
    return ReadError{path, 0, 0, QStringLiteral("unknown stage format")};
}

// A file cut mid-line fails on its unfinished last line (inside a string, an address without
// its instruction): the cut is the cause, not the syntax.
ReadError blameTheCut(ReadError error, const QString &text)
{
    if (error.kind != ProblemKind::Syntax || text.isEmpty() || text.endsWith(QLatin1Char('\n'))
        || error.line < int(text.count(QLatin1Char('\n'))) + 1)
        return error;
    error.kind = ProblemKind::Truncated;
    error.message += QStringLiteral(" (on the last line, which never ends: the file is cut short)");
    return error;
}

} // namespace

Expected<StageListing> readStageText(StageFormat format, const QString &stageId, const QString &text,
                                     const QString &path)
{
    Expected<StageListing> listing = readByFormat(format, text, path);
    if (!listing)
        return blameTheCut(listing.error(), text);
    if (listing) {
        listing->stage = stageId;  // readers name their usual stage; per-pass dumps need theirs
        listing->path = path;
    }
    return listing;
}

bool formatCarriesLocations(StageFormat format)
{
    return format == StageFormat::MlirText || format == StageFormat::LlvmIr || format == StageFormat::Ptx
        || format == StageFormat::Sass;
}

void completeFromEarlierStages(const QVector<StageFormat> &formats, QVector<StageListing> &listings)
{
    StageListing *ptx = nullptr;
    StageListing *sass = nullptr;
    for (int i = 0; i < formats.size() && i < listings.size(); ++i) {
        if (formats[i] == StageFormat::Ptx)
            ptx = &listings[i];
        else if (formats[i] == StageFormat::Sass)
            sass = &listings[i];
    }
    if (sass)
        resolvePtxTextFrames(*sass, ptx);
    if (ptx && sass)
        adoptCallSitesFromPtx(*sass, *ptx);
}

Expected<StageListing> readStageFile(StageFormat format, const QString &stageId, const QString &path)
{
    QFile file(path);
    if (!QFileInfo::exists(path))
        return ReadError{path, 0, 0, QStringLiteral("the %1 stage file does not exist").arg(stageId), ProblemKind::Missing};
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read the %1 stage file: %2").arg(stageId, file.errorString()),
                         ProblemKind::Unreadable};
    return readStageText(format, stageId, QString::fromUtf8(file.readAll()), path);
}

} // namespace strata::ir
