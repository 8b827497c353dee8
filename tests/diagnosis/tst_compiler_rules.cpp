// L4 asks the compile's backend (BackendIrRules) which changes could flip a finding's fact and how
// the fact reads (issue #16): with the NVIDIA backend's rules passed in it behaves as with the
// default, and a backend that answers nothing leaves the finding untested instead of being judged
// on another backend's facts.
#include "NvidiaIrRules.h"
#include "diagnosis/l4_compiler/CompilerAnalysis.h"
#include "diagnosis/l4_compiler/Counterfactual.h"

#include <QJsonObject>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

// Compiles nothing: answers each change with the facts it was given, and records what it was asked.
class CannedRunner final : public CounterfactualRunner {
public:
    explicit CannedRunner(KernelIrFacts facts) : m_facts(std::move(facts)) {}
    QVector<CounterfactualCompile> compileAll(const QVector<SpecChange> &changes) override
    {
        asked += changes;
        QVector<CounterfactualCompile> results;
        for (const SpecChange &change : changes)
            results.append(CounterfactualCompile{change, m_facts, {}, 0.1});
        return results;
    }
    QVector<SpecChange> asked;

private:
    KernelIrFacts m_facts;
};

constexpr int kLine = 7;

// A load line: `count` accesses of `bits` each in the access-width stage NVIDIA names.
KernelIrFacts loadsOf(int bits, int count)
{
    KernelIrFacts facts;
    SourceLineFacts line;
    line.line = kLine;
    GlobalAccess access;
    access.stage = nvidia::nvidiaIrRules().accessWidthStage();
    access.vectorWidth = bits / 32;
    access.elementBits = 32;
    access.accessBits = bits;
    access.count = count;
    access.opcode = bits > 32 ? QStringLiteral("ld.global.v4.b32") : QStringLiteral("ld.global.b32");
    line.accesses.append(access);
    facts.lines.append(line);
    return facts;
}

Finding scalarLoads()
{
    Finding finding;
    finding.ruleId = QStringLiteral("L3.scalar-global-access");
    finding.level = Level::L3;
    finding.title = QStringLiteral("narrow global loads");
    finding.span.line = kLine;
    return finding;
}

QJsonObject unalignedSpec()
{
    return {{QStringLiteral("signature"), QJsonObject{{QStringLiteral("x_ptr"), QStringLiteral("*fp32")},
                                                      {QStringLiteral("n_elements"), QStringLiteral("i32")}}}};
}

} // namespace

class CompilerRulesTest : public QObject {
    Q_OBJECT

private slots:
    void nvidiaRulesMatchTheDefault();
    void aBackendWithoutAnswersPlansNoChange();
    void analysisConfirmsWithThePassedRules();
    void analysisWithoutAnswersLeavesTheFindingUntested();
};

void CompilerRulesTest::nvidiaRulesMatchTheDefault()
{
    const Finding finding = scalarLoads();
    const BackendIrRules &nvidia = nvidia::nvidiaIrRules();
    const QVector<SpecChange> passed = counterfactualChanges(finding, unalignedSpec(), {}, &nvidia);
    const QVector<SpecChange> byDefault = counterfactualChanges(finding, unalignedSpec());
    QCOMPARE(passed.size(), 2);  // n_elements divisible by 16, x_ptr aligned
    QCOMPARE(passed.size(), byDefault.size());
    for (int i = 0; i < passed.size(); ++i)
        QCOMPARE(passed[i].id, byDefault[i].id);

    const std::optional<FactState> narrow = factOnLine(finding, loadsOf(32, 4), &nvidia);
    QVERIFY(narrow && narrow->holds);
    QCOMPARE(narrow->text, QStringLiteral("ld.global.b32 x4"));
    const std::optional<FactState> wide = factOnLine(finding, loadsOf(128, 1), &nvidia);
    QVERIFY(wide && !wide->holds);
}

void CompilerRulesTest::aBackendWithoutAnswersPlansNoChange()
{
    const BackendIrRules &none = gpuIrOnlyRules();  // the L3 part only: every L4 answer "not available"
    QVERIFY(counterfactualChanges(scalarLoads(), unalignedSpec(), {}, &none).isEmpty());
    QVERIFY(!factOnLine(scalarLoads(), loadsOf(32, 4), &none));
    QVERIFY(!none.passTrace(scalarLoads()));
    QVERIFY(none.tracedFactMarker(TracedFact::MmaDot).isEmpty());
    QVERIFY(none.accessWidthStage().isEmpty());
}

void CompilerRulesTest::analysisConfirmsWithThePassedRules()
{
    LoadedCompile compile;
    compile.result.spec = unalignedSpec();
    CannedRunner runner(loadsOf(128, 1));  // every change widens the loads
    CompilerAnalysisOptions options;
    options.rules = &nvidia::nvidiaIrRules();
    const CompilerAnalysis analysis = analyzeWithCompiler({scalarLoads()}, compile, loadsOf(32, 4), unalignedSpec(), &runner,
                                                          options);
    QCOMPARE(runner.asked.size(), 2);
    QCOMPARE(analysis.findings.size(), 1);
    QCOMPARE(analysis.findings.first().ruleId, QString::fromLatin1(kConfirmedCauseRule));
    QVERIFY(isConfirmed(analysis.findings.first()));
}

void CompilerRulesTest::analysisWithoutAnswersLeavesTheFindingUntested()
{
    LoadedCompile compile;
    const BackendIrRules &none = gpuIrOnlyRules();  // the L3 part only: every L4 answer "not available"
    CannedRunner runner(loadsOf(128, 1));
    CompilerAnalysisOptions options;
    options.rules = &none;
    const CompilerAnalysis analysis = analyzeWithCompiler({scalarLoads()}, compile, loadsOf(32, 4), unalignedSpec(), &runner,
                                                          options);
    QVERIFY(runner.asked.isEmpty());  // nothing is compiled on another backend's guess
    QCOMPARE(analysis.compiles, 0);
    QCOMPARE(analysis.findings.size(), 1);
    QCOMPARE(analysis.findings.first().ruleId, QString::fromLatin1(kUntestedCauseRule));
    QVERIFY(analysis.findings.first().status == FindingStatus::Untested);
}

QTEST_GUILESS_MAIN(CompilerRulesTest)
#include "tst_compiler_rules.moc"
