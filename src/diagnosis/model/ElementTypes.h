#pragma once
// Bytes of an MLIR element type as Triton's IRs print them (TTIR/TTGIR, and triton-ascend's TTIR
// and ttadapter). One place, so the L3 tile sizes, the static costs and a backend's layout rules
// weigh an element the same.
#include <QRegularExpression>
#include <QString>

namespace strata::diagnosis {

// "f32" 4, "bf16" 2, "i64" 8, "i1" 1 (a predicate byte), every 8-bit float ("f8E4M3FN", Ascend's
// "hif8") 1; 0 for anything that names no width of at least a byte.
inline int mlirElementBytes(const QString &element)
{
    if (element == QLatin1String("i1") || element.startsWith(QLatin1String("f8")) || element.startsWith(QLatin1String("hif8")))
        return 1;
    static const QRegularExpression width(QStringLiteral("^[a-z]+(\\d+)$"));
    const int bits = width.match(element).captured(1).toInt();
    return bits >= 8 ? bits / 8 : 0;
}

} // namespace strata::diagnosis
