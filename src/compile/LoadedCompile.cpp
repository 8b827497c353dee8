#include "compile/LoadedCompile.h"

#include "ir/StageReader.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <optional>

namespace strata {

namespace {

const QString kSourceArtifact = QStringLiteral("source");

Expected<QString> readText(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read kernel source: %1").arg(file.errorString())};
    return QString::fromUtf8(file.readAll());
}

// The source artifact is a copy of the kernel file; its lines must carry the path the compiler
// saw (result.sourcePath) so that the location map joins them with the IR stages.
void anchorSourceLines(StageListing &listing, const QString &sourcePath)
{
    for (int i = 0; i < listing.lines.size(); ++i)
        listing.lines[i].frames = LocationChain{SourceLocation{sourcePath, i + 1, 0}};
}

int lineCountOf(const QString &text)
{
    if (text.isEmpty())
        return 0;
    return int(text.count(QLatin1Char('\n'))) + (text.endsWith(QLatin1Char('\n')) ? 0 : 1);
}

// The first line holding `needle`, 0-based, or -1.
int lineContaining(const StageListing &listing, const QString &needle)
{
    for (int i = 0; i < listing.lines.size(); ++i) {
        if (listing.lines[i].text.contains(needle))
            return i;
    }
    return -1;
}

// TTIR text in the TTGIR file (or the reverse) reads fine as MLIR; the stage's signature tells.
std::optional<ReadError> checkSignature(const StageDescriptor &stage, const StageListing &listing)
{
    if (!stage.signature.isEmpty() && lineContaining(listing, stage.signature) < 0)
        return ReadError{listing.path, 0, 0,
                         QStringLiteral("the file never mentions `%1`, which every %2 holds: it is another stage's text, not %2")
                             .arg(stage.signature, stage.displayName),
                         ProblemKind::WrongStage};
    if (const int line = stage.foreignSignature.isEmpty() ? -1 : lineContaining(listing, stage.foreignSignature); line >= 0)
        return ReadError{listing.path, line + 1, 0,
                         QStringLiteral("the file mentions `%1`, which no %2 holds: it is a later stage's text, not %2")
                             .arg(stage.foreignSignature, stage.displayName),
                         ProblemKind::WrongStage};
    return std::nullopt;
}

// The backend says which stages carry locations; of the formats, only these can.
bool hasLocations(const StageDescriptor &stage)
{
    return stage.carriesLocations && ir::formatCarriesLocations(stage.format);
}

// Counts how each IR stage's ops map to the kernel source, and records the stages that map badly.
void checkStageLocations(LoadedCompile &loaded)
{
    const int kernelLines = lineCountOf(loaded.sourceText);
    for (int i = 0; i < loaded.stages.size(); ++i) {
        if (!hasLocations(loaded.stages[i]))
            continue;
        StageListing &listing = loaded.listings[i];
        LocationStats stats = checkLocations(listing, loaded.result.sourcePath, kernelLines);
        for (const ReadError &problem : locationProblems(stats, listing.path))
            loaded.problems.append(StageProblem{listing.stage, false, problem});
        loaded.locations.append(std::move(stats));
    }
}

} // namespace

QString StageProblem::toString() const
{
    return QStringLiteral("%1 %2 (%3): %4")
        .arg(stage, refused ? QStringLiteral("not read") : QStringLiteral("degraded"), problemKindName(error.kind),
             error.toString());
}

const StageProblem *LoadedCompile::refusal(const QString &stageId) const
{
    for (const StageProblem &problem : problems) {
        if (problem.refused && problem.stage == stageId)
            return &problem;
    }
    return nullptr;
}

bool LoadedCompile::isDegraded(const QString &stageId) const
{
    return std::any_of(problems.cbegin(), problems.cend(),
                       [&](const StageProblem &problem) { return !problem.refused && problem.stage == stageId; });
}

const LocationStats *LoadedCompile::locationStats(const QString &stageId) const
{
    for (const LocationStats &stats : locations) {
        if (stats.stage == stageId)
            return &stats;
    }
    return nullptr;
}

const StageListing *LoadedCompile::listing(const QString &stageId) const
{
    for (const StageListing &candidate : listings) {
        if (candidate.stage == stageId)
            return &candidate;
    }
    return nullptr;
}

bool LoadedCompile::hasStage(const QString &stageId) const
{
    return listing(stageId) != nullptr;
}

QHash<QString, QVector<int>> LoadedCompile::inlinedCallers() const
{
    QHash<QString, QVector<int>> callers;
    for (const StageListing &stageListing : listings) {
        for (const ListingLine &line : stageListing.lines) {
            if (line.frames.size() < 2 || sameSourceFile(line.frames.first().file, result.sourcePath))
                continue;
            const SourceLocation caller = frameInFile(line.frames, result.sourcePath);
            if (!caller.isValid())
                continue;
            const QString key = QFileInfo(line.frames.first().file).fileName() + u':' + QString::number(line.frames.first().line);
            QVector<int> &lines = callers[key];
            if (!lines.contains(caller.line))
                lines.append(caller.line);
        }
    }
    return callers;
}

Expected<LoadedCompile> loadCompile(const CompileResult &result, const QVector<StageDescriptor> &stages)
{
    const auto source = result.artifacts.constFind(kSourceArtifact);
    if (source == result.artifacts.cend())
        return ReadError{result.sourcePath, 0, 0,
                         QStringLiteral("compile of kernel %1 has no \"source\" artifact").arg(result.kernel)};
    Expected<QString> sourceText = readText(source->path);
    if (!sourceText)
        return sourceText.error();

    LoadedCompile loaded;
    loaded.result = result;
    loaded.sourceText = *sourceText;
    loaded.map = LocationMap(result.sourcePath);
    loaded.declared = stages;
    for (const StageDescriptor &stage : stages) {
        const auto artifact = result.artifacts.constFind(stage.id);
        if (artifact == result.artifacts.cend())
            continue;  // the backend declares it, this compile did not produce it
        if (stage.format == StageFormat::Binary)
            continue;  // an object file: listed by the summary, nothing to read or map
        Expected<StageListing> listing = ir::readStageFile(stage.format, stage.id, artifact->path);
        if (listing) {
            if (auto wrong = checkSignature(stage, *listing))
                listing = *wrong;
        }
        if (!listing) {
            loaded.problems.append(StageProblem{stage.id, true, listing.error()});
            continue;
        }
        for (const ReadError &problem : std::as_const(listing->problems))
            loaded.problems.append(StageProblem{stage.id, false, problem});
        if (stage.format == StageFormat::PythonSource)
            anchorSourceLines(*listing, result.sourcePath);
        loaded.stages.append(stage);
        loaded.listings.append(std::move(*listing));
    }
    QVector<StageFormat> formats;
    for (const StageDescriptor &stage : loaded.stages)
        formats.append(stage.format);
    ir::completeFromEarlierStages(formats, loaded.listings);
    checkStageLocations(loaded);
    for (const StageListing &listing : std::as_const(loaded.listings))
        loaded.map.addStage(listing);
    return loaded;
}

Expected<StageListing> loadPassDump(const PassDumpRef &dump, StageFormat format)
{
    const QString stageId = QStringLiteral("pass-%1-%2").arg(dump.index).arg(dump.argument);
    if (dump.file.path.isEmpty())
        return ReadError{{}, 0, 0, QStringLiteral("the dump before pass %1 (%2) was not kept with this compile")
                                       .arg(dump.index).arg(dump.passName)};
    return ir::readStageFile(format, stageId, dump.file.path);
}

} // namespace strata
