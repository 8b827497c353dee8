// diagnose_runner: the diagnosis ladder on one kernel, for run_accuracy.py when strata-cli is not
// built. It takes the arguments of `strata-cli diagnose KERNEL.py` that the benchmark uses
// (--kernel, --spec, --json, --max-compiles) and does what that command does: asks the local
// agent for the AST, compiles the kernel, runs the ladder with counterfactual compiles through
// the agent, and writes the diagnosis JSON. Exit 0 on success, 1 with a message otherwise.
#include "NvidiaStages.h"
#include "NvidiaTargets.h"
#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/Ladder.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTextStream>

using namespace strata;
using namespace strata::diagnosis;

namespace {

int failWith(const QString &message)
{
    QTextStream(stderr) << "diagnose_runner: " << message << Qt::endl;
    return 1;
}

Expected<QJsonObject> readJsonFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, QStringLiteral("cannot read: ") + file.errorString()};
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll());
    if (!document.isObject())
        return ReadError{path, 0, 0, QStringLiteral("not a JSON object")};
    return document.object();
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // No plugin is loaded here: the NVIDIA targets' facts (SMs, bandwidth) come straight from the
    // plugin's header, as PluginRegistry would add them.
    strata::diagnosis::addTargetLimitsSource(&strata::nvidia::nvidiaTargetLimits);
    QCommandLineParser parser;
    const QCommandLineOption kernelOption(QStringLiteral("kernel"), QStringLiteral("kernel"), QStringLiteral("NAME"));
    const QCommandLineOption specOption(QStringLiteral("spec"), QStringLiteral("spec file"), QStringLiteral("SPEC"));
    const QCommandLineOption jsonOption(QStringLiteral("json"), QStringLiteral("output"), QStringLiteral("FILE"));
    const QCommandLineOption compilesOption(QStringLiteral("max-compiles"), QStringLiteral("cap"), QStringLiteral("N"), QStringLiteral("8"));
    parser.addOptions({kernelOption, specOption, jsonOption, compilesOption});
    parser.process(app);
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2 || positional.first() != QLatin1String("diagnose"))
        return failWith(QStringLiteral("usage: diagnose_runner diagnose KERNEL.py --kernel NAME --spec SPEC --json OUT"));
    const QString source = QFileInfo(positional.at(1)).absoluteFilePath();
    Expected<QJsonObject> spec = readJsonFile(parser.value(specOption));
    if (!spec)
        return failWith(spec.error().toString());
    const QString kernel = parser.value(kernelOption);
    spec->insert(QStringLiteral("kernel"), kernel);

    HostConnection agent(std::make_unique<LocalProcessTransport>());
    QString error;
    if (!agent.start(&error))
        return failWith(QStringLiteral("the agent could not start: ") + error);
    QTemporaryDir work;
    LadderInputs inputs;
    inputs.kernel = kernel;
    const RpcReply ast = agent.callBlocking(QStringLiteral("ast"), {{QStringLiteral("source_path"), source},
                                                                   {QStringLiteral("kernel"), kernel}}, 60000);
    if (ast.ok)
        inputs.astReply = ast.result.toObject();
    else
        inputs.astMissingReason = ast.error.message;
    const RpcReply reply = agent.callBlocking(QStringLiteral("compile"),
        {{QStringLiteral("source_path"), source}, {QStringLiteral("kernel"), kernel}, {QStringLiteral("spec"), *spec},
         {QStringLiteral("target"), spec->value(QStringLiteral("target")).toString(QStringLiteral("sm_90"))},
         {QStringLiteral("work_dir"), work.path()}, {QStringLiteral("timeout_s"), 600}}, 660000);
    if (!reply.ok)
        return failWith(QStringLiteral("compile failed: ") + reply.error.message);
    Expected<CompileResult> result = parseCompileResult(reply.result.toObject(), work.path());
    if (!result)
        return failWith(result.error().toString());
    Expected<LoadedCompile> compile = loadCompile(*result, nvidiaStages());
    if (!compile)
        return failWith(compile.error().toString());
    AgentCounterfactualRunner runner(agent, {source, kernel, compile->result.target, compile->stages});
    inputs.sourcePath = compile->result.sourcePath;
    inputs.spec = compile->result.spec;
    inputs.compile = &*compile;
    inputs.runner = &runner;
    LadderOptions options;
    options.maxCounterfactuals = parser.value(compilesOption).toInt();
    const LadderResult diagnosis = runLadder(inputs, options);
    agent.stop();
    QFile out(parser.value(jsonOption));
    if (!out.open(QIODevice::WriteOnly))
        return failWith(QStringLiteral("cannot write ") + out.fileName());
    out.write(QJsonDocument(toJson(diagnosis)).toJson(QJsonDocument::Indented));
    return 0;
}
