#pragma once
// A highlighter driven by an ordered list of (regex, style) rules; later rules win where they
// overlap. Colours come from a light or dark scheme picked from the widget palette, so the same
// rules read well on both.
//
// Lazy, unlike QSyntaxHighlighter (which formats the whole document when it is attached): a view
// asks for the blocks it is about to paint (highlightBlocks), so a 100,000-line SASS listing
// costs the rules only on the lines someone looks at. The rules are per line (no state carried
// from one line to the next), which is what makes formatting any block alone correct.
#include "core/Stage.h"

#include <QObject>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextCharFormat>
#include <QVector>

namespace strata {

enum class TokenStyle { Keyword, Op, Value, Attribute, Type, Number, String, Comment, Dimmed,
                        Label, Register, Added, Removed, HunkHeader };

struct ColorScheme {
    bool dark = false;
    QTextCharFormat format(TokenStyle style) const;
    static ColorScheme forPalette(const QPalette &palette);
};

class RuleHighlighter : public QObject {
    Q_OBJECT
public:
    explicit RuleHighlighter(QTextDocument *document);  // parented to it
    QTextDocument *document() const { return m_document; }
    // A new scheme: blocks formatted before are formatted again when next asked for.
    void setScheme(const ColorScheme &scheme);
    const ColorScheme &scheme() const { return m_scheme; }

    // Formats the blocks from `first` through `last` (inclusive) not yet formatted in the current
    // scheme. Returns how many it formatted.
    int highlightBlocks(QTextBlock first, const QTextBlock &last);
    bool isHighlighted(const QTextBlock &block) const { return block.userState() == m_generation; }
    // The formats the rules give one line (what highlightBlocks puts on its block).
    QVector<QTextLayout::FormatRange> formatsFor(const QString &text);

protected:
    // `group`: the capture group styled (0 = whole match).
    void addRule(const QString &pattern, TokenStyle style, int group = 0);
    virtual void highlightBlock(const QString &text);
    // As in QSyntaxHighlighter: within highlightBlock, the format of characters of the line.
    void setFormat(int start, int count, const QTextCharFormat &format);
    QTextCharFormat format(int position) const;

private:
    struct Rule {
        QRegularExpression regex;
        TokenStyle style;
        int group;
    };
    QTextDocument *m_document;
    QVector<Rule> m_rules;
    ColorScheme m_scheme;
    QVector<QTextCharFormat> m_lineFormats;  // per character of the line being highlighted
    int m_generation;  // a block's userState: which highlighter and scheme formatted it (-1: none)
};

// Python with Triton's `tl.` calls and `@triton.jit` decorators singled out.
class PythonHighlighter : public RuleHighlighter {
public:
    explicit PythonHighlighter(QTextDocument *document);
};

// Triton MLIR (TTIR/TTGIR/pass dumps): ops, %values, #attrs, types; loc(...) dimmed.
class MlirHighlighter : public RuleHighlighter {
public:
    explicit MlirHighlighter(QTextDocument *document);
};

class LlvmIrHighlighter : public RuleHighlighter {
public:
    explicit LlvmIrHighlighter(QTextDocument *document);
};

class PtxHighlighter : public RuleHighlighter {
public:
    explicit PtxHighlighter(QTextDocument *document);
};

class SassHighlighter : public RuleHighlighter {
public:
    explicit SassHighlighter(QTextDocument *document);
};

// Unified diff text: +/- lines tinted, @@ headers, and MLIR rules inside the lines.
class DiffHighlighter : public MlirHighlighter {
public:
    explicit DiffHighlighter(QTextDocument *document);

protected:
    void highlightBlock(const QString &text) override;
};

// The highlighter for a stage's format (nullptr for plain text); parented to `document`.
RuleHighlighter *createHighlighter(StageFormat format, QTextDocument *document);

} // namespace strata
