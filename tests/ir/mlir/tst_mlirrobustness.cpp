// The MLIR reader on bad input (garbled, cut off, hostile), on MLIR syntax beyond Triton's, and
// its speed on a matmul's full set of pass dumps.
#include "MlirTestSupport.h"

#include <QElapsedTimer>
#include <QRandomGenerator>

using namespace strata;
using namespace strata::ir;
using namespace strata::ir::test;

class TestMlirRobustness : public QObject {
    Q_OBJECT

private slots:
    void randomTruncationsGiveResultOrError_data();
    void randomTruncationsGiveResultOrError();
    void randomMutationsGiveResultOrError();
    void garbledLinesAreReportedWhereTheyAre_data();
    void garbledLinesAreReportedWhereTheyAre();
    void hostileInputEndsQuickly_data();
    void hostileInputEndsQuickly();
    void emptyTextIsAnEmptyModule();
    void locationForms();
    void dumpHeaders_data();
    void dumpHeaders();
    void otherDialectSyntax();
    void readsMatmulDumpsFast();
};

static const QString kTtgir = QStringLiteral("matmul/default/matmul_kernel.ttgir");

// "file:line:col" per frame: QTest cannot print SourceLocation itself.
static QStringList chainText(const LocationChain &chain)
{
    QStringList out;
    for (const SourceLocation &frame : chain)
        out << toString(frame);
    return out;
}

static int lineCountOf(const QString &text)
{
    QString t = text;
    if (t.endsWith(QLatin1Char('\n')))
        t.chop(1);
    return t.count(QLatin1Char('\n')) + 1;
}

void TestMlirRobustness::randomTruncationsGiveResultOrError_data()
{
    QTest::addColumn<QString>("relative");
    QTest::newRow("ttgir") << kTtgir;
    QTest::newRow("llvm-dialect dump") << QStringLiteral("matmul/default/passes/074-enable-line-info.mlir");
    QTest::newRow("softmax ttir") << QStringLiteral("softmax/default/softmax_kernel.ttir");
}

void TestMlirRobustness::randomTruncationsGiveResultOrError()
{
    STRATA_SKIP_WITHOUT_FIXTURES();
    QFETCH(QString, relative);
    const QString path = fixture(relative);
    const QString text = readText(path);
    QVERIFY(!text.isEmpty());
    // Cuts strictly inside the module body must be reported as a cut-off on the last line.
    const int bodyStart = text.indexOf(QLatin1String("\nmodule")) + 1;
    const int bodyFirstLineEnd = text.indexOf(QLatin1Char('\n'), bodyStart);
    const int bodyEnd = text.lastIndexOf(QLatin1String("\n} loc("));
    QVERIFY(bodyStart > 0 && bodyEnd > bodyFirstLineEnd);

    QRandomGenerator random(20261201);
    int errors = 0;
    for (int round = 0; round < 300; ++round) {
        const int cut = random.bounded(text.size());
        const QString cutText = text.left(cut);
        const Expected<MlirModule> m = readMlir(cutText, path);
        if (m)
            continue;
        ++errors;
        const ReadError &e = m.error();
        QCOMPARE(e.file, path);
        QVERIFY2(e.line >= 1 && e.line <= lineCountOf(cutText), qPrintable(e.toString()));
        QVERIFY(e.column >= 1);
        QVERIFY(!e.message.isEmpty());
        if (cut > bodyFirstLineEnd && cut < bodyEnd)
            QVERIFY2(e.line == lineCountOf(cutText), qPrintable(QStringLiteral("cut %1: ").arg(cut) + e.toString()));
    }
    QVERIFY(errors > 200);  // nearly every cut lands inside the module or its #loc table
}

void TestMlirRobustness::randomMutationsGiveResultOrError()
{
    STRATA_SKIP_WITHOUT_FIXTURES();
    const QString path = fixture(QStringLiteral("softmax/default/softmax_kernel.ttgir"));
    const QString text = readText(path);
    QVERIFY(!text.isEmpty());
    const QString alphabet = QStringLiteral("(){}[]<>\"%#^@!:=,-\n loc");
    QRandomGenerator random(7);
    int errors = 0;
    for (int round = 0; round < 400; ++round) {
        QString mutated = text;
        for (int edits = 1 + random.bounded(3); edits > 0; --edits) {
            const int pos = random.bounded(mutated.size());
            switch (random.bounded(3)) {
            case 0: mutated[pos] = alphabet[random.bounded(alphabet.size())]; break;
            case 1: mutated.remove(pos, 1 + random.bounded(8)); break;
            default: mutated.insert(pos, alphabet[random.bounded(alphabet.size())]); break;
            }
        }
        const Expected<MlirModule> m = readMlir(mutated, path);
        if (m)
            continue;
        ++errors;
        QVERIFY2(m.error().line >= 1 && m.error().line <= lineCountOf(mutated), qPrintable(m.error().toString()));
        QVERIFY(m.error().column >= 1);
    }
    QVERIFY(errors > 100);
}

void TestMlirRobustness::garbledLinesAreReportedWhereTheyAre_data()
{
    QTest::addColumn<QString>("anchor");       // text that picks the line to garble
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("to");
    QTest::addColumn<QString>("messagePart");
    QTest::newRow("extra ')'") << "tt.get_program_id" << " : i32" << ") : i32" << "')'";
    QTest::newRow("unclosed '('") << "tt.make_range" << "{end" << "({end" << "never closed";
    QTest::newRow("unclosed '<'") << "arith.constant dense<" << "dense<" << "dense<<" << "never closed";
    QTest::newRow("undefined #loc") << "tt.get_program_id" << "loc(#loc" << "loc(#loc9999" << "#loc9999";
    QTest::newRow("cut loc") << "tt.get_program_id" << "loc(#loc" << "loc(\"/tmp/k.py\":" << "location";
    QTest::newRow("unterminated string") << "#loc = loc(\"" << ".py\"" << ".py" << "unterminated";
    QTest::newRow("mismatched closer") << "} loc(#loc" << "}" << "]" << "']'";
    QTest::newRow("results without op") << "tt.get_program_id" << "tt.get_program_id x : i32" << "" << "operation name";
    QTest::newRow("junk op") << "tt.get_program_id" << "tt.get_program_id" << ", tt.get_program_id" << "operation name";
}

void TestMlirRobustness::garbledLinesAreReportedWhereTheyAre()
{
    STRATA_SKIP_WITHOUT_FIXTURES();
    QFETCH(QString, anchor);
    QFETCH(QString, from);
    QFETCH(QString, to);
    QFETCH(QString, messagePart);
    const QString path = fixture(kTtgir);
    QStringList lines = readText(path).split(QLatin1Char('\n'));
    int target = -1;
    for (int i = 0; i < lines.size() && target < 0; ++i) {
        if (lines[i].contains(anchor) && lines[i].contains(from))
            target = i;
    }
    QVERIFY2(target >= 0, qPrintable(anchor));
    lines[target].replace(lines[target].indexOf(from), from.size(), to);
    const Expected<MlirModule> m = readMlir(lines.join(QLatin1Char('\n')), path);
    QVERIFY2(!m, qPrintable(lines[target]));
    QCOMPARE(m.error().file, path);
    QVERIFY2(m.error().line == target + 1, qPrintable(m.error().toString()));
    QVERIFY2(m.error().message.contains(messagePart), qPrintable(m.error().toString()));
    QVERIFY(m.error().toString().startsWith(path + QLatin1Char(':') + QString::number(target + 1) + QLatin1Char(':')));
}

void TestMlirRobustness::hostileInputEndsQuickly_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("readable");
    QTest::newRow("100k '('") << QString(100000, QLatin1Char('(')) << false;
    QTest::newRow("deep callsite") << QStringLiteral("#loc = loc(") + QStringLiteral("callsite(").repeated(20000) << false;
    QTest::newRow("deep name locs") << QStringLiteral("#loc = loc(") + QStringLiteral("\"n\"(").repeated(20000) << false;
    QString chain = QStringLiteral("#loc0 = loc(\"/k.py\":1:2)\n");
    for (int i = 1; i < 400; ++i)
        chain += QStringLiteral("#loc%1 = loc(\"n\"(#loc%2))\n").arg(i).arg(i - 1);
    QTest::newRow("long alias chain") << chain + QStringLiteral("module {\n} loc(#loc399)\n") << true;
    QString reversed = QStringLiteral("module {\n} loc(#loc399)\n");
    for (int i = 399; i > 0; --i)
        reversed += QStringLiteral("#loc%1 = loc(\"n\"(#loc%2))\n").arg(i).arg(i - 1);
    QTest::newRow("long forward-referenced chain") << reversed + QStringLiteral("#loc0 = loc(\"/k.py\":1:2)\n") << true;
    QTest::newRow("cyclic aliases") << QStringLiteral("#a = loc(#b)\n#b = loc(\"x\"(#a))\nmodule {\n} loc(#a)\n") << false;
    QString nested;
    for (int i = 0; i < 5000; ++i)
        nested += QStringLiteral("scf.if %c {\n");
    QTest::newRow("5000 open regions") << nested << false;
    for (int i = 0; i < 5000; ++i)
        nested += QStringLiteral("} loc(unknown)\n");
    QTest::newRow("5000 closed regions") << nested << true;
    QTest::newRow("binary junk") << QString::fromLatin1("\x01\x02\xff{{}}\x7f%%%@@@!!!^^^") << false;
    QTest::newRow("stray closer") << QStringLiteral("}\n") << false;
}

void TestMlirRobustness::hostileInputEndsQuickly()
{
    QFETCH(QString, text);
    QFETCH(bool, readable);
    QElapsedTimer timer;
    timer.start();
    const Expected<MlirModule> m = readMlir(text, QStringLiteral("hostile.mlir"));
    QVERIFY(timer.elapsed() < 5000);
    QCOMPARE(bool(m), readable);
    if (!m)
        QVERIFY(m.error().line >= 1);
}

void TestMlirRobustness::emptyTextIsAnEmptyModule()
{
    const Expected<MlirModule> m = readMlir(QString());
    QVERIFY(m);
    QCOMPARE(m->ops.size(), 0);
    QCOMPARE(m->lineCount, 0);
}

void TestMlirRobustness::locationForms()
{
    // Every location form MLIR prints, including inline ones on block arguments and ranges.
    const QString text = QStringLiteral(R"(#loc = loc("/p/k.py":20:0)
#loc3 = loc("/p/k.py":7:17)
module {
  func.func @f(%x: f32 loc("x"(#loc)), %y: f32 loc(unknown)) -> f32 {
    %0 = arith.addf %x, %y : f32 loc("offs"(#loc3))
    %1 = arith.mulf %0, %0 : f32 loc(callsite(#loc5 at #loc9))
    %2 = arith.subf %1, %0 : f32 loc(fused[#loc7, #loc3])
    %3 = arith.divf %2, %0 : f32 loc(fused<"cse">[unknown, "/p/k.py":9:2])
    %4 = arith.negf %3 : f32 loc("/p/k.py":10:3 to 12:1)
    %5 = arith.negf %4 : f32 loc("/p/k.py":11:3 to :9)
    %6 = arith.negf %5 : f32 loc(callsite("/lib/std.py":5:1 at callsite("/lib/mid.py":6:2 at "/p/k.py":13:4)))
    %7 = arith.negf %6 : f32 loc(unknown)
    return %7 : f32 loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc5 = loc("/lib/std.py":43:17)
#loc7 = loc(unknown)
#loc9 = loc("acc"(#loc10))
#loc10 = loc("/p/k.py":33:22)
)");
    const Expected<MlirModule> m = readMlir(text, QStringLiteral("forms.mlir"));
    QVERIFY2(m, qPrintable(m ? QString() : m.error().toString()));
    auto op = [&](const QString &result) -> const MlirOp & {
        for (const MlirOp &o : m->ops) {
            if (o.results.contains(result))
                return o;
        }
        return m->ops.first();
    };
    QCOMPARE(chainText(op("%0").frames), (QStringList{"/p/k.py:7:17"}));
    QCOMPARE(op("%0").locName, QStringLiteral("offs"));
    QCOMPARE(chainText(op("%1").frames), (QStringList{"/lib/std.py:43:17", "/p/k.py:33:22"}));
    QCOMPARE(op("%1").locName, QStringLiteral("acc"));
    QCOMPARE(chainText(op("%2").frames), (QStringList{"/p/k.py:7:17"}));  // fused: first that resolves
    QCOMPARE(chainText(op("%3").frames), (QStringList{"/p/k.py:9:2"}));
    QCOMPARE(chainText(op("%4").frames), (QStringList{"/p/k.py:10:3"}));
    QCOMPARE(chainText(op("%5").frames), (QStringList{"/p/k.py:11:3"}));
    QCOMPARE(chainText(op("%6").frames), (QStringList{"/lib/std.py:5:1", "/lib/mid.py:6:2", "/p/k.py:13:4"}));
    QVERIFY(op("%7").frames.isEmpty());
    const MlirOp &func = *opsNamed(*m, QStringLiteral("func.func")).first();
    QCOMPARE(func.blockArgs.size(), 2);
    QCOMPARE(chainText(func.blockArgs[0].frames), (QStringList{"/p/k.py:20"}));
    QCOMPARE(func.blockArgs[0].locName, QStringLiteral("x"));
    QVERIFY(func.blockArgs[1].frames.isEmpty());
    QCOMPARE(func.resultTypes, QStringLiteral("f32"));
    QCOMPARE(opsNamed(*m, QStringLiteral("return")).size(), 1);  // func's default-dialect op
}

void TestMlirRobustness::dumpHeaders_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<QStringList>("expected");  // when, pass, argument, anchor op, symbol, failed
    QTest::newRow("module") << "// -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //"
                            << QStringList{"Before", "TritonGPUCoalesce", "tritongpu-coalesce", "builtin.module", "", "0"};
    QTest::newRow("function") << "// -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @\"triton.language.standard.zeros____(0, 0)cconstexpr_128_\") //----- //"
                              << QStringList{"Before", "Canonicalizer", "canonicalize", "tt.func", "triton.language.standard.zeros____(0, 0)cconstexpr_128_", "0"};
    QTest::newRow("failed") << "// -----// IR Dump After TritonGPUPipeline Failed (tritongpu-pipeline) ('builtin.module' operation) //----- //"
                            << QStringList{"After", "TritonGPUPipeline", "tritongpu-pipeline", "builtin.module", "", "1"};
    // --mlir-print-ir-tree-dir files (Ascend's adapter passes) name no anchor.
    QTest::newRow("tree-dir") << "// -----// IR Dump After TritonToLinalg (triton-to-linalg) //----- //"
                              << QStringList{"After", "TritonToLinalg", "triton-to-linalg", "", "", "0"};
    QTest::newRow("anchor, no argument") << "// -----// IR Dump Before Foo ('builtin.module' operation) //----- //"
                                         << QStringList{"Before", "Foo", "", "builtin.module", "", "0"};
    QTest::newRow("pipeliner") << "// -----// SoftwarePipeliner internal IR Dump After: ExpandLoops"
                               << QStringList{"After", "SoftwarePipeliner internal: ExpandLoops", "", "", "", "0"};
}

void TestMlirRobustness::dumpHeaders()
{
    QFETCH(QString, header);
    QFETCH(QStringList, expected);
    const Expected<MlirModule> m = readMlir(header + QStringLiteral("\nmodule {\n}\n"));
    QVERIFY(m);
    const PassDumpHeader &h = m->header;
    QVERIFY(h.present);
    QCOMPARE(h.line, 0);
    const QStringList actual{h.when, h.passName, h.passArgument, h.anchorOp, h.anchorSymbol, h.failed ? "1" : "0"};
    QCOMPARE(actual, expected);
    QVERIFY(!readMlir(QStringLiteral("module {\n}\n"))->header.present);
}

void TestMlirRobustness::otherDialectSyntax()
{
    // Upstream linalg / Ascend HIVM style: affine-map aliases, ins/outs, a region whose closing
    // line carries the result type, properties, multi-results and a resource block.
    const QString text = QStringLiteral(R"(#map = affine_map<(d0, d1) -> (d0, d1)>
#set = affine_set<(d0) : (d0 - 10 >= 0)>
module attributes {hacc.target = #hacc.target<"Ascend910B">} {
  func.func @k(%arg0: tensor<16x16xf16>, %arg1: memref<16xf16, #hivm.address_space<ub>>) -> tensor<16x16xf16> attributes {hacc.entry} {
    %0 = tensor.empty() : tensor<16x16xf16> loc("/a.py":3:4)
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<16x16xf16>) outs(%0 : tensor<16x16xf16>) {
    ^bb0(%in: f16, %out: f16):
      %4 = arith.addf %in, %in : f16
      linalg.yield %4 : f16
    } -> tensor<16x16xf16> loc("/a.py":5:6)
    hivm.hir.vadd ins(%arg1, %arg1 : memref<16xf16, #hivm.address_space<ub>>, memref<16xf16, #hivm.address_space<ub>>) outs(%arg1 : memref<16xf16, #hivm.address_space<ub>>) loc("/a.py":7:8)
    %2:2 = "test.pair"(%1) <{kind = 3 : i32}> : (tensor<16x16xf16>) -> (f16, f16)
    %3 = scf.if %c {
      scf.yield %1 : tensor<16x16xf16>
    } else {
      scf.yield %0 : tensor<16x16xf16>
    } loc("/a.py":9:1)
    cf.switch %flag : i32, [
      default: ^bb1(%3 : tensor<16x16xf16>),
      42: ^bb1(%0 : tensor<16x16xf16>)
    ] loc("/a.py":11:2)
  ^bb1(%r: tensor<16x16xf16>):  // 2 preds: ^bb0, ^bb0
    return %r : tensor<16x16xf16>
  }
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x04000000"
    }
  }
#-}
)");
    const Expected<MlirModule> m = readMlir(text, QStringLiteral("ascend.mlir"));
    QVERIFY2(m, qPrintable(m ? QString() : m.error().toString()));
    QCOMPARE(m->aliases.size(), 2);
    QCOMPARE(m->moduleAttribute(QStringLiteral("hacc.target")), QStringLiteral("#hacc.target<\"Ascend910B\">"));
    const MlirOp &generic = *opsNamed(*m, QStringLiteral("linalg.generic")).first();
    QCOMPARE(generic.operands, (QStringList{"%arg0", "%0"}));
    QCOMPARE(generic.attributes.size(), 2);
    QCOMPARE(generic.attribute(QStringLiteral("indexing_maps")), QStringLiteral("[#map, #map]"));
    QCOMPARE(generic.resultTypes, QStringLiteral("tensor<16x16xf16>"));
    QCOMPARE(chainText(generic.frames), (QStringList{"/a.py:5:6"}));
    QCOMPARE(generic.blockArgs.size(), 2);
    QCOMPARE(generic.blockArgs[1].name, QStringLiteral("%out"));
    QCOMPARE(generic.blockArgs[1].type, QStringLiteral("f16"));
    QCOMPARE(m->ops[m->opAtLine[7]].parent, int(&generic - m->ops.constData()));
    const MlirOp &vadd = *opsNamed(*m, QStringLiteral("hivm.hir.vadd")).first();
    QCOMPARE(vadd.operands.size(), 3);
    QCOMPARE(chainText(vadd.frames), (QStringList{"/a.py:7:8"}));
    // A parameterized dialect attribute in a type is kept as a layout of kind Other.
    QCOMPARE(vadd.layouts.size(), 1);
    QCOMPARE(m->layouts[vadd.layouts.first()].kind, LayoutKind::Other);
    QCOMPARE(m->layouts[vadd.layouts.first()].attrName, QStringLiteral("hivm.address_space"));
    const MlirOp &pair = *opsNamed(*m, QStringLiteral("test.pair")).first();
    QVERIFY(pair.genericForm);
    QCOMPARE(pair.results, QStringList{"%2:2"});
    QCOMPARE(pair.attribute(QStringLiteral("kind")), QStringLiteral("3 : i32"));
    QCOMPARE(pair.resultTypes, QStringLiteral("(f16, f16)"));
    const MlirOp &ifOp = *opsNamed(*m, QStringLiteral("scf.if")).first();
    QCOMPARE(chainText(ifOp.frames), (QStringList{"/a.py:9:1"}));
    QCOMPARE(ifOp.endLine - ifOp.line, 4);
    QCOMPARE(opsNamed(*m, QStringLiteral("scf.yield")).size(), 2);
    const MlirOp &sw = *opsNamed(*m, QStringLiteral("cf.switch")).first();  // a multi-line case list
    QCOMPARE(sw.operands, (QStringList{"%flag", "%3", "%0"}));
    QCOMPARE(chainText(sw.frames), (QStringList{"/a.py:11:2"}));
    QCOMPARE(sw.endLine - sw.line, 3);
    QVERIFY(!m->opAtTextLine(sw.line + 1) && !m->opAtTextLine(sw.line + 2));
    QCOMPARE(m->lineKinds[sw.line + 1], LineKind::Other);
    QCOMPARE(m->lineKinds[sw.line + 4], LineKind::Label);
    QCOMPARE(m->lineKinds.last(), LineKind::Directive);  // the resource block
    const MlirOp &func = *opsNamed(*m, QStringLiteral("func.func")).first();
    QCOMPARE(func.blockArgs[1].type, QStringLiteral("memref<16xf16, #hivm.address_space<ub>>"));
    QCOMPARE(func.attribute(QStringLiteral("hacc.entry")), QString());
    QCOMPARE(func.attributes.size(), 1);
    QCOMPARE(func.blockArgs.last().name, QStringLiteral("%r"));
    QCOMPARE(func.blockArgs.last().blockLabel, QStringLiteral("^bb1"));
    QCOMPARE(opsNamed(*m, QStringLiteral("return")).first()->parent, int(&func - m->ops.constData()));
}

void TestMlirRobustness::readsMatmulDumpsFast()
{
    STRATA_SKIP_WITHOUT_FIXTURES();
    const QString dir = fixture(QStringLiteral("matmul/default/passes"));
    QStringList texts;
    for (const QString &name : QDir(dir).entryList({QStringLiteral("*.mlir")}, QDir::Files, QDir::Name))
        texts << readText(dir + QLatin1Char('/') + name);
    QVERIFY(texts.size() > 50);
    int lines = 0;
    QElapsedTimer timer;
    timer.start();
    for (const QString &text : std::as_const(texts)) {
        const Expected<MlirModule> m = readMlir(text);
        QVERIFY(m);
        lines += m->lineCount;
    }
    const double msPer10k = timer.nsecsElapsed() / 1e6 / lines * 10000;
    qInfo("%d dumps, %d lines: %.1f ms per 10k lines", int(texts.size()), lines, msPer10k);
    QVERIFY(lines > 10000);
#if defined(__OPTIMIZE__)
    // The target is < 100 ms per 10k lines in a release build (about 40 ms of CPU time measured);
    // the bound leaves room for a busy machine while still catching a quadratic slip.
    QVERIFY2(msPer10k < 500, qPrintable(QString::number(msPer10k)));
#endif
}

QTEST_GUILESS_MAIN(TestMlirRobustness)
#include "tst_mlirrobustness.moc"
