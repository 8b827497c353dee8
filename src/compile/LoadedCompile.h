#pragma once
// A compile read into memory: every stage's listing, the location map across them, and the pass
// dumps (read lazily: a matmul has ~70). This is what the CLI's `map`, the GUI panes and the
// diagnosis levels consume.
#include "compile/CompileResult.h"
#include "core/Stage.h"
#include "core/StageListing.h"
#include "locmap/LocationMap.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

struct LoadedCompile {
    CompileResult result;
    QString sourceText;                  // the kernel source as compiled
    QVector<StageDescriptor> declared;   // every stage the backend declares, pipeline order
    QVector<StageDescriptor> stages;     // those that were read, pipeline order
    QVector<StageListing> listings;      // parallel to `stages`
    LocationMap map;
    QVector<ReadError> problems;         // stages that could not be read (the rest still load)

    const StageListing *listing(const QString &stageId) const;
    // Whether `stageId` was read (declared, produced and readable).
    bool hasStage(const QString &stageId) const;
    // Library code inlined into the kernel (tl.max from triton/language/standard.py): for each
    // "file-name:line" of a callee, the kernel source lines that call it, from the IR's
    // callsite(...) location chains. A profiler that reports the callee's line is folded onto these.
    QHash<QString, QVector<int>> inlinedCallers() const;
};

// Reads every stage the backend declares that the compile produced. A stage that fails to read
// is recorded in `problems`, not fatal; a missing source artifact is fatal.
Expected<LoadedCompile> loadCompile(const CompileResult &result, const QVector<StageDescriptor> &stages);

// Reads one pass dump (IR before that pass) as a listing.
Expected<StageListing> loadPassDump(const PassDumpRef &dump, StageFormat format);

} // namespace strata
