#pragma once
// Which passes changed the code of a source line. Each pass dump (the IR before that pass) is
// read once and reduced to "source line -> opcodes of the ops mapped to it"; pass i changed line L
// when dump i and the next dump with locations disagree on L's ops (dumps without locations,
// like the pipeliner's internal snapshots, are skipped). Built off the UI thread (it reads ~70 files for a
// matmul); lookups afterwards are hash reads.
#include "compile/CompileResult.h"
#include "core/Stage.h"
#include "core/StageListing.h"

#include <QHash>
#include <QStringList>
#include <QVector>

namespace strata {

using OpsBySourceLine = QHash<int, QStringList>;

class PassOpIndex {
public:
    // `passes` in pipeline order (as PassListModel holds them).
    static PassOpIndex build(const QVector<PassDumpRef> &passes, StageFormat format,
                             const QString &kernelFile);

    int passCount() const { return int(m_dumps.size()); }
    const OpsBySourceLine &opsOfDump(int row) const { return m_dumps[row]; }
    // Positions (in `passes`) of the passes that changed `sourceLine`'s ops.
    QVector<int> passesChanging(int sourceLine) const;
    const QVector<ReadError> &problems() const { return m_problems; }

private:
    QVector<OpsBySourceLine> m_dumps;   // parallel to `passes`; empty for unreadable dumps
    QVector<bool> m_readable;
    QVector<bool> m_after;              // PassDumpRef::after: compared with the dump before, not after
    QVector<ReadError> m_problems;
};

// One dump's text reduced to ops per source line (exposed for tests).
OpsBySourceLine opsBySourceLine(const StageListing &listing, const QString &kernelFile);

} // namespace strata
