#include "ir/ptx/PtxReader.h"

#include "core/TextLines.h"

#include <QFileInfo>
#include <QHash>
#include <QStringList>

#include <algorithm>
#include <array>
#include <optional>

namespace strata::ir {
namespace {

using Triple = std::array<int, 3>;  // file, line, column as `.loc` writes them

// The NVPTX printer's longest lines are a few KiB (long `.loc` comments, inline asm); a line far
// beyond that is not compiler output, and reading it as an instruction would put junk on a line.
constexpr qsizetype kMaxLineLength = 64 * 1024;

QStringView withoutComment(QStringView line)
{
    const qsizetype comment = line.indexOf(QLatin1String("//"));
    return comment < 0 ? line : line.left(comment);
}

QStringView firstToken(QStringView s)
{
    qsizetype end = 0;
    while (end < s.size() && !s[end].isSpace() && s[end] != QLatin1Char(';') && s[end] != QLatin1Char('{'))
        ++end;
    return s.left(end);
}

bool isOpcodeChar(QChar c)
{
    return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'))
        || c == QLatin1Char('.') || c == QLatin1Char('_') || c == QLatin1Char(':');
}

// `[@%p | @!%p] opcode[.suffixes] [operands];` as the NVPTX printer (and inline asm) writes it:
// on one line, a lower-case dotted opcode ("fence.proxy.async.shared::cta"), ';' last.
bool looksLikeInstruction(QStringView code)
{
    QStringView rest = code;
    if (rest.startsWith(QLatin1Char('@'))) {
        const qsizetype space = rest.indexOf(QLatin1Char(' '));
        const qsizetype tab = rest.indexOf(QLatin1Char('\t'));
        const qsizetype end = space < 0 ? tab : tab < 0 ? space : std::min(space, tab);
        // `@%p1`, `@!%p2`, or an inline-asm register without '%' (`@!complete`)
        QStringView predicate = rest.mid(1, end < 0 ? -1 : end - 1);
        if (predicate.startsWith(QLatin1Char('!')))
            predicate = predicate.mid(1);
        const bool identifier = !predicate.isEmpty() && std::all_of(predicate.begin(), predicate.end(), [](QChar c) {
            return c.isLetterOrNumber() || c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('$');
        });
        if (end < 0 || !identifier)
            return false;
        rest = rest.mid(end).trimmed();
    }
    if (rest.isEmpty() || rest[0] < QLatin1Char('a') || rest[0] > QLatin1Char('z') || !rest.endsWith(QLatin1Char(';')))
        return false;
    qsizetype i = 0;
    while (i < rest.size() && isOpcodeChar(rest[i]))
        ++i;
    return i < rest.size() && (rest[i].isSpace() || rest[i] == QLatin1Char(';'));
}

// "1 14 0" -> {1, 14, 0}; nullopt when it is not three integers.
std::optional<Triple> parseTriple(QStringView s)
{
    const auto parts = s.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QList<QStringView> fields;
    for (QStringView part : parts) {
        for (QStringView field : part.split(QLatin1Char('\t'), Qt::SkipEmptyParts))
            fields.append(field);
    }
    if (fields.size() != 3)
        return std::nullopt;
    Triple triple{};
    for (int i = 0; i < 3; ++i) {
        bool ok = false;
        triple[i] = fields[i].toInt(&ok);
        if (!ok)
            return std::nullopt;
    }
    return triple;
}

// One number per position: 16 bits of file index, 28 of line, 20 of column (ample for PTX).
quint64 keyOf(const Triple &t)
{
    return (quint64(t[0] & 0xffff) << 48) | (quint64(t[1] & 0xfffffff) << 20) | quint64(t[2] & 0xfffff);
}

class PtxParser {
public:
    PtxParser(const QString &text, const QString &path) : m_path(path), m_lines(splitLines(text)) {}

    Expected<PtxModule> run();

private:
    std::optional<ReadError> readFileTable();
    std::optional<ReadError> readLine(int index);
    std::optional<ReadError> readLoc(int index, QStringView directive, QStringView comment);
    std::optional<SourceLocation> locationOf(const Triple &t) const;
    LocationChain framesFromComment(QStringView comment) const;
    QString resolveBaseName(const QString &name) const;
    bool readBrace(QStringView brace);
    void readInstruction(int index, QStringView trimmed);
    void skipJunk(int index, bool tooLong);
    std::optional<ReadError> checkStructure() const;
    ReadError junkProblem() const;
    ReadError errorAt(int index, const QString &message, ProblemKind kind = ProblemKind::Syntax) const
    {
        return {m_path, index + 1, 0, message, kind};
    }

    QString m_path;
    QStringList m_lines;
    PtxModule m_module;
    QHash<QString, QString> m_pathOfBaseName;  // empty value: the base name is ambiguous
    QHash<quint64, LocationChain> m_chainAt;   // chain of the last `.loc` at each position
    LocationChain m_current;
    int m_depth = 0;                           // brace depth; 0 outside function bodies
    bool m_awaitingBody = false;               // saw a function header, its `{` is next
    bool m_inBody = false;
    int m_junkLines = 0;                       // lines that are not PTX, shown but not read
    int m_longLines = 0;                       // of those, the ones over kMaxLineLength
    int m_firstJunkLine = -1;
};

std::optional<ReadError> PtxParser::readFileTable()
{
    for (int i = 0; i < m_lines.size(); ++i) {
        const QStringView trimmed = QStringView(m_lines[i]).trimmed();
        if (!trimmed.startsWith(QLatin1String(".file")) || firstToken(trimmed) != QLatin1String(".file"))
            continue;
        // .file 1 "path"  or  .file 1 "path", mtime, size
        const QStringView rest = trimmed.mid(5).trimmed();
        const qsizetype open = rest.indexOf(QLatin1Char('"'));
        const qsizetype close = open < 0 ? -1 : rest.indexOf(QLatin1Char('"'), open + 1);
        bool ok = false;
        const int index = rest.left(open < 0 ? 0 : open).trimmed().toInt(&ok);
        if (!ok || close < 0)
            return errorAt(i, QStringLiteral("malformed `.file` directive: expected `.file N \"path\"`"));
        const QString file = rest.mid(open + 1, close - open - 1).toString();
        m_module.files.insert(index, file);
        const QString base = QFileInfo(file).fileName();
        const auto known = m_pathOfBaseName.constFind(base);
        m_pathOfBaseName.insert(base, known == m_pathOfBaseName.cend() || *known == file ? file : QString());
    }
    return std::nullopt;
}

std::optional<SourceLocation> PtxParser::locationOf(const Triple &t) const
{
    const auto it = m_module.files.constFind(t[0]);
    if (it == m_module.files.cend())
        return std::nullopt;
    return SourceLocation{*it, t[1], t[2]};
}

QString PtxParser::resolveBaseName(const QString &name) const
{
    const QString full = m_pathOfBaseName.value(name);
    return full.isEmpty() ? name : full;
}

// `standard.py:263:15 @[ standard.py:293:36 @[ k.py:18:15 ] ]`: the frames after the first are
// the call sites. The comment names files by base name; the `.file` table gives full paths.
LocationChain PtxParser::framesFromComment(QStringView comment) const
{
    LocationChain callers;
    const auto parts = comment.split(u"@[");
    for (qsizetype i = 1; i < parts.size(); ++i) {
        QStringView part = parts[i].trimmed();
        while (part.endsWith(QLatin1Char(']')))
            part = part.chopped(1).trimmed();
        const qsizetype colColon = part.lastIndexOf(QLatin1Char(':'));
        const qsizetype lineColon = colColon < 0 ? -1 : part.left(colColon).lastIndexOf(QLatin1Char(':'));
        if (lineColon <= 0)
            return {};
        bool lineOk = false, colOk = false;
        const int line = part.mid(lineColon + 1, colColon - lineColon - 1).toInt(&lineOk);
        const int col = part.mid(colColon + 1).toInt(&colOk);
        if (!lineOk || !colOk)
            return {};
        if (line > 0)
            callers.append(SourceLocation{resolveBaseName(part.left(lineColon).toString()), line, col});
    }
    return callers;
}

std::optional<ReadError> PtxParser::readLoc(int index, QStringView directive, QStringView comment)
{
    // .loc F L C [, function_name LABEL [, inlined_at F L C]]
    const auto pieces = directive.mid(4).split(QLatin1Char(','));
    const auto here = parseTriple(pieces[0]);
    if (!here)
        return errorAt(index, QStringLiteral("malformed `.loc` directive: expected `.loc FILE LINE COLUMN`"));
    const auto location = locationOf(*here);
    if (!location)
        return errorAt(index, QStringLiteral("`.loc` uses file %1, but no `.file %1` directive defines it "
                                                 "(the file table ends the module: is the PTX cut short?)")
                                  .arg((*here)[0]),
                       ProblemKind::Truncated);
    LocationChain chain;
    if (location->isValid())  // `.loc 1 0 34`: line 0 is code tied to no source line
        chain.append(*location);
    bool hasInlinedAt = false;
    for (qsizetype i = 1; i < pieces.size(); ++i) {
        const QStringView piece = pieces[i].trimmed();
        if (!piece.startsWith(QLatin1String("inlined_at")))
            continue;
        hasInlinedAt = true;
        const auto caller = parseTriple(piece.mid(10));
        const auto callerLocation = caller ? locationOf(*caller) : std::nullopt;
        if (!callerLocation)
            return errorAt(index, QStringLiteral("malformed `inlined_at` in `.loc`: expected a defined file, line and column"));
        // ptxas requires the call site to appear in an earlier `.loc`; that one knows its own callers.
        const auto known = m_chainAt.constFind(keyOf(*caller));
        if (known != m_chainAt.cend())
            chain += *known;
        else if (callerLocation->isValid())
            chain.append(*callerLocation);
    }
    if (!hasInlinedAt)
        chain += framesFromComment(comment);
    m_chainAt.insert(keyOf(*here), chain);
    m_current = std::move(chain);
    return std::nullopt;
}

// Tracks brace depth; true when `brace` closes a function body.
bool PtxParser::readBrace(QStringView brace)
{
    if (brace == QLatin1String("{")) {
        m_inBody = m_inBody || (m_awaitingBody && m_depth == 0);
        m_awaitingBody = false;
        ++m_depth;
        return false;
    }
    if (m_depth == 0 || --m_depth > 0)
        return false;
    const bool closesBody = m_inBody;
    m_inBody = false;
    m_current.clear();  // locations do not carry from one function into the next
    return closesBody;
}

void PtxParser::readInstruction(int index, QStringView trimmed)
{
    PtxInstruction inst;
    inst.line = index;
    QStringView rest = trimmed;
    if (rest.startsWith(QLatin1Char('@'))) {
        inst.predicate = firstToken(rest).toString();
        rest = rest.mid(inst.predicate.size()).trimmed();
    }
    inst.opcode = firstToken(rest).toString();
    if (m_inBody && !m_module.functions.isEmpty())
        inst.functionIndex = int(m_module.functions.size()) - 1;
    ListingLine &line = m_module.listing.lines[index];
    line.kind = LineKind::Instruction;
    line.opcode = inst.opcode;
    line.frames = m_current;
    m_module.instructions.append(std::move(inst));
}

bool isFunctionHeader(QStringView code)
{
    if (code.trimmed().endsWith(QLatin1Char(';')))
        return false;  // a prototype (`.extern .func ...;`), not a definition
    for (QStringView token : code.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringView word = token.trimmed();
        if (word == QLatin1String(".entry") || word == QLatin1String(".func"))
            return true;
    }
    return false;
}

QString functionNameOf(QStringView code)
{
    const qsizetype paren = code.indexOf(QLatin1Char('('));
    const QStringView head = (paren < 0 ? code : code.left(paren)).trimmed();
    const qsizetype space = head.lastIndexOf(QLatin1Char(' '));
    return head.mid(space + 1).trimmed().toString();
}

void PtxParser::skipJunk(int index, bool tooLong)
{
    m_module.listing.lines[index].kind = LineKind::Other;
    ++m_junkLines;
    m_longLines += tooLong ? 1 : 0;
    if (m_firstJunkLine < 0)
        m_firstJunkLine = index;
}

std::optional<ReadError> PtxParser::readLine(int index)
{
    ListingLine &line = m_module.listing.lines[index];
    if (m_lines[index].size() > kMaxLineLength) {
        skipJunk(index, true);
        return std::nullopt;
    }
    const QStringView trimmed = QStringView(m_lines[index]).trimmed();
    const qsizetype commentStart = trimmed.indexOf(QLatin1String("//"));
    const QStringView code = withoutComment(trimmed).trimmed();
    const QStringView comment = commentStart < 0 ? QStringView() : trimmed.mid(commentStart + 2);
    if (trimmed.isEmpty()) {
        line.kind = LineKind::Blank;
    } else if (code.isEmpty() || code.startsWith(QLatin1String("/*"))) {
        line.kind = LineKind::Comment;
    } else if (code == QLatin1String("{") || code == QLatin1String("}")) {
        line.kind = LineKind::Other;
        if (readBrace(code) && !m_module.functions.isEmpty())
            m_module.functions.last().bodyEndLine = index;
    } else if (code == QLatin1String(")") || code == QLatin1String("(")) {
        line.kind = LineKind::Other;
    } else if (code == QLatin1String(";") && m_awaitingBody) {
        line.kind = LineKind::Other;  // a prototype printed over several lines ends here: no body
        m_awaitingBody = false;
        m_module.functions.removeLast();
    } else if (code.endsWith(QLatin1Char(':')) && !code.contains(QLatin1Char(' '))) {
        line.kind = LineKind::Label;
    } else if (code.startsWith(QLatin1Char('.'))) {
        line.kind = LineKind::Directive;
        const QStringView name = firstToken(code);
        if (name == QLatin1String(".loc"))
            return readLoc(index, code, comment);
        if (name == QLatin1String(".version"))
            m_module.version = code.mid(8).trimmed().toString();
        else if (name == QLatin1String(".target"))
            m_module.target = code.mid(7).trimmed().toString();
        else if (m_depth == 0 && isFunctionHeader(code)) {
            line.kind = LineKind::Label;
            m_module.functions.append(PtxFunction{functionNameOf(code),
                                                  code.contains(QLatin1String(".entry")), index, -1});
            m_awaitingBody = true;
        }
    } else if (m_inBody && looksLikeInstruction(code)) {
        readInstruction(index, code);
    } else {
        skipJunk(index, false);
    }
    return std::nullopt;
}

// A PTX stage names its version and target and defines a function with a closed body; text cut
// before or inside that body is truncated, not a kernel with no instructions.
std::optional<ReadError> PtxParser::checkStructure() const
{
    if (m_module.version.isEmpty() || m_module.target.isEmpty())
        return ReadError{m_path, 0, 0,
                         QStringLiteral("not PTX: the text has no `%1` directive")
                             .arg(m_module.version.isEmpty() ? QStringLiteral(".version") : QStringLiteral(".target")),
                         ProblemKind::NotAStage};
    if (m_module.functions.isEmpty())
        return ReadError{m_path, int(m_lines.size()), 0,
                         QStringLiteral("the PTX has a header but no `.entry` or `.func`: it is cut before the kernel"),
                         ProblemKind::Truncated};
    for (const PtxFunction &function : m_module.functions) {
        if (function.bodyEndLine < 0)
            return ReadError{m_path, function.headerLine + 1, 0,
                             QStringLiteral("the body of %1 %2 never closes: the PTX is cut short")
                                 .arg(function.isEntry ? QStringLiteral(".entry") : QStringLiteral(".func"), function.name),
                             ProblemKind::Truncated};
    }
    return std::nullopt;
}

ReadError PtxParser::junkProblem() const
{
    QString message = QStringLiteral("%1 not PTX syntax (first at line %2)")
                          .arg(m_junkLines == 1 ? QStringLiteral("1 line is") : QStringLiteral("%1 lines are").arg(m_junkLines))
                          .arg(m_firstJunkLine + 1);
    if (m_longLines > 0)
        message += QStringLiteral(", %1 of them over %2 KiB").arg(m_longLines).arg(kMaxLineLength / 1024);
    return ReadError{m_path, m_firstJunkLine + 1, 0, message + QStringLiteral(": shown, not read as instructions"),
                     ProblemKind::JunkLines};
}

Expected<PtxModule> PtxParser::run()
{
    m_module.listing.stage = QStringLiteral("ptx");
    m_module.listing.path = m_path;
    if (auto error = readFileTable())
        return *error;
    m_module.listing.lines.resize(m_lines.size());
    for (int i = 0; i < m_lines.size(); ++i) {
        m_module.listing.lines[i].text = m_lines[i];
        if (auto error = readLine(i))
            return *error;
    }
    if (auto error = checkStructure())
        return *error;
    if (m_junkLines > 0)
        m_module.listing.problems.append(junkProblem());
    return std::move(m_module);
}

} // namespace

Expected<PtxModule> readPtxModule(const QString &text, const QString &path)
{
    if (text.trimmed().isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("the PTX file is empty"), ProblemKind::Empty};
    return PtxParser(text, path).run();
}

Expected<StageListing> readPtxListing(const QString &text, const QString &path)
{
    Expected<PtxModule> module = readPtxModule(text, path);
    if (!module)
        return module.error();
    return std::move(module->listing);
}

} // namespace strata::ir
