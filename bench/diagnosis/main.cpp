// static_bench: how long a static diagnosis of one kernel takes once its compile is on disk:
// reading the compile (stages + location map), then the ladder without an agent: L1 on the
// stored AST reply (tests/fixtures/ast/samples), L3 IR attribution and L4 pass attribution over
// every kept pass dump; no counterfactual compiles.
// Median of several runs per fixture; writes bench/results/diagnosis-static-<date>.json.
#include "NvidiaStages.h"
#include "NvidiaTargets.h"
#include "MachineInfo.h"
#include "diagnosis/ladder/Ladder.h"
#include "ir/llvm/LlvmIrReader.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>

using namespace strata;
using namespace strata::diagnosis;

namespace {

constexpr double kTargetMs = 100.0;  // static diagnosis of one kernel, compile excluded


double median(QVector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.isEmpty() ? 0 : values[values.size() / 2];
}

struct KernelTiming {
    QString fixture;
    int passDumps = 0;
    int findings = 0;
    double loadMs = 0;      // compile.json + every stage + the location map
    double diagnoseMs = 0;  // runLadder: L3 + L4 pass attribution
    QString error;
};

// The agent's `ast` reply stored for the sample ("matmul/default" -> ast/samples/matmul.ast.json).
std::optional<QJsonObject> storedAst(const QString &fixtures, const QString &fixture)
{
    QFile file(fixtures + QStringLiteral("/ast/samples/") + fixture.section(u'/', 0, 0) + QStringLiteral(".ast.json"));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    return QJsonDocument::fromJson(file.readAll()).object();
}

KernelTiming timeKernel(const QString &fixtures, const QString &fixture, int repeats)
{
    KernelTiming timing{fixture, 0, 0, 0, 0, {}};
    Expected<CompileResult> result = readCompileResultFile(fixtures + u'/' + fixture + QStringLiteral("/compile.json"));
    if (!result) {
        timing.error = result.error().toString();
        return timing;
    }
    timing.passDumps = std::count_if(result->passDumps.cbegin(), result->passDumps.cend(),
                                     [](const PassDumpRef &dump) { return !dump.file.path.isEmpty(); });
    QVector<double> loads, diagnoses;
    for (int run = 0; run < repeats; ++run) {
        QElapsedTimer clock;
        clock.start();
        Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
        if (!loaded) {
            timing.error = loaded.error().toString();
            return timing;
        }
        loads.append(clock.nsecsElapsed() / 1e6);
        LadderInputs inputs;
        inputs.kernel = result->kernel;
        inputs.spec = result->spec;
        inputs.astReply = storedAst(fixtures, fixture);
        inputs.compile = &*loaded;
        clock.restart();
        const LadderResult diagnosis = runLadder(inputs);
        diagnoses.append(clock.nsecsElapsed() / 1e6);
        timing.findings = diagnosis.ranking.size();
    }
    timing.loadMs = median(loads);
    timing.diagnoseMs = median(diagnoses);
    return timing;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // No plugin is loaded here: the NVIDIA targets' facts (SMs, bandwidth) come straight from the
    // plugin's header, as PluginRegistry would add them.
    strata::diagnosis::addTargetLimitsSource(&strata::nvidia::nvidiaTargetLimits);
    QCommandLineParser cli;
    cli.setApplicationDescription(QStringLiteral("Times a static diagnosis (compile excluded) of fixture kernels."));
    cli.addHelpOption();
    const QString sourceDir = QStringLiteral(STRATA_SOURCE_DIR);
    const QCommandLineOption fixturesOpt(QStringLiteral("fixtures"), QStringLiteral("Fixture folder."), QStringLiteral("dir"),
                                         sourceDir + QStringLiteral("/tests/fixtures"));
    const QCommandLineOption outOpt(QStringLiteral("out"), QStringLiteral("Result folder."), QStringLiteral("dir"),
                                    sourceDir + QStringLiteral("/bench/results"));
    const QCommandLineOption repeatsOpt(QStringLiteral("repeats"), QStringLiteral("Runs per kernel (median)."), QStringLiteral("n"), QStringLiteral("5"));
    cli.addOptions({fixturesOpt, outOpt, repeatsOpt});
    cli.process(app);
    const int repeats = std::max(1, cli.value(repeatsOpt).toInt());

    const QStringList fixtures{QStringLiteral("vector_add/unaligned"), QStringLiteral("softmax/default"),
                               QStringLiteral("matmul/runtime_strides"), QStringLiteral("matmul/default")};
    std::printf("%-24s %6s %9s %10s %13s\n", "fixture", "dumps", "findings", "load ms", "diagnose ms");
    QJsonArray kernels;
    bool failed = false;
    for (const QString &fixture : fixtures) {
        const KernelTiming t = timeKernel(cli.value(fixturesOpt), fixture, repeats);
        if (!t.error.isEmpty()) {
            std::printf("%-24s ERROR %s\n", qPrintable(fixture), qPrintable(t.error));
            failed = true;
            continue;
        }
        std::printf("%-24s %6d %9d %10.1f %13.1f %s\n", qPrintable(fixture), t.passDumps, t.findings, t.loadMs,
                    t.diagnoseMs, t.diagnoseMs < kTargetMs ? "" : "(over the 100 ms target)");
        kernels.append(QJsonObject{{QStringLiteral("fixture"), fixture}, {QStringLiteral("pass_dumps"), t.passDumps},
                                   {QStringLiteral("findings"), t.findings}, {QStringLiteral("load_ms"), t.loadMs},
                                   {QStringLiteral("diagnose_ms"), t.diagnoseMs},
                                   {QStringLiteral("meets_target"), t.diagnoseMs < kTargetMs}});
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QJsonObject report = bench::environmentJson(sourceDir, ir::llvmVersion());
    report.insert(QStringLiteral("date"), now.toString(Qt::ISODate));
    report.insert(QStringLiteral("repeats"), repeats);
    report.insert(QStringLiteral("what"), QStringLiteral("runLadder without agent (L1 on the stored AST, L3, L4 pass attribution), median; "
                                                         "load = compile.json + stages + location map"));
    report.insert(QStringLiteral("kernels"), kernels);
    report.insert(QStringLiteral("target_diagnose_ms"), kTargetMs);
    report.insert(QStringLiteral("peak_rss_kib"), qint64(bench::peakRssKiB()));
    const int written = bench::writeResult(cli.value(outOpt), QStringLiteral("diagnosis-static"), now, report);
    return failed ? 1 : written;
}
