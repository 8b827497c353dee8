// strata-cli map: source line -> the IR lines of every stage it became, or one IR line -> its
// source line. Reads a compile folder (or its compile.json) written by `strata-cli compile`.
#include "cli/CliCommon.h"

#include "compile/LoadedCompile.h"
#include "host/PluginRegistry.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>

namespace strata::cli {

namespace {

const char *const kUsage =
    "strata-cli map COMPILE_DIR_OR_JSON (--line N [--stage S] | --ir STAGE:LINE | --locations) [--json]\n"
    "strata-cli map TRACE --kernel NAME (--line N [--stage S] | --ir STAGE:LINE | --locations) [--json]\n"
    "Maps a kernel source line (1-based) to the lines it became in each IR stage, or an IR line\n"
    "(1-based) back to its source line; --locations counts, per stage, the ops that map and why\n"
    "the rest do not. TRACE is a tritonparse trace (see `strata-cli trace`). A stage that is refused\n"
    "(not its format, cut short, another stage's text) is named with its file and problem; degraded\n"
    "stages are warned about on stderr.";

struct MapArgs {
    QString input;
    QString traceKernel;  // TRACE form: which of its kernels
    int sourceLine = 0;
    QString stage;        // --line: only this stage; --ir: the IR line's stage
    int irLine = 0;       // 1-based, --ir only
    bool locations = false;
    bool json = false, verbose = false;
};

int parseArgs(const QStringList &argv, MapArgs *args)
{
    QCommandLineParser parser;
    const QCommandLineOption line(QStringLiteral("line"), QStringLiteral("Kernel source line (1-based)."), QStringLiteral("N"));
    const QCommandLineOption stage(QStringLiteral("stage"), QStringLiteral("Only this stage (its backend's: ttir, ttgir, ptx, ...; Ascend: ttir, ttadapter)."), QStringLiteral("S"));
    const QCommandLineOption ir(QStringLiteral("ir"), QStringLiteral("An IR line to map back, e.g. ptx:120."), QStringLiteral("STAGE:LINE"));
    const QCommandLineOption locations(QStringLiteral("locations"), QStringLiteral("Count each stage's ops by how their locations map."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON."));
    const QCommandLineOption verbose(QStringLiteral("verbose"), QStringLiteral("Report stages or plugins that failed to load."));
    const QCommandLineOption kernel(QStringLiteral("kernel"), QStringLiteral("TRACE form: the kernel (NAME, NAME#N or a hash prefix)."), QStringLiteral("NAME"));
    parser.addOptions({line, stage, ir, locations, json, verbose, kernel});
    parser.addPositionalArgument(QStringLiteral("COMPILE_DIR_OR_JSON"), QStringLiteral("A compile folder or its compile.json."));
    if (const int code = parseOrExit(parser, argv, QString::fromUtf8(kUsage)); code >= 0)
        return code;
    if (parser.positionalArguments().size() != 1)
        return fail(ExitUsage, QStringLiteral("map takes exactly one COMPILE_DIR_OR_JSON (see --help)"));
    if (int(parser.isSet(line)) + int(parser.isSet(ir)) + int(parser.isSet(locations)) != 1)
        return fail(ExitUsage, QStringLiteral("map needs one of --line N, --ir STAGE:LINE or --locations"));
    args->input = parser.positionalArguments().first();
    args->traceKernel = parser.value(kernel);
    if (parser.isSet(kernel) && !isTracePath(args->input))
        return fail(ExitUsage, QStringLiteral("--kernel belongs to the TRACE form; a compile folder holds one kernel"));
    args->json = parser.isSet(json);
    args->verbose = parser.isSet(verbose);
    args->locations = parser.isSet(locations);
    if (args->locations)
        return -1;
    bool ok = true;
    if (parser.isSet(line)) {
        args->sourceLine = parser.value(line).toInt(&ok);
        args->stage = parser.value(stage);
        if (!ok || args->sourceLine <= 0)
            return fail(ExitUsage, QStringLiteral("--line wants a positive line number"));
        return -1;
    }
    const QStringList parts = parser.value(ir).split(QLatin1Char(':'));
    if (parts.size() == 2)
        args->irLine = parts[1].toInt(&ok);
    if (parts.size() != 2 || !ok || args->irLine <= 0)
        return fail(ExitUsage, QStringLiteral("--ir wants STAGE:LINE, e.g. ptx:120"));
    args->stage = parts[0];
    return -1;
}

// Reads the compile and every stage its backend declares; returns -1 on success, else an exit code.
int load(const MapArgs &args, LoadedCompile *loaded)
{
    QString path = args.input;
    const std::unique_ptr<PluginRegistry> plugins = loadPlugins(args.verbose);
    QTemporaryDir imported;  // a traced kernel is read from a compile folder made for it
    if (isTracePath(path)) {
        Expected<QString> compileJson = importTraceKernel(path, args.traceKernel, imported.path(), *plugins);
        if (!compileJson)
            return fail(ExitBadInput, compileJson.error());
        path = *compileJson;
    } else if (QFileInfo(path).isDir()) {
        path += QStringLiteral("/compile.json");
    }
    if (!QFileInfo::exists(path))
        return fail(ExitBadInput, ReadError{path, 0, 0, QStringLiteral("no compile result here (run strata-cli compile --out first)")});
    Expected<CompileResult> result = readCompileResultFile(path);
    if (!result)
        return fail(ExitBadInput, result.error());
    const BackendPlugin *backend = plugins->backendForTarget(result->target);
    if (!backend)
        return fail(ExitAgentFailed, QStringLiteral("no backend plugin for target %1 in %2 (set STRATA_PLUGIN_DIR)")
                                         .arg(result->target, PluginRegistry::defaultPluginDir()));
    Expected<LoadedCompile> read = loadCompile(*result, backend->stagesFor(result->target));
    if (!read)
        return fail(ExitBadInput, read.error());
    for (const QString &warning : std::as_const(result->warnings))
        err() << "strata-cli: warning: " << path << ": " << warning << Qt::endl;
    for (const StageProblem &problem : read->problems)
        err() << "strata-cli: warning: " << problem.toString() << Qt::endl;
    *loaded = std::move(*read);
    return -1;
}

// A stage the user asked for that is not in the compile: refused (say which file and why), or
// never produced.
int stageNotAvailable(const LoadedCompile &loaded, const QString &stage, const QStringList &available)
{
    if (const StageProblem *refused = loaded.refusal(stage))
        return fail(ExitBadInput, ReadError{refused->error.file, refused->error.line, refused->error.column,
                                            QStringLiteral("stage \"%1\" was not read (%2): %3")
                                                .arg(stage, problemKindName(refused->error.kind), refused->error.message)});
    if (const StageRun *run = loaded.result.stageRun(stage); run && !run->ran)
        return fail(ExitBadInput, QStringLiteral("stage \"%1\" was not run for this compile: %2").arg(stage, run->reason));
    return fail(ExitBadInput, QStringLiteral("stage \"%1\" is not in this compile (it has: %2)")
                                  .arg(stage, available.join(QStringLiteral(", "))));
}

QJsonArray warningsJson(const LoadedCompile &loaded)
{
    QJsonArray warnings;
    for (const StageProblem &problem : loaded.problems)
        warnings.append(QJsonObject{{QStringLiteral("stage"), problem.stage},
                                    {QStringLiteral("kind"), problemKindName(problem.error.kind)},
                                    {QStringLiteral("refused"), problem.refused},
                                    {QStringLiteral("file"), problem.error.file},
                                    {QStringLiteral("line"), problem.error.line},
                                    {QStringLiteral("message"), problem.error.message}});
    return warnings;
}

// A terminal line for an IR line: a junk line can be a MiB long, and is no use printed whole.
QString shownText(const QString &text)
{
    constexpr qsizetype kShown = 300;
    return text.size() <= kShown ? text : text.left(kShown) + QStringLiteral("... (%1 characters)").arg(text.size());
}

QString sourceLineText(const LoadedCompile &loaded, int line)
{
    const StageListing *source = loaded.listing(QStringLiteral("source"));
    if (source && line >= 1 && line <= source->lineCount())
        return source->lines[line - 1].text;
    return loaded.sourceText.split(QLatin1Char('\n')).value(line - 1);
}

QStringList irStages(const LoadedCompile &loaded)
{
    QStringList stages;
    for (const StageDescriptor &stage : loaded.stages) {
        if (stage.format != StageFormat::PythonSource)
            stages.append(stage.id);
    }
    return stages;
}

int mapSourceLine(const MapArgs &args, const LoadedCompile &loaded)
{
    const int lineCount = int(loaded.sourceText.count(QLatin1Char('\n'))) + (loaded.sourceText.endsWith(QLatin1Char('\n')) ? 0 : 1);
    if (args.sourceLine > lineCount)
        return fail(ExitBadInput, ReadError{loaded.result.sourcePath, args.sourceLine, 0,
                                            QStringLiteral("line is past the end of the kernel (%1 lines)").arg(lineCount)});
    QStringList stages = irStages(loaded);
    if (!args.stage.isEmpty()) {
        if (!stages.contains(args.stage))
            return stageNotAvailable(loaded, args.stage, stages);
        stages = {args.stage};
    }
    const QString text = sourceLineText(loaded, args.sourceLine);
    QJsonArray stagesJson;
    if (!args.json)
        out() << loaded.result.sourcePath << ":" << args.sourceLine << ": " << text.trimmed() << "\n";
    for (const QString &stage : stages) {
        const StageListing *listing = loaded.listing(stage);
        const QVector<int> lines = loaded.map.linesForSource(stage, args.sourceLine);
        QJsonArray linesJson;
        if (!args.json)
            out() << "\n" << stage << " (" << lines.size() << (lines.size() == 1 ? " line" : " lines") << ")\n";
        for (const int index : lines) {
            const ListingLine &line = listing->lines[index];
            if (args.json)
                linesJson.append(QJsonObject{{QStringLiteral("line"), index + 1}, {QStringLiteral("text"), line.text},
                                             {QStringLiteral("opcode"), line.opcode}});
            else
                out() << QString::number(index + 1).rightJustified(7) << "  " << shownText(line.text) << "\n";
        }
        stagesJson.append(QJsonObject{{QStringLiteral("stage"), stage}, {QStringLiteral("lines"), linesJson}});
    }
    if (args.json) {
        const QJsonObject source{{QStringLiteral("file"), loaded.result.sourcePath},
                                 {QStringLiteral("line"), args.sourceLine}, {QStringLiteral("text"), text}};
        out() << QJsonDocument(QJsonObject{{QStringLiteral("source"), source}, {QStringLiteral("stages"), stagesJson},
                                           {QStringLiteral("warnings"), warningsJson(loaded)}})
                     .toJson(QJsonDocument::Indented);
    }
    out().flush();
    return ExitOk;
}

int mapIrLine(const MapArgs &args, const LoadedCompile &loaded)
{
    const StageListing *listing = loaded.listing(args.stage);
    if (!listing || args.stage == QLatin1String("source"))
        return stageNotAvailable(loaded, args.stage, irStages(loaded));
    if (args.irLine > listing->lineCount())
        return fail(ExitBadInput, ReadError{listing->path, args.irLine, 0,
                                            QStringLiteral("line is past the end of the %1 stage (%2 lines)")
                                                .arg(args.stage).arg(listing->lineCount())});
    const ListingLine &line = listing->lines[args.irLine - 1];
    const SourceLocation loc = loaded.map.sourceForLine(args.stage, args.irLine - 1);
    QJsonArray siblings;
    for (const int index : loaded.map.siblingLines(args.stage, args.irLine - 1))
        siblings.append(index + 1);
    if (args.json) {
        QJsonObject json{{QStringLiteral("stage"), args.stage}, {QStringLiteral("line"), args.irLine},
                         {QStringLiteral("text"), line.text}, {QStringLiteral("opcode"), line.opcode},
                         {QStringLiteral("siblings"), siblings}, {QStringLiteral("warnings"), warningsJson(loaded)}};
        json.insert(QStringLiteral("source"),
                    loc.isValid() ? QJsonValue(QJsonObject{{QStringLiteral("file"), loc.file},
                                                           {QStringLiteral("line"), loc.line},
                                                           {QStringLiteral("column"), loc.column},
                                                           {QStringLiteral("text"), sourceLineText(loaded, loc.line)}})
                                  : QJsonValue());
        out() << QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        out() << args.stage << ":" << args.irLine << ": " << shownText(line.text.trimmed()) << "\n";
        if (loaded.isDegraded(args.stage))
            out() << "  (the " << args.stage << " stage is degraded: see the warnings)\n";
        if (loc.isValid())
            out() << "  <- " << toString(loc) << ": " << sourceLineText(loaded, loc.line).trimmed() << "\n"
                  << "  (" << siblings.size() << " " << args.stage << " lines come from that source line)\n";
        else
            out() << "  <- no source location (generated code)\n";
    }
    out().flush();
    return ExitOk;
}

int mapLocations(const MapArgs &args, const LoadedCompile &loaded)
{
    QJsonArray stagesJson;
    for (const LocationStats &stats : loaded.locations) {
        if (!args.json) {
            out() << stats.stage << ": " << stats.summary() << "\n";
            continue;
        }
        stagesJson.append(QJsonObject{{QStringLiteral("stage"), stats.stage},
                                      {QStringLiteral("ops"), stats.ops},
                                      {QStringLiteral("mapped"), stats.mapped},
                                      {QStringLiteral("no_location"), stats.noLocation},
                                      {QStringLiteral("missing_file"), stats.missingFile},
                                      {QStringLiteral("beyond_source"), stats.beyondSource},
                                      {QStringLiteral("other_file"), stats.otherFile}});
    }
    if (args.json)
        out() << QJsonDocument(QJsonObject{{QStringLiteral("stages"), stagesJson},
                                           {QStringLiteral("warnings"), warningsJson(loaded)}})
                     .toJson(QJsonDocument::Indented);
    else
        for (const StageProblem &problem : loaded.problems)
            if (problem.refused)
                out() << problem.stage << ": not read (" << problemKindName(problem.error.kind) << ")\n";
    out().flush();
    return ExitOk;
}

} // namespace

int runMap(const QStringList &argv)
{
    MapArgs args;
    if (const int code = parseArgs(argv, &args); code >= 0)
        return code;
    LoadedCompile loaded;
    if (const int code = load(args, &loaded); code >= 0)
        return code;
    if (args.locations)
        return mapLocations(args, loaded);
    return args.irLine > 0 ? mapIrLine(args, loaded) : mapSourceLine(args, loaded);
}

} // namespace strata::cli
