// strata-bench-reader: how fast the stage readers and the location map are on large real IR.
// Reads the spilling 256x256 matmul's stages (or the largest fixture) and every per-pass MLIR
// dump, times each reader (median of several runs), times location-map queries, and writes
// bench/results/reader-<date>.json. A program to run by hand, not a timed test.
#include "MachineInfo.h"
#include "ir/StageReader.h"
#include "ir/llvm/LlvmIrReader.h"
#include "ir/sass/SassReader.h"
#include "locmap/LocationMap.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace strata;

namespace {

constexpr double kTargetMsPer10kLines = 100.0;
constexpr double kTargetQueryUs = 1000.0;

struct Input {
    QString stageId;
    StageFormat format;
    QStringList paths;  // one reader run covers all of them (the per-pass dumps are many files)
};

struct ReaderResult {
    QString stageId;
    int files = 0;
    int lines = 0;
    qint64 bytes = 0;
    double medianMs = 0;
    QString error;

    double msPer10kLines() const { return lines ? medianMs * 10000.0 / lines : 0; }
    double msPerMiB() const { return bytes ? medianMs * 1048576.0 / double(bytes) : 0; }
};

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The spilling matmul when the fixtures have it, else the fixture with the largest SASS.
QString pickKernelDir(const QString &fixtures)
{
    const QString spill = fixtures + QStringLiteral("/matmul/big_spill");
    if (QFileInfo::exists(spill + QStringLiteral("/compile.json")))
        return spill;
    QString best;
    qint64 bestSize = -1;
    for (const QString &sample : QDir(fixtures).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QDir sampleDir(fixtures + QLatin1Char('/') + sample);
        for (const QString &variant : sampleDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QDir dir(sampleDir.filePath(variant));
            for (const QFileInfo &sass : dir.entryInfoList({QStringLiteral("*.sass")}, QDir::Files)) {
                if (sass.size() > bestSize) {
                    bestSize = sass.size();
                    best = dir.absolutePath();
                }
            }
        }
    }
    return best;
}

QString artifactWithSuffix(const QString &dir, const QString &suffix)
{
    const QFileInfoList found = QDir(dir).entryInfoList({QLatin1Char('*') + suffix}, QDir::Files);
    return found.isEmpty() ? QString() : found.first().absoluteFilePath();
}

QVector<Input> inputsOf(const QString &kernelDir, const QString &passDir)
{
    QVector<Input> inputs;
    const struct { const char *id; StageFormat format; const char *suffix; } stages[] = {
        {"ttgir", StageFormat::MlirText, ".ttgir"}, {"llir", StageFormat::LlvmIr, ".llir"},
        {"ptx", StageFormat::Ptx, ".ptx"}, {"sass", StageFormat::Sass, ".sass"}};
    for (const auto &stage : stages) {
        const QString path = artifactWithSuffix(kernelDir, QString::fromLatin1(stage.suffix));
        if (!path.isEmpty())
            inputs.append(Input{QString::fromLatin1(stage.id), stage.format, {path}});
    }
    QStringList dumps;
    for (const QFileInfo &dump : QDir(passDir).entryInfoList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name))
        dumps.append(dump.absoluteFilePath());
    if (!dumps.isEmpty())
        inputs.append(Input{QStringLiteral("pass-dumps"), StageFormat::MlirText, dumps});
    return inputs;
}

// Times reading every file of `input` from memory (file I/O is not the reader's cost).
ReaderResult timeReader(const Input &input, int repeats, QVector<StageListing> *keep)
{
    ReaderResult result{input.stageId, int(input.paths.size())};
    QStringList texts;
    for (const QString &path : input.paths) {
        texts.append(readText(path));
        result.bytes += texts.last().toUtf8().size();
    }
    QVector<double> runs;
    for (int r = 0; r < repeats; ++r) {
        result.lines = 0;
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < texts.size(); ++i) {
            const auto listing = ir::readStageText(input.format, input.stageId, texts[i], input.paths[i]);
            if (!listing) {
                result.error = listing.error().toString();
                return result;
            }
            result.lines += listing->lineCount();
            if (keep && r == 0)
                keep->append(*listing);
        }
        runs.append(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(runs.begin(), runs.end());
    result.medianMs = runs[runs.size() / 2];
    return result;
}

struct QueryResult {
    QString name;
    double meanUs = 0;
};

// Mean latency of each map query over `count` random queries (fixed seed: runs compare).
QVector<QueryResult> timeQueries(const LocationMap &map, const QVector<StageListing> &stages, int sourceLines, int count)
{
    std::mt19937 random(42);
    auto pick = [&](int n) { return int(std::uniform_int_distribution<int>(0, std::max(0, n - 1))(random)); };
    QVector<QueryResult> results;
    qint64 sink = 0;
    auto measure = [&](const QString &name, auto &&query) {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < count; ++i)
            sink += query(stages[pick(int(stages.size()))]);
        results.append(QueryResult{name, double(timer.nsecsElapsed()) / 1e3 / count});
    };
    measure(QStringLiteral("linesForSource"), [&](const StageListing &s) {
        return qint64(map.linesForSource(s.stage, 1 + pick(sourceLines)).size()); });
    measure(QStringLiteral("sourceForLine"), [&](const StageListing &s) {
        return qint64(map.sourceForLine(s.stage, pick(s.lineCount())).line); });
    measure(QStringLiteral("siblingLines"), [&](const StageListing &s) {
        return qint64(map.siblingLines(s.stage, pick(s.lineCount())).size()); });
    std::printf("(checksum %lld)\n", static_cast<long long>(sink));
    return results;
}

QJsonObject readerJson(const ReaderResult &r)
{
    QJsonObject o{{QStringLiteral("stage"), r.stageId}, {QStringLiteral("files"), r.files},
                  {QStringLiteral("lines"), r.lines}, {QStringLiteral("bytes"), r.bytes},
                  {QStringLiteral("median_ms"), r.medianMs}, {QStringLiteral("ms_per_10k_lines"), r.msPer10kLines()},
                  {QStringLiteral("ms_per_mib"), r.msPerMiB()},
                  {QStringLiteral("meets_target"), r.error.isEmpty() && r.msPer10kLines() < kTargetMsPer10kLines}};
    if (!r.error.isEmpty())
        o.insert(QStringLiteral("error"), r.error);
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Times Strata's stage readers and location map on large real IR."));
    cli.addHelpOption();
    const QString sourceDir = QStringLiteral(STRATA_SOURCE_DIR);
    QCommandLineOption fixturesOpt(QStringLiteral("fixtures"), QStringLiteral("Fixture folder."), QStringLiteral("dir"),
                                   sourceDir + QStringLiteral("/tests/fixtures"));
    QCommandLineOption outOpt(QStringLiteral("out"), QStringLiteral("Result folder."), QStringLiteral("dir"),
                              sourceDir + QStringLiteral("/bench/results"));
    QCommandLineOption repeatsOpt(QStringLiteral("repeats"), QStringLiteral("Runs per reader (median)."), QStringLiteral("n"), QStringLiteral("5"));
    QCommandLineOption queriesOpt(QStringLiteral("queries"), QStringLiteral("Map queries per kind."), QStringLiteral("n"), QStringLiteral("200000"));
    cli.addOptions({fixturesOpt, outOpt, repeatsOpt, queriesOpt});
    cli.process(app);

    const QString kernelDir = pickKernelDir(cli.value(fixturesOpt));
    if (kernelDir.isEmpty()) {
        std::fprintf(stderr, "no fixtures under %s\n", qPrintable(cli.value(fixturesOpt)));
        return 1;
    }
    QString passDir = kernelDir + QStringLiteral("/passes");
    const QString defaultMatmulPasses = cli.value(fixturesOpt) + QStringLiteral("/matmul/default/passes");
    if (QFileInfo::exists(defaultMatmulPasses))
        passDir = defaultMatmulPasses;
    std::printf("kernel: %s\npass dumps: %s\n\n", qPrintable(kernelDir), qPrintable(passDir));

    const int repeats = std::max(1, cli.value(repeatsOpt).toInt());
    QVector<StageListing> mapped;
    QJsonArray readersJson;
    std::printf("%-11s %6s %8s %10s %10s %12s %10s\n", "reader", "files", "lines", "MiB", "ms", "ms/10k lines", "ms/MiB");
    for (const Input &input : inputsOf(kernelDir, passDir)) {
        const ReaderResult r = timeReader(input, repeats, input.paths.size() == 1 ? &mapped : nullptr);
        if (!r.error.isEmpty())
            std::printf("%-11s ERROR %s\n", qPrintable(r.stageId), qPrintable(r.error));
        else
            std::printf("%-11s %6d %8d %10.2f %10.2f %12.2f %10.2f %s\n", qPrintable(r.stageId), r.files, r.lines,
                        double(r.bytes) / 1048576.0, r.medianMs, r.msPer10kLines(), r.msPerMiB(),
                        r.msPer10kLines() < kTargetMsPer10kLines ? "" : "(over the 100 ms/10k target)");
        readersJson.append(readerJson(r));
    }

    // The map over the kernel's stages, SASS completed with PTX call sites as the app does.
    const QString kernelFile = QJsonDocument::fromJson(readText(kernelDir + QStringLiteral("/compile.json")).toUtf8())
                                   .object().value(QStringLiteral("source_path")).toString();
    const int sourceLines = int(readText(kernelDir + QStringLiteral("/source.py")).count(QLatin1Char('\n'))) + 1;
    const auto byId = [&](const QString &id) { return std::find_if(mapped.begin(), mapped.end(), [&](auto &s) { return s.stage == id; }); };
    if (byId(QStringLiteral("sass")) != mapped.end() && byId(QStringLiteral("ptx")) != mapped.end())
        ir::adoptCallSitesFromPtx(*byId(QStringLiteral("sass")), *byId(QStringLiteral("ptx")));
    QElapsedTimer buildTimer;
    buildTimer.start();
    LocationMap map(kernelFile);
    for (const StageListing &stage : mapped)
        map.addStage(stage);
    const double buildMs = double(buildTimer.nsecsElapsed()) / 1e6;
    std::printf("\nlocation map: %d stages built in %.2f ms\n", int(mapped.size()), buildMs);
    QJsonArray queriesJson;
    for (const QueryResult &q : timeQueries(map, mapped, sourceLines, std::max(1, cli.value(queriesOpt).toInt()))) {
        std::printf("  %-15s %8.3f us mean %s\n", qPrintable(q.name), q.meanUs, q.meanUs < kTargetQueryUs ? "" : "(over 1 ms)");
        queriesJson.append(QJsonObject{{QStringLiteral("query"), q.name}, {QStringLiteral("mean_us"), q.meanUs},
                                       {QStringLiteral("meets_target"), q.meanUs < kTargetQueryUs}});
    }
    const long rss = bench::peakRssKiB();
    std::printf("\npeak RSS: %.1f MiB\n", double(rss) / 1024.0);

    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonObject report = bench::environmentJson(sourceDir, ir::llvmVersion());
    report.insert(QStringLiteral("date"), now.toString(Qt::ISODate));
    report.insert(QStringLiteral("kernel_dir"), QDir(sourceDir).relativeFilePath(kernelDir));
    report.insert(QStringLiteral("repeats"), repeats);
    report.insert(QStringLiteral("readers"), readersJson);
    report.insert(QStringLiteral("location_map"), QJsonObject{{QStringLiteral("build_ms"), buildMs}, {QStringLiteral("queries"), queriesJson}});
    report.insert(QStringLiteral("peak_rss_kib"), qint64(rss));
    report.insert(QStringLiteral("targets"), QJsonObject{{QStringLiteral("ms_per_10k_lines"), kTargetMsPer10kLines},
                                                          {QStringLiteral("query_us"), kTargetQueryUs}});
    return bench::writeResult(cli.value(outOpt), QStringLiteral("reader"), now, report);
}
