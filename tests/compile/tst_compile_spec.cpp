// Compile specs are checked before they reach the agent: a wrong shape or JSON type is an error
// naming the spec file, the key as a JSON path, and the line it is written on.
#include "compile/CompileSpec.h"

#include <QDir>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtTest>

using namespace strata;

namespace {

const QString kSamples = QStringLiteral(STRATA_SOURCE_DIR "/suites/samples");

// The aligned vector_add spec with `replace` (text -> text) applied to its file text.
QByteArray mutatedSpec(const QByteArray &from, const QByteArray &to)
{
    QFile file(kSamples + QStringLiteral("/vector_add.aligned.spec.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray text = file.readAll();
    if (!from.isEmpty() && !text.contains(from))
        return {};
    return text.replace(from, to);
}

int lineContaining(const QByteArray &text, const QByteArray &needle)
{
    const qsizetype at = text.indexOf(needle);
    return at < 0 ? -1 : int(text.left(at).count('\n')) + 1;
}

} // namespace

class TestCompileSpec : public QObject {
    Q_OBJECT

private slots:
    void everySampleSpecIsAccepted();
    void wrongValuesNameFileKeyAndLine_data();
    void wrongValuesNameFileKeyAndLine();
    void missingSignature();
    void notJsonNamesTheLine();
    void inlineSpecIsNamedAsTheOption();
    void unreadableFile();
    void lineOfJsonPathFollowsNesting();
};

void TestCompileSpec::everySampleSpecIsAccepted()
{
    const QStringList specs = QDir(kSamples).entryList({QStringLiteral("*.spec.json")}, QDir::Files);
    QVERIFY(specs.size() >= 8);
    for (const QString &name : specs) {
        Expected<QJsonObject> spec = readCompileSpec(kSamples + u'/' + name);
        QVERIFY2(spec, qPrintable(spec ? QString() : spec.error().toString()));
    }
}

void TestCompileSpec::wrongValuesNameFileKeyAndLine_data()
{
    QTest::addColumn<QByteArray>("from");
    QTest::addColumn<QByteArray>("to");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QByteArray>("lineOf");   // the error's line is the first line holding this
    QTest::newRow("num_warps a word") << QByteArray("\"num_warps\": 4") << QByteArray("\"num_warps\": \"eight\"")
                                      << QStringLiteral("spec.options.num_warps must be an integer of at least 1 (e.g. 8), not the string \"eight\"")
                                      << QByteArray("\"num_warps\": \"eight\"");
    QTest::newRow("num_warps a fraction") << QByteArray("\"num_warps\": 4") << QByteArray("\"num_warps\": 4.5")
                                          << QStringLiteral("spec.options.num_warps must be an integer of at least 1 (e.g. 8), not 4.5")
                                          << QByteArray("\"num_warps\": 4.5");
    QTest::newRow("num_stages negative") << QByteArray("\"num_stages\": 3") << QByteArray("\"num_stages\": -1")
                                         << QStringLiteral("spec.options.num_stages must be an integer of at least 0")
                                         << QByteArray("\"num_stages\": -1");
    QTest::newRow("num_stages a bool") << QByteArray("\"num_stages\": 3") << QByteArray("\"num_stages\": true")
                                       << QStringLiteral("spec.options.num_stages must be an integer of at least 0 (e.g. 3), not true")
                                       << QByteArray("\"num_stages\": true");
    QTest::newRow("constexpr an object") << QByteArray("\"BLOCK\": 1024") << QByteArray("\"BLOCK\": {\"v\": 1}")
                                         << QStringLiteral("spec.constexprs.BLOCK must be a number, a string, true/false or null, not an object")
                                         << QByteArray("\"BLOCK\": {");
    QTest::newRow("constexpr not in signature") << QByteArray("\"BLOCK\": 1024") << QByteArray("\"BLOCK\": 1024, \"TILE\": 4")
                                                << QStringLiteral("spec.constexprs.TILE names no parameter of the signature")
                                                << QByteArray("\"TILE\"");
    QTest::newRow("signature type a number") << QByteArray("\"n_elements\": \"i32\"") << QByteArray("\"n_elements\": 32")
                                             << QStringLiteral("spec.signature.n_elements must be a type name")
                                             << QByteArray("\"n_elements\": 32");
    QTest::newRow("divisibility names nothing") << QByteArray("\"n_elements\"\n  ]") << QByteArray("\"n_elemnts\"\n  ]")
                                                << QStringLiteral("spec.divisibility_16[3] names \"n_elemnts\", which is not in the signature")
                                                << QByteArray("\"divisibility_16\"");
    QTest::newRow("equal_to_1 not a list") << QByteArray("\"equal_to_1\": []") << QByteArray("\"equal_to_1\": \"x_ptr\"")
                                           << QStringLiteral("spec.equal_to_1 must be a list of parameter names, not the string \"x_ptr\"")
                                           << QByteArray("\"equal_to_1\": \"x_ptr\"");
    QTest::newRow("options a list") << QByteArray("\"options\": {") << QByteArray("\"options\": [4], \"x\": {")
                                    << QStringLiteral("spec.options must be an object")
                                    << QByteArray("\"options\": [4], \"x\": {");
    QTest::newRow("kernel a number") << QByteArray("\"kernel\": \"add_kernel\"") << QByteArray("\"kernel\": 7")
                                     << QStringLiteral("spec.kernel must be a non-empty string, not 7")
                                     << QByteArray("\"kernel\": 7");
}

void TestCompileSpec::wrongValuesNameFileKeyAndLine()
{
    QFETCH(QByteArray, from);
    QFETCH(QByteArray, to);
    QFETCH(QString, message);
    QFETCH(QByteArray, lineOf);
    const QByteArray text = mutatedSpec(from, to);
    QVERIFY2(!text.isEmpty(), "the sample spec no longer has the text this row replaces");
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.spec.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
    file.close();
    Expected<QJsonObject> spec = readCompileSpec(path);
    QVERIFY(!spec);
    QCOMPARE(spec.error().file, path);
    QVERIFY2(spec.error().message.startsWith(message), qPrintable(spec.error().message));
    QCOMPARE(spec.error().line, lineContaining(text, lineOf));
}

void TestCompileSpec::missingSignature()
{
    Expected<QJsonObject> spec = parseCompileSpec(R"({"kernel": "k", "constexprs": {}})", QStringLiteral("k.spec.json"));
    QVERIFY(!spec);
    QVERIFY2(spec.error().message.contains(QStringLiteral("spec.signature is missing")), qPrintable(spec.error().message));
}

void TestCompileSpec::notJsonNamesTheLine()
{
    Expected<QJsonObject> spec = parseCompileSpec("{\n \"kernel\": \"k\",\n \"signature\": {,}\n}", QStringLiteral("k.spec.json"));
    QVERIFY(!spec);
    QCOMPARE(spec.error().line, 3);
    QVERIFY(spec.error().message.contains(QStringLiteral("not valid JSON")));
    Expected<QJsonObject> array = parseCompileSpec("[1, 2]", QStringLiteral("k.spec.json"));
    QVERIFY(!array);
    QVERIFY(array.error().message.contains(QStringLiteral("must be a JSON object")));
}

void TestCompileSpec::inlineSpecIsNamedAsTheOption()
{
    Expected<QJsonObject> spec = parseCompileSpec(R"({"signature": {"x": "i32"}, "options": {"num_warps": "eight"}})",
                                                  QStringLiteral("--spec"));
    QVERIFY(!spec);
    QCOMPARE(spec.error().toString(), QStringLiteral("--spec:1: spec.options.num_warps must be an integer of at least 1 "
                                                     "(e.g. 8), not the string \"eight\""));
}

void TestCompileSpec::unreadableFile()
{
    Expected<QJsonObject> spec = readCompileSpec(QStringLiteral("/nonexistent/x.spec.json"));
    QVERIFY(!spec);
    QCOMPARE(spec.error().file, QStringLiteral("/nonexistent/x.spec.json"));
    QVERIFY(spec.error().message.contains(QStringLiteral("cannot read spec")));
}

void TestCompileSpec::lineOfJsonPathFollowsNesting()
{
    const QByteArray text = "{\n \"signature\": {\"BLOCK\": \"constexpr\"},\n \"constexprs\": {\n  \"BLOCK\": 8\n }\n}";
    QCOMPARE(lineOfJsonPath(text, QStringLiteral("constexprs.BLOCK")), 4);
    QCOMPARE(lineOfJsonPath(text, QStringLiteral("signature.BLOCK")), 2);
    QCOMPARE(lineOfJsonPath(text, QStringLiteral("options.num_warps")), 0);
    QCOMPARE(lineOfJsonPath({}, QStringLiteral("constexprs")), 0);
}

QTEST_GUILESS_MAIN(TestCompileSpec)
#include "tst_compile_spec.moc"
