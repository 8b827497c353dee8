// The GUI's models without widgets: listing rows <-> lines, linking through the location map,
// the pass list's marks, diffs, ops per source line, remarks.
#include "models/LineLinker.h"
#include "models/PassDiff.h"
#include "models/PassListModel.h"
#include "models/PassOpIndex.h"
#include "models/RemarkListModel.h"
#include "models/StageListingModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace strata;

namespace {

const QString kKernel = QStringLiteral("/tmp/k.py");

ListingLine op(const QString &text, const QString &opcode, int sourceLine)
{
    ListingLine line;
    line.text = text;
    line.kind = LineKind::Instruction;
    line.opcode = opcode;
    if (sourceLine > 0)
        line.frames.append(SourceLocation{kKernel, sourceLine, 5});
    return line;
}

// A TTGIR-like stage: two loads from line 3, a dot from line 4, a store from line 6.
StageListing ttgirListing()
{
    StageListing listing;
    listing.stage = QStringLiteral("ttgir");
    listing.lines = {
        ListingLine{QStringLiteral("module {"), LineKind::Label, {}, {}},
        op(QStringLiteral("  %a = tt.load %p loc(#loc1)"), QStringLiteral("tt.load"), 3),
        op(QStringLiteral("  %b = tt.load %q loc(#loc1)"), QStringLiteral("tt.load"), 3),
        op(QStringLiteral("  %d = ttng.warp_group_dot %a, %b loc(#loc2)"), QStringLiteral("ttng.warp_group_dot"), 4),
        op(QStringLiteral("  tt.store %r, %d loc(#loc3)"), QStringLiteral("tt.store"), 6),
        ListingLine{QStringLiteral("}"), LineKind::Other, {}, {}},
    };
    return listing;
}

StageListing ptxListing()
{
    StageListing listing;
    listing.stage = QStringLiteral("ptx");
    listing.lines = {
        op(QStringLiteral("ld.global.v4.b32 {%r1,%r2,%r3,%r4}, [%rd1];"), QStringLiteral("ld.global.v4.b32"), 3),
        op(QStringLiteral("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 ..."), QStringLiteral("wgmma.mma_async"), 4),
        op(QStringLiteral("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 ..."), QStringLiteral("wgmma.mma_async"), 4),
    };
    return listing;
}

LocationMap twoStageMap()
{
    LocationMap map(kKernel);
    map.addStage(ttgirListing());
    map.addStage(ptxListing());
    return map;
}

} // namespace

class TestUiModels : public QObject {
    Q_OBJECT
private slots:
    void listingModelMapsRowsToLines();
    void sourceListingCarriesLineNumbers();
    void sourceClickSelectsOpsInEveryStage();
    void irClickSelectsSourceAndSiblings();
    void lineWithoutLocationSelectsOnlyItself();
    void linkEventNamesItsSender();
    void diffGroupsChangesIntoHunks();
    void identicalTextsHaveEmptyDiff();
    void diffIgnoresLocations();
    void opsPerSourceLineIgnoreNonInstructions();
    void passListSortsAndMarks();
    void remarksLinkOnlyKernelLines();
};

void TestUiModels::listingModelMapsRowsToLines()
{
    StageListingModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setListing(ttgirListing(), kKernel);
    QCOMPARE(model.rowCount(), 6);
    QCOMPARE(model.lineForIndex(model.indexForLine(3)), 3);
    QCOMPARE(model.indexForLine(3).data().toString(), QStringLiteral("  %d = ttng.warp_group_dot %a, %b loc(#loc2)"));
    QCOMPARE(model.indexForLine(3).data(StageListingModel::OpcodeRole).toString(), QStringLiteral("ttng.warp_group_dot"));
    QCOMPARE(model.indexForLine(4).data(StageListingModel::SourceLineRole).toInt(), 6);
    QCOMPARE(model.indexForLine(0).data(StageListingModel::SourceLineRole).toInt(), 0);
    QVERIFY(!model.indexForLine(6).isValid());
    QCOMPARE(model.lineForIndex({}), -1);
    QVERIFY(model.text().startsWith(QStringLiteral("module {\n  %a = tt.load")));
}

void TestUiModels::sourceListingCarriesLineNumbers()
{
    const StageListing listing = sourceListing(QStringLiteral("import triton\n\n@triton.jit\n"), kKernel);
    QCOMPARE(listing.lineCount(), 3);  // the trailing newline adds no line
    QCOMPARE(listing.lines[2].frames.first().line, 3);
    QCOMPARE(listing.lines[1].kind, LineKind::Blank);
}

void TestUiModels::sourceClickSelectsOpsInEveryStage()
{
    LineLinker linker;
    linker.setMap(twoStageMap());
    const LinkSelection selection = linker.selectionForSourceLine(3);
    QCOMPARE(selection.lines(QStringLiteral("ttgir")), (QVector<int>{1, 2}));
    QCOMPARE(selection.lines(QStringLiteral("ptx")), QVector<int>{0});
    QCOMPARE(selection.lines(kSourceStageId), QVector<int>{2});
    QCOMPARE(selection.sourceLine, 3);
    QVERIFY(linker.selectionForSourceLine(5).lines(QStringLiteral("ttgir")).isEmpty());
}

void TestUiModels::irClickSelectsSourceAndSiblings()
{
    LineLinker linker;
    linker.setMap(twoStageMap());
    const LinkSelection selection = linker.selectionForStageLine(QStringLiteral("ptx"), 2);
    QCOMPARE(selection.sourceLine, 4);
    QCOMPARE(selection.lines(kSourceStageId), QVector<int>{3});
    QCOMPARE(selection.lines(QStringLiteral("ptx")), (QVector<int>{1, 2}));  // siblings
    QCOMPARE(selection.lines(QStringLiteral("ttgir")), QVector<int>{3});
    QCOMPARE(selection.originStage, QStringLiteral("ptx"));
    QCOMPARE(selection.originLine, 2);
}

void TestUiModels::lineWithoutLocationSelectsOnlyItself()
{
    LineLinker linker;
    linker.setMap(twoStageMap());
    const LinkSelection selection = linker.selectionForStageLine(QStringLiteral("ttgir"), 5);
    QCOMPARE(selection.sourceLine, 0);
    QCOMPARE(selection.linesByStage.size(), 1);
    QCOMPARE(selection.lines(QStringLiteral("ttgir")), QVector<int>{5});
}

void TestUiModels::linkEventNamesItsSender()
{
    LineLinker linker;
    linker.setMap(twoStageMap());
    QObject pane;
    QSignalSpy spy(&linker, &LineLinker::linked);
    linker.activate(&pane, QStringLiteral("ttgir"), 3);
    QCOMPARE(spy.size(), 1);
    const auto selection = spy.first().first().value<LinkSelection>();
    QCOMPARE(selection.sender, &pane);
    QCOMPARE(selection.lines(kSourceStageId), QVector<int>{3});
    QCOMPARE(linker.current().sourceLine, 4);
}

void TestUiModels::diffGroupsChangesIntoHunks()
{
    QStringList before, after;
    for (int i = 1; i <= 20; ++i)
        before.append(QStringLiteral("line %1").arg(i));
    after = before;
    after[9] = QStringLiteral("line 10 changed");  // one change in the middle
    after.append(QStringLiteral("line 21"));       // one addition at the end
    const PassDiff diff = diffTexts(before, after, 2);
    QCOMPARE(diff.added, 2);
    QCOMPARE(diff.removed, 1);
    const QStringList text = diff.toUnifiedText().split(QLatin1Char('\n'));
    QCOMPARE(text, (QStringList{
        QStringLiteral("@@ -8 +8 @@"), QStringLiteral(" line 8"), QStringLiteral(" line 9"),
        QStringLiteral("-line 10"), QStringLiteral("+line 10 changed"), QStringLiteral(" line 11"),
        QStringLiteral(" line 12"),
        QStringLiteral("@@ -19 +19 @@"), QStringLiteral(" line 19"), QStringLiteral(" line 20"),
        QStringLiteral("+line 21")}));
    QCOMPARE(diff.lines[3].beforeLine, 10);
    QCOMPARE(diff.lines[4].afterLine, 10);
}

void TestUiModels::identicalTextsHaveEmptyDiff()
{
    const QStringList text{QStringLiteral("a"), QStringLiteral("b")};
    const PassDiff diff = diffTexts(text, text);
    QVERIFY(diff.isEmpty());
    QVERIFY(diff.lines.isEmpty());
}

void TestUiModels::diffIgnoresLocations()
{
    // The same op before and after a pass, renumbered locations and a different dump header.
    const QString before = QStringLiteral(
        "// -----// IR Dump Before TritonGPUPipeline (tritongpu-pipeline) ('builtin.module' operation) //----- //\n"
        "    %a = tt.load %p : tensor<64x!tt.ptr<f16>> loc(#loc12)\n"
        "    tt.return loc(callsite(#loc3 at #loc4))\n"
        "#loc12 = loc(\"/tmp/k.py\":33:20)\n");
    const QString after = QStringLiteral(
        "    %a = tt.load %p : tensor<64x!tt.ptr<f16>>\n"
        "    tt.return\n");
    QCOMPARE(withoutLocations(before),
             (QStringList{QStringLiteral("    %a = tt.load %p : tensor<64x!tt.ptr<f16>>"), QStringLiteral("    tt.return")}));
    QVERIFY(diffTexts(withoutLocations(before), withoutLocations(after)).isEmpty());
}

void TestUiModels::opsPerSourceLineIgnoreNonInstructions()
{
    StageListing listing = ttgirListing();
    ListingLine directive;
    directive.text = QStringLiteral("#loc1 = loc(\"/tmp/k.py\":3:5)");
    directive.kind = LineKind::Directive;
    directive.frames.append(SourceLocation{kKernel, 3, 5});
    listing.lines.append(directive);
    const OpsBySourceLine ops = opsBySourceLine(listing, kKernel);
    QCOMPARE(ops.value(3), (QStringList{QStringLiteral("tt.load"), QStringLiteral("tt.load")}));
    QCOMPARE(ops.value(4), QStringList{QStringLiteral("ttng.warp_group_dot")});
    QVERIFY(!ops.contains(1));
}

void TestUiModels::passListSortsAndMarks()
{
    PassListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    PassDumpRef first, second;
    first.index = 1;
    first.argument = QStringLiteral("tritongpu-coalesce");
    first.stage = QStringLiteral("ttgir");
    second.index = 0;
    second.argument = QStringLiteral("convert-triton-to-tritongpu");
    second.stage = QStringLiteral("ttgir");
    model.setPasses({first, second});
    QCOMPARE(model.rowForArgument(QStringLiteral("tritongpu-coalesce")), 1);
    QCOMPARE(model.index(0, PassListModel::PassColumn).data().toString(), QStringLiteral("convert-triton-to-tritongpu"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setMarkedRows({1});
    QCOMPARE(changed.size(), 1);
    QVERIFY(model.index(1, 0).data(PassListModel::ChangesSelectedLineRole).toBool());
    QVERIFY(!model.index(0, 0).data(PassListModel::ChangesSelectedLineRole).toBool());
    QCOMPARE(model.index(1, PassListModel::MarkColumn).data().toString(), QStringLiteral("\u25CF"));
    // Only the rows whose mark flips are announced (a change over every row makes the table
    // measure every row again on each source-line click).
    QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
    QCOMPARE(changed.at(0).at(1).toModelIndex().row(), 1);
    changed.clear();
    model.setMarkedRows({0});
    QCOMPARE(changed.size(), 2);
    QSet<int> rows;
    for (const QList<QVariant> &signal : std::as_const(changed))
        rows.insert(signal.at(0).toModelIndex().row());
    QCOMPARE(rows, (QSet<int>{0, 1}));
    changed.clear();
    model.setMarkedRows({0});
    QCOMPARE(changed.size(), 0);
}

void TestUiModels::remarksLinkOnlyKernelLines()
{
    RemarkListModel model;
    Remark own{SourceLocation{kKernel, 12, 9}, QStringLiteral("remark"),
               QStringLiteral("MMA version 3 acceleration not applied")};
    Remark library{SourceLocation{QStringLiteral("/site/triton/language/standard.py"), 290, 1},
                   QStringLiteral("warning"), QStringLiteral("vectorization fails")};
    model.setRemarks({own, library}, kKernel);
    QCOMPARE(model.lineForIndex(model.index(0)), 12);
    QCOMPARE(model.lineForIndex(model.index(1)), 0);
    QCOMPARE(model.index(0).data().toString(),
             QStringLiteral("k.py:12: remark: MMA version 3 acceleration not applied"));
    QCOMPARE(model.indexForLine(12).row(), 0);
}

QTEST_GUILESS_MAIN(TestUiModels)
#include "tst_ui_models.moc"
