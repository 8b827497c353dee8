// strata-cli report: reads a suite results file (schema strata.bench) or a diagnosis file
// (strata.diagnosis, as `diagnose --json` writes it) and writes a report in one format.
#include "cli/ReportCommand.h"

#include "cli/CliCommon.h"
#include "core/AtomicFile.h"
#include "diagnosis/model/DiagnosisJson.h"
#include "compile/LoadedCompile.h"
#include "host/PluginRegistry.h"
#include "optimize/OutcomeJson.h"
#include "optimize/ResultsCatalog.h"
#include "optimize/ResultsFile.h"
#include "report/DataReport.h"
#include "report/DocumentReport.h"
#include "report/HtmlReport.h"
#include "report/LadderJson.h"
#include "report/MarkdownReport.h"
#include "report/ReportFiles.h"
#include "report/SarifReport.h"

#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QTextDocument>

namespace strata::cli {

using namespace strata::report;

namespace {

const char *const kUsage =
    "strata-cli report RESULTS.json|RESULTS_DIR [--task ID] [--diagnosis DIAGNOSIS.json] --format F --out FILE\n"
    "strata-cli report DIAGNOSIS.json [--compile COMPILE_DIR] --format F --out FILE\n"
    "A suite report (summary, environment, speedup charts, per-task table) from a results file, or\n"
    "a kernel report (times, candidates, winning diff, ranked findings with source and IR lines)\n"
    "for one --task or from a diagnosis. Formats: html (self-contained), md, json, csv, sarif\n"
    "(findings; needs a diagnosis), pdf. --out - writes text formats to stdout. A folder of results\n"
    "files (bench/results) stands for its newest complete one (coverage whole or merged).";

const QStringList kFormats{QStringLiteral("html"), QStringLiteral("md"), QStringLiteral("json"), QStringLiteral("csv"),
                           QStringLiteral("sarif"), QStringLiteral("pdf")};

struct ReportArgs {
    QString input, task, diagnosisPath, compilePath, format, out;
};

struct Inputs {
    std::optional<SuiteReport> suiteReport;     // a whole-suite report: streamed from the file
    std::optional<optimize::TaskOutcome> task;  // --task: that task alone
    QString backend, target;                    // --task: the run's, from the results file's header
    std::optional<diagnosis::LadderResult> ladder;
    std::optional<LoadedCompile> compile;
    std::unique_ptr<PluginRegistry> plugins;
};

QString formatOf(const QString &value, const QString &out)
{
    if (!value.isEmpty())
        return value == QLatin1String("markdown") ? QStringLiteral("md") : value;
    const QString format = reportFormatForPath(out);
    return format.isEmpty() ? QFileInfo(out).suffix().toLower() : format;  // unknown ones are refused later
}

int parseArgs(const QStringList &argv, ReportArgs *args)
{
    QCommandLineParser parser;
    const QCommandLineOption task(QStringLiteral("task"), QStringLiteral("Kernel report of this task of the results file."), QStringLiteral("ID"));
    const QCommandLineOption diagnosis(QStringLiteral("diagnosis"), QStringLiteral("Add this diagnosis to the --task report."), QStringLiteral("FILE"));
    const QCommandLineOption compile(QStringLiteral("compile"), QStringLiteral("Compile folder of the diagnosed kernel, for IR lines."), QStringLiteral("DIR"));
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("html, md, json, csv, sarif or pdf (default: from --out)."), QStringLiteral("F"));
    const QCommandLineOption out(QStringLiteral("out"), QStringLiteral("The report file ('-': stdout)."), QStringLiteral("FILE"));
    parser.addOptions({task, diagnosis, compile, format, out});
    parser.addPositionalArgument(QStringLiteral("RESULTS.json|DIAGNOSIS.json"), QStringLiteral("A suite results file or a diagnosis."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(kUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("report takes exactly one RESULTS.json or DIAGNOSIS.json (see --help)"));
    if (!parser.isSet(out))
        return fail(ExitUsage, QStringLiteral("report needs --out FILE ('-' for stdout)"));
    // A folder of results (bench/results): its newest complete file, by the files' coverage field.
    QString note;
    Expected<QString> input = optimize::resolveResultsPath(parser.positionalArguments().first(), &note);
    if (!input)
        return fail(ExitBadInput, input.error());
    if (!note.isEmpty())
        err() << "strata-cli report: " << note << Qt::endl;
    *args = {*input, parser.value(task), parser.value(diagnosis), parser.value(compile),
             formatOf(parser.value(format), parser.value(out)), parser.value(out)};
    if (!kFormats.contains(args->format))
        return fail(ExitUsage, QStringLiteral("unknown report format \"%1\": use %2").arg(args->format, kFormats.join(QStringLiteral(", "))));
    if (args->format == QLatin1String("pdf") && args->out == QLatin1String("-"))
        return fail(ExitUsage, QStringLiteral("a PDF needs --out FILE, not stdout"));
    return -1;
}

Expected<QJsonObject> readJsonObject(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read: %1").arg(file.errorString())};
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return ReadError{path, 0, 0, QStringLiteral("not a JSON object (%1 at byte %2)").arg(error.errorString()).arg(error.offset)};
    return document.object();
}

int readDiagnosis(const QString &path, const QJsonObject &json, Inputs &inputs)
{
    Expected<diagnosis::LadderResult> ladder = ladderResultFromJson(json, path);
    if (!ladder)
        return fail(ExitBadInput, ladder.error());
    inputs.ladder = std::move(*ladder);
    return -1;
}

int readCompile(const QString &input, Inputs &inputs)
{
    const QString path = QFileInfo(input).isDir() ? input + QStringLiteral("/compile.json") : input;
    Expected<CompileResult> result = readCompileResultFile(path);
    if (!result)
        return fail(ExitBadInput, result.error());
    inputs.plugins = loadPlugins(false);
    const BackendPlugin *backend = inputs.plugins->backendForTarget(result->target);
    if (!backend)
        return fail(ExitAgentFailed, QStringLiteral("no backend plugin for target %1 in %2 (set STRATA_PLUGIN_DIR)")
                                         .arg(result->target, PluginRegistry::defaultPluginDir()));
    Expected<LoadedCompile> loaded = loadCompile(*result, backend->stagesFor(result->target));
    if (!loaded)
        return fail(ExitBadInput, loaded.error());
    inputs.compile = std::move(*loaded);
    return -1;
}

// The results file: for a suite report its figures (the tasks are read again as the report is
// written), for --task that one task; either way the whole file is checked first.
int readResults(const ReportArgs &args, Inputs &inputs)
{
    if (args.task.isEmpty()) {
        Expected<SuiteReport> report = readSuiteReport(args.input);
        if (!report)
            return fail(ExitBadInput, report.error());
        inputs.suiteReport = std::move(*report);
        return -1;
    }
    Expected<optimize::SuiteOutcome> header = optimize::readResultsFile(args.input, [&](optimize::TaskOutcome &&task) {
        if (task.taskId == args.task && !inputs.task)
            inputs.task = std::move(task);
    });
    if (!header)
        return fail(ExitBadInput, header.error());
    if (!inputs.task)
        return fail(ExitBadInput, ReadError{args.input, 0, 0, QStringLiteral("no task \"%1\" in the results").arg(args.task)});
    inputs.backend = header->backend;
    inputs.target = header->target;
    return -1;
}

// Reads the input (by its "schema") and the optional diagnosis and compile.
int readInputs(const ReportArgs &args, Inputs &inputs)
{
    Expected<QString> schema = optimize::readSchemaName(args.input);
    if (!schema)
        return fail(ExitBadInput, schema.error());
    if (*schema == QLatin1String(optimize::kResultsSchema)) {
        if (const int code = readResults(args, inputs); code >= 0)
            return code;
    } else if (*schema == QLatin1String(diagnosis::kDiagnosisSchemaName)) {
        if (!args.task.isEmpty() || !args.diagnosisPath.isEmpty())
            return fail(ExitUsage, QStringLiteral("--task and --diagnosis go with a results file, not a diagnosis"));
        Expected<QJsonObject> json = readJsonObject(args.input);
        if (!json)
            return fail(ExitBadInput, json.error());
        if (const int code = readDiagnosis(args.input, *json, inputs); code >= 0)
            return code;
    } else {
        return fail(ExitBadInput, ReadError{args.input, 0, 0, QStringLiteral("schema \"%1\" is neither strata.bench (suite results) "
                                                                           "nor strata.diagnosis").arg(*schema)});
    }
    if (!args.diagnosisPath.isEmpty()) {
        if (args.task.isEmpty())
            return fail(ExitUsage, QStringLiteral("--diagnosis belongs to one task's report: add --task ID"));
        Expected<QJsonObject> diagnosisJson = readJsonObject(args.diagnosisPath);
        if (!diagnosisJson)
            return fail(ExitBadInput, diagnosisJson.error());
        if (const int code = readDiagnosis(args.diagnosisPath, *diagnosisJson, inputs); code >= 0)
            return code;
    }
    if (!args.compilePath.isEmpty())
        return readCompile(args.compilePath, inputs);
    return -1;
}

int writeText(const QString &out, const QString &text)
{
    if (out == QLatin1String("-")) {
        cli::out() << text;
        cli::out().flush();
        return ExitOk;
    }
    if (const QString error = writeFileAtomically(out, text.toUtf8()); !error.isEmpty())
        return fail(ExitBadInput, ReadError{out, 0, 0, QStringLiteral("cannot write the report: %1").arg(error)});
    return ExitOk;
}

QString jsonText(const QJsonObject &json)
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Indented));
}

int writePdfReport(const QString &out, QTextDocument &document, const QString &title)
{
    Expected<int> pages = writePdf(document, out, title);
    if (!pages)
        return fail(ExitBadInput, pages.error());
    err() << "strata-cli: wrote " << out << " (" << *pages << " page(s))" << Qt::endl;
    return ExitOk;
}

// stdout as a report sink: the text goes out as it is rendered.
class StdoutSink : public TextSink {
public:
    void write(QStringView text) override { cli::out() << text; }
};

int writeSuite(const ReportArgs &args, const SuiteReport &report)
{
    const QString generator = QStringLiteral("strata-cli " STRATA_VERSION);
    if (args.format == QLatin1String("sarif"))
        return fail(ExitUsage, ReadError{{}, 0, 0, QStringLiteral("SARIF holds findings: a suite report has none "
                                                                 "(write a task's report with its diagnosis)")});
    if (args.out == QLatin1String("-")) {
        StdoutSink sink;
        const std::optional<ReadError> error = writeSuiteReportText(report, args.format, generator, sink);
        cli::out().flush();
        return error ? fail(ExitBadInput, *error) : ExitOk;
    }
    if (args.format == QLatin1String("pdf")) {
        Expected<int> pages = writeSuitePdf(report, args.out, generator);
        if (!pages)
            return fail(ExitBadInput, pages.error());
        err() << "strata-cli: wrote " << args.out << " (" << *pages << " page(s))" << Qt::endl;
        return ExitOk;
    }
    Expected<QString> written = writeSuiteReport(report, args.format, args.out, generator);
    return written ? ExitOk : fail(ExitBadInput, written.error());
}

int writeKernel(const ReportArgs &args, const KernelReport &report)
{
    const QString generator = QStringLiteral("strata-cli " STRATA_VERSION);
    if (args.format == QLatin1String("pdf"))
        return writePdfReport(args.out, *kernelDocument(report, generator), report.title);
    Expected<QString> text = kernelReportText(report, args.format, generator, QStringLiteral(STRATA_VERSION));
    if (!text)
        return fail(args.format == QLatin1String("sarif") ? ExitUsage : ExitBadInput, text.error());
    return writeText(args.out, *text);
}

int runReport(const QStringList &argv)
{
    ReportArgs args;
    if (const int code = parseArgs(argv, &args); code >= 0)
        return code;
    Inputs inputs;
    if (const int code = readInputs(args, inputs); code >= 0)
        return code;
    if (inputs.suiteReport)
        return writeSuite(args, *inputs.suiteReport);
    KernelReportInputs kernel;
    kernel.task = inputs.task ? &*inputs.task : nullptr;
    kernel.diagnosis = inputs.ladder ? &*inputs.ladder : nullptr;
    kernel.compile = inputs.compile ? &*inputs.compile : nullptr;
    kernel.backend = inputs.backend;
    kernel.target = inputs.target;
    if (kernel.backend.isEmpty() && inputs.compile && inputs.plugins)
        if (const BackendPlugin *backend = inputs.plugins->backendForTarget(inputs.compile->result.target))
            kernel.backend = backend->id();
    return writeKernel(args, buildKernelReport(kernel));
}

} // namespace

int runReportMain(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");  // a report needs fonts, not a display
    QGuiApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("strata-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(STRATA_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeAt(0);  // the parser sees "report ..." like a program name
    return runReport(args);
}

} // namespace strata::cli
