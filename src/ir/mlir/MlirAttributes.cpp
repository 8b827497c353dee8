#include "ir/mlir/MlirAttributes.h"

#include "ir/mlir/MlirLexer.h"

namespace strata::ir::detail {
namespace {

QString unquoteKey(QStringView key)
{
    return key.startsWith(QLatin1Char('"')) ? unescapeString(key) : key.toString();
}

// "[1, 8]" -> {1, 8}; values are read up to their first non-digit ("16 : i32" -> 16).
int leadingInt(QStringView text, bool *ok = nullptr)
{
    text = text.trimmed();
    int end = 0;
    if (end < text.size() && text[end] == QLatin1Char('-'))
        ++end;
    while (end < text.size() && text[end].isDigit())
        ++end;
    return text.left(end).toInt(ok);
}

QVector<int> intList(QStringView text)
{
    QVector<int> values;
    text = text.trimmed();
    if (!text.startsWith(QLatin1Char('[')) || !text.endsWith(QLatin1Char(']')))
        return values;
    for (QStringView part : splitTopLevel(text.mid(1, text.size() - 2), QLatin1Char(','))) {
        bool ok = false;
        const int v = leadingInt(part, &ok);
        if (ok)
            values.append(v);
    }
    return values;
}

LayoutKind kindOf(QStringView mnemonic)
{
    if (mnemonic == QLatin1String("blocked"))
        return LayoutKind::Blocked;
    if (mnemonic == QLatin1String("nvidia_mma") || mnemonic == QLatin1String("mma"))
        return LayoutKind::NvidiaMma;
    if (mnemonic == QLatin1String("nvmma_shared"))
        return LayoutKind::NvmmaShared;
    if (mnemonic == QLatin1String("swizzled_shared") || mnemonic == QLatin1String("shared"))
        return LayoutKind::Shared;
    if (mnemonic == QLatin1String("dot_op"))
        return LayoutKind::DotOperand;
    if (mnemonic == QLatin1String("slice"))
        return LayoutKind::Slice;
    if (mnemonic == QLatin1String("amd_mfma"))
        return LayoutKind::AmdMfma;
    if (mnemonic == QLatin1String("linear"))
        return LayoutKind::Linear;
    return LayoutKind::Other;
}

void applyEntry(LayoutAttr &l, const MlirAttribute &e)
{
    const QString &k = e.key;
    const QStringView v(e.value);
    if (k == QLatin1String("sizePerThread")) l.sizePerThread = intList(v);
    else if (k == QLatin1String("threadsPerWarp")) l.threadsPerWarp = intList(v);
    else if (k == QLatin1String("warpsPerCTA")) l.warpsPerCTA = intList(v);
    else if (k == QLatin1String("order")) l.order = intList(v);
    else if (k == QLatin1String("CTAsPerCGA")) l.ctasPerCga = intList(v);
    else if (k == QLatin1String("CTASplitNum")) l.ctaSplitNum = intList(v);
    else if (k == QLatin1String("CTAOrder")) l.ctaOrder = intList(v);
    else if (k == QLatin1String("versionMajor") || k == QLatin1String("version")) l.versionMajor = leadingInt(v);
    else if (k == QLatin1String("versionMinor")) l.versionMinor = leadingInt(v);
    else if (k == QLatin1String("instrShape")) l.instrShape = intList(v);
    else if (k == QLatin1String("swizzlingByteWidth")) l.swizzlingByteWidth = leadingInt(v);
    else if (k == QLatin1String("transposed") || k == QLatin1String("isTransposed")) l.transposed = v.trimmed() == QLatin1String("true");
    else if (k == QLatin1String("elementBitWidth")) l.elementBitWidth = leadingInt(v);
    else if (k == QLatin1String("vec")) l.vec = leadingInt(v);
    else if (k == QLatin1String("perPhase")) l.perPhase = leadingInt(v);
    else if (k == QLatin1String("maxPhase")) l.maxPhase = leadingInt(v);
    else if (k == QLatin1String("opIdx")) l.opIdx = leadingInt(v);
    else if (k == QLatin1String("kWidth")) l.kWidth = leadingInt(v);
    else if (k == QLatin1String("parent")) l.parent = v.trimmed().toString();
    else if (k == QLatin1String("dim")) l.sliceDim = leadingInt(v);
}

QString listText(const QVector<int> &values)
{
    QStringList parts;
    for (int v : values)
        parts << QString::number(v);
    return QLatin1Char('[') + parts.join(QLatin1String(", ")) + QLatin1Char(']');
}

} // namespace

QVector<MlirAttribute> parseAttrDict(QStringView inner)
{
    QVector<MlirAttribute> entries;
    for (QStringView part : splitTopLevel(inner, QLatin1Char(','))) {
        if (part.isEmpty())
            continue;
        const int eq = findTopLevel(part, QLatin1Char('='));
        if (eq < 0)
            entries.append({unquoteKey(part), QString()});
        else
            entries.append({unquoteKey(part.left(eq).trimmed()), part.mid(eq + 1).trimmed().toString()});
    }
    return entries;
}

bool decodeLayout(QStringView attrText, LayoutAttr &out)
{
    attrText = attrText.trimmed();
    if (!attrText.startsWith(QLatin1Char('#')))
        return false;
    const int open = attrText.indexOf(QLatin1Char('<'));
    if (open < 0 || !attrText.endsWith(QLatin1Char('>')))
        return false;
    const QStringView name = attrText.mid(1, open - 1);
    const int dot = name.lastIndexOf(QLatin1Char('.'));
    if (dot <= 0)
        return false;  // affine_map<...> and other builtin attributes are not layouts
    out.attrName = name.toString();
    out.kind = kindOf(name.mid(dot + 1));
    const QStringView params = attrText.mid(open + 1, attrText.size() - open - 2).trimmed();
    out.params = params.toString();
    if (params.startsWith(QLatin1Char('{')) && params.endsWith(QLatin1Char('}')))
        out.entries = parseAttrDict(params.mid(1, params.size() - 2));
    for (const MlirAttribute &e : std::as_const(out.entries))
        applyEntry(out, e);
    return true;
}

} // namespace strata::ir::detail

namespace strata::ir {

QString layoutKindName(LayoutKind kind)
{
    switch (kind) {
    case LayoutKind::Blocked: return QStringLiteral("blocked");
    case LayoutKind::NvidiaMma: return QStringLiteral("nvidia_mma");
    case LayoutKind::NvmmaShared: return QStringLiteral("nvmma_shared");
    case LayoutKind::Shared: return QStringLiteral("shared");
    case LayoutKind::DotOperand: return QStringLiteral("dot_op");
    case LayoutKind::Slice: return QStringLiteral("slice");
    case LayoutKind::AmdMfma: return QStringLiteral("amd_mfma");
    case LayoutKind::Linear: return QStringLiteral("linear");
    case LayoutKind::Other: return QStringLiteral("other");
    }
    return QStringLiteral("other");
}

QString LayoutAttr::displayName() const
{
    if (!alias.isEmpty())
        return QLatin1Char('#') + alias;
    return QLatin1Char('#') + attrName + QLatin1Char('<') + params + QLatin1Char('>');
}

QString layoutSummary(const LayoutAttr &l)
{
    QStringList parts{layoutKindName(l.kind)};
    auto addList = [&](const char *key, const QVector<int> &v) {
        if (!v.isEmpty())
            parts << QLatin1String(key) + QLatin1Char('=') + detail::listText(v);
    };
    auto addInt = [&](const char *key, int v) {
        if (v >= 0)
            parts << QLatin1String(key) + QLatin1Char('=') + QString::number(v);
    };
    if (l.kind == LayoutKind::NvidiaMma && l.versionMajor >= 0)
        parts[0] += QStringLiteral(" v%1.%2").arg(l.versionMajor).arg(qMax(l.versionMinor, 0));
    addList("sizePerThread", l.sizePerThread);
    addList("threadsPerWarp", l.threadsPerWarp);
    addList("warpsPerCTA", l.warpsPerCTA);
    addList("instrShape", l.instrShape);
    addList("order", l.order);
    addInt("swizzlingByteWidth", l.swizzlingByteWidth);
    addInt("elementBitWidth", l.elementBitWidth);
    if (l.kind == LayoutKind::NvmmaShared && l.transposed)
        parts << QStringLiteral("transposed");
    addInt("vec", l.vec);
    addInt("perPhase", l.perPhase);
    addInt("maxPhase", l.maxPhase);
    addInt("opIdx", l.opIdx);
    addInt("kWidth", l.kWidth);
    addInt("dim", l.sliceDim);
    if (!l.parent.isEmpty())
        parts << QStringLiteral("parent=") + l.parent;
    return parts.join(QLatin1Char(' '));
}

} // namespace strata::ir
