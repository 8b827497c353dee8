#include "highlight/RuleHighlighter.h"

#include <QPalette>
#include <QTextDocument>
#include <QTextLayout>

#include <algorithm>

namespace strata {

namespace {

struct StyleColors {
    QColor light;
    QColor dark;
    bool bold = false;
    bool italic = false;
};

StyleColors colorsOf(TokenStyle style)
{
    switch (style) {
    case TokenStyle::Keyword: return {QColor(0x00, 0x33, 0xB3), QColor(0xCC, 0x78, 0x32), true};
    case TokenStyle::Op: return {QColor(0x87, 0x10, 0x94), QColor(0xC6, 0x92, 0xE8), true};
    case TokenStyle::Value: return {QColor(0x1F, 0x6F, 0x8B), QColor(0x9C, 0xDC, 0xFE)};
    case TokenStyle::Attribute: return {QColor(0x8C, 0x6D, 0x00), QColor(0xDC, 0xC2, 0x6E)};
    case TokenStyle::Type: return {QColor(0x00, 0x7A, 0x5E), QColor(0x4E, 0xC9, 0xB0)};
    case TokenStyle::Number: return {QColor(0x17, 0x50, 0xEB), QColor(0xB5, 0xCE, 0xA8)};
    case TokenStyle::String: return {QColor(0x06, 0x7D, 0x17), QColor(0xCE, 0x91, 0x78)};
    case TokenStyle::Comment: return {QColor(0x8C, 0x8C, 0x8C), QColor(0x7F, 0x84, 0x8E), false, true};
    case TokenStyle::Dimmed: return {QColor(0xB0, 0xB0, 0xB0), QColor(0x5C, 0x63, 0x70)};
    case TokenStyle::Label: return {QColor(0xA3, 0x15, 0x15), QColor(0xF0, 0x8D, 0x49), true};
    case TokenStyle::Register: return {QColor(0x26, 0x7F, 0x99), QColor(0x9C, 0xDC, 0xFE)};
    case TokenStyle::Added: return {QColor(0x11, 0x63, 0x29), QColor(0x7E, 0xE7, 0x87)};
    case TokenStyle::Removed: return {QColor(0xB3, 0x1D, 0x28), QColor(0xFF, 0x7B, 0x72)};
    case TokenStyle::HunkHeader: return {QColor(0x6F, 0x42, 0xC1), QColor(0xB3, 0x92, 0xF0), true};
    }
    return {};
}

} // namespace

QTextCharFormat ColorScheme::format(TokenStyle style) const
{
    const StyleColors colors = colorsOf(style);
    QTextCharFormat format;
    format.setForeground(dark ? colors.dark : colors.light);
    if (colors.bold)
        format.setFontWeight(QFont::DemiBold);
    format.setFontItalic(colors.italic);
    if (style == TokenStyle::Added)
        format.setBackground(dark ? QColor(0x1B, 0x3A, 0x24) : QColor(0xE6, 0xFF, 0xEC));
    if (style == TokenStyle::Removed)
        format.setBackground(dark ? QColor(0x4A, 0x1F, 0x24) : QColor(0xFF, 0xEB, 0xE9));
    return format;
}

ColorScheme ColorScheme::forPalette(const QPalette &palette)
{
    ColorScheme scheme;
    scheme.dark = palette.color(QPalette::Base).lightness() < 128;
    return scheme;
}

namespace {
// Unique across highlighters, so that a block formatted by an earlier highlighter of the same
// document (a pass diff view gets a new one per diff) is never taken as formatted by this one.
int nextGeneration()
{
    static int generation = 0;
    return ++generation;
}
} // namespace

RuleHighlighter::RuleHighlighter(QTextDocument *document)
    : QObject(document), m_document(document), m_generation(nextGeneration())
{
}

void RuleHighlighter::setScheme(const ColorScheme &scheme)
{
    m_scheme = scheme;
    m_generation = nextGeneration();
}

int RuleHighlighter::highlightBlocks(QTextBlock first, const QTextBlock &last)
{
    int formatted = 0;
    int from = -1, to = -1;
    for (QTextBlock block = first; block.isValid(); block = block.next()) {
        if (!isHighlighted(block)) {
            block.layout()->setFormats(formatsFor(block.text()));
            block.setUserState(m_generation);
            from = from < 0 ? block.position() : from;
            to = block.position() + block.length();
            ++formatted;
        }
        if (block == last)
            break;
    }
    if (formatted)  // one relayout for the whole run, as QSyntaxHighlighter does per block
        m_document->markContentsDirty(from, to - from);
    return formatted;
}

QVector<QTextLayout::FormatRange> RuleHighlighter::formatsFor(const QString &text)
{
    m_lineFormats.fill(QTextCharFormat(), text.size());
    highlightBlock(text);
    QVector<QTextLayout::FormatRange> ranges;
    for (int start = 0; start < m_lineFormats.size();) {
        int end = start + 1;
        while (end < m_lineFormats.size() && m_lineFormats[end] == m_lineFormats[start])
            ++end;
        if (m_lineFormats[start].propertyCount() > 0)
            ranges.append({start, end - start, m_lineFormats[start]});
        start = end;
    }
    return ranges;
}

void RuleHighlighter::setFormat(int start, int count, const QTextCharFormat &format)
{
    const int end = std::min(int(m_lineFormats.size()), start + count);
    for (int i = std::max(0, start); i < end; ++i)
        m_lineFormats[i] = format;
}

QTextCharFormat RuleHighlighter::format(int position) const
{
    return position >= 0 && position < m_lineFormats.size() ? m_lineFormats[position] : QTextCharFormat();
}

void RuleHighlighter::addRule(const QString &pattern, TokenStyle style, int group)
{
    m_rules.append({QRegularExpression(pattern), style, group});
}

void RuleHighlighter::highlightBlock(const QString &text)
{
    for (const Rule &rule : std::as_const(m_rules)) {
        auto matches = rule.regex.globalMatch(text);
        while (matches.hasNext()) {
            const QRegularExpressionMatch match = matches.next();
            if (match.capturedLength(rule.group) > 0)
                setFormat(int(match.capturedStart(rule.group)), int(match.capturedLength(rule.group)),
                          m_scheme.format(rule.style));
        }
    }
}

PythonHighlighter::PythonHighlighter(QTextDocument *document)
    : RuleHighlighter(document)
{
    addRule(QStringLiteral("\\b(def|return|for|in|range|if|elif|else|while|import|from|as|and|or|not|"
                           "is|None|True|False|with|pass|break|continue|lambda|class)\\b"),
            TokenStyle::Keyword);
    addRule(QStringLiteral("\\b\\d+(\\.\\d+)?([eE][-+]?\\d+)?\\b"), TokenStyle::Number);
    addRule(QStringLiteral("\\btl\\.(constexpr|float16|bfloat16|float32|int32|int64)\\b"), TokenStyle::Type);
    addRule(QStringLiteral("\\btl\\.[A-Za-z_][A-Za-z0-9_]*\\s*(?=\\()"), TokenStyle::Op);
    addRule(QStringLiteral("^\\s*@[A-Za-z_.]+"), TokenStyle::Attribute);
    addRule(QStringLiteral("\"[^\"]*\"|'[^']*'"), TokenStyle::String);
    addRule(QStringLiteral("#.*$"), TokenStyle::Comment);
}

MlirHighlighter::MlirHighlighter(QTextDocument *document)
    : RuleHighlighter(document)
{
    addRule(QStringLiteral("\\b\\d+(\\.\\d+)?\\b"), TokenStyle::Number);
    addRule(QStringLiteral("%[A-Za-z0-9_#:.$-]+"), TokenStyle::Value);
    addRule(QStringLiteral("\\^[A-Za-z0-9_.$-]+"), TokenStyle::Label);
    addRule(QStringLiteral("#[A-Za-z_][A-Za-z0-9_.]*"), TokenStyle::Attribute);
    addRule(QStringLiteral("![A-Za-z_][A-Za-z0-9_.]*|\\b(tensor|memref|vector|ptr)<|"
                           "\\b([if]\\d+|bf16|index)\\b"),
            TokenStyle::Type);
    // The op name: after "=" or at the start of a statement.
    addRule(QStringLiteral("(?:^\\s*|=\\s*)\"?([a-z_][a-z0-9_]*\\.[A-Za-z0-9_.]+)\"?"), TokenStyle::Op, 1);
    addRule(QStringLiteral("^\\s*(module|func|tt\\.func|llvm\\.func)\\b"), TokenStyle::Keyword);
    addRule(QStringLiteral("\"[^\"]*\""), TokenStyle::String);
    addRule(QStringLiteral("\\bloc\\(.*\\)\\s*$"), TokenStyle::Dimmed);
    addRule(QStringLiteral("^\\s*#loc[0-9]*\\s*=.*$"), TokenStyle::Dimmed);
    addRule(QStringLiteral("//.*$"), TokenStyle::Comment);
}

LlvmIrHighlighter::LlvmIrHighlighter(QTextDocument *document)
    : RuleHighlighter(document)
{
    addRule(QStringLiteral("\\b-?\\d+(\\.\\d+)?\\b"), TokenStyle::Number);
    addRule(QStringLiteral("[%@][A-Za-z0-9_.$-]+"), TokenStyle::Value);
    addRule(QStringLiteral("\\b(i\\d+|half|bfloat|float|double|void|ptr|label)\\b|<\\d+ x"), TokenStyle::Type);
    addRule(QStringLiteral("=\\s*([a-z][a-z0-9_.]*)\\b"), TokenStyle::Op, 1);
    addRule(QStringLiteral("^\\s+(store|br|ret|call|fence|switch|unreachable|tail call)\\b"), TokenStyle::Op, 1);
    addRule(QStringLiteral("^\\s*(define|declare|attributes|target|source_filename)\\b"), TokenStyle::Keyword);
    addRule(QStringLiteral("^[A-Za-z0-9_.$-]+:"), TokenStyle::Label);
    addRule(QStringLiteral("\"[^\"]*\""), TokenStyle::String);
    addRule(QStringLiteral("!dbg !\\d+|^!.*$|#\\d+\\b"), TokenStyle::Dimmed);
    addRule(QStringLiteral(";.*$"), TokenStyle::Comment);
}

PtxHighlighter::PtxHighlighter(QTextDocument *document)
    : RuleHighlighter(document)
{
    addRule(QStringLiteral("\\b-?(0[xX][0-9a-fA-F]+|\\d+)\\b"), TokenStyle::Number);
    addRule(QStringLiteral("%[A-Za-z0-9_.]+"), TokenStyle::Register);
    addRule(QStringLiteral("^\\s*(@!?%p\\d+\\s+)?([a-z][a-z0-9_]*(\\.[a-z0-9_]+)*)"), TokenStyle::Op, 2);
    addRule(QStringLiteral("^\\s*\\.[a-z_]+\\b|\\.(global|shared|param|reg|local|const)\\b"), TokenStyle::Keyword);
    addRule(QStringLiteral("^\\s*\\$?[A-Za-z_][A-Za-z0-9_$]*:"), TokenStyle::Label);
    addRule(QStringLiteral("\"[^\"]*\""), TokenStyle::String);
    addRule(QStringLiteral("^\\s*\\.loc\\b.*$"), TokenStyle::Dimmed);
    addRule(QStringLiteral("//.*$"), TokenStyle::Comment);
}

SassHighlighter::SassHighlighter(QTextDocument *document)
    : RuleHighlighter(document)
{
    addRule(QStringLiteral("\\b-?(0x[0-9a-fA-F]+|\\d+)\\b"), TokenStyle::Number);
    addRule(QStringLiteral("\\b(R\\d+|RZ|UR\\d+|URZ|P\\d|PT|UP\\d|UPT|SR_[A-Z_.0-9]+|c\\[[^\\]]*\\]|desc\\[[^\\]]*\\])"),
            TokenStyle::Register);
    addRule(QStringLiteral("\\*/\\s*(@!?U?P\\w+\\s+)?([A-Z][A-Z0-9_]*(\\.[A-Z0-9_x]+)*)"), TokenStyle::Op, 2);
    addRule(QStringLiteral("^\\s*(@!?U?P\\w+\\s+)?([A-Z][A-Z0-9_]*(\\.[A-Z0-9_x]+)*)\\b"), TokenStyle::Op, 2);
    addRule(QStringLiteral("^\\s*\\.[A-Za-z_$][A-Za-z0-9_$.]*:?"), TokenStyle::Label);
    addRule(QStringLiteral("/\\*[0-9a-f]{4,}\\*/"), TokenStyle::Dimmed);
    addRule(QStringLiteral("//.*$"), TokenStyle::Comment);
}

DiffHighlighter::DiffHighlighter(QTextDocument *document)
    : MlirHighlighter(document)
{
}

void DiffHighlighter::highlightBlock(const QString &text)
{
    MlirHighlighter::highlightBlock(text);
    if (text.startsWith(QLatin1String("@@"))) {
        setFormat(0, int(text.size()), scheme().format(TokenStyle::HunkHeader));
        return;
    }
    if (text.startsWith(QLatin1Char('+')) || text.startsWith(QLatin1Char('-'))) {
        // Tint the whole line, keeping the token colours the MLIR rules gave it.
        const QTextCharFormat tint = scheme().format(text.startsWith(QLatin1Char('+')) ? TokenStyle::Added
                                                                                 : TokenStyle::Removed);
        for (int i = 0; i < text.size(); ++i) {
            QTextCharFormat merged = format(i);
            merged.setBackground(tint.background());
            if (i == 0)
                merged.setForeground(tint.foreground());
            setFormat(i, 1, merged);
        }
    }
}

RuleHighlighter *createHighlighter(StageFormat format, QTextDocument *document)
{
    switch (format) {
    case StageFormat::PythonSource: return new PythonHighlighter(document);
    case StageFormat::MlirText: return new MlirHighlighter(document);
    case StageFormat::LlvmIr: return new LlvmIrHighlighter(document);
    case StageFormat::Ptx: return new PtxHighlighter(document);
    case StageFormat::Sass: return new SassHighlighter(document);
    case StageFormat::PlainText:
    case StageFormat::Binary: return nullptr;
    }
    return nullptr;
}

} // namespace strata
