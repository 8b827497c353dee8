#include "app/ScreenshotMode.h"

#include "app/MainWindow.h"

#include <QApplication>
#include <QPixmap>
#include <QTimer>
#include <cstdio>

namespace strata {

namespace {

// Long enough for the panes' deferred layout and highlighting to land before the grab.
constexpr int kSettleMs = 300;

void grabAndQuit(MainWindow &window, const QString &imagePath)
{
    if (!window.grab().save(imagePath, "PNG")) {
        std::fprintf(stderr, "strata: could not write the screenshot %s\n", qPrintable(imagePath));
        QCoreApplication::exit(1);
        return;
    }
    std::printf("strata: screenshot %s (%s)\n", qPrintable(imagePath), qPrintable(window.statusText()));
    std::fflush(stdout);
    QCoreApplication::exit(0);
}

} // namespace

QCommandLineOption screenshotOption()
{
    return QCommandLineOption(QStringLiteral("screenshot"),
                              QApplication::translate("main", "Write the window to a PNG file once the compile named here has loaded, then exit (1 if it fails)."),
                              QStringLiteral("file"));
}

void writeScreenshotAndQuit(MainWindow &window, const QString &imagePath, bool waitForLoad, int timeLimitMs)
{
    window.setShowErrorDialogs(false);  // nobody is there to close them
    if (!waitForLoad) {
        QTimer::singleShot(kSettleMs, &window, [&window, imagePath] { grabAndQuit(window, imagePath); });
        return;
    }
    QObject::connect(&window, &MainWindow::compileLoaded, &window, [&window, imagePath] {
        QTimer::singleShot(kSettleMs, &window, [&window, imagePath] { grabAndQuit(window, imagePath); });
    });
    QObject::connect(&window, &MainWindow::loadFailed, &window, [](const ReadError &error) {
        std::fprintf(stderr, "strata: the load failed: %s\n", qPrintable(error.toString()));
        QCoreApplication::exit(1);
    });
    QTimer::singleShot(timeLimitMs, &window, [timeLimitMs] {
        std::fprintf(stderr, "strata: nothing loaded within %d s\n", timeLimitMs / 1000);
        QCoreApplication::exit(1);
    });
}

} // namespace strata
