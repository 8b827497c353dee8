// The real main window on real triton 3.6.0 compiles (tests/fixtures): linking source <-> every
// stage by mouse clicks, the pass list with diffs, and the passes marked for a source line.
#include "UiTestSupport.h"
#include "app/Language.h"

#include "models/PassListModel.h"
#include "views/PassPanel.h"
#include "views/RemarksView.h"

#include <QAction>
#include <QApplication>
#include <QDirIterator>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTranslator>
#include <QTableView>

using namespace strata;
using namespace strata::test;

class TestMainWindow : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void dotLineLinksToWgmmaInEveryStage();
    void languageIsChosenAndCompiledIn();
    void irLineLinksBackToSourceLine();
    void clickedPaneKeepsSiblingsHighlighted();
    void passListShowsPipelineWithDiffs();
    void pipelinePassIsMarkedForKLoopLoads();
    void statusBarShowsKernelTargetRegisters();
    void vectorAddLoadLinksToVectorisedPtx();
    void remarkClickSelectsItsSourceLine();
    void shortcutsFocusPanes();
    void missingCompileIsReportedAndWindowStaysUsable();
    void copiedOldCompileFolderSaysWhereItReads();

private:
    int sourceLineOf(const QString &needle);  // 1-based, first match in the source pane

    MainWindow *m_window = nullptr;
};

void TestMainWindow::initTestCase()
{
    m_window = new MainWindow;
    m_window->setShowErrorDialogs(false);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    QVERIFY(openAndWait(*m_window, fixtureCompile(QStringLiteral("matmul"), QStringLiteral("default")), true));
}

void TestMainWindow::cleanupTestCase()
{
    delete m_window;
}

int TestMainWindow::sourceLineOf(const QString &needle)
{
    const QVector<int> lines = linesContaining(m_window->sourcePane()->view(), needle);
    return lines.isEmpty() ? 0 : lines.first() + 1;
}

void TestMainWindow::dotLineLinksToWgmmaInEveryStage()
{
    const int dotLine = sourceLineOf(QStringLiteral("tl.dot("));
    QVERIFY(dotLine > 0);
    clickLine(m_window->sourcePane()->view(), dotLine - 1);

    QCOMPARE(m_window->sourcePane()->highlightedLines(), QVector<int>{dotLine - 1});
    StagePane *ttgir = m_window->pane(QStringLiteral("ttgir"));
    StagePane *ptx = m_window->pane(QStringLiteral("ptx"));
    StagePane *sass = m_window->pane(QStringLiteral("sass"));
    QVERIFY(ttgir && ptx && sass);
    QVERIFY2(anyLineContains(ttgir->view(), ttgir->highlightedLines(), QStringLiteral("ttng.warp_group_dot")),
             "TTGIR: the tl.dot line did not highlight ttng.warp_group_dot");
    QVERIFY2(anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("wgmma.mma_async")),
             "PTX: the tl.dot line did not highlight a wgmma line");
    QVERIFY2(anyLineContains(sass->view(), sass->highlightedLines(), QStringLiteral("HGMMA")),
             "SASS: the tl.dot line did not highlight an HGMMA line");
    // The dot does not own the loads: no global load in PTX belongs to it.
    QVERIFY(!anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("ld.global")));
    // Every non-clicked pane scrolled to its first linked line.
    QVERIFY(ttgir->view()->isLineVisible(ttgir->highlightedLines().first()));
    QVERIFY(sass->view()->isLineVisible(sass->highlightedLines().first()));
}

void TestMainWindow::irLineLinksBackToSourceLine()
{
    const int dotLine = sourceLineOf(QStringLiteral("tl.dot("));
    StagePane *ttgir = m_window->pane(QStringLiteral("ttgir"));
    const QVector<int> dots = linesContaining(ttgir->view(), QStringLiteral("ttng.warp_group_dot "));
    QVERIFY(!dots.isEmpty());
    m_window->selectSourceLine(1);  // somewhere else first, so the check below sees a change
    clickLine(ttgir->view(), dots.first());
    QCOMPARE(m_window->sourcePane()->highlightedLines(), QVector<int>{dotLine - 1});

    StagePane *ptx = m_window->pane(QStringLiteral("ptx"));
    const QVector<int> wgmma = linesContaining(ptx->view(), QStringLiteral("wgmma.mma_async"));
    QVERIFY(!wgmma.isEmpty());
    m_window->selectSourceLine(1);
    clickLine(ptx->view(), wgmma.first());
    QCOMPARE(m_window->sourcePane()->highlightedLines(), QVector<int>{dotLine - 1});
}

void TestMainWindow::clickedPaneKeepsSiblingsHighlighted()
{
    const int dotLine = sourceLineOf(QStringLiteral("tl.dot("));
    const LocationMap &map = m_window->currentCompile()->map;
    StagePane *sass = m_window->pane(QStringLiteral("sass"));
    // ptxas schedules freely, so not every HGMMA carries the dot's line; take those that do.
    QVector<int> dotHgmma;
    for (int line : linesContaining(sass->view(), QStringLiteral("HGMMA")))
        if (map.sourceForLine(QStringLiteral("sass"), line).line == dotLine)
            dotHgmma.append(line);
    QVERIFY(dotHgmma.size() >= 2);
    clickLine(sass->view(), dotHgmma.last());
    // Siblings: every instruction of the dot's line is highlighted in the pane that was clicked.
    const QVector<int> highlighted = sass->highlightedLines();
    QCOMPARE(highlighted, map.linesForSource(QStringLiteral("sass"), dotLine));
    for (int line : dotHgmma)
        QVERIFY2(highlighted.contains(line), qPrintable(sass->view()->lineText(line)));
    QCOMPARE(m_window->sourcePane()->highlightedLines(), QVector<int>{dotLine - 1});
    // ... and the other stages got the dot's lines too.
    StagePane *ttgir = m_window->pane(QStringLiteral("ttgir"));
    QVERIFY(anyLineContains(ttgir->view(), ttgir->highlightedLines(), QStringLiteral("ttng.warp_group_dot")));
}

void TestMainWindow::passListShowsPipelineWithDiffs()
{
    PassPanel *passes = m_window->passPanel();
    const int coalesce = passes->model()->rowForArgument(QStringLiteral("tritongpu-coalesce"));
    const int pipeline = passes->model()->rowForArgument(QStringLiteral("tritongpu-pipeline"));
    QVERIFY(coalesce >= 0);
    QVERIFY(pipeline > coalesce);  // pipeline order

    QSignalSpy shown(passes, &PassPanel::passShown);
    // Through the table, as a user would: click the pass's row.
    QTableView *table = passes->table();
    table->scrollTo(passes->model()->index(coalesce, PassListModel::PassColumn));
    const QRect cell = table->visualRect(passes->model()->index(coalesce, PassListModel::PassColumn));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QVERIFY(shown.wait(30000));
    QCOMPARE(passes->selectedPass(), coalesce);
    // Coalescing gives the loads their own blocked layouts: the diff adds #blocked lines.
    const PassDiff &diff = passes->currentDiff();
    QVERIFY(diff.added > 0 && diff.removed > 0);
    QVERIFY(!linesContaining(passes->diffView(), QStringLiteral("#blocked")).isEmpty());
    QVERIFY(passes->diffView()->lineText(0).startsWith(QLatin1String("@@")));
    QVERIFY(!linesContaining(passes->beforeView(), QStringLiteral("tt.load")).isEmpty());

    QVERIFY(passes->selectPass(pipeline));
    QVERIFY(shown.wait(30000));
    QVERIFY(!linesContaining(passes->diffView(), QStringLiteral("+")).isEmpty());
    QVERIFY(!linesContaining(passes->diffView(), QStringLiteral("ttg.async_copy_global_to_local")).isEmpty());
}

void TestMainWindow::pipelinePassIsMarkedForKLoopLoads()
{
    PassPanel *passes = m_window->passPanel();
    QVERIFY(passes->hasPassIndex());
    const int pipeline = passes->model()->rowForArgument(QStringLiteral("tritongpu-pipeline"));
    const int loadA = sourceLineOf(QStringLiteral("a = tl.load("));
    const int loadB = sourceLineOf(QStringLiteral("b = tl.load("));
    QVERIFY(loadA > 0 && loadB > loadA);

    for (int line : {loadA, loadB}) {
        clickLine(m_window->sourcePane()->view(), line - 1);
        QStringList marked;
        for (int row : passes->model()->markedRows())
            marked.append(passes->model()->passAt(row)->argument);
        marked.sort();
        qInfo("line %d changed by: %s", line, qPrintable(marked.join(QStringLiteral(", "))));
        QVERIFY2(passes->model()->isMarked(pipeline), qPrintable(QStringLiteral("line %1").arg(line)));
        // Marks are specific: far from every pass touched the load.
        QVERIFY(passes->model()->markedRows().size() < passes->model()->rowCount() / 2);
    }
    // The epilogue store is not pipelined.
    clickLine(m_window->sourcePane()->view(), sourceLineOf(QStringLiteral("tl.store(")) - 1);
    QVERIFY(!passes->model()->isMarked(pipeline));
}

void TestMainWindow::statusBarShowsKernelTargetRegisters()
{
    const QString status = m_window->statusText();
    QVERIFY2(status.contains(QStringLiteral("matmul_kernel")), qPrintable(status));
    QVERIFY2(status.contains(QStringLiteral("sm_90")), qPrintable(status));
    const int registers = m_window->currentCompile()->result.ptxas.registers;
    QVERIFY(registers > 0);
    QVERIFY2(status.contains(QStringLiteral("Registers: %1").arg(registers)), qPrintable(status));
    QVERIFY(status.contains(QStringLiteral("remark")));
}

void TestMainWindow::vectorAddLoadLinksToVectorisedPtx()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("aligned"))));
    const QVector<int> loads = linesContaining(window.sourcePane()->view(), QStringLiteral("tl.load(x_ptr"));
    QVERIFY(!loads.isEmpty());
    clickLine(window.sourcePane()->view(), loads.first());
    StagePane *ptx = window.pane(QStringLiteral("ptx"));
    QVERIFY2(anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("ld.global.v4.b32")),
             "aligned vector add: the x load should be one 128-bit ld.global per thread");
    StagePane *ttir = window.pane(QStringLiteral("ttir"));
    QVERIFY(anyLineContains(ttir->view(), ttir->highlightedLines(), QStringLiteral("tt.load")));
    QVERIFY(!anyLineContains(ttir->view(), ttir->highlightedLines(), QStringLiteral("tt.store")));
    // The source gutter marks the load line as having code, and the def line's blank neighbour not.
    QVERIFY(window.sourcePane()->view()->markedLines().contains(loads.first()));
}

void TestMainWindow::remarkClickSelectsItsSourceLine()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("unaligned"))));
    RemarksView *remarks = window.remarksView();
    QCOMPARE(remarks->model()->rowCount(), 3);
    QVERIFY(window.statusText().contains(QStringLiteral("3 remarks")));
    const QModelIndex first = remarks->model()->index(0, 0);
    QVERIFY(first.data().toString().startsWith(QStringLiteral("vector_add.py:18: remark: Warning: vectorization fails")));

    remarks->parentWidget()->show();
    remarks->parentWidget()->raise();
    QTRY_VERIFY(remarks->isVisible());
    QTest::mouseClick(remarks->viewport(), Qt::LeftButton, {}, remarks->visualRect(first).center());
    QCOMPARE(window.sourcePane()->highlightedLines(), QVector<int>{17});
    QVERIFY(window.sourcePane()->view()->lineText(17).contains(QStringLiteral("tl.load(")));
    // Unaligned: the mask forces scalar loads, which is what the remark says.
    StagePane *ptx = window.pane(QStringLiteral("ptx"));
    QVERIFY(anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("ld.global.b32")));
    QVERIFY(!anyLineContains(ptx->view(), ptx->highlightedLines(), QStringLiteral("ld.global.v4")));
}

void TestMainWindow::shortcutsFocusPanes()
{
    QApplication::setActiveWindow(m_window);
    QVERIFY(QTest::qWaitForWindowActive(m_window));
    QTest::keyClick(m_window, Qt::Key_3, Qt::ControlModifier);  // Ctrl+3: the third pane
    QTRY_VERIFY(m_window->pane(QStringLiteral("ttgir"))->view()->hasFocus());
    QTest::keyClick(m_window, Qt::Key_1, Qt::ControlModifier);
    QTRY_VERIFY(m_window->sourcePane()->view()->hasFocus());
    // Return on the focused line links it like a click.
    const int dotLine = sourceLineOf(QStringLiteral("tl.dot("));
    m_window->sourcePane()->view()->scrollToLine(dotLine - 1);
    QTest::keyClick(m_window->sourcePane()->view(), Qt::Key_Return);
    QCOMPARE(m_window->linker()->current().sourceLine, dotLine);
}

void TestMainWindow::missingCompileIsReportedAndWindowStaysUsable()
{
    MainWindow window;
    window.setShowErrorDialogs(false);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    const QString missing = QStringLiteral(STRATA_FIXTURES_DIR "/no-such-sample/compile.json");
    window.openCompile(missing);
    QVERIFY(failed.wait(30000));
    const ReadError error = failed.first().first().value<ReadError>();
    QVERIFY2(error.file.contains(QStringLiteral("no-such-sample")), qPrintable(error.toString()));
    QVERIFY(window.currentCompile() == nullptr);
    // Still usable: a good compile loads afterwards.
    QVERIFY(openAndWait(window, fixtureCompile(QStringLiteral("vector_add"), QStringLiteral("aligned"))));
    QVERIFY(window.pane(QStringLiteral("ptx"))->view()->lineCount() > 10);
}

// An old compile.json (absolute paths) in a copied folder: the copy's files are shown, and the
// status bar says the folder moved.
void TestMainWindow::copiedOldCompileFolderSaysWhereItReads()
{
    QTemporaryDir dir;
    const QString fixture = QStringLiteral(STRATA_FIXTURES_DIR "/vector_add/aligned");
    const QString original = dir.filePath(QStringLiteral("original"));
    const QString copy = dir.filePath(QStringLiteral("copy"));
    for (const QString &folder : {original, copy}) {
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/passes")));
        QDirIterator it(fixture, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString file = it.next();
            QVERIFY(QFile::copy(file, folder + file.mid(fixture.size())));
        }
    }
    Expected<CompileResult> result = readCompileResultFile(original + QStringLiteral("/compile.json"));
    QVERIFY(result);
    QFile json(copy + QStringLiteral("/compile.json"));
    QVERIFY(json.open(QIODevice::WriteOnly | QIODevice::Truncate));
    json.write(QJsonDocument(toJson(*result)).toJson());   // absolute paths into `original`
    json.close();
    QVERIFY(QDir(original).removeRecursively());

    MainWindow window;
    window.setShowErrorDialogs(false);
    QVERIFY(openAndWait(window, copy + QStringLiteral("/compile.json")));
    QVERIFY(window.pane(QStringLiteral("ptx"))->view()->lineCount() > 10);
    const QString status = window.statusBar()->currentMessage();
    QVERIFY2(status.contains(QStringLiteral("records its folder as ") + original), qPrintable(status));
    QVERIFY(status.contains(copy + QStringLiteral(", where it is now")));
}

void TestMainWindow::languageIsChosenAndCompiledIn()
{
    QStandardPaths::setTestModeEnabled(true);  // the preference goes to a test location
    const QString before = languagePreference();
    // The zh_CN catalogue the build compiles (and embeds in the app) is found for that locale.
    QVERIFY(installTranslations(*QCoreApplication::instance(), QLocale(QStringLiteral("zh_CN")),
                                QStringLiteral(STRATA_BUILD_DIR "/ui")));
    QCOMPARE(QCoreApplication::translate("strata::MainWindow", "Suite"), QStringLiteral("套件"));
    // The menu stores the choice; chosenLocale follows it, and an explicit --lang wins.
    MainWindow window;
    QAction *english = nullptr;
    for (QAction *action : window.findChildren<QAction *>())
        if (action->data().toString() == QLatin1String("en") && action->isCheckable())
            english = action;
    QVERIFY(english);
    english->trigger();
    QCOMPARE(languagePreference(), QStringLiteral("en"));
    QCOMPARE(chosenLocale().name(), QStringLiteral("en_US"));
    QCOMPARE(chosenLocale(QStringLiteral("zh_CN")).name(), QStringLiteral("zh_CN"));
    setLanguagePreference(before);
    // Leave the test process in English for the other cases.
    for (QTranslator *translator : QCoreApplication::instance()->findChildren<QTranslator *>())
        QCoreApplication::removeTranslator(translator);
}

QTEST_MAIN(TestMainWindow)
#include "tst_main_window.moc"
