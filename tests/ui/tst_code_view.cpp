// CodeView at scale: a 100,000-line listing (the matmul fixture's real SASS, repeated) is
// formatted only where it is painted, scrolling formats what comes into view, and linked lines
// (thousands of them) are painted behind the text without extra selections.
#include "highlight/RuleHighlighter.h"
#include "views/CodeView.h"

#include <QApplication>
#include <QFile>
#include <QImage>
#include <QScrollBar>
#include <QTest>
#include <QTextBlock>
#include <QTextLayout>

using namespace strata;

namespace {

QString largeSass(int minimumLines)
{
    QFile file(QStringLiteral(STRATA_FIXTURES_DIR "/matmul/default/matmul_kernel.sass"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the SASS fixture");
    const QString one = QString::fromUtf8(file.readAll());
    QString text;
    while (text.count(u'\n') < minimumLines)
        text += one;
    return text;
}

int highlightedBlocks(const CodeView &view, const RuleHighlighter &highlighter)
{
    int count = 0;
    for (QTextBlock block = view.document()->begin(); block.isValid(); block = block.next())
        count += highlighter.isHighlighted(block);
    return count;
}

// The first line in view whose text holds an instruction (an opcode the rules colour).
int instructionLineInView(const CodeView &view)
{
    for (QTextBlock block = view.document()->findBlockByNumber(view.lineAt(QPoint(0, 0))); block.isValid(); block = block.next())
        if (block.text().contains(QLatin1String("*/")) && view.isLineVisible(block.blockNumber()))
            return block.blockNumber();
    return -1;
}

} // namespace

class TestCodeView : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_view = new CodeView;
        m_view->resize(900, 600);
        m_view->setCode(largeSass(100000), StageFormat::Sass);
        m_view->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_view));
        m_view->viewport()->repaint();
        m_highlighter = m_view->document()->findChild<RuleHighlighter *>();
        QVERIFY(m_highlighter);
    }
    void cleanup() { delete m_view; }

    void onlyPaintedLinesAreFormatted()
    {
        QVERIFY(m_view->lineCount() >= 100000);
        const int visible = m_view->height() / m_view->fontMetrics().height() + 2;
        const int formatted = highlightedBlocks(*m_view, *m_highlighter);
        QVERIFY2(formatted > 0 && formatted <= visible, qPrintable(QStringLiteral("%1 of %2 visible").arg(formatted).arg(visible)));
        const int line = instructionLineInView(*m_view);
        QVERIFY(line >= 0);
        const QTextBlock block = m_view->document()->findBlockByNumber(line);
        QVERIFY(!block.layout()->formats().isEmpty());
        QCOMPARE(block.layout()->formats().size(), m_highlighter->formatsFor(block.text()).size());
        QVERIFY(!m_highlighter->isHighlighted(m_view->document()->findBlockByNumber(60000)));
    }

    void scrollingFormatsWhatComesIntoView()
    {
        QScrollBar *bar = m_view->verticalScrollBar();
        bar->setValue(bar->maximum() / 2);
        m_view->viewport()->repaint();
        const int line = instructionLineInView(*m_view);
        QVERIFY(line > 40000);
        QVERIFY(m_highlighter->isHighlighted(m_view->document()->findBlockByNumber(line)));
        QVERIFY(!m_view->document()->findBlockByNumber(line).layout()->formats().isEmpty());
        const int visible = m_view->height() / m_view->fontMetrics().height() + 2;
        QVERIFY(highlightedBlocks(*m_view, *m_highlighter) <= 2 * visible);
    }

    void aNewSchemeFormatsAgainWhenPainted()
    {
        const int line = instructionLineInView(*m_view);
        const QTextBlock block = m_view->document()->findBlockByNumber(line);
        QVERIFY(m_highlighter->isHighlighted(block));
        ColorScheme dark;
        dark.dark = !m_highlighter->scheme().dark;
        m_highlighter->setScheme(dark);
        QVERIFY(!m_highlighter->isHighlighted(block));
        m_view->viewport()->repaint();
        QVERIFY(m_highlighter->isHighlighted(block));
    }

    void thousandsOfLinkedLinesArePaintedBehindTheText()
    {
        // Every fourth line linked, as a source line of a repeated listing links to each copy.
        QVector<int> linked;
        for (int line = 0; line < m_view->lineCount(); line += 4)
            linked.append(line);
        const int top = m_view->lineAt(QPoint(0, 0));
        const int primary = top + 4 - top % 4;
        m_view->setHighlightedLines(linked, primary);
        QVERIFY(m_view->extraSelections().isEmpty());
        const QImage image = m_view->viewport()->grab().toImage();
        const int x = image.width() - 3;  // right of the text
        auto colourAt = [&](int line) { return image.pixelColor(x, m_view->lineRect(line).center().y()); };
        const QColor background = colourAt(primary + 1);
        QVERIFY(colourAt(primary) != background);
        QVERIFY(colourAt(primary + 4) != background);
        QVERIFY(colourAt(primary + 4) != colourAt(primary));  // the clicked line is drawn stronger
        m_view->setHighlightedLines({});
        QCOMPARE(m_view->viewport()->grab().toImage().pixelColor(x, m_view->lineRect(primary).center().y()), background);
    }

    // The lines in view keep their shaped glyphs (a repaint does not shape them again), and a
    // page-through of the whole listing leaves only the last few screens' glyphs behind.
    void shapedTextFollowsTheView()
    {
        QScrollBar *bar = m_view->verticalScrollBar();
        for (int value = 0; value <= bar->maximum(); value += bar->pageStep()) {
            bar->setValue(value);
            m_view->viewport()->repaint();
        }
        int cached = 0;
        for (QTextBlock block = m_view->document()->begin(); block.isValid(); block = block.next())
            cached += block.layout()->cacheEnabled();
        QVERIFY2(cached > 0 && cached <= 1000 + 4 * (m_view->height() / m_view->fontMetrics().height() + 2),
                 qPrintable(QStringLiteral("%1 of %2 lines keep their glyphs").arg(cached).arg(m_view->lineCount())));
        const int line = instructionLineInView(*m_view);
        QVERIFY(line >= 0);
        QVERIFY(m_view->document()->findBlockByNumber(line).layout()->cacheEnabled());
        // A line that gave its glyphs back is laid out and painted again when it comes back.
        const QTextBlock top = m_view->document()->begin();
        QVERIFY(!top.layout()->cacheEnabled());
        bar->setValue(0);
        m_view->viewport()->repaint();
        QVERIFY(top.layout()->lineCount() > 0);
        QVERIFY(top.layout()->cacheEnabled());
        QCOMPARE(m_view->lineAt(QPoint(0, 0)), 0);
        QVERIFY(m_view->lineRect(1).top() > m_view->lineRect(0).top());
    }

private:
    CodeView *m_view = nullptr;
    RuleHighlighter *m_highlighter = nullptr;
};

QTEST_MAIN(TestCodeView)
#include "tst_code_view.moc"
