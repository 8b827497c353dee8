#include "optimize/CandidateCheck.h"

#include "optimize/AgentSession.h"
#include "optimize/FactCheck.h"
#include "optimize/KernelDiagnosis.h"

#include <QJsonArray>

namespace strata::optimize {

namespace {

const CapturedKernel *findLaunch(const TaskRun &run, const QString &kernel)
{
    for (const CapturedKernel &launch : run.kernels)
        if (launch.kernel == kernel)
            return &launch;
    return nullptr;
}

QJsonObject factCheckJson(const FactCheckResult &result)
{
    QJsonArray facts;
    for (const FactOutcome &outcome : result.outcomes) {
        QJsonObject fact{{QStringLiteral("fact"), outcome.fact.fact},
                         {QStringLiteral("line"), outcome.fact.line},
                         {QStringLiteral("want"), outcome.fact.want},
                         {QStringLiteral("before"), outcome.before},
                         {QStringLiteral("after"), outcome.after},
                         {QStringLiteral("changed"), outcome.changed}};
        if (!outcome.unavailable.isEmpty())  // the backend cannot read the fact: why
            fact.insert(QStringLiteral("unavailable"), outcome.unavailable);
        facts.append(fact);
    }
    QJsonObject json{{QStringLiteral("passed"), result.passed()}, {QStringLiteral("facts"), facts},
                     {QStringLiteral("summary"), result.summary()}};
    if (!result.newAssemblerWarnings.isEmpty())
        json.insert(QStringLiteral("new_assembler_warnings"), QJsonArray::fromStringList(result.newAssemblerWarnings));
    return json;
}

// The first failing reason of a verdict, as one line.
QString firstFailure(const Verdict &verdict)
{
    for (const VerifyReason &reason : verdict.reasons)
        if (reason.severity == QLatin1String("fail"))
            return QStringLiteral("%1: %2").arg(reason.kind, reason.message.left(300));
    return QStringLiteral("verification failed");
}

// Returns false (and sets the row) when the fact check rejects the candidate.
bool factCheck(AgentSession &agent, const PluginRegistry &plugins, const CandidateCheckInput &input, const TaskRun &run,
               CandidateRow &row)
{
    const bool declared = std::any_of(input.expected.begin(), input.expected.end(),
                                      [](const rewrite::ExpectedFact &fact) { return !fact.fact.isEmpty(); });
    if (!declared || !input.parentFacts)
        return true;
    const CapturedKernel *launch = findLaunch(run, input.kernel);
    if (!launch) {
        row.state = QStringLiteral("fact_unchanged");
        row.detail = QStringLiteral("the candidate no longer launches kernel %1").arg(input.kernel);
        return false;
    }
    Expected<CompiledKernel> compiled = compileKernel(agent, plugins, *launch, input.compileDir);
    if (!compiled) {
        row.state = QStringLiteral("compile_failed");
        row.detail = compiled.error().toString();
        return false;
    }
    const FactCheckResult result = checkFacts(input.expected, *input.parentFacts, compiled->facts, compiled->rules);
    row.evidence.insert(QStringLiteral("fact_check"), factCheckJson(result));
    if (result.passed())
        return true;
    row.state = QStringLiteral("fact_unchanged");
    row.detail = result.summary();
    return false;
}

QJsonObject glueJson(const QMap<QString, int> &glue)
{
    QJsonObject json;
    for (auto it = glue.begin(); it != glue.end(); ++it)
        json.insert(it.key(), it.value());
    return json;
}

} // namespace

QJsonObject launchJson(const CapturedKernel &launch)
{
    QJsonArray args;
    for (const KernelArgument &argument : launch.args) {
        QJsonObject json{{QStringLiteral("name"), argument.name}, {QStringLiteral("type"), argument.type}};
        if (argument.isTensor()) {
            QJsonArray shape, stride;
            for (qint64 extent : argument.shape)
                shape.append(double(extent));
            for (qint64 step : argument.stride)
                stride.append(double(step));
            json.insert(QStringLiteral("shape"), shape);
            json.insert(QStringLiteral("stride"), stride);
            json.insert(QStringLiteral("dtype"), argument.dtype);
        } else {
            json.insert(QStringLiteral("value"), argument.value);
        }
        args.append(json);
    }
    QJsonArray grid;
    for (qint64 extent : launch.grid)
        grid.append(double(extent));
    return {{QStringLiteral("kernel"), launch.kernel},
            {QStringLiteral("source_path"), launch.sourcePath},
            {QStringLiteral("line"), launch.line},
            {QStringLiteral("grid"), grid},
            {QStringLiteral("num_warps"), launch.numWarps},
            {QStringLiteral("num_stages"), launch.numStages},
            {QStringLiteral("launches"), launch.launches},
            {QStringLiteral("args"), args},
            {QStringLiteral("spec"), launch.spec}};
}

void checkCandidate(AgentSession &agent, const PluginRegistry &plugins, const CandidateCheckInput &input, CandidateRow &row)
{
    Expected<TaskRun> run = agent.runTask(row.path, input.target);
    if (!run) {
        row.state = QStringLiteral("compile_failed");
        row.detail = run.error().toString();
        return;
    }
    row.evidence.insert(QStringLiteral("category"), run->meta.value(QStringLiteral("category")));
    if (run->kernels.isEmpty()) {
        row.state = QStringLiteral("verify_failed");
        row.detail = QStringLiteral("no_triton_launch: ModelNew.forward launched no Triton kernel");
        return;
    }
    if (!factCheck(agent, plugins, input, *run, row))
        return;
    Expected<Verdict> verdict = agent.verify(row.path, input.glue);
    if (!verdict) {
        row.state = QStringLiteral("error");
        row.detail = verdict.error().toString();
        return;
    }
    row.evidence.insert(QStringLiteral("verdict"), verdict->verdict);
    if (!verdict->glueCalls.isEmpty())
        row.evidence.insert(QStringLiteral("glue_calls"), glueJson(verdict->glueCalls));
    if (!verdict->passed()) {
        row.state = QStringLiteral("verify_failed");
        row.detail = firstFailure(*verdict);
        return;
    }
    row.state = QStringLiteral("verified");
    row.detail = QStringLiteral("verified on %1 shape(s), %2 draws each").arg(verdict->shapes.size()).arg(verdict->drawsPerShape);
}

} // namespace strata::optimize
