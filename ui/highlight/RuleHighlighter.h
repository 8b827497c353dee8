#pragma once
// A QSyntaxHighlighter driven by an ordered list of (regex, style) rules; later rules win where
// they overlap. Colours come from a light or dark scheme picked from the widget palette, so the
// same rules read well on both.
#include "core/Stage.h"

#include <QRegularExpression>
#include <QSyntaxHighlighter>
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

class RuleHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit RuleHighlighter(QTextDocument *document);
    void setScheme(const ColorScheme &scheme);
    const ColorScheme &scheme() const { return m_scheme; }

protected:
    // `group`: the capture group styled (0 = whole match).
    void addRule(const QString &pattern, TokenStyle style, int group = 0);
    void highlightBlock(const QString &text) override;

private:
    struct Rule {
        QRegularExpression regex;
        TokenStyle style;
        int group;
    };
    QVector<Rule> m_rules;
    ColorScheme m_scheme;
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
