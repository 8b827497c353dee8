#pragma once
// A reader for custom-form MLIR text as Triton 3.6 prints it: TTIR, TTGIR, every per-pass dump
// (`MLIR_ENABLE_DUMP=1`, including the LLVM-dialect module late in the pipeline), and other
// custom-form MLIR (Ascend linalg/HIVM). Upstream MLIR cannot parse this text without Triton's
// dialects, so this reader keys on MLIR *syntax* (results, op names, brackets, regions, attribute
// dictionaries, `loc(...)`) and knows no op list. It never evaluates types: type and attribute
// text is kept raw, except layout attributes, which are decoded into fields.
//
// Syntax it relies on (true of MLIR's printer): every op starts on its own line; an op spans
// lines only through regions (a line ending in an unmatched '{', closed by a line starting with
// '}') or a case list ('[' ... ']', cf.switch / llvm.switch); a line holding just a dotless
// keyword that opens a region right after an op (`default {`, `partition0(...) num_warps(4) {`)
// continues that op; so does a line of region arguments opening a region (`(%in: f32 loc(...),
// %init: f32 loc(...)) {`, linalg.reduce in Ascend's ttadapter). Alias definitions (`#x = ...`,
// `!x = ...`) sit on one line each, anywhere.
#include "core/Expected.h"
#include "core/SourceLocation.h"
#include "core/StageListing.h"

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata::ir {

// One `key = value` entry of an attribute dictionary `{...}` or properties `<{...}>`.
// Unit attributes (`{isAsync}`) have an empty value. Keys are unquoted ("ttg.num-warps").
struct MlirAttribute {
    QString key;
    QString value;  // raw text: "16 : i32", "[1, 8]", "#blocked", "\"cuda:90\""
};

// A value defined on entry to an op's region: func arguments (`%a_ptr: !tt.ptr<f16>
// {tt.divisibility = 16 : i32} loc(...)`), scf.for's induction variable and iter_args
// (`%acc = %cst`), and `^bb0(%x: f32 loc(...))` block arguments.
struct MlirBlockArg {
    QString name;        // "%a_ptr"
    QString type;        // "!tt.ptr<f16>"; empty for iter_args (their types are in the op's signature)
    QVector<MlirAttribute> attributes;  // argument attributes ({tt.divisibility = 16 : i32})
    QString initValue;   // iter_args: the value bound on entry ("%cst"); induction variable: lower bound
    QString blockLabel;  // "^bb0" for labelled block arguments; the region keyword for named
                         // regions ("partition0" of ttg.warp_specialize); empty for an op's own
    int line = -1;       // 0-based line of the definition
    LocationChain frames;  // its inline loc(...), resolved; empty when it has none
    QString locName;       // the NameLoc name ("a_ptr"), empty when none
};

struct MlirOp {
    int line = -1;          // 0-based line where the op starts (the line that carries its location)
    int endLine = -1;       // last line of the op (differs from `line` when it has regions)
    QString name;           // "tt.load", "scf.for", "ttg.convert_layout", "llvm.load", "module"
    bool genericForm = false;  // printed as "tt.reduce"(...) rather than tt.reduce ...
    QStringList results;    // "%x_5", "%13:3", "%acc_50:9"
    QStringList operands;   // every value used, in text order: "%a_ptrs_19", "%acc_50#0"
    QString symbol;         // "@matmul_kernel" for functions, globals and calls; empty otherwise
    QString operandTypes;   // text of the type signature before "->" (see typeSignature)
    QString resultTypes;    // text after "->"; equal to operandTypes for `: T` signatures with results
    QString typeSignature;  // everything after the op's top-level ':' ("i32 -> tensor<128xi32, #blocked>")
    QVector<MlirAttribute> attributes;  // from {...}, <{...}> and `attributes {...}`, in text order
    QVector<MlirBlockArg> blockArgs;    // values its regions define on entry (see MlirBlockArg)
    int parent = -1;        // index of the op whose region holds this one; -1 at top level
    int depth = 0;          // region nesting: 0 for the module, 1 for functions, 2 for their body ...
    bool hasRegions = false;
    LocationChain frames;   // resolved trailing loc(...), innermost first; empty when none/unknown
    QString locName;        // outermost NameLoc name of its location ("acc"), empty when none
    QVector<int> layouts;   // indices into MlirModule::layouts of layouts its text mentions

    // Value of attribute `key`, or an empty string.
    QString attribute(const QString &key) const;
    bool isFunction() const;  // tt.func, func.func, llvm.func, ...: an op named "<dialect>.func"
};

enum class LayoutKind {
    Blocked,
    NvidiaMma,
    NvmmaShared,
    Shared,      // swizzled_shared (and the older plain "shared")
    DotOperand,  // dot_op
    Slice,
    AmdMfma,
    Linear,
    Other,       // any other dialect attribute with parameters (amd_wmma, padded_shared, ...)
};

QString layoutKindName(LayoutKind kind);

// A layout (encoding) attribute, either an alias definition (`#blocked = #ttg.blocked<{...}>`) or
// one written inline in a type (pipeliner-internal dumps print no aliases). Fields that the
// attribute does not carry stay empty / -1.
struct LayoutAttr {
    QString alias;         // "blocked1" (without '#'); empty for inline layouts
    QString attrName;      // "ttg.blocked", "ttg.nvidia_mma", "triton_gpu.blocked", ...
    LayoutKind kind = LayoutKind::Other;
    QString params;        // raw text between the outer '<' and '>'
    int line = -1;         // 0-based line of the alias definition; -1 for inline layouts
    QVector<MlirAttribute> entries;  // params decoded as a dictionary when they are one

    QVector<int> sizePerThread, threadsPerWarp, warpsPerCTA, order;
    QVector<int> ctasPerCga, ctaSplitNum, ctaOrder;  // CTAsPerCGA, CTASplitNum, CTAOrder
    int versionMajor = -1, versionMinor = -1;         // nvidia_mma; amd_mfma's "version" -> major
    QVector<int> instrShape;
    int swizzlingByteWidth = -1;
    bool transposed = false;       // nvmma_shared "transposed", amd_mfma "isTransposed"
    int elementBitWidth = -1;
    int vec = -1, perPhase = -1, maxPhase = -1;       // swizzled_shared
    int opIdx = -1, kWidth = -1;                      // dot_op
    QString parent;                // dot_op / slice parent as written: "#mma", "#blocked"
    int parentIndex = -1;          // index of that parent in MlirModule::layouts, -1 if unknown
    int sliceDim = -1;             // slice "dim"

    QString displayName() const;   // "#blocked1", or the attribute text for inline layouts
};

// One `#locN = loc(...)` definition.
struct MlirLocationDef {
    QString alias;         // "loc3" (without '#')
    int line = -1;         // 0-based
    QString text;          // "loc(\"offs\"(#loc3))"
    LocationChain frames;  // resolved, innermost first
    QString locName;
};

// Any other alias definition (`!tt_ptr = !tt.ptr<f16>`, `#map = affine_map<...>`, `#smem = ...`).
struct MlirAliasDef {
    QString name;          // with its sigil: "#smem", "!tt_ptr"
    QString value;
    int line = -1;
};

// The header a per-pass dump starts with:
// `// -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: @k) //----- //`
// or the pipeliner's `// -----// SoftwarePipeliner internal IR Dump After: LowerLoops`.
struct PassDumpHeader {
    bool present = false;
    int line = -1;
    QString when;          // "Before" / "After"
    QString passName;      // "Canonicalizer", "SoftwarePipeliner internal: LowerLoops"
    QString passArgument;  // "canonicalize"; empty when the header names none
    QString anchorOp;      // "builtin.module", "tt.func"
    QString anchorSymbol;  // "k" for function-anchored dumps
    bool failed = false;   // "IR Dump After ... Failed"
};

struct MlirModule {
    QString path;
    int lineCount = 0;
    PassDumpHeader header;
    QVector<MlirOp> ops;                     // in text order (a parent precedes its children)
    QVector<LayoutAttr> layouts;             // alias definitions in text order, then inline ones
    QVector<MlirAttribute> moduleAttributes; // of the first `module attributes {...}`
    QVector<MlirLocationDef> locationDefs;   // in text order
    QVector<MlirAliasDef> aliases;
    QVector<LineKind> lineKinds;             // per text line, as in the listing
    QVector<int> opAtLine;                   // per text line: index of the op starting there, or -1

    QString moduleAttribute(const QString &key) const;  // raw value or empty
    int numWarps() const;                    // "ttg.num-warps", 0 when absent
    const LayoutAttr *layout(const QString &alias) const;  // by alias, with or without '#'
    const MlirOp *opAtTextLine(int line) const;            // the op starting on 0-based `line`
};

// Reads the whole text. `path` is used for errors only. Fails (naming path, 1-based line and
// column) on unbalanced brackets or quotes, a reference to an undefined location alias, a
// malformed loc(...), or text that ends inside an open region (a cut-off module).
Expected<MlirModule> readMlir(const QString &text, const QString &path = {});

// Whether a module read from a stage file has a stage's structure: a module or function op at
// the top (a dump anchored on a function prints only it) and function bodies that end in a
// terminator. An error when it has none (NotAStage, Truncated); else the defects read past
// (JunkLines: top-level ops outside any module or function), empty for a sound stage.
Expected<QVector<ReadError>> checkMlirStage(const MlirModule &module, const QStringList &textLines);
// 0-based lines of the ops checkMlirStage calls junk (top-level ones that are not a module or
// function, and everything inside them).
QVector<int> strayOpLines(const MlirModule &module);

// The same text as a listing, checked as a stage (checkMlirStage; empty text is an error, the
// junk lines it reports are Other, with no location): op lines are Instruction (opcode = op name, frames = resolved
// location), #alias/#loc definitions and `module` lines are Directive, function headers and
// `^bb` labels are Label, region-closing lines are Other. Multi-line ops: the first line carries
// the op's location. StageListing::stage is left empty for the caller to fill.
Expected<StageListing> readMlirListing(const QString &text, const QString &path = {});
StageListing toListing(const MlirModule &module, const QStringList &textLines);

// A one-line summary for the GUI: op name, its types, each layout it mentions, its location:
// "ttng.warp_group_dot -> tensor<128x128xf32, #mma> [#shared = nvmma_shared swizzlingByteWidth=128
// elementBitWidth=16] [#mma = nvidia_mma v3.0 warpsPerCTA=[8, 1] instrShape=[16, 128, 16]]
// @ /p/matmul.py:37:33".
QString opSummary(const MlirOp &op, const MlirModule &module);
QString layoutSummary(const LayoutAttr &layout);  // "blocked sizePerThread=[4] threadsPerWarp=[32] ..."

// --- Which ops a pass changed --------------------------------------------------------------
// Ops are compared as multisets keyed by (op name, source location). The location is the
// frame in `kernelFile` when given (so inlined helpers key on the kernel's line), else the
// innermost frame. SSA names are ignored (passes renumber them); with `compareTypes` the result
// types join the key, with layout aliases replaced by their definitions so that a renumbered
// alias (#blocked1 -> #blocked2) is no change but a new layout is. Restricting to `sourceLine`
// (> 0, 1-based, in the key's location) answers "which passes touched this source line".
struct OpDiffOptions {
    QString kernelFile;
    int sourceLine = 0;
    bool compareTypes = false;
};

struct OpChanges {
    QVector<int> added;    // 0-based lines in `after` of ops with no counterpart in `before`
    QVector<int> removed;  // 0-based lines in `before` of ops with no counterpart in `after`
    bool isEmpty() const { return added.isEmpty() && removed.isEmpty(); }
};

OpChanges diffOps(const MlirModule &before, const MlirModule &after, const OpDiffOptions &options = {});

// Lines of `after` whose ops are new relative to `before` (OpChanges::added).
QVector<int> changedOpLines(const MlirModule &before, const MlirModule &after,
                            const OpDiffOptions &options = {});

} // namespace strata::ir
