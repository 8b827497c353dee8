#pragma once
// Real data for the report tests: the diagnosis the ladder produces on a fixture compile (L1 from
// the fixture AST reply, L3 and L4 pass attribution from the compile), and a suite outcome built
// here whose numbers the tests check figure by figure.
#include "../diagnosis/DiagnosisTestSupport.h"
#include "diagnosis/ladder/Ladder.h"
#include "optimize/Outcome.h"

#include <QFile>
#include <QJsonDocument>

namespace strata::testing {

inline QJsonObject readFixtureJson(const QString &relative)
{
    QFile file(QStringLiteral(STRATA_FIXTURES_DIR "/") + relative);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read fixture %s", qPrintable(relative));
    return QJsonDocument::fromJson(file.readAll()).object();
}

// The ladder on vector_add/unaligned, without an agent (no counterfactual compiles).
inline diagnosis::LadderResult ladderOnUnalignedAdd(const LoadedCompile &compile)
{
    diagnosis::LadderInputs inputs;
    inputs.kernel = compile.result.kernel;
    inputs.sourcePath = compile.result.sourcePath;
    inputs.astReply = readFixtureJson(QStringLiteral("ast/samples/vector_add.ast.json"));
    inputs.spec = compile.result.spec;
    inputs.compile = &compile;
    return diagnosis::runLadder(inputs);
}

inline optimize::CandidateRecord candidate(qint64 id, qint64 parent, const QString &provider, const QString &state,
                                          std::optional<double> ms, const QString &source)
{
    optimize::CandidateRecord record;
    record.id = id;
    record.parentId = parent;
    record.iteration = parent ? 1 : 0;
    record.provider = provider;
    record.recipeId = provider == QLatin1String("recipe") ? QStringLiteral("constexpr-unit-stride") : QString();
    record.title = QStringLiteral("candidate %1").arg(id);
    record.state = state;
    record.detail = state == QLatin1String("accepted") ? QStringLiteral("faster, p < 0.01") : QStringLiteral("max abs error 3.2, \"wrong\"");
    record.medianMs = ms;
    record.sourceText = source;
    return record;
}

inline optimize::TaskOutcome task(const QString &id, const QString &status, std::optional<double> initial,
                                  std::optional<double> best, std::optional<double> roofline, const QString &bound)
{
    optimize::TaskOutcome outcome;
    outcome.taskId = id;
    outcome.taskPath = QStringLiteral("suites/test/%1.py").arg(id);
    outcome.category = QStringLiteral("elementwise");
    outcome.status = status;
    outcome.initialMs = initial;
    outcome.bestMs = best;
    outcome.eagerMs = initial ? std::optional<double>(*initial * 1.5) : std::nullopt;
    outcome.compileMs = initial ? std::optional<double>(*initial * 1.2) : std::nullopt;
    outcome.rooflinePct = roofline;
    outcome.bound = bound;
    if (status == QLatin1String("failed"))
        outcome.failure = QStringLiteral("verify failed: max abs error 3.2 > 1e-3");
    return outcome;
}

// Six tasks: speedups 6x, 3x, 1.5x, 1x (no gain), 0.8x would be rejected so 1x, and one failure.
// The vector_add task carries candidates whose sources hold HTML that must show literally.
inline optimize::SuiteOutcome suiteOutcome(const QString &initialSource)
{
    optimize::SuiteOutcome suite;
    suite.suite = QStringLiteral("report-test");
    suite.device = QStringLiteral("NVIDIA H200");
    suite.driver = QStringLiteral("580.65.06");
    suite.triton = QStringLiteral("3.6.0");
    suite.torch = QStringLiteral("2.11.0");
    suite.commit = QStringLiteral("72f7e19");
    suite.date = QDateTime(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
    optimize::TaskOutcome add = task(QStringLiteral("vector_add"), QStringLiteral("improved"), 0.06, 0.01, 82.5, QStringLiteral("memory"));
    const QString best = QString(initialSource).replace(QStringLiteral("n_elements,"), QStringLiteral("n_elements: tl.constexpr,"))
                         + QStringLiteral("# </script><b>not bold</b> & \"quoted\"\n");
    add.candidates = {candidate(1, 0, QStringLiteral("initial"), QStringLiteral("accepted"), 0.06, initialSource),
                      candidate(2, 1, QStringLiteral("recipe"), QStringLiteral("verify_failed"), std::nullopt, best + QStringLiteral("# wrong\n")),
                      candidate(3, 1, QStringLiteral("recipe"), QStringLiteral("accepted"), 0.01, best)};
    add.candidates[2].speedupVsParent = 6.0;
    add.winningRecipes = {QStringLiteral("recipe:constexpr-unit-stride")};
    add.winningFindings = {QStringLiteral("L4.untested-cause")};
    suite.tasks = {add,
                   task(QStringLiteral("softmax"), QStringLiteral("improved"), 0.3, 0.1, 55.0, QStringLiteral("memory")),
                   task(QStringLiteral("matmul"), QStringLiteral("improved"), 1.5, 1.0, 71.0, QStringLiteral("compute")),
                   task(QStringLiteral("layernorm"), QStringLiteral("no_gain"), 0.2, 0.2, 40.0, QStringLiteral("latency")),
                   task(QStringLiteral("row_sum"), QStringLiteral("no_gain"), 0.1, 0.1, std::nullopt, QString()),
                   task(QStringLiteral("attention|<bad>"), QStringLiteral("failed"), 2.0, std::nullopt, std::nullopt, QString())};
    return suite;
}

} // namespace strata::testing
