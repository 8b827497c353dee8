#include "locmap/LocationMap.h"

#include <algorithm>
#include <set>

namespace strata {

LocationMap::LocationMap(QString kernelFile)
    : m_kernelFile(std::move(kernelFile))
{
}

void LocationMap::addStage(const StageListing &listing)
{
    StageIndex index;
    const int n = listing.lines.size();
    index.sourceLineOfIrLine.resize(n);
    index.columnOfIrLine.resize(n);
    for (int i = 0; i < n; ++i) {
        const ListingLine &line = listing.lines[i];
        // With no kernel file given, every frame counts: take the innermost.
        const SourceLocation loc = m_kernelFile.isEmpty()
            ? (line.frames.isEmpty() ? SourceLocation{} : line.frames.first())
            : frameInFile(line.frames, m_kernelFile);
        if (!loc.isValid())
            continue;
        index.sourceLineOfIrLine[i] = loc.line;
        index.columnOfIrLine[i] = loc.column;
        index.irLinesOfSource[loc.line].append(i);  // i ascends, so each list stays sorted
    }
    if (!m_stages.contains(listing.stage))
        m_order.append(listing.stage);
    m_stages.insert(listing.stage, std::move(index));
}

QStringList LocationMap::stages() const
{
    return m_order;
}

QVector<int> LocationMap::linesForSource(const QString &stage, int sourceLine) const
{
    const auto it = m_stages.constFind(stage);
    if (it == m_stages.cend())
        return {};
    return it->irLinesOfSource.value(sourceLine);
}

SourceLocation LocationMap::sourceForLine(const QString &stage, int irLine) const
{
    const auto it = m_stages.constFind(stage);
    if (it == m_stages.cend() || irLine < 0 || irLine >= it->sourceLineOfIrLine.size())
        return {};
    const int line = it->sourceLineOfIrLine[irLine];
    if (line == 0)
        return {};
    return SourceLocation{m_kernelFile, line, it->columnOfIrLine[irLine]};
}

QVector<int> LocationMap::siblingLines(const QString &stage, int irLine) const
{
    const SourceLocation loc = sourceForLine(stage, irLine);
    return loc.isValid() ? linesForSource(stage, loc.line) : QVector<int>{};
}

QVector<int> LocationMap::sourceLinesWithCode() const
{
    std::set<int> lines;
    for (const StageIndex &index : m_stages)
        for (auto it = index.irLinesOfSource.cbegin(); it != index.irLinesOfSource.cend(); ++it)
            lines.insert(it.key());
    return QVector<int>(lines.begin(), lines.end());
}

QVector<int> LocationMap::sourceLinesWithCode(const QString &stage) const
{
    const auto it = m_stages.constFind(stage);
    if (it == m_stages.cend())
        return {};
    QVector<int> lines = it->irLinesOfSource.keys().toVector();
    std::sort(lines.begin(), lines.end());
    return lines;
}

} // namespace strata
