#pragma once
// L3 facts: what the compiler made of each source line, read across the stages of one compile.
// The GPU IR (TTGIR) gives layouts, the dot op and the unit it runs on, async copies,
// multi-buffered shared memory and layout conversions; the backend's machine-code stages
// (BackendIrRules.h reads them) give global access widths, async and bulk-tensor copy, matrix and
// FMA instructions, shared-memory traffic, barriers, access widths as issued and spills; its
// assembler and the metadata give registers and shared memory for the whole kernel. Only compiler
// facts are used, so the facts hold for any kernel.
#include "compile/LoadedCompile.h"
#include "core/Expected.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata::diagnosis {

// The unit a dot runs on: the matrix unit issued asynchronously by a group of warps, the matrix
// unit issued by each warp synchronously, or FMA on the ordinary cores.
enum class DotKind { None, AsyncMatrix, SyncMatrix, Fma };
QString dotKindName(DotKind kind);  // "none", "async_matrix", "sync_matrix", "fma"

// Global-memory instructions of one kind and width on a line.
struct GlobalAccess {
    QString stage;        // the machine-code stage's id (the backend's)
    bool store = false;
    int vectorWidth = 1;  // registers per instruction: ld.global.v4 -> 4
    int elementBits = 0;  // bits per register (a 32-bit register: 32); for wide instructions: bits / vectorWidth
    int accessBits = 0;   // bits moved per instruction and thread: vectorWidth * elementBits
    int count = 0;        // instructions of exactly this shape on the line
    int firstIrLine = -1; // 0-based line in that stage's listing
    QString opcode;       // the instruction as the stage writes it
};

// A distributed layout used by a memory op (its blocked layout) or a dot (its MMA layout) on
// the line (TTGIR).
struct LineLayout {
    QString op;           // "tt.load", "ttg.async_copy_global_to_local", "tt.store", a dot op
    int irLine = -1;      // 0-based TTGIR line
    QString layout;       // "#blocked1", "#mma"
    QString kind;         // "blocked", the backend's matrix-unit layout kind, ...
    QVector<int> sizePerThread, threadsPerWarp, warpsPerCTA, order;
    int mmaVersion = -1;       // the matrix-unit layout's versionMajor
    QVector<int> instrShape;   // the matrix-unit layout's instrShape ([16, 128, 16])
    // Elements one thread holds contiguously along the fastest axis (sizePerThread[order[0]]).
    int contiguousPerThread() const;
};

struct SourceLineFacts {
    int line = 0;                    // 1-based line of the kernel file
    QVector<GlobalAccess> accesses;  // global loads/stores of the machine-code stages
    QVector<LineLayout> layouts;
    DotKind dotKind = DotKind::None;
    QString dotName;                 // what the backend calls that dot's instruction; empty: dotKindName
    QString dotOp;                   // the GPU IR's dot op ("tt.dot", or the backend's own)
    int dotIrLine = -1;              // 0-based TTGIR line of the dot op
    QVector<int> dotShape;           // the dot result's tile ([M, N]; [B, M, N] batched), from its type
    QString dotOperandType;          // element type of the dot's first operand ("f32", "bf16", "f16", "f8E4M3FN")
    int mmaInstructions = 0;         // machine-code matrix-unit instructions
    int fmaInstructions = 0;         // machine-code fp32 FMA instructions
    int integerDivisions = 0;        // machine-code integer divides / remainders by a run-time value
    int ttgirLoads = 0;              // tt.load ops (synchronous global loads)
    int scalarTtgirLoads = 0;        // of which loads of one value (a pointer, not a tensor of them)
    int asyncCopies = 0;             // TTGIR ttg.async_copy_global_to_local
    int asyncCopyInstructions = 0;   // machine-code async global-to-shared copies (not bulk)
    int bulkTensorCopies = 0;        // GPU IR bulk tensor (descriptor) copies
    int bulkTensorInstructions = 0;  // machine-code bulk tensor copies
    int buffers = 0;                 // largest multi-buffer depth of a local_alloc here (0: none)
    int convertLayouts = 0;          // TTGIR ttg.convert_layout
    int sharedStores = 0, sharedLoads = 0;  // machine-code shared-memory stores / loads
    int barriers = 0;                // machine-code block barriers
    int spillStores = 0, spillLoads = 0;    // machine-code local-memory spill stores / loads
    bool inLoop = false;             // a TTGIR op of this line sits in an scf.for / scf.while
    double globalBytes = 0;          // bytes one execution of the line's TTGIR loads, stores and copies moves

    // Smallest / largest accessBits among loads (or stores) in `stage`; 0 when there are none.
    int minAccessBits(const QString &stage, bool store) const;
    int maxAccessBits(const QString &stage, bool store) const;
    int accessCount(const QString &stage, bool store) const;
};

struct KernelIrFacts {
    QString kernel;
    QString sourcePath;
    QString target;
    int numWarps = 0, numStages = 0;
    int registers = -1;
    int spillStoreBytes = 0, spillLoadBytes = 0, stackBytes = 0;
    int staticSharedBytes = 0, dynamicSharedBytes = 0;
    QStringList assemblerWarnings;
    QStringList stagesRead;          // which stages the facts come from
    // The GPU IR (TTGIR) was read and is what it claims to be. Without it the rules that need
    // layouts, dot kinds or loop structure do not run: they would read TTIR in its place and
    // report an FMA dot or an unpipelined load that the real compile does not have.
    bool gpuIrRead = false;
    QStringList problems;            // degraded inputs, one sentence each (shown as warnings)
    QVector<SourceLineFacts> lines;  // ascending line, only lines with any fact

    const SourceLineFacts *line(int sourceLine) const;
    // A dot of the kernel runs on the matrix unit (either kind).
    bool hasMmaDot() const;
};

// The name a line's dot goes by: the backend's (dotName) when it gave one, else dotKindName.
QString dotLabel(const SourceLineFacts &facts);

// Reads the facts of `compile`. The TTGIR is the last MLIR stage the backend declares; the
// machine-code stages are the backend's (BackendIrRules). Missing, empty, unmapped, mislabelled or degraded stages (a defect in
// LoadedCompile::problems) leave their facts empty and add a sentence to `problems`; an
// unparsable TTGIR is an error naming its file and line.
Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile);

QJsonObject toJson(const SourceLineFacts &facts);
QJsonObject toJson(const KernelIrFacts &facts);

} // namespace strata::diagnosis
