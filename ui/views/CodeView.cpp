#include "views/CodeView.h"

#include "highlight/RuleHighlighter.h"

#include <QFontDatabase>
#include <algorithm>
#include <QKeyEvent>
#include <QPainter>
#include <QTextBlock>
#include <QTextLayout>

namespace strata {

namespace {

class Gutter : public QWidget {
public:
    explicit Gutter(CodeView *view) : QWidget(view), m_view(view) {}
    QSize sizeHint() const override { return {m_view->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_view->paintGutter(event); }
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        // Clicking a line number links like clicking the line itself.
        const int line = m_view->lineAt(QPoint(0, int(event->position().y())));
        if (line >= 0)
            emit m_view->lineClicked(line);
    }

private:
    CodeView *m_view;
};

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

} // namespace

CodeView::CodeView(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    setReadOnly(true);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeView::updateGutterGeometry);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    });
    updateGutterGeometry();
}

void CodeView::setCode(const QString &text, StageFormat format)
{
    delete m_highlighter;
    m_highlighter = nullptr;
    m_shapedBlocks.clear();  // block numbers of the old document
    setPlainText(text);
    setHighlighter(createHighlighter(format, document()));
    m_highlighted.clear();
    m_primary = -1;
    applyHighlights();
}

void CodeView::setHighlighter(RuleHighlighter *highlighter)
{
    if (m_highlighter != highlighter)
        delete m_highlighter;
    m_highlighter = highlighter;
    applyScheme();
}

void CodeView::setPlaceholder(const QString &message)
{
    setCode({}, StageFormat::PlainText);
    setPlaceholderText(message);
}

void CodeView::setMarkedLines(const QSet<int> &lines)
{
    m_marked = lines;
    m_gutter->update();
}

void CodeView::setHighlightedLines(const QVector<int> &lines, int primary)
{
    if (lines == m_highlighted && primary == m_primary)
        return;  // nothing to repaint
    m_highlighted = lines;
    m_primary = primary;
    applyHighlights();
}

void CodeView::scrollToLine(int line)
{
    const QTextBlock block = document()->findBlockByNumber(line);
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    setTextCursor(cursor);
    // Centre unless the line is already comfortably inside the view (not hugging an edge).
    const QRect rect = lineRect(line);
    const int margin = 2 * fontMetrics().height();
    if (!rect.isValid() || rect.top() < margin || rect.bottom() > viewport()->height() - margin)
        centerCursor();
}

int CodeView::lineCount() const
{
    return document()->blockCount();
}

QString CodeView::lineText(int line) const
{
    const QTextBlock block = document()->findBlockByNumber(line);
    return block.isValid() ? block.text() : QString();
}

QRect CodeView::lineRect(int line) const
{
    const QTextBlock block = document()->findBlockByNumber(line);
    if (!block.isValid())
        return {};
    return blockBoundingGeometry(block).translated(contentOffset()).toRect();
}

int CodeView::lineAt(const QPoint &viewportPos) const
{
    const QTextCursor cursor = cursorForPosition(viewportPos);
    return cursor.isNull() ? -1 : cursor.blockNumber();
}

bool CodeView::isLineVisible(int line) const
{
    const QRect rect = lineRect(line);
    return rect.isValid() && rect.top() >= 0 && rect.bottom() <= viewport()->height();
}

int CodeView::gutterWidth() const
{
    const int digits = QString::number(qMax(1, document()->blockCount())).size();
    // Line number, a little air on both sides, and room for the "has code" marker.
    return fontMetrics().horizontalAdvance(QLatin1Char('9')) * qMax(3, digits) + 18;
}

void CodeView::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    const QPalette pal = palette();
    const bool dark = isDark(pal);
    painter.fillRect(event->rect(), pal.color(QPalette::Window));
    const QColor numberColor = pal.color(QPalette::PlaceholderText);
    const QColor markerColor = dark ? QColor(0x4F, 0xA8, 0xE8) : QColor(0x1E, 0x6F, 0xC8);
    const QSet<int> &highlighted = m_highlightedSet;

    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const int line = block.blockNumber();
            if (m_marked.contains(line))
                painter.fillRect(QRect(2, top + 2, 3, lineHeight - 4), markerColor);
            painter.setPen(highlighted.contains(line) ? pal.color(QPalette::Text) : numberColor);
            painter.drawText(0, top, m_gutter->width() - 6, lineHeight, Qt::AlignRight | Qt::AlignVCenter,
                             QString::number(line + 1));
        }
        block = block.next();
        top += height;
    }
}

int CodeView::highlightVisibleLines()
{
    // Counted in lines, not asked of the layout: laying the blocks out here would shape their
    // text once without formats and again with them.
    const QTextBlock first = firstVisibleBlock();
    QTextBlock last = first;
    const int lines = viewport()->height() / std::max(1, fontMetrics().lineSpacing()) + 1;
    for (int i = 0; i < lines && last.next().isValid(); ++i)
        last = last.next();
    keepShapedText(first, last);
    return m_highlighter ? m_highlighter->highlightBlocks(first, last) : 0;
}

// A QTextLayout drops its shaped glyphs at the end of each layout unless its cache is on, so a
// line newly in view was shaped three times: laid out, laid out again with its formats, drawn.
// The lines in view keep theirs; a line that has been out of view for a while gives them back
// (its layout is emptied, and laid out again if it comes back), so scrolling through a
// 100,000-line listing holds the glyphs of the last few screens only.
void CodeView::keepShapedText(QTextBlock first, const QTextBlock &last)
{
    for (QTextBlock block = first; block.isValid(); block = block.next()) {
        if (!block.layout()->cacheEnabled()) {
            block.layout()->setCacheEnabled(true);
            m_shapedBlocks.enqueue(block.blockNumber());
        }
        if (block == last)
            break;
    }
    const int inView = last.blockNumber() - first.blockNumber() + 1;
    const int keep = std::max(kShapedBlocksKept, 4 * inView);
    while (m_shapedBlocks.size() > keep) {
        const QTextBlock old = document()->findBlockByNumber(m_shapedBlocks.dequeue());
        if (!old.isValid() || (old.blockNumber() >= first.blockNumber() && old.blockNumber() <= last.blockNumber()))
            continue;
        QTextLayout *layout = old.layout();
        layout->setCacheEnabled(false);
        // An empty layout frees its glyphs at endLayout (clearLayout would keep them); with no
        // lines, the document layout lays the block out again when it is next painted.
        layout->beginLayout();
        layout->endLayout();
    }
}

void CodeView::paintEvent(QPaintEvent *event)
{
    // Before the text is drawn: the lines about to be painted get their formats first, and the
    // linked lines their background.
    highlightVisibleLines();
    paintLinkedLines(event->rect());
    QPlainTextEdit::paintEvent(event);
}

void CodeView::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    updateGutterGeometry();
}

void CodeView::mouseReleaseEvent(QMouseEvent *event)
{
    QPlainTextEdit::mouseReleaseEvent(event);
    // A drag that selected text is a copy gesture, not a link click.
    if (event->button() == Qt::LeftButton && !textCursor().hasSelection()) {
        const int line = lineAt(event->position().toPoint());
        if (line >= 0)
            emit lineClicked(line);
    }
}

void CodeView::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        emit lineClicked(textCursor().blockNumber());
        return;
    }
    QPlainTextEdit::keyPressEvent(event);
}

void CodeView::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyScheme();
        applyHighlights();
    } else if (event->type() == QEvent::FontChange) {
        updateGutterGeometry();
    }
}

void CodeView::updateGutterGeometry()
{
    const int width = gutterWidth();
    setViewportMargins(width, 0, 0, 0);
    const QRect contents = contentsRect();
    m_gutter->setGeometry(contents.left(), contents.top(), width, contents.height());
}

// Linked lines are painted by paintLinkedLines, not as QTextEdit::ExtraSelections: a source line
// of a 100,000-line listing can link to thousands of lines, and QPlainTextEdit walks every extra
// selection for every block it paints. Here a paint looks up only the blocks in view.
void CodeView::applyHighlights()
{
    m_highlightedSet = QSet<int>(m_highlighted.cbegin(), m_highlighted.cend());
    viewport()->update();
    m_gutter->update();
}

void CodeView::paintLinkedLines(const QRect &area)
{
    if (m_highlightedSet.isEmpty())
        return;
    const bool dark = isDark(palette());
    const QColor linked = dark ? QColor(0x4A, 0x44, 0x1E) : QColor(0xFF, 0xF3, 0xB0);
    const QColor primary = dark ? QColor(0x66, 0x5A, 0x1A) : QColor(0xFF, 0xE0, 0x66);
    QPainter painter(viewport());
    const QPointF offset = contentOffset();
    for (QTextBlock block = firstVisibleBlock(); block.isValid(); block = block.next()) {
        const QRectF bounds = blockBoundingGeometry(block).translated(offset);
        if (bounds.top() > area.bottom())
            break;
        if (block.isVisible() && m_highlightedSet.contains(block.blockNumber()))
            painter.fillRect(QRectF(0, bounds.top(), viewport()->width(), bounds.height()),
                             block.blockNumber() == m_primary ? primary : linked);
    }
}

void CodeView::applyScheme()
{
    if (m_highlighter)
        m_highlighter->setScheme(ColorScheme::forPalette(palette()));
    viewport()->update();  // the lines in view are formatted again as they are painted
}

} // namespace strata
