// strata-bench-reports: time and peak memory of `strata-cli report` on synthetic suites of 10^3 to
// 10^6 tasks, per format. Writes a results file per size (written as a stream: two candidates a
// task with short sources, statuses, times and roofline shares drawn from a fixed seed), runs the
// CLI on it per format as a child process, and takes its wall time and peak RSS from wait4().
// Stores the figures in bench/results/reports-<date>.json. A program to run by hand, not a test.
#include "MachineInfo.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <cstdio>
#include <random>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

using namespace strata;

namespace {

constexpr double kTargetPdfRssMiB = 1024;  // issue 20: the 10^5-task PDF under 1 GiB

// One synthetic task as compact JSON (the shape strata-cli bench writes).
QByteArray taskJson(qint64 index, std::mt19937_64 &random)
{
    static const char *const statuses[] = {"improved", "improved", "improved", "improved", "no_gain",
                                           "no_gain", "no_gain", "no_gain", "no_gain", "failed"};
    static const char *const bounds[] = {"memory", "compute", "latency", "launch"};
    std::lognormal_distribution<double> initialMs(-1.0, 1.0), gain(0.3, 0.5);
    std::uniform_real_distribution<double> share(1.0, 100.0);
    const QByteArray status = statuses[random() % 10];
    const double initial = initialMs(random);
    const bool improved = status == "improved", failed = status == "failed";
    const double best = improved ? initial / std::max(1.01, gain(random)) : initial;
    const QByteArray id = "task_" + QByteArray::number(index);
    const QByteArray source = "\"import triton\\n# synthetic kernel " + id + "\\n" + QByteArray("x = tl.load(ptr)\\n").repeated(12) + "\"";
    auto number = [](double value) { return QByteArray::number(value, 'g', 17); };
    QByteArray json = "{\"task\":\"" + id + "\",\"path\":\"suites/synthetic/" + id + ".py\",\"category\":\"elementwise\","
                    + "\"status\":\"" + status + "\",\"failure\":\"" + (failed ? "verify failed: max abs error 3.2" : "") + "\","
                    + "\"initial_ms\":" + number(initial) + ",\"best_ms\":" + (failed ? QByteArray("null") : number(best))
                    + ",\"eager_ms\":" + number(initial * 1.3) + ",\"compile_ms\":" + number(initial * 1.1)
                    + ",\"roofline_pct\":" + (failed ? QByteArray("null") : number(share(random)))
                    + ",\"bound\":\"" + bounds[random() % 4] + "\",\"winning_recipes\":["
                    + (improved ? "\"recipe:autotune-blocks\"" : "") + "],\"winning_findings\":[],\"candidates\":[";
    for (int candidate = 0; candidate < 2; ++candidate) {
        json += QByteArray(candidate ? "," : "") + "{\"id\":" + QByteArray::number(candidate + 1) + ",\"parent\":"
              + QByteArray::number(candidate) + ",\"iteration\":" + QByteArray::number(candidate)
              + ",\"provider\":\"" + (candidate ? "recipe" : "initial") + "\",\"recipe\":\"\",\"title\":\"candidate\","
              + "\"path\":\"p.py\",\"source\":" + source + ",\"findings\":[],\"state\":\"accepted\",\"detail\":\"\","
              + "\"median_ms\":" + number(candidate ? best : initial) + ",\"speedup_vs_parent\":null,\"review\":\"\"}";
    }
    return json + "]}";
}

bool writeSuite(const QString &path, qint64 tasks)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return false;
    std::mt19937_64 random(20261201);
    file.write("{\"schema\":\"strata.bench\",\"version\":1,\"suite\":\"synthetic\",\"device\":\"NVIDIA H200\","
               "\"driver\":\"580.159.04\",\"triton\":\"3.6.0\",\"torch\":\"2.11.0\",\"commit\":\"synthetic\","
               "\"date\":\"2026-12-02T00:00:00Z\",\"tasks\":[\n");
    for (qint64 i = 0; i < tasks; ++i)
        file.write((i ? ",\n" : "") + taskJson(i, random));
    file.write("\n]}\n");
    return file.error() == QFileDevice::NoError;
}

struct Run {
    int exitCode = -1;
    double seconds = 0;
    long peakRssKiB = 0;
};

// The child's wall time and its own peak RSS (wait4 reports the waited-for child alone).
Run runChild(const QStringList &args)
{
    QList<QByteArray> bytes;
    for (const QString &arg : args)
        bytes.append(arg.toLocal8Bit());
    std::vector<char *> argv;
    for (QByteArray &arg : bytes)
        argv.push_back(arg.data());
    argv.push_back(nullptr);
    Run run;
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0)
        return run;
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    run.seconds = timer.nsecsElapsed() / 1e9;
    run.peakRssKiB = usage.ru_maxrss;
    run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
}

QList<qint64> sizesFrom(const QString &text)
{
    QList<qint64> sizes;
    for (const QString &size : text.split(u',', Qt::SkipEmptyParts))
        sizes.append(size.toLongLong());
    return sizes;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("strata-cli report on synthetic suites: time and peak RSS per format."));
    parser.addHelpOption();
    const QCommandLineOption sizes(QStringLiteral("sizes"), QStringLiteral("Task counts (default 1000,10000,100000,1000000)."), QStringLiteral("N,..."),
                                   QStringLiteral("1000,10000,100000,1000000"));
    const QCommandLineOption pdfMax(QStringLiteral("pdf-max"), QStringLiteral("Largest suite to write as PDF (default 100000)."),
                                    QStringLiteral("N"), QStringLiteral("100000"));
    const QCommandLineOption cli(QStringLiteral("cli"), QStringLiteral("strata-cli to run (default: next to this program)."), QStringLiteral("PATH"));
    const QCommandLineOption outDir(QStringLiteral("out-dir"), QStringLiteral("Where the result JSON goes."), QStringLiteral("DIR"),
                                    QStringLiteral(STRATA_SOURCE_DIR "/bench/results"));
    parser.addOptions({sizes, pdfMax, cli, outDir});
    parser.process(app);
    const QString cliPath = parser.isSet(cli) ? parser.value(cli) : QCoreApplication::applicationDirPath() + QStringLiteral("/strata-cli");
    QTemporaryDir work;
    if (!work.isValid() || !QFileInfo(cliPath).isExecutable()) {
        std::fprintf(stderr, "need a temporary folder and strata-cli (%s)\n", qPrintable(cliPath));
        return 1;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QJsonArray runs;
    bool pdfTargetMet = true, pdfTargetMeasured = false;
    for (qint64 size : sizesFrom(parser.value(sizes))) {
        const QString results = work.filePath(QStringLiteral("results-%1.json").arg(size));
        if (!writeSuite(results, size)) {
            std::fprintf(stderr, "cannot write %s\n", qPrintable(results));
            return 1;
        }
        const qint64 inputBytes = QFileInfo(results).size();
        for (const QString &format : {QStringLiteral("md"), QStringLiteral("html"), QStringLiteral("json"), QStringLiteral("csv"), QStringLiteral("pdf")}) {
            if (format == QLatin1String("pdf") && size > parser.value(pdfMax).toLongLong())
                continue;
            const QString out = work.filePath(QStringLiteral("report-%1.%2").arg(size).arg(format));
            const Run run = runChild({cliPath, QStringLiteral("report"), results, QStringLiteral("--out"), out});
            const qint64 outputBytes = QFileInfo(out).size();
            std::printf("%8lld tasks %-4s  %8.2f s  %8.1f MiB peak RSS  %10.1f MiB out  exit %d\n", size, qPrintable(format),
                        run.seconds, run.peakRssKiB / 1024.0, outputBytes / 1048576.0, run.exitCode);
            std::fflush(stdout);
            if (format == QLatin1String("pdf") && size == 100000) {
                pdfTargetMeasured = true;
                pdfTargetMet = run.exitCode == 0 && run.peakRssKiB / 1024.0 < kTargetPdfRssMiB;
            }
            runs.append(QJsonObject{{QStringLiteral("tasks"), size}, {QStringLiteral("format"), format},
                                    {QStringLiteral("input_bytes"), inputBytes}, {QStringLiteral("output_bytes"), outputBytes},
                                    {QStringLiteral("seconds"), run.seconds}, {QStringLiteral("peak_rss_kib"), qint64(run.peakRssKiB)},
                                    {QStringLiteral("exit_code"), run.exitCode}});
            QFile::remove(out);
        }
        QFile::remove(results);
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QJsonObject report{
        {QStringLiteral("benchmark"), QStringLiteral("reports")},
        {QStringLiteral("date"), now.toString(Qt::ISODate)},
        {QStringLiteral("environment"), bench::environmentJson(QStringLiteral(STRATA_SOURCE_DIR), QString())},
        {QStringLiteral("strata_version"), QStringLiteral(STRATA_VERSION)},
        {QStringLiteral("synthetic_task"), QStringLiteral("2 candidates with ~230-byte sources; 40% improved, 50% no_gain, 10% failed")},
        {QStringLiteral("target"), QJsonObject{{QStringLiteral("pdf_100000_tasks_peak_rss_mib_below"), kTargetPdfRssMiB},
                                               {QStringLiteral("measured"), pdfTargetMeasured},
                                               {QStringLiteral("met"), pdfTargetMeasured && pdfTargetMet}}},
        {QStringLiteral("runs"), runs},
    };
    return bench::writeResult(parser.value(outDir), QStringLiteral("reports"), now, report);
}
