#pragma once
// `strata --screenshot FILE`: the app checks itself and exits, for the release package's check
// (scripts/package.sh --check) and for documentation screenshots. Once the compile, kernel or
// sample named on the command line has loaded, the window is written to FILE (PNG), its status
// fields are printed, and the app exits 0. A failed load, a failed write or no load within the
// time limit exits 1 with the reason on stderr. With nothing to open it writes the empty window.
#include <QCommandLineOption>
#include <QString>

namespace strata {

class MainWindow;

QCommandLineOption screenshotOption();

// Call after window.show(); `waitForLoad` is false when nothing was named on the command line.
void writeScreenshotAndQuit(MainWindow &window, const QString &imagePath, bool waitForLoad,
                            int timeLimitMs = 5 * 60 * 1000);

} // namespace strata
