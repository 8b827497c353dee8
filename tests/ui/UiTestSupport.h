#pragma once
// Shared steps of the GUI tests: open a fixture compile in a real MainWindow and find lines.
#include "app/MainWindow.h"
#include "views/CodeView.h"
#include "views/StagePane.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

namespace strata::test {

inline QString fixtureCompile(const QString &sample, const QString &variant)
{
    return QStringLiteral(STRATA_FIXTURES_DIR "/%1/%2/compile.json").arg(sample, variant);
}

// Opens `compileJson` and waits for the stages (and, if asked, the pass-dump index).
inline bool openAndWait(MainWindow &window, const QString &compileJson, bool waitForPassIndex = false)
{
    if (!QFileInfo::exists(compileJson)) {
        qWarning("fixture missing: %s", qPrintable(compileJson));
        return false;
    }
    QSignalSpy loaded(&window, &MainWindow::compileLoaded);
    QSignalSpy indexed(&window, &MainWindow::passIndexReady);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openCompile(compileJson);
    if (!loaded.wait(120000)) {
        if (!failed.isEmpty())
            qWarning("load failed: %s", qPrintable(failed.first().first().value<ReadError>().toString()));
        return false;
    }
    return !waitForPassIndex || !indexed.isEmpty() || indexed.wait(180000);
}

// 0-based lines of `view` whose text contains `needle`.
inline QVector<int> linesContaining(const CodeView *view, const QString &needle)
{
    QVector<int> lines;
    for (int line = 0; line < view->lineCount(); ++line)
        if (view->lineText(line).contains(needle))
            lines.append(line);
    return lines;
}

inline bool anyLineContains(const CodeView *view, const QVector<int> &lines, const QString &needle)
{
    for (int line : lines)
        if (view->lineText(line).contains(needle))
            return true;
    return false;
}

// A real mouse click in the middle of `line` (scrolled into view first).
inline void clickLine(CodeView *view, int line)
{
    view->scrollToLine(line);
    QCoreApplication::processEvents();
    const QRect rect = view->lineRect(line);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(rect.left() + 40, rect.center().y()));
}

} // namespace strata::test
