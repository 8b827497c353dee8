#include "ir/sass/SassReader.h"

#include "core/TextLines.h"

#include <QHash>
#include <QPair>
#include <QSet>
#include <QStringList>

#include <optional>

namespace strata::ir {
namespace {

// nvdisasm's lines are short (the longest `.headerflags` a few hundred characters); a much longer
// line is not its output.
constexpr qsizetype kMaxLineLength = 64 * 1024;

const QLatin1String kPtxTextFile(".nv_debug_ptx_txt");


QStringView firstToken(QStringView s)
{
    qsizetype end = 0;
    while (end < s.size() && !s[end].isSpace() && s[end] != QLatin1Char(';'))
        ++end;
    return s.left(end);
}

// One `//## File "path", line N` frame, starting at `from` in `s`; `from` moves past it.
std::optional<SourceLocation> parseFileFrame(QStringView s, qsizetype &from)
{
    const qsizetype open = s.indexOf(QLatin1Char('"'), from);
    const qsizetype close = open < 0 ? -1 : s.indexOf(QLatin1Char('"'), open + 1);
    if (close < 0)
        return std::nullopt;
    const QLatin1String lineWord(", line ");
    if (s.mid(close + 1, lineWord.size()) != lineWord)
        return std::nullopt;
    qsizetype end = close + 1 + lineWord.size();
    while (end < s.size() && s[end].isDigit())
        ++end;
    bool ok = false;
    const int line = s.mid(close + 1 + lineWord.size(), end - close - 1 - lineWord.size()).toInt(&ok);
    if (!ok)
        return std::nullopt;
    from = end;
    return SourceLocation{s.mid(open + 1, close - open - 1).toString(), line, 0};
}

struct FileComment {
    SourceLocation frame;
    std::optional<SourceLocation> caller;  // the `inlined at "...", line M` part
};

std::optional<FileComment> parseFileComment(QStringView trimmed)
{
    qsizetype pos = 0;
    FileComment parsed;
    const auto frame = parseFileFrame(trimmed, pos);
    if (!frame)
        return std::nullopt;
    parsed.frame = *frame;
    const qsizetype inlined = trimmed.indexOf(QLatin1String("inlined at"), pos);
    if (inlined >= 0) {
        pos = inlined;
        parsed.caller = parseFileFrame(trimmed, pos);
        if (!parsed.caller)
            return std::nullopt;
    }
    return parsed;
}

class SassParser {
public:
    SassParser(const QString &text, const QString &path) : m_path(path), m_lines(splitLines(text)) {}
    Expected<SassModule> run();

private:
    std::optional<ReadError> readLine(int index);
    std::optional<ReadError> readFileComment(int index, QStringView trimmed);
    std::optional<ReadError> readInstruction(int index, QStringView trimmed);
    void readDirective(int index, QStringView trimmed);
    void readLabel(int index, QStringView trimmed);
    void readSize(QStringView trimmed);
    std::optional<ReadError> checkStructure() const;
    ReadError errorAt(int index, const QString &message) const
    {
        return {m_path, index + 1, 0, message, ProblemKind::Syntax};
    }

    QString m_path;
    QStringList m_lines;
    SassModule m_module;
    QHash<QString, QString> m_endLabelOf;  // function -> the label its `.size` ends at (".L_x_3")
    QSet<QString> m_labels;                // every label seen, without the ':'
    int m_longLines = 0;
    int m_firstLongLine = -1;
    LocationChain m_current;
    bool m_previousWasFileComment = false;  // consecutive `//##` lines form one chain
};

// Each `//##` line is one frame; its "inlined at" part repeats the next line's frame, so it is
// kept only until that line arrives (it stands in when a block ends early).
std::optional<ReadError> SassParser::readFileComment(int index, QStringView trimmed)
{
    const auto parsed = parseFileComment(trimmed);
    if (!parsed)
        return errorAt(index, QStringLiteral("malformed location comment: expected `//## File \"path\", line N`"));
    if (!m_previousWasFileComment)
        m_current.clear();
    else if (!m_current.isEmpty() && m_current.last() == parsed->frame)
        m_current.removeLast();
    m_current.append(parsed->frame);
    if (parsed->caller)
        m_current.append(*parsed->caller);
    return std::nullopt;
}

std::optional<ReadError> SassParser::readInstruction(int index, QStringView trimmed)
{
    const qsizetype close = trimmed.indexOf(QLatin1String("*/"));
    bool ok = false;
    SassInstruction inst;
    inst.line = index;
    inst.address = close < 0 ? 0 : trimmed.mid(2, close - 2).toUInt(&ok, 16);
    if (!ok)
        return errorAt(index, QStringLiteral("malformed instruction address: expected `/*hex*/`"));
    QStringView rest = trimmed.mid(close + 2).trimmed();
    if (rest.startsWith(QLatin1Char('{')))  // dual-issue bundles on older architectures
        rest = rest.mid(1).trimmed();
    if (rest.startsWith(QLatin1Char('@'))) {
        inst.predicate = firstToken(rest).toString();
        rest = rest.mid(inst.predicate.size()).trimmed();
    }
    inst.opcode = firstToken(rest).toString();
    if (inst.opcode.isEmpty())
        return errorAt(index, QStringLiteral("instruction without an opcode"));
    if (!m_module.functions.isEmpty()) {
        inst.functionIndex = int(m_module.functions.size()) - 1;
        ++m_module.functions.last().instructionCount;
    }
    ListingLine &line = m_module.listing.lines[index];
    line.kind = LineKind::Instruction;
    line.opcode = inst.opcode;
    line.frames = m_current;
    m_module.instructions.append(std::move(inst));
    return std::nullopt;
}

// `.size matmul_kernel,(.L_x_3 - matmul_kernel)`: the function's code ends at label .L_x_3, so
// text without that label is cut short.
void SassParser::readSize(QStringView trimmed)
{
    const QStringView operands = trimmed.mid(5).trimmed();
    const qsizetype comma = operands.indexOf(QLatin1Char(','));
    const qsizetype open = operands.indexOf(QLatin1Char('('));
    const qsizetype minus = operands.indexOf(QLatin1Char('-'));
    if (comma < 0 || open < comma || minus < open)
        return;  // `.size NAME,0x4`: an object's size, no label
    m_endLabelOf.insert(operands.left(comma).trimmed().toString(), operands.mid(open + 1, minus - open - 1).trimmed().toString());
}

// `.section .text.NAME,...` starts a function's code; locations never carry across functions.
void SassParser::readDirective(int index, QStringView trimmed)
{
    m_module.listing.lines[index].kind = LineKind::Directive;
    if (firstToken(trimmed) == QLatin1String(".size"))
        readSize(trimmed);
    if (firstToken(trimmed) != QLatin1String(".section"))
        return;
    const QStringView section = firstToken(trimmed.mid(8).trimmed());
    const QLatin1String textPrefix(".text.");
    if (!section.startsWith(textPrefix))
        return;
    const qsizetype comma = section.indexOf(QLatin1Char(','));
    const QStringView name = section.mid(textPrefix.size(), comma < 0 ? -1 : comma - textPrefix.size());
    m_module.functions.append(SassFunction{name.toString(), -1, 0});
    m_current.clear();
}

void SassParser::readLabel(int index, QStringView trimmed)
{
    m_module.listing.lines[index].kind = LineKind::Label;
    m_labels.insert(trimmed.chopped(1).toString());
    if (!m_module.functions.isEmpty() && m_module.functions.last().headerLine < 0
        && trimmed.chopped(1) == m_module.functions.last().name)
        m_module.functions.last().headerLine = index;
}

std::optional<ReadError> SassParser::readLine(int index)
{
    ListingLine &line = m_module.listing.lines[index];
    line.text = m_lines[index];
    if (line.text.size() > kMaxLineLength) {
        line.kind = LineKind::Other;
        m_firstLongLine = m_longLines++ == 0 ? index : m_firstLongLine;
        m_previousWasFileComment = false;
        return std::nullopt;
    }
    const QStringView trimmed = QStringView(m_lines[index]).trimmed();
    const bool isFileComment = trimmed.startsWith(QLatin1String("//##"));
    std::optional<ReadError> error;
    if (trimmed.isEmpty()) {
        line.kind = LineKind::Blank;
    } else if (isFileComment) {
        line.kind = LineKind::Comment;
        error = readFileComment(index, trimmed);
    } else if (trimmed.startsWith(QLatin1String("//"))) {
        line.kind = LineKind::Comment;
    } else if (trimmed.startsWith(QLatin1String("/*"))) {
        error = readInstruction(index, trimmed);
    } else if (trimmed.startsWith(QLatin1String("Function:"))) {  // `nvdisasm -gp`'s function header
        line.kind = LineKind::Label;
        m_module.functions.append(SassFunction{trimmed.mid(9).trimmed().toString(), index, 0});
        m_current.clear();
    } else if (trimmed.endsWith(QLatin1Char(':')) && !trimmed.contains(QLatin1Char(' '))) {
        readLabel(index, trimmed);
    } else if (trimmed.startsWith(QLatin1Char('.'))) {
        readDirective(index, trimmed);
    } else {
        line.kind = LineKind::Other;
    }
    m_previousWasFileComment = isFileComment;
    return error;
}

Expected<SassModule> SassParser::run()
{
    m_module.listing.stage = QStringLiteral("sass");
    m_module.listing.path = m_path;
    m_module.listing.lines.resize(m_lines.size());
    for (int i = 0; i < m_lines.size(); ++i) {
        if (auto error = readLine(i))
            return *error;
    }
    if (auto error = checkStructure())
        return *error;
    if (m_longLines > 0)
        m_module.listing.problems.append(ReadError{
            m_path, m_firstLongLine + 1, 0,
            QStringLiteral("%1 over %2 KiB (first at line %3) %4 not nvdisasm output: shown, not read")
                .arg(m_longLines == 1 ? QStringLiteral("1 line") : QStringLiteral("%1 lines").arg(m_longLines))
                .arg(kMaxLineLength / 1024).arg(m_firstLongLine + 1)
                .arg(m_longLines == 1 ? QStringLiteral("is") : QStringLiteral("are")),
            ProblemKind::JunkLines});
    return std::move(m_module);
}

// A SASS stage has a `.text.NAME` section per function, each with instructions and ending at the
// label its `.size` names; without sections it is not nvdisasm output, without the rest cut short.
std::optional<ReadError> SassParser::checkStructure() const
{
    if (m_module.functions.isEmpty())
        return ReadError{m_path, 0, 0,
                         m_module.instructions.isEmpty()
                             ? QStringLiteral("no SASS function (`.section .text.NAME` or `Function:NAME`) and no instructions: not "
                                              "`nvdisasm -c -g -gi` output")
                             : QStringLiteral("SASS instructions outside any function (`.section .text.NAME` or `Function:NAME`): not "
                                              "`nvdisasm -c -g -gi` output"),
                         ProblemKind::NotAStage};
    for (const SassFunction &function : m_module.functions) {
        const QString endLabel = m_endLabelOf.value(function.name);
        if (function.instructionCount == 0 || (!endLabel.isEmpty() && !m_labels.contains(endLabel)))
            return ReadError{m_path, int(m_lines.size()), 0,
                             function.instructionCount == 0
                                 ? QStringLiteral("SASS function %1 has no instructions: the text is cut short").arg(function.name)
                                 : QStringLiteral("SASS function %1 ends before its end label %2: the text is cut short")
                                       .arg(function.name, endLabel),
                             ProblemKind::Truncated};
    }
    return std::nullopt;
}

} // namespace

Expected<SassModule> readSassModule(const QString &text, const QString &path)
{
    if (text.trimmed().isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("the SASS file is empty"), ProblemKind::Empty};
    return SassParser(text, path).run();
}

Expected<StageListing> readSassListing(const QString &text, const QString &path)
{
    Expected<SassModule> module = readSassModule(text, path);
    if (!module)
        return module.error();
    return std::move(module->listing);
}

namespace {

struct CallSites {
    LocationChain callers;
    bool ambiguous = false;
};

bool sameLines(const LocationChain &a, const LocationChain &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].file != b[i].file || a[i].line != b[i].line)
            return false;
    }
    return true;
}

// (file, line) of each inlined PTX frame -> the callers PTX gives it.
QHash<QPair<QString, int>, CallSites> callSitesOf(const StageListing &ptx)
{
    QHash<QPair<QString, int>, CallSites> sites;
    for (const ListingLine &line : ptx.lines) {
        if (line.frames.size() < 2)
            continue;
        const LocationChain callers = line.frames.mid(1);
        const auto key = qMakePair(line.frames.first().file, line.frames.first().line);
        auto it = sites.find(key);
        if (it == sites.end())
            sites.insert(key, CallSites{callers, false});
        else if (!sameLines(it->callers, callers))
            it->ambiguous = true;
    }
    return sites;
}

} // namespace

int resolvePtxTextFrames(StageListing &sass, const StageListing *ptx)
{
    int resolved = 0;
    for (ListingLine &line : sass.lines) {
        const auto ptxFrame = std::find_if(line.frames.cbegin(), line.frames.cend(),
                                           [](const SourceLocation &frame) { return frame.file == kPtxTextFile; });
        if (ptxFrame == line.frames.cend())
            continue;
        const int ptxLine = ptxFrame->line;
        if (ptx && ptxLine >= 1 && ptxLine <= ptx->lineCount() && !ptx->lines[ptxLine - 1].frames.isEmpty()) {
            line.frames = ptx->lines[ptxLine - 1].frames;
            ++resolved;
        } else {
            line.frames.removeIf([](const SourceLocation &frame) { return frame.file == kPtxTextFile; });
        }
    }
    return resolved;
}

int adoptCallSitesFromPtx(StageListing &sass, const StageListing &ptx)
{
    const auto sites = callSitesOf(ptx);
    int completed = 0;
    for (ListingLine &line : sass.lines) {
        if (line.frames.size() != 1)
            continue;
        const auto it = sites.constFind(qMakePair(line.frames.first().file, line.frames.first().line));
        if (it == sites.cend() || it->ambiguous)
            continue;
        line.frames += it->callers;
        ++completed;
    }
    return completed;
}

} // namespace strata::ir
