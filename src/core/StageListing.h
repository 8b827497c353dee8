#pragma once
// The one result type every stage reader produces (Compiler Explorer's idea): the stage's text,
// line by line, each line carrying its source location chain and, for instructions/ops, its
// opcode. A line's number is its index. Format-specific detail (MLIR ops and layouts, PTX
// registers, SASS addresses) lives in each reader's own richer structs.
#include "core/Expected.h"
#include "core/SourceLocation.h"

#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

enum class LineKind {
    Blank,
    Comment,      // "//", ";" comments and dump headers
    Directive,    // PTX/LLVM directives, MLIR attribute/alias definitions (#loc, #blocked)
    Label,        // basic-block labels, function headers
    Instruction,  // an MLIR op, LLVM instruction, PTX or SASS instruction
    Other,
};

struct ListingLine {
    QString text;
    LineKind kind = LineKind::Other;
    QString opcode;         // "tt.load", "load", "ld.global.v4.b32", "HGMMA.64x128x16.F32.BF16"
    LocationChain frames;   // empty when the line has no location
};

struct StageListing {
    QString stage;          // stage id: "ttir", "ttgir", "llir", "ptx", "sass", a pass dump id, ...
    QString path;           // file it was read from (empty when read from memory)
    QVector<ListingLine> lines;
    // Defects the reader found but read past (junk lines it dropped): the stage is degraded.
    // Defects it cannot read past are errors instead (Expected<StageListing>).
    QVector<ReadError> problems;

    int lineCount() const { return lines.size(); }
};

} // namespace strata
