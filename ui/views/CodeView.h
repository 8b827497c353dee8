#pragma once
// A read-only code view: QPlainTextEdit with a line-number gutter (plus a marker on lines that
// have code), syntax highlighting for the stage's format, and linked-line highlights.
// Lines are 0-based everywhere in this API (block numbers).
#include "core/Stage.h"

#include <QPlainTextEdit>
#include <QQueue>
#include <QSet>
#include <QTextBlock>
#include <QVector>

namespace strata {

class RuleHighlighter;

class CodeView : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit CodeView(QWidget *parent = nullptr);

    void setCode(const QString &text, StageFormat format);
    void setHighlighter(RuleHighlighter *highlighter);  // takes one made for document()
    void setPlaceholder(const QString &message);        // an empty view that says why

    // Gutter markers (e.g. source lines with code in some stage).
    void setMarkedLines(const QSet<int> &lines);
    const QSet<int> &markedLines() const { return m_marked; }

    // Linked lines; `primary` (the clicked one) is drawn stronger. Does not scroll.
    void setHighlightedLines(const QVector<int> &lines, int primary = -1);
    const QVector<int> &highlightedLines() const { return m_highlighted; }
    void scrollToLine(int line);  // centres `line` unless it is already visible

    int lineCount() const;
    QString lineText(int line) const;
    QRect lineRect(int line) const;          // in viewport coordinates (tests click here)
    int lineAt(const QPoint &viewportPos) const;
    bool isLineVisible(int line) const;

    // Formats the lines in view that are not yet formatted (the highlighter is lazy: a listing
    // of 100,000 lines is formatted as it is scrolled through). Returns how many it formatted.
    int highlightVisibleLines();

    int gutterWidth() const;
    void paintGutter(QPaintEvent *event);

signals:
    void lineClicked(int line);  // a click (or Return) on a line

protected:
    void resizeEvent(QResizeEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateGutterGeometry();
    void applyHighlights();
    void paintLinkedLines(const QRect &area);
    void applyScheme();
    void keepShapedText(QTextBlock first, const QTextBlock &last);

    QWidget *m_gutter = nullptr;
    RuleHighlighter *m_highlighter = nullptr;
    QSet<int> m_marked;
    QVector<int> m_highlighted;
    QSet<int> m_highlightedSet;  // the same lines, for the paint's lookups
    int m_primary = -1;
    static constexpr int kShapedBlocksKept = 1000;  // lines that keep their glyphs, at least
    QQueue<int> m_shapedBlocks;  // block numbers whose layouts cache their glyphs, oldest first
};

} // namespace strata
