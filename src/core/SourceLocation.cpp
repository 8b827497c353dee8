#include "core/SourceLocation.h"

#include <QFileInfo>

namespace strata {

bool sameSourceFile(const QString &recorded, const QString &kernelFile)
{
    if (recorded.isEmpty() || kernelFile.isEmpty())
        return false;
    if (recorded == kernelFile)
        return true;
    const QFileInfo a(recorded), b(kernelFile);
    // A bare base name (SASS "k.py") matches any path with that name; two absolute paths must agree.
    if (!recorded.contains(QLatin1Char('/')) || !kernelFile.contains(QLatin1Char('/')))
        return a.fileName() == b.fileName();
    return a.absoluteFilePath() == b.absoluteFilePath()
        || (a.exists() && b.exists() && a.canonicalFilePath() == b.canonicalFilePath());
}

SourceLocation frameInFile(const LocationChain &chain, const QString &kernelFile)
{
    for (const SourceLocation &frame : chain) {
        if (frame.isValid() && sameSourceFile(frame.file, kernelFile))
            return frame;
    }
    return {};
}

QString toString(const SourceLocation &loc)
{
    if (!loc.isValid())
        return QStringLiteral("<unknown>");
    QString s = loc.file + QLatin1Char(':') + QString::number(loc.line);
    if (loc.column > 0)
        s += QLatin1Char(':') + QString::number(loc.column);
    return s;
}

} // namespace strata
