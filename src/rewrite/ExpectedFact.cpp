#include "rewrite/RewriteProvider.h"

namespace strata::rewrite {

QString ExpectedFact::describe() const
{
    const QString where = line > 0 ? QStringLiteral(" on line %1").arg(line) : QString();
    if (fact == QLatin1String("max_load_bits"))
        return QStringLiteral("widest global load%1 grows").arg(where);
    if (fact == QLatin1String("max_store_bits"))
        return QStringLiteral("widest global store%1 grows").arg(where);
    if (fact == QLatin1String("dot_kind"))
        return QStringLiteral("dot%1 becomes %2").arg(where, want);
    if (fact == QLatin1String("dot_operand_type"))
        return QStringLiteral("dot%1 operands become %2").arg(where, want);
    if (fact == QLatin1String("async_copies"))
        return QStringLiteral("async copies%1 appear or grow").arg(where);
    if (fact == QLatin1String("tma_copies"))
        return QStringLiteral("TMA copies%1 appear or grow").arg(where);
    if (fact == QLatin1String("global_loads"))
        return QStringLiteral("global load ops%1 fewer").arg(where);
    if (fact == QLatin1String("int_divisions"))
        return QStringLiteral("integer divisions by run-time values%1 fewer").arg(where);
    if (fact == QLatin1String("spill_bytes"))
        return QStringLiteral("spilled bytes shrink");
    if (fact.isEmpty())
        return QStringLiteral("no declared IR fact");
    return QStringLiteral("%1 changes").arg(fact);
}

} // namespace strata::rewrite
