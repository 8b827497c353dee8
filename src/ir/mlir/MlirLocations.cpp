#include "ir/mlir/MlirLocations.h"

#include "ir/mlir/MlirLexer.h"

namespace strata::ir::detail {

namespace {
constexpr int kMaxNesting = 256;      // deeper nesting inside one loc(...) is garbage, not recursed
constexpr int kMaxAliasDepth = 2000;  // alias chains resolve recursively; real ones are < 10 deep
}

struct LocTable::Cursor {
    QStringView s;
    int pos = 0;
    int errorColumn = -1;
    QString error;
    int lineIndex = 0;

    bool failed() const { return errorColumn >= 0; }
    void fail(const QString &message)
    {
        if (errorColumn < 0) {
            errorColumn = qMin(pos, int(s.size()));
            error = message;
        }
    }
    void skipSpace()
    {
        while (pos < s.size() && (s[pos] == QLatin1Char(' ') || s[pos] == QLatin1Char('\t')))
            ++pos;
    }
    bool at(QLatin1StringView word) const { return s.mid(pos).startsWith(word); }
    bool eat(QChar c)
    {
        skipSpace();
        if (pos < s.size() && s[pos] == c) {
            ++pos;
            return true;
        }
        return false;
    }
    bool expect(QChar c)
    {
        if (eat(c))
            return true;
        fail(QStringLiteral("expected '%1' in location").arg(c));
        return false;
    }
    // A decimal integer; -1 when there is none.
    int integer()
    {
        skipSpace();
        int value = 0, digits = 0;
        while (pos < s.size() && s[pos].isDigit() && digits < 9) {
            value = value * 10 + (s[pos].unicode() - '0');
            ++pos;
            ++digits;
        }
        while (pos < s.size() && s[pos].isDigit())
            ++pos;
        return digits ? value : -1;
    }
};

int LocTable::add(LocNode node)
{
    m_nodes.append(std::move(node));
    return m_nodes.size() - 1;
}

QString LocTable::intern(QString file)
{
    auto it = m_files.constFind(file);
    if (it != m_files.constEnd())
        return *it;
    m_files.insert(file, file);
    return file;
}

LocTable::Parsed LocTable::parseLoc(QStringView line, int pos, int lineIndex)
{
    Cursor c{line, pos, -1, {}, lineIndex};
    Parsed result;
    result.node = parseItem(c, 0);
    result.end = c.pos;
    if (c.failed()) {
        result.node = -1;
        result.errorColumn = c.errorColumn;
        result.error = c.error;
    }
    return result;
}

// item := 'loc' '(' body ')' | body   (nested locations are printed with or without "loc(")
int LocTable::parseItem(Cursor &c, int depth)
{
    if (depth > kMaxNesting) {
        c.fail(QStringLiteral("location nested too deeply"));
        return -1;
    }
    c.skipSpace();
    const int start = c.pos;
    int node = -1;
    if (c.at(QLatin1StringView("loc("))) {
        c.pos += 4;
        node = parseBody(c, depth + 1);
        if (!c.failed())
            c.expect(QLatin1Char(')'));
    } else {
        node = parseBody(c, depth + 1);
    }
    if (node >= 0 && m_nodes[node].textLine < 0) {  // remembered for errors found at resolve time
        m_nodes[node].textLine = c.lineIndex;
        m_nodes[node].textColumn = start;
    }
    return node;
}

int LocTable::parseBody(Cursor &c, int depth)
{
    c.skipSpace();
    if (c.pos >= c.s.size()) {
        c.fail(QStringLiteral("location cut off"));
        return -1;
    }
    if (c.at(QLatin1StringView("unknown"))) {
        c.pos += 7;
        return add({});
    }
    if (c.at(QLatin1StringView("callsite("))) {
        c.pos += 9;
        LocNode node;
        node.kind = LocNode::CallSite;
        node.first = parseItem(c, depth);
        c.skipSpace();
        if (!c.failed() && !c.at(QLatin1StringView("at"))) {
            c.fail(QStringLiteral("expected 'at' in callsite location"));
            return -1;
        }
        c.pos += 2;
        node.second = parseItem(c, depth);
        if (c.failed() || !c.expect(QLatin1Char(')')))
            return -1;
        return add(std::move(node));
    }
    if (c.at(QLatin1StringView("fused"))) {
        c.pos += 5;
        c.skipSpace();
        if (c.pos < c.s.size() && c.s[c.pos] == QLatin1Char('<')) {
            // fused<metadata>[...]: the metadata attribute is skipped, brackets balanced.
            int depthAngle = 0, i = c.pos;
            for (; i < c.s.size(); ++i) {
                if (c.s[i] == QLatin1Char('<'))
                    ++depthAngle;
                else if (c.s[i] == QLatin1Char('>') && --depthAngle == 0)
                    break;
            }
            if (i >= c.s.size()) {
                c.fail(QStringLiteral("unbalanced '<' in fused location"));
                return -1;
            }
            c.pos = i + 1;
        }
        LocNode node;
        node.kind = LocNode::Fused;
        if (!c.expect(QLatin1Char('[')))
            return -1;
        if (!c.eat(QLatin1Char(']'))) {
            do {
                node.children.append(parseItem(c, depth));
                if (c.failed())
                    return -1;
            } while (c.eat(QLatin1Char(',')));
            if (!c.expect(QLatin1Char(']')))
                return -1;
        }
        return add(std::move(node));
    }
    if (c.s[c.pos] == QLatin1Char('#')) {
        LocNode node;
        node.kind = LocNode::Ref;
        node.textLine = c.lineIndex;
        node.textColumn = c.pos;
        const int start = ++c.pos;
        while (c.pos < c.s.size()
               && (c.s[c.pos].isLetterOrNumber() || c.s[c.pos] == QLatin1Char('_')
                   || c.s[c.pos] == QLatin1Char('.') || c.s[c.pos] == QLatin1Char('$')))
            ++c.pos;
        if (c.pos == start) {
            c.fail(QStringLiteral("expected a location alias name after '#'"));
            return -1;
        }
        node.text = c.s.mid(start, c.pos - start).toString();
        return add(std::move(node));
    }
    if (c.s[c.pos] == QLatin1Char('"'))
        return parseFileOrName(c, depth);
    c.fail(QStringLiteral("unrecognized location"));
    return -1;
}

// "file":line:col [to [line]:col]  |  "name"(child)  |  "name"
int LocTable::parseFileOrName(Cursor &c, int depth)
{
    int end = c.pos + 1;
    while (end < c.s.size() && c.s[end] != QLatin1Char('"'))
        end += c.s[end] == QLatin1Char('\\') ? 2 : 1;
    if (end >= c.s.size()) {
        c.fail(QStringLiteral("unterminated string in location"));
        return -1;
    }
    const QString text = unescapeString(c.s.mid(c.pos, end + 1 - c.pos));
    c.pos = end + 1;
    LocNode node;
    if (c.pos < c.s.size() && c.s[c.pos] == QLatin1Char(':')) {
        ++c.pos;
        node.kind = LocNode::File;
        node.text = intern(text);
        node.line = c.integer();
        if (node.line < 0 || !c.expect(QLatin1Char(':'))) {
            c.fail(QStringLiteral("expected line:column in file location"));
            return -1;
        }
        node.column = c.integer();
        if (node.column < 0) {
            c.fail(QStringLiteral("expected a column in file location"));
            return -1;
        }
        c.skipSpace();
        if (c.at(QLatin1StringView("to"))) {  // range form: "f":1:2 to 3:4 / to :4
            c.pos += 2;
            c.integer();
            if (c.eat(QLatin1Char(':')))
                c.integer();
        }
        return add(std::move(node));
    }
    node.kind = LocNode::Name;
    node.text = text;
    if (c.pos < c.s.size() && c.s[c.pos] == QLatin1Char('(')) {
        ++c.pos;
        node.first = parseItem(c, depth);
        if (c.failed() || !c.expect(QLatin1Char(')')))
            return -1;
    }
    return add(std::move(node));
}

bool LocTable::computeChain(int node, int depth, ReadError &error, const QString &path)
{
    if (node < 0 || m_state[node] == 2)
        return true;
    if (m_state[node] == 1 || depth > kMaxAliasDepth) {
        error = {path, m_nodes[node].textLine + 1, m_nodes[node].textColumn + 1,
                 QStringLiteral("location %1 refers to itself or nests too deeply")
                     .arg(m_nodes[node].kind == LocNode::Ref ? QLatin1Char('#') + m_nodes[node].text : QStringLiteral("alias"))};
        return false;
    }
    m_state[node] = 1;
    LocNode &n = m_nodes[node];
    LocationChain chain;
    auto childChain = [&](int child) -> bool {
        if (!computeChain(child, depth + 1, error, path))
            return false;
        chain += this->chain(child);
        return true;
    };
    bool ok = true;
    switch (n.kind) {
    case LocNode::Unknown:
        break;
    case LocNode::File:
        chain.append(SourceLocation{n.text, n.line, n.column});
        break;
    case LocNode::Name:
        ok = childChain(n.first);
        break;
    case LocNode::Ref: {
        const auto it = m_aliases.constFind(n.text);
        if (it == m_aliases.constEnd()) {
            error = {path, n.textLine + 1, n.textColumn + 1,
                     QStringLiteral("location alias #%1 is used but never defined (Triton prints the #loc table "
                                    "after the module: is the file cut short?)").arg(n.text),
                     ProblemKind::Truncated};
            ok = false;
        } else {
            n.first = *it;
            ok = childChain(n.first);
        }
        break;
    }
    case LocNode::CallSite:  // callee frames first, then the caller's: innermost first
        ok = childChain(n.first) && childChain(n.second);
        break;
    case LocNode::Fused:     // the first child that resolves to something
        for (int child : std::as_const(n.children)) {
            if (!computeChain(child, depth + 1, error, path)) {
                ok = false;
                break;
            }
            if (chain.isEmpty())
                chain = this->chain(child);
        }
        break;
    }
    m_chains[node] = chain;
    m_state[node] = 2;
    return ok;
}

std::optional<ReadError> LocTable::resolve(const QString &path)
{
    m_chains = QVector<LocationChain>(m_nodes.size());
    m_state = QVector<quint8>(m_nodes.size(), 0);
    ReadError error;
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (!computeChain(i, 0, error, path))
            return error;
    }
    return std::nullopt;
}

const LocationChain &LocTable::chain(int node) const
{
    static const LocationChain empty;
    return node >= 0 && node < m_chains.size() ? m_chains[node] : empty;
}

QString LocTable::name(int node) const
{
    for (int depth = 0; node >= 0 && node < m_nodes.size() && depth < kMaxAliasDepth; ++depth) {
        const LocNode &n = m_nodes[node];
        switch (n.kind) {
        case LocNode::Name:
            return n.text;
        case LocNode::Ref:
            node = n.first;
            break;
        case LocNode::CallSite: {
            const QString callee = name(n.first);
            return callee.isEmpty() ? name(n.second) : callee;
        }
        case LocNode::Fused:
            for (int child : n.children) {
                const QString s = name(child);
                if (!s.isEmpty())
                    return s;
            }
            return {};
        default:
            return {};
        }
    }
    return {};
}

} // namespace strata::ir::detail
