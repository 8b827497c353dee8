// The loop's fact check compares a recipe's promise on the facts the backend reads (issue #16):
// the access widths in the stage its rules name, and for a backend whose compiles the core reads
// no facts from, an explicit "not available" that lets verification and timing judge instead.
#include "../diagnosis/DiagnosisTestSupport.h"
#include "NvidiaIrRules.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "optimize/FactCheck.h"

#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;
using strata::optimize::checkFacts;
using strata::optimize::FactCheckResult;

namespace {

constexpr int kLine = 12;

KernelIrFacts loadsOf(const QString &stage, int bits, int numWarps = 4)
{
    KernelIrFacts facts;
    facts.numWarps = numWarps;
    SourceLineFacts line;
    line.line = kLine;
    GlobalAccess access;
    access.stage = stage;
    access.accessBits = bits;
    access.count = 1;
    line.accesses.append(access);
    facts.lines.append(line);
    return facts;
}

rewrite::ExpectedFact widerLoads()
{
    return {QStringLiteral("max_load_bits"), kLine, {}};
}

rewrite::ExpectedFact moreWarps()
{
    return {QStringLiteral("num_warps"), 0, {}};
}

// NVIDIA's rules with the access widths read nowhere: a backend that has L3 rules but no widths.
class NoAccessWidths final : public nvidia::NvidiaIrRules {
public:
    QString accessWidthStage() const override { return {}; }
};

} // namespace

class FactCheckTest : public QObject {
    Q_OBJECT

private slots:
    void widthsComeFromTheBackendsStage();
    void widthsUnavailableWithoutAStage();
    void unavailableFactsDoNotHideAnUnchangedOne();
    void noRulesMakesEveryFactUnavailable();
    void fewerDivisionsWhereTheBackendCountsThem();
    void newAssemblerWarningRejectsAChangedFact();
    void eachRecipeOfACombinationKeepsItsPromise();
};

void FactCheckTest::widthsComeFromTheBackendsStage()
{
    const BackendIrRules &rules = nvidia::nvidiaIrRules();
    const QString stage = rules.accessWidthStage();
    QVERIFY(!stage.isEmpty());
    const FactCheckResult grew = checkFacts({widerLoads()}, loadsOf(stage, 32), loadsOf(stage, 128), &rules);
    QVERIFY(grew.passed());
    QCOMPARE(grew.outcomes.first().before, QStringLiteral("32 bits"));
    QCOMPARE(grew.outcomes.first().after, QStringLiteral("128 bits"));
    // Widths of another stage are not what the backend compares.
    const FactCheckResult elsewhere = checkFacts({widerLoads()}, loadsOf(stage, 32), loadsOf(QStringLiteral("other"), 128), &rules);
    QVERIFY(!elsewhere.passed());
    QVERIFY(elsewhere.summary().contains(QLatin1String("(unchanged)")));
}

void FactCheckTest::widthsUnavailableWithoutAStage()
{
    const NoAccessWidths rules;
    const FactCheckResult result = checkFacts({widerLoads()}, loadsOf(QStringLiteral("x"), 32), loadsOf(QStringLiteral("x"), 32), &rules);
    QCOMPARE(result.outcomes.size(), 1);
    QVERIFY(!result.outcomes.first().unavailable.isEmpty());
    QVERIFY(result.passed());
    QVERIFY(result.summary().contains(QLatin1String("not available on this backend")));
}

void FactCheckTest::unavailableFactsDoNotHideAnUnchangedOne()
{
    const NoAccessWidths rules;
    const FactCheckResult same = checkFacts({widerLoads(), moreWarps()}, loadsOf(QStringLiteral("x"), 32, 4),
                                            loadsOf(QStringLiteral("x"), 32, 4), &rules);
    QVERIFY(!same.passed());
    const FactCheckResult more = checkFacts({widerLoads(), moreWarps()}, loadsOf(QStringLiteral("x"), 32, 4),
                                            loadsOf(QStringLiteral("x"), 32, 8), &rules);
    QVERIFY(more.passed());
}

void FactCheckTest::noRulesMakesEveryFactUnavailable()
{
    const FactCheckResult result = checkFacts({widerLoads(), moreWarps()}, loadsOf(QStringLiteral("x"), 32, 4),
                                              loadsOf(QStringLiteral("x"), 32, 4), nullptr);
    QCOMPARE(result.outcomes.size(), 2);
    for (const auto &outcome : result.outcomes)
        QVERIFY(!outcome.unavailable.isEmpty());
    QVERIFY(result.passed());
    QVERIFY(checkFacts({}, {}, {}, nullptr).passed());
}

// constexpr-divisors promises fewer integer divisions: a drop passes, the same count does not,
// and a backend that does not count them leaves the judgement to verification and timing.
void FactCheckTest::fewerDivisionsWhereTheBackendCountsThem()
{
    const auto divisions = [](int count) {
        KernelIrFacts facts = loadsOf(QStringLiteral("x"), 32);
        facts.lines.first().integerDivisions = count;
        return facts;
    };
    const rewrite::ExpectedFact fewer{QStringLiteral("int_divisions"), 0, {}};
    const BackendIrRules &nvidia = nvidia::nvidiaIrRules();
    const FactCheckResult dropped = checkFacts({fewer}, divisions(24), divisions(0), &nvidia);
    QVERIFY(dropped.passed());
    QCOMPARE(dropped.outcomes.first().before, QStringLiteral("24"));
    QCOMPARE(dropped.outcomes.first().after, QStringLiteral("0"));
    QVERIFY(!checkFacts({fewer}, divisions(24), divisions(24), &nvidia).passed());
    class NoDivisions final : public nvidia::NvidiaIrRules {
    public:
        bool countsIntegerDivisions() const override { return false; }
    } uncounted;
    const FactCheckResult unknown = checkFacts({fewer}, divisions(0), divisions(0), &uncounted);
    QVERIFY(!unknown.outcomes.first().unavailable.isEmpty());
    QVERIFY(unknown.passed());
}

// Real triton 3.6 compiles of one matmul: the default tile, and one so large that ptxas spills and
// serializes its wgmma. A candidate that grew the registers (its promise) but brought in the
// assembler's serialization warning is rejected; the reverse direction, and the same warnings on
// both sides, pass.
void FactCheckTest::newAssemblerWarningRejectsAChangedFact()
{
    const BackendIrRules &nvidia = nvidia::nvidiaIrRules();
    const auto factsOf = [&nvidia](const QString &variant) {
        Expected<KernelIrFacts> facts = collectIrFacts(testing::loadFixtureCompile(variant), nvidia);
        if (!facts)
            qFatal("%s", qPrintable(facts.error().toString()));
        return *facts;
    };
    const KernelIrFacts plain = factsOf(QStringLiteral("matmul/default"));
    const KernelIrFacts serialized = factsOf(QStringLiteral("matmul/big_spill"));
    QVERIFY(plain.assemblerWarnings.isEmpty());
    QVERIFY(!serialized.assemblerWarnings.isEmpty());
    const rewrite::ExpectedFact registers{QStringLiteral("registers"), 0, {}};

    const FactCheckResult worse = checkFacts({registers}, plain, serialized, &nvidia);
    QVERIFY(worse.outcomes.first().changed);
    QVERIFY(!worse.passed());
    QVERIFY(worse.newAssemblerWarnings.first().contains(QLatin1String("serialized")));
    QVERIFY(worse.summary().contains(QLatin1String("new assembler warning")));

    QVERIFY(checkFacts({registers}, serialized, plain, &nvidia).passed());
    const FactCheckResult same = checkFacts({registers}, serialized, serialized, &nvidia);
    QVERIFY(same.newAssemblerWarnings.isEmpty());
    QVERIFY(!same.passed());  // unchanged registers: the promise itself failed
}

// A combined candidate passes only when each recipe's own promise holds: wider loads promised by
// one part do not carry another part's unchanged warp count, and the reverse.
void FactCheckTest::eachRecipeOfACombinationKeepsItsPromise()
{
    const BackendIrRules &nvidia = nvidia::nvidiaIrRules();
    rewrite::ExpectedFact loads = widerLoads(), warps = moreWarps();
    loads.promisedBy = QStringLiteral("load-contiguous-axis");
    warps.promisedBy = QStringLiteral("retune-num-warps");
    const KernelIrFacts parent = loadsOf(nvidia.accessWidthStage(), 32, 4);
    QVERIFY(!checkFacts({loads, warps}, parent, loadsOf(nvidia.accessWidthStage(), 32, 8), &nvidia).passed());
    QVERIFY(!checkFacts({loads, warps}, parent, loadsOf(nvidia.accessWidthStage(), 64, 4), &nvidia).passed());
    QVERIFY(checkFacts({loads, warps}, parent, loadsOf(nvidia.accessWidthStage(), 64, 8), &nvidia).passed());
    // One recipe's two promises: either one changing keeps it.
    warps.promisedBy = loads.promisedBy;
    QVERIFY(checkFacts({loads, warps}, parent, loadsOf(nvidia.accessWidthStage(), 32, 8), &nvidia).passed());
}

QTEST_GUILESS_MAIN(FactCheckTest)
#include "tst_fact_check.moc"
