#pragma once
// SASS stage reader for `nvdisasm -c -g -gi` output. Locations come as blocks of comment lines
// placed before the instructions they cover:
//     //## File "/root/.../standard.py", line 263 inlined at "/root/.../standard.py", line 293
//     //## File "/root/.../standard.py", line 293 inlined at "/tmp/k.py", line 18
//     //## File "/tmp/k.py", line 18
// one line per frame, innermost first, no columns. A block holds until the next block.
// `nvdisasm -gp` output (tritonparse's SASS, headed `Function:NAME`) adds a
//     //## File ".nv_debug_ptx_txt", line 20
// frame (a line of the PTX text ptxas compiled) after the source frames, or alone; it is kept in
// the chain as read and resolved against the PTX by resolvePtxTextFrames().
#include "core/Expected.h"
#include "core/StageListing.h"

#include <QString>
#include <QVector>

namespace strata::ir {

struct SassInstruction {
    int line = -1;           // 0-based index into the listing
    quint32 address = 0;     // the /*0070*/ offset within the function
    QString opcode;          // "LDG.E.128", "HGMMA.64x128x16.F32" (predicate left out)
    QString predicate;       // "@!P0", "@P1" or empty
    int functionIndex = -1;  // into SassModule::functions
};

struct SassFunction {
    QString name;            // "matmul_kernel"
    int headerLine = -1;     // the `matmul_kernel:` label
    int instructionCount = 0;
};

struct SassModule {
    StageListing listing;
    QVector<SassFunction> functions;
    QVector<SassInstruction> instructions;  // in text order
};

// Checked as a stage: text without a `.section .text.NAME` function is NotAStage; a function
// with no instructions, or whose `.size` end label never comes, is Truncated. Lines over 64 KiB
// are kept as Other and counted in a JunkLines problem of the listing.
Expected<SassModule> readSassModule(const QString &text, const QString &path = {});

// Just the listing (stage id "sass").
Expected<StageListing> readSassListing(const QString &text, const QString &path = {});

// Triton's SASS names no inlined call sites (its PTX states them only in `.loc` comments, which
// ptxas never reads), so code from triton/language helpers points at the helper alone. The PTX of
// the same compile knows the callers: for each SASS line whose chain is one frame, this appends
// the callers that PTX gives that file and line, when all PTX lines there agree on them (a helper
// line called from two kernel lines stays as it is). Returns how many lines gained frames.
int adoptCallSitesFromPtx(StageListing &sass, const StageListing &ptx);

// `nvdisasm -gp` names, for each SASS block, the PTX line it came from: a more exact location
// than its source frames (and the only one for blocks that have none). Each SASS line with such
// a frame takes the frames of that PTX line (with their inlined call sites); without `ptx`, or
// when that line has no location, the PTX-text frame is just dropped. Returns the lines resolved.
int resolvePtxTextFrames(StageListing &sass, const StageListing *ptx);

} // namespace strata::ir
