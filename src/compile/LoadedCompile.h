#pragma once
// A compile read into memory: every stage's listing, the location map across them, and the pass
// dumps (read lazily: a matmul has ~70). This is what the CLI's `map`, the GUI panes and the
// diagnosis levels consume.
#include "compile/CompileResult.h"
#include "compile/LocationCheck.h"
#include "core/Stage.h"
#include "core/StageListing.h"
#include "locmap/LocationMap.h"

#include <QHash>
#include <QString>
#include <QVector>

namespace strata {

// One defect of one stage: a stage refused (not loaded: missing, empty, not the format, another
// stage's text, cut short, unparsable) or loaded degraded (junk lines dropped, locations that
// point nowhere). ReadError::kind says which (docs/diagnosis.md lists the kinds).
struct StageProblem {
    QString stage;          // stage id: "ttgir"
    bool refused = false;   // the stage was not loaded; otherwise it was, with this defect
    ReadError error;

    // "ttgir not read (not-a-stage): /c/k.ttgir: no MLIR module ..." / "ptx degraded (junk-lines): ..."
    QString toString() const;
};

struct LoadedCompile {
    CompileResult result;
    QString sourceText;                  // the kernel source as compiled
    QVector<StageDescriptor> declared;   // every stage the backend declares, pipeline order
    QVector<StageDescriptor> stages;     // those that were read, pipeline order
    QVector<StageListing> listings;      // parallel to `stages`
    LocationMap map;
    QVector<StageProblem> problems;      // every refused or degraded stage (the rest still load)
    QVector<LocationStats> locations;    // per IR stage read, pipeline order: how its ops map

    const StageListing *listing(const QString &stageId) const;
    // Whether `stageId` was read (declared, produced and readable).
    bool hasStage(const QString &stageId) const;
    // The problem that kept `stageId` from loading, or nullptr.
    const StageProblem *refusal(const QString &stageId) const;
    // Whether `stageId` loaded with a defect (junk lines, unresolved locations, nothing mapped).
    bool isDegraded(const QString &stageId) const;
    const LocationStats *locationStats(const QString &stageId) const;
    // Library code inlined into the kernel (tl.max from triton/language/standard.py): for each
    // "file-name:line" of a callee, the kernel source lines that call it, from the IR's
    // callsite(...) location chains. A profiler that reports the callee's line is folded onto these.
    QHash<QString, QVector<int>> inlinedCallers() const;
};

// Reads every stage the backend declares that the compile produced. A stage that fails to read,
// or holds another stage's text (StageDescriptor::signature), is refused and recorded in
// `problems`, as are the defects of stages that loaded; a missing source artifact is fatal.
Expected<LoadedCompile> loadCompile(const CompileResult &result, const QVector<StageDescriptor> &stages);

// Reads one pass dump (IR before that pass) as a listing.
Expected<StageListing> loadPassDump(const PassDumpRef &dump, StageFormat format);

} // namespace strata
