#include "ir/llvm/LlvmIrReader.h"

#include "core/TextLines.h"

// LLVM headers first: Qt's keyword macros must not reach them.
#include <llvm/AsmParser/AsmParserContext.h>
#include <llvm/AsmParser/LLParser.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SourceMgr.h>

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>

namespace strata::ir {
namespace {

QString fromLlvm(llvm::StringRef s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}


// "dir" + "file" as DIFile records them; Triton writes the base name and the directory apart.
QString joinedPath(llvm::StringRef directory, llvm::StringRef filename)
{
    const QString file = fromLlvm(filename);
    if (directory.empty() || file.startsWith(QLatin1Char('/')))
        return file;
    QString dir = fromLlvm(directory);
    if (!dir.endsWith(QLatin1Char('/')))
        dir += QLatin1Char('/');
    return dir + file;
}

// The parser checks the syntax of !DILocation and !DISubprogram but not the kinds of the nodes
// their fields name: a scope that is no scope, a subprogram whose file is no !DIFile, an
// inlinedAt that is no location all parse (only the verifier rejects them, and this reader reads
// modules the verifier rejects). LLVM's accessors cast such fields unchecked and read garbage,
// so each node is checked here before it is read; a chain ends at the first frame that fails.
constexpr int kMaxInlinedFrames = 256;  // a distinct location may name itself as its inlinedAt

std::optional<SourceLocation> frameOf(const llvm::DILocation &loc)
{
    const auto *scope = llvm::dyn_cast_or_null<llvm::DIScope>(loc.getRawScope());
    if (!scope || scope->getNumOperands() == 0)
        return std::nullopt;
    const auto *file = llvm::dyn_cast_or_null<llvm::DIFile>(scope->getRawFile());
    if (!file)
        return std::nullopt;
    return SourceLocation{joinedPath(file->getDirectory(), file->getFilename()), int(loc.getLine()),
                          int(loc.getColumn())};
}

LocationChain framesOf(const llvm::Instruction &inst)
{
    LocationChain frames;
    const llvm::Metadata *node = inst.getDebugLoc().getAsMDNode();
    for (int depth = 0; depth < kMaxInlinedFrames; ++depth) {
        const auto *loc = llvm::dyn_cast_or_null<llvm::DILocation>(node);
        if (!loc)
            break;
        if (loc->getLine() != 0) {  // line 0: code the compiler made up, tied to no source line
            const std::optional<SourceLocation> frame = frameOf(*loc);
            if (!frame)
                break;
            frames.append(*frame);
        }
        node = loc->getRawInlinedAt();
    }
    return frames;
}

QString inlineAsmOf(const llvm::Instruction &inst)
{
    const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
    if (!call)
        return {};
    const auto *asmCallee = llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand());
    return asmCallee ? fromLlvm(asmCallee->getAsmString()) : QString();
}

// Kind of a line that holds no instruction, judged from its text alone.
LineKind classifyOtherLine(const QString &line)
{
    static const QRegularExpression blockLabel(QStringLiteral(R"(^[-\w.$"]+:(\s*;.*)?$)"));
    const QString trimmed = line.trimmed();
    if (trimmed.isEmpty())
        return LineKind::Blank;
    if (trimmed.startsWith(QLatin1Char(';')))
        return LineKind::Comment;
    if (trimmed.startsWith(QLatin1String("define ")) || blockLabel.match(trimmed).hasMatch())
        return LineKind::Label;
    if (trimmed == QLatin1String("}"))
        return LineKind::Other;
    return LineKind::Directive;  // target, declare, attributes, globals, metadata, types
}

// LLVM 22's parser checks each inline asm's constraints (InlineAsm::ConstraintInfo::Parse), and
// that check trusts a multi-letter code to be whole: "@" takes a digit N and N letters, "^" two
// letters, read without looking for the constraint's end. "@" alone makes it build a string of
// negative length, and the std::length_error it throws cannot pass through LLVM (built without
// exceptions): std::terminate. So the constraints of every `asm "...", "..."` are checked here
// first, the way that parser walks them, and a cut-short code is refused as a syntax error.
struct AsmConstraints {
    QByteArray text;          // unescaped (\hh escapes decoded, as LLVM decodes them)
    qsizetype asmOffset = 0;  // of the `asm` keyword; its line is counted only for an error
};

QByteArray unescapeLlvmString(const QByteArray &raw)
{
    QByteArray out;
    out.reserve(raw.size());
    for (qsizetype i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '\\') {
            out += '\\';
            ++i;
        } else if (raw[i] == '\\' && i + 2 < raw.size() && std::isxdigit(uchar(raw[i + 1]))
                   && std::isxdigit(uchar(raw[i + 2]))) {
            out += char(raw.mid(i + 1, 2).toInt(nullptr, 16));
            i += 2;
        } else {
            out += raw[i];
        }
    }
    return out;
}

bool isIdentifierChar(char c)
{
    return std::isalnum(uchar(c)) || c == '_' || c == '.' || c == '$' || c == '-' || c == '%' || c == '@';
}

// The constraint strings of the text's inline asm values: `asm [keywords] "ASM", "CONSTRAINTS"`
// outside comments and strings (`module asm "..."` has no second string and is passed over).
// LLVM IR strings hold no quote (a quote is written \22), so a string ends at the next one.
QVector<AsmConstraints> asmConstraintStrings(const QByteArray &text)
{
    QVector<AsmConstraints> found;
    const qsizetype n = text.size();
    const auto skipSpace = [&](qsizetype i) {
        while (i < n && std::isspace(uchar(text[i])))
            ++i;
        return i;
    };
    for (qsizetype i = 0; i < n;) {
        const char c = text[i];
        if (c == ';') {
            while (i < n && text[i] != '\n')
                ++i;
        } else if (c == '"') {
            const qsizetype end = text.indexOf('"', i + 1);
            if (end < 0)
                break;
            i = end + 1;
        } else if (c == 'a' && QByteArrayView(text).sliced(i).startsWith("asm")
                   && (i == 0 || !isIdentifierChar(text[i - 1])) && (i + 3 >= n || !isIdentifierChar(text[i + 3]))) {
            qsizetype at = skipSpace(i + 3);
            while (at < n && std::isalpha(uchar(text[at]))) {  // sideeffect, alignstack, inteldialect, unwind
                while (at < n && std::isalpha(uchar(text[at])))
                    ++at;
                at = skipSpace(at);
            }
            const qsizetype asmEnd = at < n && text[at] == '"' ? text.indexOf('"', at + 1) : -1;
            if (asmEnd < 0) {
                i = at;
                continue;
            }
            qsizetype next = skipSpace(asmEnd + 1);
            if (next < n && text[next] == ',') {
                next = skipSpace(next + 1);
                const qsizetype end = next < n && text[next] == '"' ? text.indexOf('"', next + 1) : -1;
                if (end > next)
                    found.append({unescapeLlvmString(text.mid(next + 1, end - next - 1)), i});
            }
            i = asmEnd + 1;  // the constraint string, if any, is skipped as a string next
        } else {
            ++i;
        }
    }
    return found;
}

// The first multi-letter code ("@N..." or "^xx") that runs past the end of its constraint, or an
// empty string. Walks each comma-separated constraint as LLVM does: "{reg}" is one code, "^"
// takes two letters, "@N" N letters, anything else is one letter.
QByteArray cutShortConstraintCode(const QByteArray &constraints)
{
    for (const QByteArray &constraint : constraints.split(',')) {
        const qsizetype n = constraint.size();
        for (qsizetype i = 0; i < n;) {
            if (constraint[i] == '{') {
                const qsizetype close = constraint.indexOf('}', i + 1);
                if (close < 0)
                    break;  // LLVM refuses an unclosed register name itself
                i = close + 1;
            } else if (constraint[i] == '^') {
                if (i + 3 > n)
                    return constraint.mid(i);
                i += 3;
            } else if (constraint[i] == '@') {
                const int letters = i + 1 < n && constraint[i + 1] >= '1' && constraint[i + 1] <= '9'
                    ? constraint[i + 1] - '0' : -1;
                if (letters < 0 || i + 2 + letters > n)
                    return constraint.mid(i);
                i += 2 + letters;
            } else {
                ++i;
            }
        }
    }
    return {};
}

std::optional<ReadError> checkAsmConstraints(const QByteArray &utf8, const QString &path)
{
    if (!utf8.contains("asm"))
        return std::nullopt;
    for (const AsmConstraints &asmValue : asmConstraintStrings(utf8)) {
        const QByteArray code = cutShortConstraintCode(asmValue.text);
        if (!code.isEmpty())
            return ReadError{path, int(QByteArrayView(utf8).first(asmValue.asmOffset).count('\n')) + 1, 0,
                             QStringLiteral("LLVM IR does not parse: inline asm constraint code \"%1\" is cut short "
                                            "(\"@\" takes a digit N and N letters, \"^\" two letters)")
                                 .arg(QString::fromUtf8(code)),
                             ProblemKind::Syntax};
    }
    return std::nullopt;
}

struct ParsedModule {
    llvm::LLVMContext context;
    llvm::AsmParserContext positions;
    std::unique_ptr<llvm::Module> module;
};

// Parses without the debug-info auto-upgrade: that step runs the verifier and aborts the process
// on a module it finds broken, and a reader must never take the app down.
std::optional<ReadError> parseModule(const QByteArray &utf8, const QString &path, ParsedModule &out)
{
    const std::string bufferName = path.isEmpty() ? std::string("<llvm-ir>") : path.toStdString();
    llvm::SourceMgr sources;
    sources.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(utf8.constData(), size_t(utf8.size())),
                                         bufferName, /*RequiresNullTerminator=*/true),
        llvm::SMLoc());
    const llvm::MemoryBuffer *buffer = sources.getMemoryBuffer(sources.getMainFileID());
    out.module = std::make_unique<llvm::Module>(bufferName, out.context);
    llvm::SMDiagnostic diagnostic;
    llvm::LLParser parser(buffer->getBuffer(), sources, diagnostic, out.module.get(), nullptr,
                          out.context, nullptr, &out.positions);
    if (!parser.Run(/*UpgradeDebugInfo=*/false))
        return std::nullopt;
    return ReadError{path, diagnostic.getLineNo(), diagnostic.getColumnNo() + 1,
                     QStringLiteral("LLVM IR does not parse: ") + fromLlvm(diagnostic.getMessage()), ProblemKind::Syntax};
}

// Words every LLVM IR module Triton writes holds near its top; text with none of them is not IR.
bool hasLlvmWords(const QString &text)
{
    return text.contains(QLatin1String("define ")) || text.contains(QLatin1String("declare "))
        || text.contains(QLatin1String("target ")) || text.contains(QLatin1String("source_filename"))
        || text.contains(QLatin1String("; ModuleID"));
}

int lastNonBlankLine(const QString &text)  // 1-based
{
    const QStringList lines = splitLines(text);
    for (qsizetype i = lines.size() - 1; i >= 0; --i) {
        if (!lines[i].trimmed().isEmpty())
            return int(i) + 1;
    }
    return 0;
}

// LLVM's parse error, typed: text without IR words is no stage, an error on the last line (the
// parser ran out of text inside a function or a metadata list) is a cut-off file.
ReadError typedParseError(ReadError error, const QString &text)
{
    if (!hasLlvmWords(text)) {
        error.kind = ProblemKind::NotAStage;
        error.message = QStringLiteral("not LLVM IR (no define, declare, target or source_filename anywhere): ") + error.message;
    } else if (error.line >= lastNonBlankLine(text)) {
        error.kind = ProblemKind::Truncated;
        error.message += QStringLiteral(" (at the last line: is the file cut short?)");
    }
    return error;
}

// A module that parses but defines no function is no kernel's IR: a header cut before the code.
std::optional<ReadError> checkDefinesAFunction(const LlvmModule &module, const QString &text, const QString &path)
{
    for (const LlvmFunctionInfo &function : module.functions) {
        if (!function.isDeclaration)
            return std::nullopt;
    }
    return hasLlvmWords(text)
        ? ReadError{path, 0, 0, QStringLiteral("the LLVM IR defines no function: it is cut before the kernel"),
                    ProblemKind::Truncated}
        : ReadError{path, 0, 0, QStringLiteral("not LLVM IR: no define, declare, target or source_filename anywhere"),
                    ProblemKind::NotAStage};
}

// Marks the text lines one instruction spans (a `switch` can span several).
void placeInstruction(const llvm::Instruction &inst, const llvm::FileLocRange &range,
                      const QString &function, LlvmModule &result)
{
    QVector<ListingLine> &lines = result.listing.lines;
    const int first = int(range.Start.Line);
    if (first < 0 || first >= lines.size())
        return;
    LlvmInstructionInfo info;
    info.line = first;
    info.function = function;
    info.opcode = QString::fromLatin1(inst.getOpcodeName());
    info.inlineAsm = inlineAsmOf(inst);
    info.frames = framesOf(inst);
    const int last = std::min(int(range.End.Line), int(lines.size()) - 1);
    for (int i = first; i <= last; ++i) {
        lines[i].kind = LineKind::Instruction;
        lines[i].opcode = info.opcode;
        lines[i].frames = info.frames;
    }
    result.instructions.append(std::move(info));
}

void collectFunctions(const ParsedModule &parsed, LlvmModule &result)
{
    for (const llvm::Function &function : *parsed.module) {
        LlvmFunctionInfo info;
        info.name = fromLlvm(function.getName());
        info.isDeclaration = function.isDeclaration();
        if (const auto range = parsed.positions.getFunctionLocation(&function)) {
            info.headerLine = function.isDeclaration() ? -1 : int(range->Start.Line);
            info.lastLine = int(range->End.Line);
        }
        for (const llvm::BasicBlock &block : function) {
            for (const llvm::Instruction &inst : block) {
                if (const auto range = parsed.positions.getInstructionLocation(&inst)) {
                    placeInstruction(inst, *range, info.name, result);
                    ++info.instructionCount;
                }
            }
        }
        result.functions.append(std::move(info));
    }
    std::sort(result.instructions.begin(), result.instructions.end(),
              [](const auto &a, const auto &b) { return a.line < b.line; });
}

} // namespace

Expected<LlvmModule> readLlvmIrModule(const QString &text, const QString &path)
{
    if (text.trimmed().isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("the LLVM IR file is empty"), ProblemKind::Empty};
    const QByteArray utf8 = text.toUtf8();
    if (auto error = checkAsmConstraints(utf8, path))
        return typedParseError(*error, text);
    ParsedModule parsed;
    if (auto error = parseModule(utf8, path, parsed))
        return typedParseError(*error, text);

    LlvmModule result;
    result.listing.stage = QStringLiteral("llir");
    result.listing.path = path;
    const QStringList lines = splitLines(text);
    result.listing.lines.reserve(lines.size());
    for (const QString &line : lines)
        result.listing.lines.append(ListingLine{line, LineKind::Other, {}, {}});
    collectFunctions(parsed, result);
    for (ListingLine &line : result.listing.lines) {
        if (line.kind != LineKind::Instruction)
            line.kind = classifyOtherLine(line.text);
    }
    return result;
}

Expected<StageListing> readLlvmIrListing(const QString &text, const QString &path)
{
    Expected<LlvmModule> module = readLlvmIrModule(text, path);
    if (!module)
        return module.error();
    if (auto error = checkDefinesAFunction(*module, text, path))
        return *error;
    return std::move(module->listing);
}

QString llvmVersion()
{
    return QStringLiteral(LLVM_VERSION_STRING);
}

} // namespace strata::ir
