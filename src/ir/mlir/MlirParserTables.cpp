// The parts of MlirParser that fill the module's tables rather than its ops: dump headers, alias
// definitions (#loc, layouts, others), and the binding of locations and layouts once the whole
// text (with its trailing #loc definitions) has been read.
#include "ir/mlir/MlirAttributes.h"
#include "ir/mlir/MlirParser.h"

#include <QRegularExpression>

namespace strata::ir::detail {

void MlirParser::readHeader(int index, QStringView line)
{
    if (m_module.header.present || !line.startsWith(QLatin1String("// -----//")))
        return;
    // Header lines are few, so a regular expression is fine here (never per character).
    // The anchor is absent from the after-pass dumps of --mlir-print-ir-tree-dir (Ascend's
    // adapter): "IR Dump After TritonToLinalg (triton-to-linalg) //----- //". An argument never
    // holds a quote, so an anchor is never read as one.
    static const QRegularExpression passDump(QStringLiteral(
        R"(IR Dump (Before|After) (\S+)( Failed)?(?: \(([^)']*)\))?(?: \('([^']+)' operation(?:: @(.*))?\))? //-----)"));
    static const QRegularExpression internalDump(QStringLiteral(R"(// -----// (.*?) ?IR Dump (Before|After):? (\S+))"));
    PassDumpHeader &h = m_module.header;
    const QString text = line.toString();
    QRegularExpressionMatch m = passDump.match(text);
    if (m.hasMatch()) {
        h.when = m.captured(1);
        h.passName = m.captured(2);
        h.failed = !m.captured(3).isEmpty();
        h.passArgument = m.captured(4);
        h.anchorOp = m.captured(5);
        h.anchorSymbol = m.captured(6);
        if (h.anchorSymbol.startsWith(QLatin1Char('"')))
            h.anchorSymbol = unescapeString(h.anchorSymbol);
    } else if ((m = internalDump.match(text)).hasMatch()) {
        h.when = m.captured(2);
        h.passName = m.captured(1).isEmpty() ? m.captured(3) : m.captured(1) + QStringLiteral(": ") + m.captured(3);
    } else {
        return;
    }
    h.present = true;
    h.line = index;
}

bool MlirParser::readAliasLine(int index)
{
    const QVector<Token> &t = m_tok.tokens;
    const QString name = m_line.mid(t[0].begin, t[0].end - t[0].begin).toString();
    if (t.size() < 3)
        return fail(index, m_line.size(), QStringLiteral("alias %1 has no value").arg(name));
    const QStringView value = m_line.mid(t[2].begin, m_tok.contentEnd - t[2].begin).trimmed();
    // Brackets must balance within the line: alias definitions never span lines.
    QVector<int> opens;
    for (int i = 2; i < t.size(); ++i) {
        if (isOpener(t[i])) {
            opens.append(i);
        } else if (isCloser(t[i])) {
            if (t[i].is('>') && (opens.isEmpty() || !t[opens.last()].is('<')))
                continue;
            if (opens.isEmpty() || closerOf(t[opens.last()].punct) != t[i].punct)
                return fail(index, t[i].begin, QStringLiteral("unbalanced '%1'").arg(t[i].punct));
            opens.removeLast();
        }
    }
    if (!opens.isEmpty())
        return fail(index, t[opens.last()].begin,
                    QStringLiteral("'%1' is never closed").arg(t[opens.last()].punct));

    if (t[0].kind == TokKind::Hash && value.startsWith(QLatin1String("loc("))) {
        const LocTable::Parsed parsed = m_locs.parseLoc(m_line, t[2].begin, index);
        if (parsed.node < 0)
            return fail(index, parsed.errorColumn, parsed.error);
        if (m_line.mid(parsed.end, m_tok.contentEnd - parsed.end).trimmed().size() > 0)
            return fail(index, parsed.end, QStringLiteral("unexpected text after location"));
        const QString alias = name.mid(1);
        m_locs.defineAlias(alias, parsed.node);
        m_module.locationDefs.append({alias, index, value.toString(), {}, {}});
        m_locDefNodes.append(parsed.node);
        return true;
    }
    LayoutAttr layout;
    if (t[0].kind == TokKind::Hash && decodeLayout(value, layout)) {
        layout.alias = name.mid(1);
        layout.line = index;
        m_module.layouts.append(std::move(layout));
    }
    m_module.aliases.append({name, value.toString(), index});
    return true;
}

bool MlirParser::finish()
{
    if (!m_stack.isEmpty()) {
        const Open &open = m_stack.last();
        const int last = qMax(0, int(m_lines.size()) - 1);
        const int column = m_lines.isEmpty() ? 0 : int(m_lines[last].size());
        fail(last, column,
             QStringLiteral("text ends inside '%1' opened at line %2: the IR is cut off")
                 .arg(m_module.ops[open.op].name).arg(open.line + 1));
        m_error->kind = ProblemKind::Truncated;
        return false;
    }
    if (auto error = m_locs.resolve(m_path)) {
        m_error = *error;
        return false;
    }
    for (int i = 0; i < m_module.ops.size(); ++i) {
        MlirOp &op = m_module.ops[i];
        op.frames = m_locs.chain(m_opLocNode[i]);
        op.locName = m_locs.name(m_opLocNode[i]);
        if (isModuleOpName(op.name) && m_module.moduleAttributes.isEmpty())
            m_module.moduleAttributes = op.attributes;
    }
    for (const ArgLoc &a : std::as_const(m_argLocs)) {
        MlirBlockArg &arg = m_module.ops[a.op].blockArgs[a.arg];
        arg.frames = m_locs.chain(a.node);
        arg.locName = m_locs.name(a.node);
    }
    for (int i = 0; i < m_module.locationDefs.size(); ++i) {
        m_module.locationDefs[i].frames = m_locs.chain(m_locDefNodes[i]);
        m_module.locationDefs[i].locName = m_locs.name(m_locDefNodes[i]);
    }
    bindLayouts();
    return true;
}

void MlirParser::bindLayouts()
{
    QVector<LayoutAttr> &layouts = m_module.layouts;
    QHash<QString, int> byAlias;
    for (int i = 0; i < layouts.size(); ++i)
        byAlias.insert(layouts[i].alias, i);
    QHash<QString, int> inlineByText;
    // "#blocked" -> its alias index; "#ttg.slice<...>" -> an inline layout, added once.
    auto indexOf = [&](const QString &ref) -> int {
        if (!ref.startsWith(QLatin1Char('#')))
            return byAlias.value(ref, -1);
        if (!ref.contains(QLatin1Char('<')))
            return byAlias.value(ref.mid(1), -1);
        const auto it = inlineByText.constFind(ref);
        if (it != inlineByText.constEnd())
            return *it;
        LayoutAttr layout;
        int index = -1;
        if (decodeLayout(ref, layout)) {
            index = layouts.size();
            layouts.append(std::move(layout));
        }
        inlineByText.insert(ref, index);
        return index;
    };
    for (int i = 0; i < m_module.ops.size(); ++i) {
        QVector<int> &mentioned = m_module.ops[i].layouts;
        for (const QString &ref : std::as_const(m_opHashRefs[i])) {
            const int index = indexOf(ref);
            if (index >= 0 && !mentioned.contains(index))
                mentioned.append(index);
        }
    }
    for (int i = 0; i < layouts.size(); ++i) {  // grows while inline parents are added
        // A copy: indexOf may append to `layouts`, and a reference into it would dangle.
        const QString parentText = layouts[i].parent;
        if (!parentText.isEmpty())
            layouts[i].parentIndex = indexOf(parentText);
    }
}

} // namespace strata::ir::detail
