#pragma once
// Text edits on a Python source addressed by the agent's AST spans (lines 1-based, columns
// 0-based UTF-8 byte offsets, as Python's ast reports them), applied all at once.
#include "core/Expected.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::rewrite::recipes {

// Replace [start, end) of the text (QString indices) with `replacement`.
struct TextEdit {
    int start = 0;
    int end = 0;
    QString replacement;
    friend bool operator==(const TextEdit &, const TextEdit &) = default;
};

class SourceText {
public:
    explicit SourceText(const QString &text);

    const QString &text() const { return m_text; }
    int lineCount() const { return int(m_lineStarts.size()); }
    // Index of (line, UTF-8 byte column) in text(); -1 when the line does not exist.
    int offset(int line, int byteColumn) const;
    // Span ends of an AST node or span object ({"lineno", "col_offset", "end_lineno", "end_col_offset"}).
    int startOf(const QJsonObject &node) const;
    int endOf(const QJsonObject &node) const;
    QString slice(const QJsonObject &node) const;
    // End of a call's last argument or keyword (AST Call nodes and launch sites both list `args`
    // and `keywords` with spans); -1 when it has none.
    int afterLastArgument(const QJsonObject &call) const;
    int lineStart(int line) const;
    QString line(int line) const;    // without its newline
    QString indentOf(int line) const;  // its leading spaces and tabs

private:
    QString m_text;
    QVector<int> m_lineStarts;
};

// Applies edits to `text`; fails when two edits overlap (inserts at the same point are allowed
// and keep their order).
Expected<QString> applyEdits(const QString &text, QVector<TextEdit> edits);
// True when no edit of `a` overlaps one of `b`.
bool editsCompatible(const QVector<TextEdit> &a, const QVector<TextEdit> &b);

} // namespace strata::rewrite::recipes
