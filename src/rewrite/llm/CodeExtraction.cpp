#include "rewrite/llm/CodeExtraction.h"

#include "core/TextLines.h"

#include <QRegularExpression>

namespace strata::rewrite::llm {

namespace {

struct ParsedAnswer {
    QVector<FencedBlock> blocks;
    QStringList prose;  // lines outside every block
};

struct Fence {
    QChar marker;
    int length = 0;
    int indent = 0;
    QString info;
};

// A line that opens or closes a fence: optional indentation, then 3+ backticks or tildes.
std::optional<Fence> fenceOf(const QString &line)
{
    int indent = 0;
    while (indent < line.size() && line.at(indent) == QLatin1Char(' '))
        ++indent;
    if (indent >= line.size())
        return std::nullopt;
    const QChar marker = line.at(indent);
    if (marker != QLatin1Char('`') && marker != QLatin1Char('~'))
        return std::nullopt;
    int length = 0;
    while (indent + length < line.size() && line.at(indent + length) == marker)
        ++length;
    if (length < 3)
        return std::nullopt;
    return Fence{marker, length, indent, line.mid(indent + length).trimmed()};
}

QString stripIndent(const QString &line, int indent)
{
    int drop = 0;
    while (drop < indent && drop < line.size() && line.at(drop) == QLatin1Char(' '))
        ++drop;
    return line.mid(drop);
}

ParsedAnswer parseAnswer(const QString &answer)
{
    ParsedAnswer parsed;
    const QStringList lines = splitLines(answer);
    std::optional<Fence> open;
    FencedBlock current;
    QStringList code;
    for (int i = 0; i < lines.size(); ++i) {
        const QString &line = lines.at(i);
        const std::optional<Fence> fence = fenceOf(line);
        if (!open) {
            if (!fence) {
                parsed.prose << line;
                continue;
            }
            open = fence;
            current = FencedBlock{fence->info.section(QLatin1Char(' '), 0, 0).toLower(), {}, true, i + 1};
            code.clear();
            continue;
        }
        const bool closes = fence && fence->marker == open->marker && fence->length >= open->length
                            && fence->info.isEmpty();
        if (closes) {
            current.code = code.join(QLatin1Char('\n'));
            parsed.blocks << current;
            open.reset();
        } else {
            code << stripIndent(line, open->indent);
        }
    }
    if (open) {  // the answer ended inside a block
        current.code = code.join(QLatin1Char('\n'));
        current.closed = false;
        parsed.blocks << current;
    }
    return parsed;
}

bool isPythonBlock(const FencedBlock &block)
{
    static const QStringList tags{QString(), QStringLiteral("python"), QStringLiteral("py"), QStringLiteral("python3")};
    return tags.contains(block.language);
}

bool hasModelNew(const QString &code)
{
    static const QRegularExpression modelNew(QStringLiteral("^class\\s+ModelNew\\b"), QRegularExpression::MultilineOption);
    return modelNew.match(code).hasMatch();
}

// An unfenced answer that is a Python file from its first line (some models drop the fences).
bool looksLikeBareCode(const QString &answer)
{
    const QString first = answer.trimmed().section(QLatin1Char('\n'), 0, 0);
    static const QRegularExpression codeStart(QStringLiteral("^(import |from |#|\"\"\"|'''|@|def |class )"));
    return codeStart.match(first).hasMatch() && hasModelNew(answer);
}

// Lines compared without trailing whitespace and trailing blank lines.
QStringList comparableLines(const QString &text)
{
    QStringList lines = splitLines(text);
    for (QString &line : lines) {
        while (!line.isEmpty() && line.back().isSpace())
            line.chop(1);
    }
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

QString normalizedFile(const QString &code)
{
    return comparableLines(code).join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// "Title: ...", "**Rationale:** ...", "- Findings: a, b" -> label and value.
void readContractLines(const QStringList &prose, ExtractedAnswer *answer)
{
    static const QRegularExpression labelled(
        QStringLiteral("^[-*#>\\s]*(title|rationale|findings)\\s*\\**\\s*:\\s*\\**\\s*(.*?)\\s*\\**\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    QString firstProse;
    for (const QString &line : prose) {
        const QRegularExpressionMatch match = labelled.match(line);
        if (!match.hasMatch()) {
            if (firstProse.isEmpty() && !line.trimmed().isEmpty())
                firstProse = line.trimmed();
            continue;
        }
        const QString label = match.captured(1).toLower();
        const QString value = match.captured(2);
        if (label == QLatin1String("title") && answer->title.isEmpty())
            answer->title = value;
        else if (label == QLatin1String("rationale") && answer->rationale.isEmpty())
            answer->rationale = value;
        else if (label == QLatin1String("findings") && answer->ruleIds.isEmpty())
            answer->ruleIds = value.split(QRegularExpression(QStringLiteral("[,;\\s`]+")), Qt::SkipEmptyParts);
    }
    if (answer->rationale.isEmpty())
        answer->rationale = firstProse;
}

ReadError answerError(const ExtractionContext &context, int line, const QString &message)
{
    return ReadError{context.answerOrigin, line, 0, message};
}

} // namespace

QVector<FencedBlock> fencedBlocks(const QString &answer)
{
    return parseAnswer(answer).blocks;
}

QString sanityProblem(const QString &code, const QString &originalText)
{
    if (!code.contains(QLatin1String("@triton.jit")))
        return QStringLiteral("the new file has no @triton.jit kernel (the rewrite must stay in Triton)");
    if (!hasModelNew(code))
        return QStringLiteral("the new file has no class ModelNew");
    static const QRegularExpression getInputs(QStringLiteral("^def\\s+get_inputs\\s*\\("), QRegularExpression::MultilineOption);
    if (!getInputs.match(code).hasMatch())
        return QStringLiteral("the new file has no def get_inputs()");
    static const QRegularExpression getInitInputs(QStringLiteral("^def\\s+get_init_inputs\\s*\\("), QRegularExpression::MultilineOption);
    if (getInitInputs.match(originalText).hasMatch() && !getInitInputs.match(code).hasMatch())
        return QStringLiteral("the new file lost def get_init_inputs()");
    return {};
}

Expected<ExtractedAnswer> extractAnswer(const QString &answer, const ExtractionContext &context)
{
    const ParsedAnswer parsed = parseAnswer(answer);
    const FencedBlock *chosen = nullptr;
    for (const FencedBlock &block : parsed.blocks) {
        if (!isPythonBlock(block) || !hasModelNew(block.code))
            continue;
        // A closed block beats a cut-off one; among equals the longer one is the whole file.
        const bool better = !chosen || (block.closed && !chosen->closed)
                            || (block.closed == chosen->closed && block.code.size() > chosen->code.size());
        if (better)
            chosen = &block;
    }

    ExtractedAnswer extracted;
    if (chosen) {
        if (!chosen->closed && context.truncated)
            return answerError(context, chosen->startLine,
                               QStringLiteral("the answer was cut off at the token limit inside its code block; "
                                              "raise max_tokens"));
        extracted.code = chosen->code;
        extracted.fenceClosed = chosen->closed;
    } else if (parsed.blocks.isEmpty() && looksLikeBareCode(answer)) {
        extracted.code = answer;
    } else {
        for (const FencedBlock &block : parsed.blocks) {
            if (isPythonBlock(block))
                return answerError(context, block.startLine,
                                   QStringLiteral("the answer's code block has no class ModelNew: it must return "
                                                  "the complete task file, not a fragment"));
        }
        if (context.truncated)
            return answerError(context, 0, QStringLiteral("the answer was cut off at the token limit before any code; "
                                                          "raise max_tokens"));
        const QString start = answer.simplified().left(160);
        return answerError(context, 0, start.isEmpty()
                                           ? QStringLiteral("the answer is empty")
                                           : QStringLiteral("the answer has no python code block (prose only): \"%1\"").arg(start));
    }

    extracted.code = normalizedFile(extracted.code);
    if (comparableLines(extracted.code) == comparableLines(context.originalText))
        return answerError(context, chosen ? chosen->startLine : 0,
                           QStringLiteral("no change: the answer returns the task file unchanged"));
    const QString problem = sanityProblem(extracted.code, context.originalText);
    if (!problem.isEmpty())
        return answerError(context, chosen ? chosen->startLine : 0, problem);
    readContractLines(parsed.prose, &extracted);
    return extracted;
}

} // namespace strata::rewrite::llm
