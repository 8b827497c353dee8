#pragma once
// PTX stage reader. The NVPTX back end states locations as `.loc FILE LINE COL` directives that
// hold for every following instruction until the next one; files come from `.file N "path"`
// (emitted at the end of the module, so the table is read first). Inlined code shows its call
// sites either in a `.loc ..., inlined_at F L C` suffix or, as Triton's line-tables-only debug
// info does, only in the trailing comment `// standard.py:263:15 @[ k.py:18:15 ]`; both become
// frames, innermost first.
#include "core/Expected.h"
#include "core/StageListing.h"

#include <QMap>
#include <QString>
#include <QVector>

namespace strata::ir {

struct PtxInstruction {
    int line = -1;           // 0-based index into the listing
    QString opcode;          // full dotted mnemonic without predicate: "ld.global.v4.b32"
    QString predicate;       // "@%p1", "@!%p2" or empty
    int functionIndex = -1;  // into PtxModule::functions; -1 outside any function
};

struct PtxFunction {
    QString name;
    bool isEntry = false;    // `.entry` (a kernel) rather than `.func`
    int headerLine = -1;     // the `.visible .entry name(` line
    int bodyEndLine = -1;    // the closing brace of the body
};

struct PtxModule {
    StageListing listing;
    QString version;         // `.version 8.7`
    QString target;          // `.target sm_90a`
    QMap<int, QString> files;  // `.file` table: index -> path
    QVector<PtxFunction> functions;
    QVector<PtxInstruction> instructions;  // in text order
};

// Checked as a stage: text without `.version`/`.target` is NotAStage; a header without an
// `.entry`/`.func`, a body that never closes, or a `.loc` naming a file no `.file` defines is
// Truncated. Lines that are not PTX syntax (outside a body, not `[@%p] opcode ...;`, over 64 KiB)
// are kept as Other with no location and counted in one JunkLines problem of the listing.
Expected<PtxModule> readPtxModule(const QString &text, const QString &path = {});

// Just the listing (stage id "ptx").
Expected<StageListing> readPtxListing(const QString &text, const QString &path = {});

} // namespace strata::ir
