// Value types every reader and the location map rely on.
#include "core/Expected.h"
#include "core/SourceLocation.h"

#include <QTest>

using namespace strata;

class TestCore : public QObject {
    Q_OBJECT
private slots:
    void sameFileMatchesBaseNameOnlyForBareNames()
    {
        QVERIFY(sameSourceFile("/tmp/a/k.py", "/tmp/a/k.py"));
        QVERIFY(sameSourceFile("k.py", "/tmp/a/k.py"));           // SASS writes base names
        QVERIFY(!sameSourceFile("/tmp/b/k.py", "/tmp/a/k.py"));   // two absolute paths must agree
        QVERIFY(!sameSourceFile("standard.py", "/tmp/a/k.py"));
        QVERIFY(!sameSourceFile("", "/tmp/a/k.py"));
    }

    void frameInFilePicksInnermostKernelFrame()
    {
        const LocationChain chain{
            {"/site-packages/triton/language/standard.py", 290, 36},
            {"/tmp/a/k.py", 12, 19},
            {"/tmp/a/k.py", 30, 4},
        };
        const SourceLocation loc = frameInFile(chain, "/tmp/a/k.py");
        QCOMPARE(loc.line, 12);
        QCOMPARE(loc.column, 19);
        QVERIFY(!frameInFile(chain, "/tmp/a/other.py").isValid());
    }

    void readErrorNamesFileLineAndColumn()
    {
        QCOMPARE((ReadError{"k.ttgir", 7, 3, "unbalanced '{'"}).toString(),
                 QStringLiteral("k.ttgir:7:3: unbalanced '{'"));
        QCOMPARE((ReadError{"k.ptx", 0, 0, "empty file"}).toString(), QStringLiteral("k.ptx: empty file"));
        QCOMPARE((ReadError{{}, 0, 0, "no input"}).toString(), QStringLiteral("no input"));
    }

    void expectedHoldsValueOrError()
    {
        Expected<int> ok(42);
        QVERIFY(ok);
        QCOMPARE(*ok, 42);
        Expected<int> bad(ReadError{"f", 1, 0, "boom"});
        QVERIFY(!bad);
        QCOMPARE(bad.error().line, 1);
    }
};

QTEST_GUILESS_MAIN(TestCore)
#include "tst_core.moc"
