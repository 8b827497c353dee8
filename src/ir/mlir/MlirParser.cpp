#include "ir/mlir/MlirParser.h"

#include "ir/mlir/MlirAttributes.h"

namespace strata::ir::detail {

QChar closerOf(QChar open)
{
    switch (open.unicode()) {
    case '(': return QLatin1Char(')');
    case '[': return QLatin1Char(']');
    case '{': return QLatin1Char('}');
    default: return QLatin1Char('>');
    }
}

bool isOpener(const Token &t)
{
    return t.is('(') || t.is('[') || t.is('{') || t.is('<');
}

bool isCloser(const Token &t)
{
    return t.is(')') || t.is(']') || t.is('}') || t.is('>');
}

bool isModuleOpName(const QString &name)
{
    return name == QLatin1String("module") || name == QLatin1String("builtin.module");
}

MlirParser::MlirParser(const QString &text, const QString &path) : m_text(text), m_path(path)
{
    const QStringView all(m_text);
    int start = 0;
    for (int i = 0; i <= all.size(); ++i) {
        if (i == all.size() || all[i] == QLatin1Char('\n')) {
            QStringView line = all.mid(start, i - start);
            if (line.endsWith(QLatin1Char('\r')))
                line.chop(1);
            if (i < all.size() || !line.isEmpty())
                m_lines.append(line);
            start = i + 1;
        }
    }
    m_module.path = path;
    m_module.lineCount = m_lines.size();
    m_module.lineKinds = QVector<LineKind>(m_lines.size(), LineKind::Other);
    m_module.opAtLine = QVector<int>(m_lines.size(), -1);
    m_module.ops.reserve(m_lines.size());
    m_opBase.reserve(m_lines.size());
    m_opLocNode.reserve(m_lines.size());
    m_opHashRefs.reserve(m_lines.size());
}

bool MlirParser::fail(int line, int column, const QString &message)
{
    if (!m_error)
        m_error = ReadError{m_path, line + 1, column + 1, message, ProblemKind::Syntax};
    return false;
}

Expected<MlirModule> MlirParser::run()
{
    for (int i = 0; i < m_lines.size(); ++i) {
        if (!readLine(i))
            return failure();
    }
    if (!finish())
        return failure();
    return std::move(m_module);
}

ReadError MlirParser::failure() const
{
    // Every failing path records its error through fail(); the fallback only guards against a
    // path that forgot to, so that callers always get a located error.
    return m_error ? *m_error : ReadError{m_path, m_lineIndex + 1, 1, QStringLiteral("unreadable MLIR")};
}

bool MlirParser::readLine(int index)
{
    m_lineIndex = index;
    m_line = m_lines[index];
    const QStringView trimmed = m_line.trimmed();
    LineKind &kind = m_module.lineKinds[index];
    if (m_inResources) {  // {-# dialect_resources: ... #-} carries no ops or locations
        kind = LineKind::Directive;
        m_inResources = !trimmed.contains(QLatin1String("#-}"));
        return true;
    }
    if (trimmed.isEmpty()) {
        kind = LineKind::Blank;
        return true;
    }
    if (trimmed.startsWith(QLatin1String("//"))) {
        kind = LineKind::Comment;
        readHeader(index, trimmed);
        return true;
    }
    if (trimmed.startsWith(QLatin1String("{-#"))) {
        kind = LineKind::Directive;
        m_inResources = !trimmed.contains(QLatin1String("#-}"));
        return true;
    }
    tokenizeLine(m_line, m_tok);
    if (m_tok.error)
        return fail(index, m_tok.errorColumn, QString::fromLatin1(m_tok.error));
    const QVector<Token> &t = m_tok.tokens;
    if (t.isEmpty()) {
        kind = LineKind::Comment;
        return true;
    }
    if ((t[0].kind == TokKind::Hash || t[0].kind == TokKind::Bang) && t.size() > 1 && t[1].is('=')) {
        kind = LineKind::Directive;
        return readAliasLine(index);
    }
    if (t[0].kind == TokKind::BlockId) {
        kind = LineKind::Label;
        return readLabelLine(index);
    }
    // Inside an op's multi-line list (cf.switch / llvm.switch case lists) or at a region's end.
    const bool inList = !m_stack.isEmpty() && m_stack.last().ch == QLatin1Char('[');
    if (inList || t[0].is('}') || t[0].is(')')) {
        kind = LineKind::Other;
        return readClosingLine(index);
    }
    if (const int owner = regionContinuationOwner(); owner >= 0) {
        kind = LineKind::Label;
        return readRegionContinuation(owner);
    }
    if (const int owner = regionArgumentsOwner(); owner >= 0) {
        kind = LineKind::Label;
        return readRegionArguments(owner);
    }
    return readOpLine(index);
}

// `default {` / `partition0(%a: i32) num_warps(4) {` after a complete op line: more regions of
// that op (ttg.warp_specialize prints them so). Recognized by syntax: a dotless keyword (op names
// have a dialect prefix; "module" is the one builtin exception) directly opening a region or an
// argument list, right after a sibling op. Returns that sibling, or -1.
int MlirParser::regionContinuationOwner() const
{
    const QVector<Token> &t = m_tok.tokens;
    if (t.size() < 2 || t[0].kind != TokKind::Word || !t.last().is('{'))
        return -1;
    const QStringView word = m_line.mid(t[0].begin, t[0].end - t[0].begin);
    if (word.contains(QLatin1Char('.')) || word == QLatin1String("module"))
        return -1;
    if (!(t.size() == 2 || (t[1].is('(') && !t[1].spaceBefore)))
        return -1;
    const int parent = m_stack.isEmpty() ? -1 : m_stack.last().op;
    return m_lastChild.value(parent, -1);
}

// `(%in: f32 loc(...), %init: f32 loc(...)) {` on a line of its own: the entry-block arguments
// of the region of the op on the line before. linalg.reduce and linalg.map print their region so
// (triton-ascend's ttadapter, a tl.max or tl.sum). No op line starts with '(' (a generic op's
// name, a string, comes first), so the shape alone tells. Returns that op, or -1.
int MlirParser::regionArgumentsOwner() const
{
    const QVector<Token> &t = m_tok.tokens;
    if (t.size() < 3 || !t[0].is('(') || !t.last().is('{') || t[1].kind != TokKind::Value)
        return -1;
    const int parent = m_stack.isEmpty() ? -1 : m_stack.last().op;
    return m_lastChild.value(parent, -1);
}

bool MlirParser::readRegionArguments(int owner)
{
    Scan scan;
    scan.op = owner;
    scan.base = m_opBase[owner];
    return scanTokens(scan, 0);
}

bool MlirParser::readRegionContinuation(int owner)
{
    Scan scan;
    scan.op = owner;
    scan.base = m_opBase[owner];
    const Token &t0 = m_tok.tokens[0];
    scan.blockLabel = m_line.mid(t0.begin, t0.end - t0.begin).toString();
    return scanTokens(scan, 1);
}

bool MlirParser::readOpLine(int index)
{
    const QVector<Token> &t = m_tok.tokens;
    MlirOp op;
    op.line = op.endLine = index;
    int i = 0;
    // Results: %a, %b:3 =
    while (i < t.size() && t[i].kind == TokKind::Value) {
        QString name = m_line.mid(t[i].begin, t[i].end - t[i].begin).toString();
        ++i;
        if (i + 1 < t.size() && t[i].is(':') && t[i + 1].kind == TokKind::Word) {
            name += QLatin1Char(':');
            name += m_line.mid(t[i + 1].begin, t[i + 1].end - t[i + 1].begin);
            i += 2;
        }
        op.results.append(name);
        if (i < t.size() && t[i].is(','))
            ++i;
    }
    if (!op.results.isEmpty()) {
        if (i >= t.size() || !t[i].is('='))
            return fail(index, i < t.size() ? t[i].begin : m_line.size(),
                        QStringLiteral("expected '=' after the op's results"));
        ++i;
    }
    if (i >= t.size())
        return fail(index, m_line.size(), QStringLiteral("expected an operation name"));
    const bool isLoc = t[i].kind == TokKind::Word && i + 1 < t.size() && t[i + 1].is('(')
        && m_line.mid(t[i].begin, t[i].end - t[i].begin) == QLatin1String("loc");
    if (t[i].kind == TokKind::Word && !isLoc) {
        op.name = m_line.mid(t[i].begin, t[i].end - t[i].begin).toString();
    } else if (t[i].kind == TokKind::String) {
        op.name = unescapeString(m_line.mid(t[i].begin, t[i].end - t[i].begin));
        op.genericForm = true;
    } else {
        return fail(index, t[i].begin, QStringLiteral("expected an operation name"));
    }
    op.parent = m_stack.isEmpty() ? -1 : m_stack.last().op;
    op.depth = op.parent < 0 ? 0 : m_module.ops[op.parent].depth + 1;
    const int opIndex = m_module.ops.size();
    m_module.ops.append(std::move(op));
    m_opBase.append(m_stack.size());
    m_opLocNode.append(-1);
    m_opHashRefs.append(QStringList());
    m_module.opAtLine[index] = opIndex;
    m_lastChild.insert(m_module.ops[opIndex].parent, opIndex);

    Scan scan;
    scan.op = opIndex;
    scan.base = m_stack.size();
    if (!scanTokens(scan, i + 1))
        return false;
    const MlirOp &done = m_module.ops[opIndex];
    m_module.lineKinds[index] = isModuleOpName(done.name) ? LineKind::Directive
                               : done.isFunction()   ? LineKind::Label
                                                     : LineKind::Instruction;
    return true;
}

bool MlirParser::readClosingLine(int index)
{
    const Token &first = m_tok.tokens[0];
    if (m_stack.isEmpty())
        return fail(index, first.begin, QStringLiteral("'%1' closes nothing").arg(first.punct));
    Scan scan;
    scan.op = m_stack.last().op;
    scan.base = m_opBase[scan.op];
    return scanTokens(scan, 0);
}

bool MlirParser::readLabelLine(int index)
{
    if (m_stack.isEmpty())
        return fail(index, m_tok.tokens[0].begin, QStringLiteral("block label outside any region"));
    Scan scan;
    scan.op = m_stack.last().op;
    scan.base = m_stack.size();
    scan.label = true;
    const Token &t0 = m_tok.tokens[0];
    scan.blockLabel = m_line.mid(t0.begin, t0.end - t0.begin).toString();
    return scanTokens(scan, 1);
}

bool MlirParser::scanTokens(Scan &scan, int from)
{
    for (int i = from; i < m_tok.tokens.size(); ++i) {
        if (!handleToken(scan, i))
            return false;
    }
    return endOfLine(scan);
}

bool MlirParser::handleToken(Scan &scan, int &i)
{
    const QVector<Token> &t = m_tok.tokens;
    const Token &tok = t[i];
    const int depth = m_stack.size() - scan.base;
    switch (tok.kind) {
    case TokKind::Word:
        if (i + 1 < t.size() && t[i + 1].is('(') && !t[i + 1].spaceBefore
            && m_line.mid(tok.begin, tok.end - tok.begin) == QLatin1String("loc"))
            return handleLoc(scan, i);
        if (depth == 0 && !scan.label
            && m_line.mid(tok.begin, tok.end - tok.begin) == QLatin1String("attributes"))
            scan.stops.append(tok.begin);
        return true;
    case TokKind::Value:
        handleValue(scan, i);
        return true;
    case TokKind::Hash:
        if (!scan.label)
            handleHash(scan.op, i);
        return true;
    case TokKind::Symbol:
        if (depth == 0 && !scan.label && m_module.ops[scan.op].symbol.isEmpty())
            m_module.ops[scan.op].symbol = m_line.mid(tok.begin, tok.end - tok.begin).toString();
        return true;
    case TokKind::Arrow:
        if (depth == 0 && !scan.label) {
            if (scan.sigStart < 0 && scan.arrowBefore < 0)
                scan.arrowBefore = tok.begin;
            else if (scan.sigStart >= 0 && scan.arrowAfter < 0)
                scan.arrowAfter = tok.begin;
        }
        return true;
    case TokKind::Punct:
        if (isOpener(tok))
            return pushBracket(scan, i);
        if (isCloser(tok))
            return popBracket(scan, i);
        if (scan.argIndex >= 0 && depth == scan.argDepth && tok.is(','))
            endArg(scan, tok.begin);
        else if (depth == 0 && !scan.label && tok.is(':') && scan.sigStart < 0)
            scan.sigStart = tok.end;
        return true;
    default:
        return true;
    }
}

bool MlirParser::handleLoc(Scan &scan, int &i)
{
    const QVector<Token> &t = m_tok.tokens;
    const LocTable::Parsed parsed = m_locs.parseLoc(m_line, t[i].begin, m_lineIndex);
    if (parsed.node < 0)
        return fail(m_lineIndex, parsed.errorColumn, parsed.error);
    const int depth = m_stack.size() - scan.base;
    if (scan.argIndex >= 0 && depth == scan.argDepth) {
        finishArgType(scan, t[i].begin);
        m_argLocs.append({scan.op, scan.argIndex, parsed.node});
    } else if (depth == 0 && !scan.label) {
        scan.locNode = parsed.node;
        scan.stops.append(t[i].begin);
    }
    while (i + 1 < t.size() && t[i + 1].begin < parsed.end)
        ++i;
    return true;
}

void MlirParser::handleValue(Scan &scan, int &i)
{
    const QVector<Token> &t = m_tok.tokens;
    const Token &tok = t[i];
    const QString name = m_line.mid(tok.begin, tok.end - tok.begin).toString();
    MlirOp &op = m_module.ops[scan.op];
    const bool typedDef = i + 1 < t.size() && t[i + 1].is(':') && !t[i + 1].spaceBefore;
    const bool boundDef = !scan.label && i + 1 < t.size() && t[i + 1].is('=');
    if (!typedDef && !boundDef) {
        if (!scan.label)
            op.operands.append(name);
        return;
    }
    MlirBlockArg arg;
    arg.name = name;
    arg.line = m_lineIndex;
    arg.blockLabel = scan.blockLabel;
    if (boundDef && i + 2 < t.size() && t[i + 2].kind == TokKind::Value)
        arg.initValue = m_line.mid(t[i + 2].begin, t[i + 2].end - t[i + 2].begin).toString();
    op.blockArgs.append(std::move(arg));
    if (typedDef) {
        scan.argIndex = op.blockArgs.size() - 1;
        scan.argDepth = m_stack.size() - scan.base;
        scan.argTypeStart = t[i + 1].end;
    }
    ++i;  // the ':' or '='
}

// Layout mentions: alias names ("#blocked1") and inline dialect attributes ("#ttg.blocked<...>").
void MlirParser::handleHash(int opIndex, int i)
{
    const QVector<Token> &t = m_tok.tokens;
    const Token &tok = t[i];
    const QStringView name = m_line.mid(tok.begin, tok.end - tok.begin);
    if (!name.contains(QLatin1Char('.'))) {
        m_opHashRefs[opIndex].append(name.mid(1).toString());
        return;
    }
    if (i + 1 >= t.size() || !t[i + 1].is('<') || t[i + 1].spaceBefore)
        return;
    int angle = 0;
    for (int j = i + 1; j < t.size(); ++j) {
        if (t[j].is('<')) {
            ++angle;
        } else if (t[j].is('>') && --angle == 0) {
            m_opHashRefs[opIndex].append(m_line.mid(tok.begin, t[j].end - tok.begin).toString());
            return;
        }
    }
}

bool MlirParser::pushBracket(Scan &scan, int i)
{
    const QVector<Token> &t = m_tok.tokens;
    const Token &tok = t[i];
    const int depth = m_stack.size() - scan.base;
    Open open{tok.punct, DictTarget::None, scan.op, m_lineIndex, tok.begin};
    const bool lastOnLine = i + 1 == t.size();
    if (tok.is('{') && lastOnLine && !scan.label) {
        if (scan.argIndex >= 0)
            endArg(scan, tok.begin);
        scan.stops.append(tok.begin);  // a region opens
    } else if (tok.is('{')) {
        const bool properties = depth == 1 && i > 0 && t[i - 1].is('<') && t[i - 1].spaceBefore;
        if (scan.argIndex >= 0 && depth == scan.argDepth) {
            finishArgType(scan, tok.begin);
            open.dict = DictTarget::Arg;
        } else if (!scan.label && (depth == 0 || properties)) {
            open.dict = DictTarget::Op;
        }
    }
    m_stack.append(open);
    return true;
}

bool MlirParser::popBracket(Scan &scan, int i)
{
    const Token &tok = m_tok.tokens[i];
    const int depth = m_stack.size() - scan.base;
    if (tok.is('>') && (depth <= 0 || m_stack.last().ch != QLatin1Char('<')))
        return true;  // a stray '>' (never an opener's partner) is plain text
    if (m_stack.size() <= scan.base || closerOf(m_stack.last().ch) != tok.punct) {
        if (m_stack.size() > scan.base && m_stack.last().ch == QLatin1Char('[') && m_stack.last().line != m_lineIndex)
            return fail(m_stack.last().line, m_stack.last().column, QStringLiteral("'[' is never closed"));
        if (m_stack.size() > scan.base)
            return fail(m_lineIndex, tok.begin,
                        QStringLiteral("'%1' does not match '%2' opened at line %3")
                            .arg(tok.punct).arg(m_stack.last().ch).arg(m_stack.last().line + 1));
        return fail(m_lineIndex, tok.begin, QStringLiteral("unbalanced '%1'").arg(tok.punct));
    }
    if (scan.argIndex >= 0 && depth == scan.argDepth && tok.is(')'))
        endArg(scan, tok.begin);
    const Open open = m_stack.takeLast();
    if (open.dict != DictTarget::None && open.line == m_lineIndex) {
        const QStringView inner = m_line.mid(open.column + 1, tok.begin - open.column - 1);
        MlirOp &op = m_module.ops[scan.op];
        if (open.dict == DictTarget::Arg && scan.argIndex >= 0)
            op.blockArgs[scan.argIndex].attributes += parseAttrDict(inner);
        else if (open.dict == DictTarget::Op)
            op.attributes += parseAttrDict(inner);
    }
    if (m_stack.size() == scan.base && open.line != m_lineIndex) {
        // A region closed back to the op's own level: what follows is the op's tail.
        scan.sigStart = scan.arrowBefore = scan.arrowAfter = -1;
        scan.stops.clear();
        m_module.ops[scan.op].endLine = m_lineIndex;
    }
    return true;
}

void MlirParser::finishArgType(Scan &scan, int end)
{
    if (scan.argIndex < 0 || scan.argTypeStart < 0)
        return;
    MlirBlockArg &arg = m_module.ops[scan.op].blockArgs[scan.argIndex];
    if (arg.type.isEmpty())
        arg.type = m_line.mid(scan.argTypeStart, end - scan.argTypeStart).trimmed().toString();
    scan.argTypeStart = -1;
}

void MlirParser::endArg(Scan &scan, int end)
{
    finishArgType(scan, end);
    scan.argIndex = -1;
}

bool MlirParser::endOfLine(Scan &scan)
{
    if (scan.argIndex >= 0)
        finishArgType(scan, m_tok.contentEnd);
    if (m_stack.size() > scan.base) {
        // Past the end of a line only a region ('{' as the last token, possibly inside a generic
        // op's '(') or a case list ('[') may stay open; nothing inside a type ('<') ever does.
        const Open &top = m_stack.last();
        const bool regionOpen = top.ch == QLatin1Char('{') && top.line == m_lineIndex
            && !m_tok.tokens.isEmpty() && m_tok.tokens.last().begin == top.column && !scan.label;
        for (int k = m_stack.size() - 1; k >= scan.base; --k) {
            const Open &o = m_stack[k];
            const bool allowed = o.ch != QLatin1Char('<')
                && (o.line != m_lineIndex || o.ch == QLatin1Char('[')
                    || (regionOpen && (k == m_stack.size() - 1 ? o.ch == QLatin1Char('{') : o.ch == QLatin1Char('('))));
            if (!allowed)
                return fail(o.line, o.column, QStringLiteral("'%1' is never closed").arg(o.ch));
        }
        if (regionOpen)
            m_module.ops[scan.op].hasRegions = true;
    }
    if (scan.label)
        return true;
    if (scan.locNode >= 0)
        m_opLocNode[scan.op] = scan.locNode;
    applySignature(scan);
    return true;
}

void MlirParser::applySignature(const Scan &scan)
{
    MlirOp &op = m_module.ops[scan.op];
    auto stopAfter = [&](int pos) {
        for (int s : scan.stops) {
            if (s > pos)
                return s;
        }
        return int(m_tok.contentEnd);
    };
    auto text = [&](int from, int to) { return m_line.mid(from, to - from).trimmed().toString(); };
    if (scan.sigStart >= 0) {
        const int end = stopAfter(scan.sigStart);
        op.typeSignature = text(scan.sigStart, end);
        if (scan.arrowAfter >= 0 && scan.arrowAfter < end) {
            op.operandTypes = text(scan.sigStart, scan.arrowAfter);
            op.resultTypes = text(scan.arrowAfter + 2, end);
        } else {
            op.operandTypes = op.typeSignature;
            if (scan.arrowBefore >= 0)
                op.resultTypes = text(scan.arrowBefore + 2, scan.sigStart - 1);
            else if (!op.results.isEmpty())
                op.resultTypes = op.typeSignature;
        }
    } else if (scan.arrowBefore >= 0) {  // function headers: (args) -> results attributes {...}
        op.resultTypes = text(scan.arrowBefore + 2, stopAfter(scan.arrowBefore));
    }
}

} // namespace strata::ir::detail
