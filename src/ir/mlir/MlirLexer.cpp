#include "ir/mlir/MlirLexer.h"

#include <QString>

#include <array>

namespace strata::ir::detail {
namespace {

// Character classes of ASCII, looked up per character in the hot loop.
enum : quint8 { kWordChar = 1, kIdChar = 2 };

constexpr std::array<quint8, 128> makeClasses()
{
    std::array<quint8, 128> table{};
    for (int c = 0; c < 128; ++c) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (alnum || c == '_' || c == '$' || c == '.')
            table[c] = kWordChar | kIdChar;
    }
    table['-'] = kIdChar;
    return table;
}

constexpr std::array<quint8, 128> kClasses = makeClasses();

bool isIdChar(QChar c)
{
    const char16_t u = c.unicode();
    return u < 128 && (kClasses[u] & kIdChar);
}

bool isWordChar(QChar c)
{
    const char16_t u = c.unicode();
    return u < 128 && (kClasses[u] & kWordChar);
}

bool isDigit(QChar c) { return c.unicode() >= '0' && c.unicode() <= '9'; }

// One past the closing quote of the string starting at `pos`, or -1 when it is unterminated.
int skipString(QStringView line, int pos)
{
    const int n = line.size();
    for (int i = pos + 1; i < n; ++i) {
        if (line[i] == QLatin1Char('\\'))
            ++i;
        else if (line[i] == QLatin1Char('"'))
            return i + 1;
    }
    return -1;
}

// Sigil names: %x_5, #loc3, !tt.ptr, ^bb0. '-' is a name character (%c-1_i32) except before '>'.
int skipName(QStringView line, int pos)
{
    const int n = line.size();
    while (pos < n && isIdChar(line[pos])) {
        if (line[pos] == QLatin1Char('-') && pos + 1 < n && line[pos + 1] == QLatin1Char('>'))
            break;
        ++pos;
    }
    return pos;
}

// Words: identifiers and numbers, with signs only in exponents ("1.0e+00") and leading ("-1").
int skipWord(QStringView line, int pos)
{
    const int n = line.size();
    const int start = pos;
    if (line[pos] == QLatin1Char('-') || line[pos] == QLatin1Char('+'))
        ++pos;
    const bool numeric = pos < n && isDigit(line[pos]);
    while (pos < n) {
        const QChar c = line[pos];
        if (isWordChar(c)) {
            ++pos;
        } else if (numeric && (c == QLatin1Char('+') || c == QLatin1Char('-')) && pos > start
                   && (line[pos - 1] == QLatin1Char('e') || line[pos - 1] == QLatin1Char('E'))) {
            ++pos;
        } else {
            break;
        }
    }
    return pos;
}

} // namespace

void tokenizeLine(QStringView line, LineTokens &out)
{
    out.tokens.clear();
    out.errorColumn = -1;
    out.error = nullptr;
    const int n = line.size();
    out.contentEnd = n;
    int pos = 0;
    bool space = false;
    while (pos < n) {
        const QChar c = line[pos];
        const char16_t u = c.unicode();
        if (u == ' ' || u == '\t' || u == '\r') {
            ++pos;
            space = true;
            continue;
        }
        Token t;
        t.begin = pos;
        t.spaceBefore = space;
        space = false;
        if (u == '/' && pos + 1 < n && line[pos + 1] == QLatin1Char('/')) {
            out.contentEnd = pos;
            return;
        }
        if (u == '"') {
            const int end = skipString(line, pos);
            if (end < 0) {
                out.errorColumn = pos;
                out.error = "unterminated string";
                return;
            }
            t.kind = TokKind::String;
            t.end = end;
        } else if (u == '%' || u == '#' || u == '!' || u == '^') {
            t.kind = u == '%' ? TokKind::Value
                   : u == '#' ? TokKind::Hash
                   : u == '!' ? TokKind::Bang
                              : TokKind::BlockId;
            t.end = skipName(line, pos + 1);
            // %x#2: the result number of a multi-result op.
            if (u == '%' && t.end + 1 < n && line[t.end] == QLatin1Char('#') && isDigit(line[t.end + 1]))
                t.end = skipName(line, t.end + 1);
            if (t.end == pos + 1) {
                t.kind = TokKind::Punct;
                t.punct = c;
            }
        } else if (u == '@') {
            t.kind = TokKind::Symbol;
            if (pos + 1 < n && line[pos + 1] == QLatin1Char('"')) {
                t.end = skipString(line, pos + 1);
                if (t.end < 0) {
                    out.errorColumn = pos + 1;
                    out.error = "unterminated string";
                    return;
                }
            } else {
                t.end = skipName(line, pos + 1);
            }
        } else if (u == '-' && pos + 1 < n && line[pos + 1] == QLatin1Char('>')) {
            t.kind = TokKind::Arrow;
            t.end = pos + 2;
        } else if (isWordChar(c)
                   || ((u == '-' || u == '+') && pos + 1 < n && isDigit(line[pos + 1]))) {
            t.kind = TokKind::Word;
            t.end = skipWord(line, pos);
        } else {
            t.kind = TokKind::Punct;
            t.punct = c;
            t.end = pos + 1;
        }
        out.tokens.append(t);
        pos = t.end;
    }
}

QString unescapeString(QStringView quoted)
{
    QStringView body = quoted;
    if (body.startsWith(QLatin1Char('"')))
        body = body.mid(1);
    if (body.endsWith(QLatin1Char('"')))
        body.chop(1);
    if (!body.contains(QLatin1Char('\\')))
        return body.toString();
    QString out;
    out.reserve(body.size());
    for (int i = 0; i < body.size(); ++i) {
        const QChar c = body[i];
        if (c != QLatin1Char('\\') || i + 1 >= body.size()) {
            out += c;
            continue;
        }
        const QChar e = body[++i];
        if (e == QLatin1Char('n')) {
            out += QLatin1Char('\n');
        } else if (e == QLatin1Char('t')) {
            out += QLatin1Char('\t');
        } else if (i + 1 < body.size() && e.isLetterOrNumber() && body[i + 1].isLetterOrNumber()) {
            bool ok = false;
            const int code = body.mid(i, 2).toInt(&ok, 16);
            out += ok ? QChar(code) : e;
            i += ok ? 1 : 0;
        } else {
            out += e;
        }
    }
    return out;
}

namespace {

// Scans `text` calling `onSeparator(pos)` for each `separator` at depth 0; stops when it returns true.
template <typename F>
void scanTopLevel(QStringView text, QChar separator, F onSeparator)
{
    int depth = 0;
    const int n = text.size();
    for (int i = 0; i < n; ++i) {
        const char16_t u = text[i].unicode();
        if (u == '"') {
            const int end = skipString(text, i);
            if (end < 0)
                return;
            i = end - 1;
        } else if (u == '(' || u == '[' || u == '{' || u == '<') {
            ++depth;
        } else if (u == '-' && i + 1 < n && text[i + 1] == QLatin1Char('>')) {
            ++i;  // an arrow, not a closing '>'
        } else if (u == ')' || u == ']' || u == '}' || u == '>') {
            depth = depth > 0 ? depth - 1 : 0;
        } else if (depth == 0 && text[i] == separator) {
            if (onSeparator(i))
                return;
        }
    }
}

} // namespace

QVector<QStringView> splitTopLevel(QStringView text, QChar separator)
{
    QVector<QStringView> parts;
    int start = 0;
    scanTopLevel(text, separator, [&](int pos) {
        parts.append(text.mid(start, pos - start).trimmed());
        start = pos + 1;
        return false;
    });
    const QStringView last = text.mid(start).trimmed();
    if (!last.isEmpty() || !parts.isEmpty())
        parts.append(last);
    return parts;
}

int findTopLevel(QStringView text, QChar separator)
{
    int found = -1;
    scanTopLevel(text, separator, [&](int pos) {
        found = pos;
        return true;
    });
    return found;
}

} // namespace strata::ir::detail
