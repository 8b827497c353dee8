// The mutation corpus: copies of a real triton 3.6.0 compile folder (tests/fixtures/matmul/default)
// with one stage damaged the ways a hostile or unlucky user damages them (truncated, emptied,
// /etc/passwd-like text, prose, another stage's text, a 1 MiB junk line, locations that point
// elsewhere). Each must give its typed problem (kind, refused or degraded) in LoadedCompile, the
// diagnosis warnings must carry it, and the diagnosis must not gain a finding from the damage:
// none high, none the intact compile does not have.
#include "DiagnosisTestSupport.h"
#include "diagnosis/ladder/Ladder.h"
#include "diagnosis/model/DiagnosisJson.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>

using namespace strata;
using namespace strata::diagnosis;

namespace {

const QString kFixture = QStringLiteral(STRATA_FIXTURES_DIR "/matmul/default");

using Mutation = std::function<QByteArray(const QByteArray &original, const QString &fixtureDir)>;

QByteArray readFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    return file.readAll();
}

QByteArray firstLines(const QByteArray &text, int count)
{
    return text.split('\n').mid(0, count).join('\n') + '\n';
}

// A cut at `fraction` of the bytes, mid-line as a full disk or a killed copy leaves it.
QByteArray cutAt(const QByteArray &text, double fraction)
{
    return text.left(qsizetype(text.size() * fraction));
}

QByteArray withoutLinesContaining(const QByteArray &text, const QByteArray &needle)
{
    QList<QByteArray> kept;
    for (const QByteArray &line : text.split('\n')) {
        if (!line.contains(needle))
            kept.append(line);
    }
    return kept.join('\n');
}

QByteArray insertLine(const QByteArray &text, const QByteArray &needle, const QByteArray &inserted)
{
    const qsizetype at = text.indexOf(needle);
    if (at < 0)
        qFatal("no %s in the fixture", needle.constData());
    const qsizetype lineStart = text.lastIndexOf('\n', at) + 1;
    return text.left(lineStart) + inserted + '\n' + text.mid(lineStart);
}

// Every `"<kernel file>":LINE` location rewritten by `rewrite` (MLIR `loc("/p/k.py":35:20)`).
QByteArray rewriteMlirLocations(const QByteArray &text, const std::function<QString(const QString &line)> &rewrite)
{
    static const QRegularExpression loc(QStringLiteral(R"re("/tmp/strata-fixture-src/matmul\.py":(\d+))re"));
    QString out = QString::fromUtf8(text);
    QString result;
    qsizetype last = 0;
    for (auto it = loc.globalMatch(out); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        result += out.mid(last, match.capturedStart() - last) + rewrite(match.captured(1));
        last = match.capturedEnd();
    }
    return (result + out.mid(last)).toUtf8();
}

const QByteArray kPasswd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                           "bin:x:2:2:bin:/bin:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n";
const QByteArray kProse = "This is not an IR file at all.\nIt is English prose, given to Strata as a compiler stage.\n";
const QByteArray kProseWithQuote = "It's a README, not a compiler's output.\nNothing here is MLIR.\n";

struct Outcome {
    LoadedCompile compile;
    LadderResult ladder;
};

// The fixture's compile with `stage`'s artifact replaced by a mutated copy in `dir`.
Outcome loadMutated(const QString &stage, const Mutation &mutate, const QTemporaryDir &dir)
{
    Expected<CompileResult> result = readCompileResultFile(kFixture + QStringLiteral("/compile.json"));
    if (!result)
        qFatal("%s", qPrintable(result.error().toString()));
    if (mutate) {
        const QString original = result->artifacts.value(stage).path;
        const QString copy = dir.filePath(QFileInfo(original).fileName());
        QFile out(copy);
        if (!out.open(QIODevice::WriteOnly) || out.write(mutate(readFile(original), kFixture)) < 0)
            qFatal("cannot write %s", qPrintable(copy));
        result->artifacts[stage].path = copy;
    }
    Expected<LoadedCompile> loaded = loadCompile(*result, nvidiaStages());
    if (!loaded)
        qFatal("%s", qPrintable(loaded.error().toString()));
    Outcome outcome{std::move(*loaded), {}};
    LadderInputs inputs;
    inputs.kernel = outcome.compile.result.kernel;
    inputs.sourcePath = outcome.compile.result.sourcePath;
    inputs.spec = outcome.compile.result.spec;
    inputs.compile = &outcome.compile;
    inputs.astMissingReason = QStringLiteral("the mutation corpus runs without an agent");
    LadderOptions options;
    options.maxLevel = Level::L3;  // L3 makes the findings; L4 only confirms them
    outcome.ladder = runLadder(inputs, options);
    return outcome;
}

QStringList findingKeys(const LadderResult &ladder)
{
    QStringList keys;
    for (const RankedFinding &ranked : ladder.ranking)
        keys << QStringLiteral("%1@%2").arg(ranked.finding.ruleId).arg(ranked.finding.span.line);
    return keys;
}

QString problemsText(const LoadedCompile &compile)
{
    QStringList lines;
    for (const StageProblem &problem : compile.problems)
        lines << problem.toString();
    return lines.join(u'\n');
}

} // namespace

Q_DECLARE_METATYPE(Mutation)
Q_DECLARE_METATYPE(strata::ProblemKind)

class TestDegradedInputs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void mutatedStageGivesTypedProblem_data();
    void mutatedStageGivesTypedProblem();
    void junkPtxLineIsNoInstruction();
    void partlyBadLocationsAreCountedByReason();
    void intactCompileHasNoProblems();

private:
    QStringList m_intactFindings;
};

void TestDegradedInputs::initTestCase()
{
    QTemporaryDir dir;
    const Outcome intact = loadMutated({}, {}, dir);
    m_intactFindings = findingKeys(intact.ladder);
    QVERIFY(!m_intactFindings.isEmpty());
}

void TestDegradedInputs::mutatedStageGivesTypedProblem_data()
{
    QTest::addColumn<QString>("stage");
    QTest::addColumn<Mutation>("mutate");
    QTest::addColumn<ProblemKind>("kind");
    QTest::addColumn<bool>("refused");
    const auto row = [](const char *name, const char *stage, Mutation mutate, ProblemKind kind, bool refused) {
        QTest::newRow(name) << QString::fromLatin1(stage) << mutate << kind << refused;
    };
    const auto constant = [](QByteArray text) { return [text](const QByteArray &, const QString &) { return text; }; };
    const auto stageText = [](const char *suffix) {
        const QString name = QStringLiteral("/matmul_kernel") + QLatin1String(suffix);
        return [name](const QByteArray &, const QString &dir) { return readFile(dir + name); };
    };
    using K = ProblemKind;
    // MLIR stages
    row("ttgir emptied", "ttgir", constant({}), K::Empty, true);
    row("ttir emptied", "ttir", constant(" \n\n"), K::Empty, true);
    row("ttgir /etc/passwd", "ttgir", constant(kPasswd), K::NotAStage, true);
    row("ttgir prose", "ttgir", constant(kProse), K::NotAStage, true);
    row("ttgir prose with a quote", "ttgir", constant(kProseWithQuote), K::NotAStage, true);
    row("ttir prose", "ttir", constant(kProse), K::NotAStage, true);
    row("ttgir cut in half", "ttgir", [](const QByteArray &t, const QString &) { return cutAt(t, 0.5); }, K::Truncated, true);
    row("ttgir cut in its #loc table", "ttgir", [](const QByteArray &t, const QString &) { return cutAt(t, 0.97); },
        K::Truncated, true);
    row("ttgir only its first #loc lines", "ttgir", [](const QByteArray &t, const QString &) { return firstLines(t, 8); },
        K::Truncated, true);
    row("ttgir without its tt.return", "ttgir",
        [](const QByteArray &t, const QString &) { return withoutLinesContaining(t, "tt.return"); }, K::Truncated, true);
    row("ttir cut in half", "ttir", [](const QByteArray &t, const QString &) { return cutAt(t, 0.5); }, K::Truncated, true);
    row("ttgir holds the ttir", "ttgir", stageText(".ttir"), K::WrongStage, true);
    row("ttir holds the ttgir", "ttir", stageText(".ttgir"), K::WrongStage, true);
    row("ttgir with prose after the module", "ttgir",
        [](const QByteArray &t, const QString &) { return t + "\nThis line was appended by hand.\n"; }, K::JunkLines, false);
    // LLVM IR (LLVM's parser)
    row("llir emptied", "llir", constant({}), K::Empty, true);
    row("llir prose", "llir", constant(kProse), K::NotAStage, true);
    row("llir /etc/passwd", "llir", constant(kPasswd), K::NotAStage, true);
    row("llir header only", "llir", [](const QByteArray &t, const QString &) { return firstLines(t, 4); }, K::Truncated, true);
    row("llir cut in half", "llir", [](const QByteArray &t, const QString &) { return cutAt(t, 0.5); }, K::Truncated, true);
    row("llir with a broken instruction", "llir",
        [](const QByteArray &t, const QString &) { return insertLine(t, "  ret void, !dbg", "  %x = frobnicate i32 1"); },
        K::Syntax, true);
    // PTX
    row("ptx emptied", "ptx", constant({}), K::Empty, true);
    row("ptx prose", "ptx", constant(kProse), K::NotAStage, true);
    row("ptx cut before the body", "ptx", [](const QByteArray &t, const QString &) { return firstLines(t, 22); },
        K::Truncated, true);
    row("ptx cut in the body", "ptx", [](const QByteArray &t, const QString &) { return cutAt(t, 0.3); }, K::Truncated, true);
    row("ptx holds the sass", "ptx", stageText(".sass"), K::NotAStage, true);
    row("ptx with a 1 MiB junk line", "ptx",
        [](const QByteArray &t, const QString &) { return insertLine(t, "\tmov.b32", QByteArray(1 << 20, 'X')); },
        K::JunkLines, false);
    row("ptx with prose in the body", "ptx",
        [](const QByteArray &t, const QString &) { return insertLine(t, "\tmov.b32", "\tthis line is no instruction"); },
        K::JunkLines, false);
    // SASS
    row("sass emptied", "sass", constant({}), K::Empty, true);
    row("sass prose", "sass", constant(kProse), K::NotAStage, true);
    row("sass header only", "sass", [](const QByteArray &t, const QString &) { return firstLines(t, 5); }, K::NotAStage, true);
    row("sass cut in half", "sass", [](const QByteArray &t, const QString &) { return cutAt(t, 0.5); }, K::Truncated, true);
    row("sass holds the ptx", "sass", stageText(".ptx"), K::NotAStage, true);
    row("sass with a 1 MiB line", "sass",
        [](const QByteArray &t, const QString &) { return insertLine(t, "EXIT", QByteArray(1 << 20, 'X')); },
        K::JunkLines, false);
    // Locations that point elsewhere
    row("ttgir locs name a missing file", "ttgir",
        [](const QByteArray &t, const QString &) {
            return rewriteMlirLocations(t, [](const QString &line) { return QStringLiteral("\"/nonexistent/matmul.py\":") + line; });
        },
        K::NoMappedLines, false);
    row("ttgir locs at line 10^9", "ttgir",
        [](const QByteArray &t, const QString &) {
            return rewriteMlirLocations(t, [](const QString &) { return QStringLiteral("\"/tmp/strata-fixture-src/matmul.py\":1000000000"); });
        },
        K::NoMappedLines, false);
    row("ttgir locs name another file", "ttgir",
        [](const QByteArray &t, const QString &dir) {
            const QString other = dir + QStringLiteral("/ptxas.log");
            return rewriteMlirLocations(t, [other](const QString &line) { return u'"' + other + QStringLiteral("\":") + line; });
        },
        K::NoMappedLines, false);
    row("ptx .file names a missing file", "ptx",
        [](const QByteArray &t, const QString &) {
            QByteArray out = t;
            return out.replace("/tmp/strata-fixture-src", "/nonexistent");
        },
        K::NoMappedLines, false);
}

void TestDegradedInputs::mutatedStageGivesTypedProblem()
{
    QFETCH(QString, stage);
    QFETCH(Mutation, mutate);
    QFETCH(ProblemKind, kind);
    QFETCH(bool, refused);
    QTemporaryDir dir;
    const Outcome outcome = loadMutated(stage, mutate, dir);
    const LoadedCompile &compile = outcome.compile;

    const auto problem = std::find_if(compile.problems.cbegin(), compile.problems.cend(),
                                      [&](const StageProblem &p) { return p.stage == stage; });
    QVERIFY2(problem != compile.problems.cend(), qPrintable(QStringLiteral("no problem for %1; all: %2").arg(stage, problemsText(compile))));
    QVERIFY2(problem->error.kind == kind && problem->refused == refused,
             qPrintable(QStringLiteral("expected %1 (%2), got: %3").arg(problemKindName(kind), refused ? "refused" : "degraded", problem->toString())));
    QVERIFY(problem->error.file.startsWith(dir.path()));  // the message names the damaged file
    QCOMPARE(compile.hasStage(stage), !refused);
    QCOMPARE(compile.isDegraded(stage), !refused);

    // The diagnosis carries it, in its JSON too, and gains nothing from the damage.
    const Diagnosis &diagnosis = outcome.ladder.diagnosis;
    QVERIFY2(diagnosis.warnings.contains(problem->toString()), qPrintable(diagnosis.warnings.join(u'\n')));
    const QJsonArray jsonWarnings = toJson(diagnosis).value(QStringLiteral("warnings")).toArray();
    QVERIFY(jsonWarnings.contains(QJsonValue(problem->toString())));
    for (const RankedFinding &ranked : outcome.ladder.ranking) {
        QVERIFY2(ranked.finding.severity != Severity::High, qPrintable(ranked.finding.title));
        const QString key = QStringLiteral("%1@%2").arg(ranked.finding.ruleId).arg(ranked.finding.span.line);
        QVERIFY2(m_intactFindings.contains(key), qPrintable(key + QStringLiteral(" is not a finding of the intact compile")));
    }
}

void TestDegradedInputs::junkPtxLineIsNoInstruction()
{
    QTemporaryDir dir;
    const QByteArray junk(1 << 20, 'X');
    const Outcome outcome = loadMutated(QStringLiteral("ptx"),
                                        [&](const QByteArray &t, const QString &) { return insertLine(t, "\tmov.b32", junk); }, dir);
    const StageListing *ptx = outcome.compile.listing(QStringLiteral("ptx"));
    QVERIFY(ptx);
    int junkLines = 0;
    for (int i = 0; i < ptx->lines.size(); ++i) {
        if (ptx->lines[i].text.size() < junk.size())
            continue;
        ++junkLines;
        QCOMPARE(ptx->lines[i].kind, LineKind::Other);
        QVERIFY(ptx->lines[i].frames.isEmpty());
        QVERIFY(!outcome.compile.map.sourceForLine(QStringLiteral("ptx"), i).isValid());
    }
    QCOMPARE(junkLines, 1);
    QVERIFY2(ptx->problems.first().message.contains(QStringLiteral("1 line is not PTX syntax")), qPrintable(ptx->problems.first().message));
    QVERIFY(ptx->problems.first().message.contains(QStringLiteral("over 64 KiB")));
}

void TestDegradedInputs::partlyBadLocationsAreCountedByReason()
{
    QTemporaryDir dir;
    int seen = 0;
    // Every other kernel location moved past the kernel's end: the rest still maps.
    const Outcome outcome = loadMutated(QStringLiteral("ttgir"), [&](const QByteArray &t, const QString &) {
        return rewriteMlirLocations(t, [&](const QString &line) {
            return QStringLiteral("\"/tmp/strata-fixture-src/matmul.py\":") + (seen++ % 2 ? line : QStringLiteral("99999"));
        });
    }, dir);
    const LocationStats *stats = outcome.compile.locationStats(QStringLiteral("ttgir"));
    QVERIFY(stats);
    QVERIFY2(stats->beyondSource > 0 && stats->mapped > 0, qPrintable(stats->summary()));
    QCOMPARE(stats->ops, stats->mapped + stats->noLocation + stats->beyondSource + stats->missingFile + stats->otherFile);
    QVERIFY(stats->summary().contains(QStringLiteral("on a line past the kernel's end")));
    QVERIFY(outcome.compile.isDegraded(QStringLiteral("ttgir")));
    QVERIFY(!outcome.compile.map.sourceLinesWithCode(QStringLiteral("ttgir")).contains(99999));
    const QString warnings = outcome.ladder.diagnosis.warnings.join(u'\n');
    QVERIFY2(warnings.contains(QStringLiteral("ttgir degraded (unresolved-locations)")), qPrintable(warnings));
}

void TestDegradedInputs::intactCompileHasNoProblems()
{
    QTemporaryDir dir;
    const Outcome intact = loadMutated({}, {}, dir);
    QVERIFY2(intact.compile.problems.isEmpty(), qPrintable(problemsText(intact.compile)));
    QVERIFY2(intact.ladder.diagnosis.warnings.isEmpty(), qPrintable(intact.ladder.diagnosis.warnings.join(u'\n')));
    // Every IR stage is counted; the kernel's own lines map in each.
    QCOMPARE(intact.compile.locations.size(), 5);
    for (const LocationStats &stats : intact.compile.locations)
        QVERIFY2(stats.mapped * 10 > stats.ops * 8, qPrintable(stats.stage + QStringLiteral(": ") + stats.summary()));
}

QTEST_GUILESS_MAIN(TestDegradedInputs)
#include "tst_degraded_inputs.moc"
