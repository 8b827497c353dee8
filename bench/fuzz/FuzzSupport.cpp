#include "FuzzSupport.h"

#include "NvidiaStages.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace strata::fuzz {

namespace {

const QString kFixtureCompile = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/aligned/compile.json");

// Sibling lookups return every line of a source line, so asking for each line of a stage whose
// lines share one source line is quadratic; a GUI click asks for one. The first lines of each
// stage are enough to reach every branch of the lookup.
constexpr int kSiblingLookupsPerStage = 512;

QString scratchDir()
{
    static const QString dir = [] {
        const QString base = QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm")
                                                                                : QDir::tempPath();
        const QString path = QStringLiteral("%1/strata-fuzz-%2").arg(base).arg(getpid());
        QDir().mkpath(path);
        return path;
    }();
    return dir;
}

[[noreturn]] void fail(const QString &message)
{
    std::fprintf(stderr, "fuzz setup: %s\n", qPrintable(message));
    std::abort();
}

} // namespace

QString writeScratchFile(const QString &name, const uint8_t *data, size_t size)
{
    const QString path = scratchDir() + u'/' + name;
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    if (size > 0 && file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
        fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return path;
}

const CompileResult &fixtureCompile()
{
    static const CompileResult result = [] {
        Expected<CompileResult> read = readCompileResultFile(kFixtureCompile);
        if (!read)
            fail(read.error().toString());
        return *read;
    }();
    return result;
}

void loadCompileWithStage(const QString &stage, const uint8_t *data, size_t size, const QStringList &keptStages)
{
    CompileResult result = fixtureCompile();
    const ArtifactRef original = result.artifacts.value(stage);
    // Only the source and the stages asked for stay: reading the other stages again for every
    // input would spend most of the run outside the reader under test.
    for (auto it = result.artifacts.begin(); it != result.artifacts.end();) {
        if (it.key() == QLatin1String("source") || keptStages.contains(it.key()))
            ++it;
        else
            it = result.artifacts.erase(it);
    }
    ArtifactRef fuzzed;
    fuzzed.path = writeScratchFile(QStringLiteral("fuzzed") + QFileInfo(original.path).fileName(), data, size);
    fuzzed.size = qint64(size);
    result.artifacts.insert(stage, fuzzed);
    Expected<LoadedCompile> loaded = loadCompile(result, nvidiaStages());
    if (loaded)
        exerciseLoadedCompile(*loaded);
    else
        (void)loaded.error().toString();
}

void exerciseLoadedCompile(const LoadedCompile &loaded)
{
    const LocationMap &map = loaded.map;
    for (const QString &stage : map.stages()) {
        for (int sourceLine : map.sourceLinesWithCode(stage))
            (void)map.linesForSource(stage, sourceLine);
        const StageListing *listing = loaded.listing(stage);
        const int lines = listing ? listing->lineCount() : 0;
        for (int line = 0; line < lines; ++line) {
            (void)map.sourceForLine(stage, line);
            if (line < kSiblingLookupsPerStage)
                (void)map.siblingLines(stage, line);
        }
        // Lines the listing does not have, as a stale click in a pane would ask for.
        (void)map.sourceForLine(stage, -1);
        (void)map.sourceForLine(stage, lines);
        (void)map.siblingLines(stage, lines + 1);
        (void)loaded.isDegraded(stage);
        if (const LocationStats *stats = loaded.locationStats(stage))
            (void)stats->summary();
    }
    (void)map.sourceLinesWithCode();
    for (const StageProblem &problem : loaded.problems)
        (void)problem.toString();
    (void)loaded.inlinedCallers();
}

} // namespace strata::fuzz
