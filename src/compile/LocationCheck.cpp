#include "compile/LocationCheck.h"

#include <QFileInfo>
#include <QHash>
#include <QStringList>

namespace strata {
namespace {

enum class Resolution { Mapped, NoLocation, MissingFile, BeyondSource, OtherFile };

class Resolver {
public:
    Resolver(const QString &kernelFile, int kernelLines) : m_kernelFile(kernelFile), m_kernelLines(kernelLines) {}

    // Classifies one line's chain; drops its kernel-file frames past the kernel's end.
    Resolution resolve(LocationChain &frames, QString *file)
    {
        if (frames.isEmpty())
            return Resolution::NoLocation;
        const qsizetype before = frames.size();
        frames.removeIf([this](const SourceLocation &frame) { return inKernel(frame.file) && frame.line > m_kernelLines; });
        for (const SourceLocation &frame : std::as_const(frames)) {
            if (frame.isValid() && inKernel(frame.file))
                return Resolution::Mapped;
        }
        if (frames.size() < before)
            return Resolution::BeyondSource;
        *file = frames.first().file;
        return exists(*file) ? Resolution::OtherFile : Resolution::MissingFile;
    }

private:
    // Memoized: a stage has thousands of lines but a handful of files, and the checks stat them.
    bool inKernel(const QString &file)
    {
        const auto it = m_inKernel.constFind(file);
        if (it != m_inKernel.cend())
            return *it;
        return *m_inKernel.insert(file, sameSourceFile(file, m_kernelFile));
    }
    bool exists(const QString &file)
    {
        const auto it = m_exists.constFind(file);
        if (it != m_exists.cend())
            return *it;
        return *m_exists.insert(file, QFileInfo::exists(file));
    }

    QString m_kernelFile;
    int m_kernelLines;
    QHash<QString, bool> m_inKernel;
    QHash<QString, bool> m_exists;
};

QString count(int n, const char *what)
{
    return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(what));
}

} // namespace

QString LocationStats::summary() const
{
    QStringList reasons;
    if (noLocation > 0)
        reasons << count(noLocation, "without a location");
    if (missingFile > 0)
        reasons << count(missingFile, "in a file that does not exist") + QStringLiteral(" (%1)").arg(firstMissingFile);
    if (beyondSource > 0)
        reasons << count(beyondSource, "on a line past the kernel's end");
    if (otherFile > 0)
        reasons << count(otherFile, "only in another file") + QStringLiteral(" (%1)").arg(firstOtherFile);
    QString text = QStringLiteral("%1 of %2 ops mapped to the kernel source").arg(mapped).arg(ops);
    return reasons.isEmpty() ? text : text + QStringLiteral("; ") + reasons.join(QStringLiteral(", "));
}

LocationStats checkLocations(StageListing &listing, const QString &kernelFile, int kernelLines)
{
    LocationStats stats;
    stats.stage = listing.stage;
    Resolver resolver(kernelFile, kernelLines);
    for (ListingLine &line : listing.lines) {
        QString file;
        const Resolution resolution = resolver.resolve(line.frames, &file);
        if (line.kind != LineKind::Instruction)
            continue;  // function headers carry locations too: stripped, not counted
        ++stats.ops;
        switch (resolution) {
        case Resolution::Mapped: ++stats.mapped; break;
        case Resolution::NoLocation: ++stats.noLocation; break;
        case Resolution::BeyondSource: ++stats.beyondSource; break;
        case Resolution::MissingFile:
            if (stats.missingFile++ == 0)
                stats.firstMissingFile = file;
            break;
        case Resolution::OtherFile:
            if (stats.otherFile++ == 0)
                stats.firstOtherFile = file;
            break;
        }
    }
    return stats;
}

QVector<ReadError> locationProblems(const LocationStats &stats, const QString &path)
{
    QVector<ReadError> problems;
    if (stats.ops > 0 && stats.mapped == 0)
        problems.append(ReadError{path, 0, 0,
                                  QStringLiteral("no op maps to a kernel source line (%1)").arg(stats.summary()),
                                  ProblemKind::NoMappedLines});
    // Library code that no call site ties to the kernel is normal (an assembler may keep only an
    // inlined helper's own frame for some machine-code lines: under 10% of the ops in the test
    // fixtures of every backend so far); a quarter is not.
    else if (stats.beyondSource > 0 || (stats.missingFile + stats.otherFile) * 4 > stats.ops)
        problems.append(ReadError{path, 0, 0,
                                  QStringLiteral("locations that point nowhere usable: %1").arg(stats.summary()),
                                  ProblemKind::UnresolvedLocations});
    return problems;
}

} // namespace strata
