#include "core/Expected.h"

namespace strata {

QString ReadError::toString() const
{
    QString where = file;
    if (line > 0) {
        where += QLatin1Char(':') + QString::number(line);
        if (column > 0)
            where += QLatin1Char(':') + QString::number(column);
    }
    return where.isEmpty() ? message : where + QStringLiteral(": ") + message;
}

} // namespace strata
