#pragma once
// Internal: a one-line tokenizer for custom-form MLIR. Tokens are offsets into the line (no
// copies), so the reader can tokenize tens of thousands of lines without allocating per token.
#include <QChar>
#include <QStringView>
#include <QVector>

namespace strata::ir::detail {

enum class TokKind : quint8 {
    Value,    // %name, %name#2
    BlockId,  // ^bb0
    Symbol,   // @name, @"quoted name"
    Hash,     // #loc3, #ttg.blocked (attribute or alias name)
    Bang,     // !tt.ptr (type or type alias name)
    Word,     // identifiers, keywords, numbers, dims ("128x64x")
    String,   // "..." (quotes included)
    Arrow,    // ->
    Punct,    // any other single character: ( ) [ ] { } < > , = : * ? ...
};

struct Token {
    TokKind kind = TokKind::Punct;
    bool spaceBefore = false;
    QChar punct;  // for Punct tokens
    int begin = 0;
    int end = 0;  // one past the last character

    bool is(char c) const { return kind == TokKind::Punct && punct == QLatin1Char(c); }
};

struct LineTokens {
    QVector<Token> tokens;
    int contentEnd = 0;     // where a trailing "//" comment starts, or the line length
    int errorColumn = -1;   // 0-based column of a lexing error (an unterminated string)
    const char *error = nullptr;
};

// Tokenizes `line`, stopping at a "//" comment outside strings. Reuses `out`'s storage.
void tokenizeLine(QStringView line, LineTokens &out);

// Decodes an MLIR string literal's body (between the quotes): \" \\ \n \t and \XX hex escapes.
QString unescapeString(QStringView quoted);

// Splits `text` at `separator` characters outside brackets, strings and "->" arrows.
QVector<QStringView> splitTopLevel(QStringView text, QChar separator);

// Finds the first `separator` outside brackets and strings, or -1.
int findTopLevel(QStringView text, QChar separator);

} // namespace strata::ir::detail
