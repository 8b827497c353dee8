#include "core/Expected.h"

namespace strata {

QString problemKindName(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::Other: return QStringLiteral("error");
    case ProblemKind::Missing: return QStringLiteral("missing");
    case ProblemKind::Unreadable: return QStringLiteral("unreadable");
    case ProblemKind::Empty: return QStringLiteral("empty");
    case ProblemKind::NotAStage: return QStringLiteral("not-a-stage");
    case ProblemKind::WrongStage: return QStringLiteral("wrong-stage");
    case ProblemKind::Truncated: return QStringLiteral("truncated");
    case ProblemKind::Syntax: return QStringLiteral("syntax");
    case ProblemKind::JunkLines: return QStringLiteral("junk-lines");
    case ProblemKind::UnresolvedLocations: return QStringLiteral("unresolved-locations");
    case ProblemKind::NoMappedLines: return QStringLiteral("no-mapped-lines");
    }
    return QStringLiteral("error");
}

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
