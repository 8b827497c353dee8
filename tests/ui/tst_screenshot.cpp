// Renders the main window on the matmul fixture, with the tl.dot line linked and the pipeline
// pass selected, to $STRATA_SCREENSHOT_DIR/strata-matmul.png and strata-matmul-dark.png
// (default: the build dir). Checks
// that every pane drew code (not a blank or placeholder-only pane).
#include "UiTestSupport.h"

#include "models/PassListModel.h"
#include "app/Theme.h"
#include "views/PassPanel.h"

#include <QDir>
#include <QImage>
#include <QSet>

using namespace strata;
using namespace strata::test;

namespace {

// Distinct colours in a widget's rendering: a pane with highlighted code has dozens,
// an empty one a handful.
int distinctColors(QWidget *widget)
{
    const QImage image = widget->grab().toImage();
    QSet<QRgb> colors;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            colors.insert(image.pixel(x, y));
    return int(colors.size());
}

QString screenshotDir()
{
    const QString fromEnv = qEnvironmentVariable("STRATA_SCREENSHOT_DIR");
    return fromEnv.isEmpty() ? QStringLiteral(STRATA_BUILD_DIR) : fromEnv;
}

} // namespace

class TestScreenshot : public QObject {
    Q_OBJECT
private slots:
    void matmulWindow_data();
    void matmulWindow();
};

void TestScreenshot::matmulWindow_data()
{
    QTest::addColumn<bool>("dark");
    QTest::addColumn<QString>("fileName");
    QTest::newRow("light") << false << QStringLiteral("strata-matmul.png");
    QTest::newRow("dark") << true << QStringLiteral("strata-matmul-dark.png");
}

void TestScreenshot::matmulWindow()
{
    QFETCH(bool, dark);
    QFETCH(QString, fileName);
    if (dark)
        applyDarkTheme();
    MainWindow window;
    window.setShowErrorDialogs(false);
    window.resize(1600, 1000);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndWait(window, fixtureCompile(QStringLiteral("matmul"), QStringLiteral("default")), true));

    const QVector<int> dot = linesContaining(window.sourcePane()->view(), QStringLiteral("tl.dot("));
    QVERIFY(!dot.isEmpty());
    clickLine(window.sourcePane()->view(), dot.first());

    PassPanel *passes = window.passPanel();
    QSignalSpy shown(passes, &PassPanel::passShown);
    QVERIFY(passes->selectPass(passes->model()->rowForArgument(QStringLiteral("tritongpu-pipeline"))));
    QVERIFY(shown.wait(30000));
    QTest::qWait(200);  // let the last repaints land

    for (StagePane *pane : QVector<StagePane *>{window.sourcePane()} + window.stagePanes())
        QVERIFY2(distinctColors(pane->view()->viewport()) > 12, qPrintable(pane->stageId() + " looks blank"));
    QVERIFY(distinctColors(passes->diffView()->viewport()) > 12);

    const QImage shot = window.grab().toImage();
    QVERIFY(shot.width() >= 1600 && shot.height() >= 1000);
    QDir().mkpath(screenshotDir());
    const QString path = QDir(screenshotDir()).filePath(fileName);
    QVERIFY2(shot.save(path), qPrintable(path));
    qInfo("screenshot: %s", qPrintable(path));
}

QTEST_MAIN(TestScreenshot)
#include "tst_screenshot.moc"
