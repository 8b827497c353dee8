#include "models/PassOpIndex.h"

#include "core/StageListing.h"
#include "ir/StageReader.h"
#include "locmap/LocationMap.h"

#include <algorithm>

namespace strata {

OpsBySourceLine opsBySourceLine(const StageListing &listing, const QString &kernelFile)
{
    LocationMap map(kernelFile);
    map.addStage(listing);
    OpsBySourceLine ops;
    for (int sourceLine : map.sourceLinesWithCode(listing.stage)) {
        QStringList opcodes;
        for (int line : map.linesForSource(listing.stage, sourceLine)) {
            const ListingLine &entry = listing.lines[line];
            if (entry.kind == LineKind::Instruction)
                opcodes.append(entry.opcode);
        }
        if (!opcodes.isEmpty())
            ops.insert(sourceLine, opcodes);
    }
    return ops;
}

PassOpIndex PassOpIndex::build(const QVector<PassDumpRef> &passes, StageFormat format,
                               const QString &kernelFile)
{
    PassOpIndex index;
    index.m_dumps.resize(passes.size());
    index.m_readable.fill(false, passes.size());
    index.m_after.fill(false, passes.size());
    for (int row = 0; row < passes.size(); ++row) {
        const PassDumpRef &pass = passes[row];
        index.m_after[row] = pass.after;
        Expected<StageListing> listing = ir::readStageFile(format, pass.argument, pass.file.path);
        if (!listing) {
            index.m_problems.append(listing.error());
            continue;
        }
        index.m_dumps[row] = opsBySourceLine(*listing, kernelFile);
        // The pipeliner's internal snapshots print no locations at all: they cannot say which
        // line changed, so comparisons skip over them (the pass is compared with the next
        // dump that has locations).
        index.m_readable[row] = !index.m_dumps[row].isEmpty();
    }
    return index;
}

QVector<int> PassOpIndex::passesChanging(int sourceLine) const
{
    QVector<int> rows;
    int next = int(m_dumps.size());
    // Walk backwards so `next` is always the nearest later before-pass dump with locations.
    for (int row = int(m_dumps.size()) - 1; row >= 0; --row) {
        if (!m_readable[row] || m_after[row])
            continue;  // unreadable or location-free: proves nothing either way
        if (next < m_dumps.size() && m_dumps[row].value(sourceLine) != m_dumps[next].value(sourceLine))
            rows.prepend(row);
        next = row;
    }
    // An after-pass dump (Ascend's adapter) changed the line when it differs from the previous
    // after-pass dump; the first has no earlier IR here to compare with.
    int previous = -1;
    for (int row = 0; row < m_dumps.size(); ++row) {
        if (!m_readable[row] || !m_after[row])
            continue;
        if (previous >= 0 && m_dumps[row].value(sourceLine) != m_dumps[previous].value(sourceLine))
            rows.append(row);
        previous = row;
    }
    std::sort(rows.begin(), rows.end());
    return rows;
}

} // namespace strata
