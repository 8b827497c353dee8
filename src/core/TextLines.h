#pragma once
// How every reader turns a stage's text into lines, so that line numbers agree across readers,
// the location map and the panes.
#include <QString>
#include <QStringList>

namespace strata {

// Splits on '\n', drops a trailing '\r' from each line, and does not count the newline that ends
// the file as the start of another line.
QStringList splitLines(const QString &text);

} // namespace strata
