// The evidence model: the diagnosis tree, its versioned JSON (round trip, every evidence kind),
// and clear errors for broken or newer documents.
#include "diagnosis/model/DiagnosisJson.h"

#include <QJsonArray>
#include <QtTest>

using namespace strata;
using namespace strata::diagnosis;

namespace {

Finding sampleFinding(Level level, const QString &rule)
{
    Finding finding;
    finding.ruleId = rule;
    finding.level = level;
    finding.title = QStringLiteral("Scalar loads on a contiguous row");
    finding.severity = Severity::High;
    finding.confidence = 0.9;
    finding.span = {QStringLiteral("/p/k.py"), 18, 9, 18, 37};
    finding.cause = QStringLiteral("The mask limits the vector width to 1.");
    finding.recipes = {QStringLiteral("pad-to-block"), QStringLiteral("divisibility-hint")};
    finding.gapShare = GapShare{0.4, true};
    finding.evidence = {
        Evidence::span({QStringLiteral("/p/k.py"), 18, 9, 18, 37}, QStringLiteral("the load")),
        Evidence::metric(QStringLiteral("vector_width"), 1, QStringLiteral("elements")),
        Evidence::irOp(QStringLiteral("ptx"), 72, QStringLiteral("ld.global.b32"), QStringLiteral("  @%p1 ld.global.b32 { %r1 }, [ %rd1 + 0 ];")),
        Evidence::pass(QStringLiteral("TritonGPUCoalesce"), QStringLiteral("tritongpu-coalesce")),
        Evidence::remark({QStringLiteral("/p/k.py"), 18, 16, 0, 0}, QStringLiteral("remark"),
                         QStringLiteral("Warning: vectorization fails vec = 1 origin vec = 4")),
        Evidence::counterfactual(QStringLiteral("n_elements divisible by 16"), QStringLiteral("ld.global.b32"),
                                 QStringLiteral("ld.global.v4.b32")),
    };
    return finding;
}

Diagnosis sampleDiagnosis()
{
    Diagnosis diagnosis;
    diagnosis.kernel = QStringLiteral("add_kernel");
    diagnosis.sourcePath = QStringLiteral("/p/k.py");
    diagnosis.addFindings(Level::L3, {sampleFinding(Level::L3, QStringLiteral("L3.scalar-global-access"))});
    diagnosis.addFindings(Level::L1, {sampleFinding(Level::L1, QStringLiteral("L1.redundant-mask"))});
    diagnosis.logStep(QStringLiteral("L1 triage"), QStringLiteral("always first"));
    diagnosis.logStep(QStringLiteral("L3 IR attribution"), QStringLiteral("L1 found a mask on every access"));
    return diagnosis;
}

} // namespace

class DiagnosisModelTest : public QObject {
    Q_OBJECT

private slots:
    void levelsStayInOrder()
    {
        const Diagnosis diagnosis = sampleDiagnosis();
        QCOMPARE(diagnosis.levels.size(), 2);
        QCOMPARE(diagnosis.levels[0].level, Level::L1);
        QCOMPARE(diagnosis.levels[1].level, Level::L3);
        QCOMPARE(diagnosis.findings(Level::L3).first().ruleId, QStringLiteral("L3.scalar-global-access"));
        QVERIFY(diagnosis.findings(Level::L2).isEmpty());
        QCOMPARE(diagnosis.allFindings().size(), 2);
    }

    void jsonRoundTrip()
    {
        const Diagnosis diagnosis = sampleDiagnosis();
        const QJsonObject json = toJson(diagnosis);
        QCOMPARE(json.value(QStringLiteral("schema")).toString(), QStringLiteral("strata.diagnosis"));
        QCOMPARE(json.value(QStringLiteral("version")).toInt(), 2);
        const QJsonArray evidence = json[QStringLiteral("levels")][0][QStringLiteral("findings")][0][QStringLiteral("evidence")].toArray();
        QStringList kinds;
        for (const QJsonValue &item : evidence)
            kinds.append(item[QStringLiteral("kind")].toString());
        QCOMPARE(kinds, (QStringList{"source_span", "metric", "ir_op", "pass", "remark", "counterfactual"}));
        QCOMPARE(evidence[2][QStringLiteral("text")].toString(), QStringLiteral("@%p1 ld.global.b32 { %r1 }, [ %rd1 + 0 ];"));
        const Expected<Diagnosis> back = diagnosisFromJson(json);
        QVERIFY2(back, back ? "" : qPrintable(back.error().toString()));
        QCOMPARE(*back, diagnosis);
    }

    void gapShareIsOptional()
    {
        Finding finding = sampleFinding(Level::L1, QStringLiteral("L1.x"));
        finding.gapShare.reset();
        const QJsonObject json = toJson(finding);
        QVERIFY(!json.contains(QStringLiteral("gap_share")));
        QCOMPARE(*findingFromJson(json), finding);
    }

    void badFieldNamesItsPath()
    {
        QJsonObject json = toJson(sampleDiagnosis());
        QJsonArray levels = json[QStringLiteral("levels")].toArray();
        QJsonObject level = levels[1].toObject();
        QJsonArray findings = level[QStringLiteral("findings")].toArray();
        QJsonObject finding = findings[0].toObject();
        finding[QStringLiteral("severity")] = QStringLiteral("catastrophic");
        findings[0] = finding;
        level[QStringLiteral("findings")] = findings;
        levels[1] = level;
        json[QStringLiteral("levels")] = levels;
        const Expected<Diagnosis> read = diagnosisFromJson(json, QStringLiteral("report.json"));
        QVERIFY(!read);
        QCOMPARE(read.error().file, QStringLiteral("report.json"));
        QCOMPARE(read.error().message, QStringLiteral("levels[1].findings[0].severity: unknown severity 'catastrophic'"));
    }

    void unknownEvidenceKindIsAnError()
    {
        QJsonObject finding = toJson(sampleFinding(Level::L1, QStringLiteral("L1.x")));
        QJsonArray evidence = finding[QStringLiteral("evidence")].toArray();
        QJsonObject item = evidence[0].toObject();
        item[QStringLiteral("kind")] = QStringLiteral("hunch");
        evidence[0] = item;
        finding[QStringLiteral("evidence")] = evidence;
        const Expected<Finding> read = findingFromJson(finding);
        QVERIFY(!read);
        QCOMPARE(read.error().message, QStringLiteral("evidence[0].kind: unknown evidence kind 'hunch'"));
    }

    void statusRoundTripsAndVersionOneIsRead()
    {
        Diagnosis diagnosis = sampleDiagnosis();
        Finding confirmed = diagnosis.findings(Level::L3).first();
        confirmed.level = Level::L4;
        confirmed.ruleId = QStringLiteral("L4.confirmed-cause");
        confirmed.status = FindingStatus::Confirmed;
        diagnosis.addFindings(Level::L4, {confirmed});
        QJsonObject json = toJson(diagnosis);
        const Expected<Diagnosis> back = diagnosisFromJson(json);
        QVERIFY(back);
        QCOMPARE(*back, diagnosis);
        QCOMPARE(back->findings(Level::L4).first().status, FindingStatus::Confirmed);
        QCOMPARE(back->findings(Level::L3).first().status, FindingStatus::NotExamined);
        // A version-1 file has no status: an L4 finding's comes from its rule id.
        json[QStringLiteral("version")] = 1;
        QJsonArray levels = json[QStringLiteral("levels")].toArray();
        for (int i = 0; i < levels.size(); ++i) {
            QJsonObject level = levels[i].toObject();
            QJsonArray findings = level[QStringLiteral("findings")].toArray();
            for (int j = 0; j < findings.size(); ++j) {
                QJsonObject finding = findings[j].toObject();
                finding.remove(QStringLiteral("status"));
                findings[j] = finding;
            }
            level[QStringLiteral("findings")] = findings;
            levels[i] = level;
        }
        json[QStringLiteral("levels")] = levels;
        const Expected<Diagnosis> v1 = diagnosisFromJson(json);
        QVERIFY(v1);
        QCOMPARE(*v1, diagnosis);
        QJsonObject bad = toJson(confirmed);
        bad[QStringLiteral("status")] = QStringLiteral("probably");
        const Expected<Finding> wrong = findingFromJson(bad);
        QVERIFY(!wrong);
        QCOMPARE(wrong.error().message, QStringLiteral("status: unknown status 'probably'"));
    }

    void newerVersionIsRejected()
    {
        QJsonObject json = toJson(sampleDiagnosis());
        json[QStringLiteral("version")] = 3;
        const Expected<Diagnosis> read = diagnosisFromJson(json);
        QVERIFY(!read);
        QVERIFY(read.error().message.contains(QStringLiteral("version 3")));
        json.remove(QStringLiteral("schema"));
        QVERIFY(!diagnosisFromJson(json));
    }
};

QTEST_GUILESS_MAIN(DiagnosisModelTest)
#include "tst_diagnosis_model.moc"
