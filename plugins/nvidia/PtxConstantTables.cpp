#include "PtxConstantTables.h"

#include <QRegularExpression>

namespace strata::nvidia {

namespace {

// `.global .align 4 .b8 __cudart_i2opi_f[24] = {...};`, `.const .b32 table[8];`: module-scope
// variables (kernel parameters are `.param`, so they never match).
QSet<QString> declaredVariables(const StageListing &ptx)
{
    static const QRegularExpression declaration(
        QStringLiteral(R"(^\s*(?:\.visible\s+|\.weak\s+)?\.(?:global|const)\s.*?([A-Za-z_$][\w$]*)\s*[\[=;])"));
    QSet<QString> names;
    for (const ListingLine &line : ptx.lines) {
        if (line.kind == LineKind::Instruction)
            continue;
        const QRegularExpressionMatch match = declaration.match(line.text);
        if (match.hasMatch())
            names.insert(match.captured(1));
    }
    return names;
}

struct Operands {
    QString destination;   // a register, or empty (stores, branches)
    QStringList sources;   // registers and symbols read
    QStringList addressed; // registers and symbols inside [ ... ]
};

Operands operandsOf(const ListingLine &line)
{
    static const QRegularExpression identifier(QStringLiteral(R"(%[\w]+|[A-Za-z_$][\w$]*)"));
    static const QRegularExpression address(QStringLiteral(R"(\[([^\]]*)\])"));
    QString text = line.text.trimmed();
    if (text.startsWith(u'@'))
        text = text.section(QRegularExpression(QStringLiteral(R"(\s+)")), 1);
    text = text.mid(line.opcode.size()).section(u';', 0, 0);
    Operands operands;
    const QString first = text.section(u',', 0, 0).trimmed();
    if (first.startsWith(u'%'))
        operands.destination = first;
    const QString rest = first.startsWith(u'%') ? text.section(u',', 1) : text;
    for (auto it = identifier.globalMatch(rest); it.hasNext();)
        operands.sources.append(it.next().captured(0));
    for (auto it = address.globalMatch(text); it.hasNext();) {
        const QString inside = it.next().captured(1);
        for (auto names = identifier.globalMatch(inside); names.hasNext();)
            operands.addressed.append(names.next().captured(0));
    }
    return operands;
}

bool anyIn(const QStringList &names, const QSet<QString> &set)
{
    for (const QString &name : names)
        if (set.contains(name))
            return true;
    return false;
}

} // namespace

QSet<int> constantTableLoads(const StageListing &ptx)
{
    QSet<QString> derived = declaredVariables(ptx);
    QSet<int> loads;
    if (derived.isEmpty())
        return loads;
    // Two sweeps: a register that a loop's back edge defines after its use is seen the second time.
    for (int sweep = 0; sweep < 2; ++sweep) {
        for (int i = 0; i < ptx.lines.size(); ++i) {
            const ListingLine &line = ptx.lines[i];
            if (line.kind != LineKind::Instruction)
                continue;
            const Operands operands = operandsOf(line);
            if (line.opcode.startsWith(QLatin1String("ld.global"))) {
                if (anyIn(operands.addressed, derived))
                    loads.insert(i);
                continue;  // the value read from a table is data, not an address into it
            }
            if (!operands.destination.isEmpty() && anyIn(operands.sources, derived))
                derived.insert(operands.destination);
        }
    }
    return loads;
}

} // namespace strata::nvidia
