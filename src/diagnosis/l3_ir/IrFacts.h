#pragma once
// L3 facts: what the compiler made of each source line, read across the stages of one compile.
// TTGIR gives layouts, the dot op and its MMA version, async copies, multi-buffered shared
// memory and layout conversions; PTX gives global access widths, cp.async / TMA / wgmma / mma /
// fma instructions, shared-memory traffic and barriers; SASS gives access widths as issued and
// spills (STL/LDL); ptxas and metadata give registers and shared memory for the whole kernel.
// Only compiler facts are used, so the facts hold for any kernel.
#include "compile/LoadedCompile.h"
#include "core/Expected.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

namespace strata::diagnosis {

enum class DotKind { None, Wgmma, MmaV2, Fma };
QString dotKindName(DotKind kind);  // "none", "wgmma", "mma_v2", "fma"

// Global-memory instructions of one kind and width on a line.
struct GlobalAccess {
    QString stage;        // "ptx" or "sass"
    bool store = false;
    int vectorWidth = 1;  // registers per instruction: ld.global.v4 -> 4
    int elementBits = 0;  // bits per register: .b32 -> 32, .b16 -> 16; SASS: bits / vectorWidth
    int accessBits = 0;   // bits moved per instruction and thread: vectorWidth * elementBits
    int count = 0;        // instructions of exactly this shape on the line
    int firstIrLine = -1; // 0-based line in that stage's listing
    QString opcode;       // "ld.global.v4.b32", "LDG.E.128"
};

// A distributed layout used by a memory op (its blocked layout) or a dot (its MMA layout) on
// the line (TTGIR).
struct LineLayout {
    QString op;           // "tt.load", "ttg.async_copy_global_to_local", "tt.store", "ttng.warp_group_dot"
    int irLine = -1;      // 0-based TTGIR line
    QString layout;       // "#blocked1", "#mma"
    QString kind;         // "blocked", "nvidia_mma", ...
    QVector<int> sizePerThread, threadsPerWarp, warpsPerCTA, order;
    int mmaVersion = -1;       // nvidia_mma versionMajor
    QVector<int> instrShape;   // nvidia_mma instrShape ([16, 128, 16] for a wgmma)
    // Elements one thread holds contiguously along the fastest axis (sizePerThread[order[0]]).
    int contiguousPerThread() const;
};

struct SourceLineFacts {
    int line = 0;                    // 1-based line of the kernel file
    QVector<GlobalAccess> accesses;  // PTX and SASS global loads/stores
    QVector<LineLayout> layouts;
    DotKind dotKind = DotKind::None;
    QString dotOp;                   // "ttng.warp_group_dot", "tt.dot"
    int dotIrLine = -1;              // 0-based TTGIR line of the dot op
    QVector<int> dotShape;           // the dot result's tile ([M, N]; [B, M, N] batched), from its type
    QString dotOperandType;          // element type of the dot's first operand ("f32", "bf16", "f16", "f8E4M3FN")
    int mmaInstructions = 0;         // PTX wgmma.mma_async / mma.sync
    int fmaInstructions = 0;         // PTX fma.rn.f32
    int ttgirLoads = 0;              // tt.load ops (synchronous global loads)
    int scalarTtgirLoads = 0;        // of which loads of one value (a pointer, not a tensor of them)
    int asyncCopies = 0;             // TTGIR ttg.async_copy_global_to_local
    int cpAsync = 0;                 // PTX cp.async.* (not bulk)
    int tmaCopies = 0;               // TTGIR ttng.async_tma_copy_global_to_local
    int tmaInstructions = 0;         // PTX cp.async.bulk.tensor
    int buffers = 0;                 // largest multi-buffer depth of a local_alloc here (0: none)
    int convertLayouts = 0;          // TTGIR ttg.convert_layout
    int sharedStores = 0, sharedLoads = 0;  // PTX st.shared / ld.shared / stmatrix / ldmatrix
    int barriers = 0;                // PTX bar.sync / barrier.sync
    int spillStores = 0, spillLoads = 0;    // SASS STL / LDL
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
    QStringList ptxasWarnings;
    QStringList stagesRead;          // which stages the facts come from
    // The GPU IR (TTGIR) was read and is what it claims to be. Without it the rules that need
    // layouts, dot kinds or loop structure do not run: they would read TTIR in its place and
    // report an FMA dot or an unpipelined load that the real compile does not have.
    bool gpuIrRead = false;
    QStringList problems;            // degraded inputs, one sentence each (shown as warnings)
    QVector<SourceLineFacts> lines;  // ascending line, only lines with any fact

    const SourceLineFacts *line(int sourceLine) const;
    // A dot of the kernel runs on tensor-core MMA tiles (wgmma or mma.sync).
    bool hasMmaDot() const;
};

// Reads the facts of `compile`. The TTGIR is the last MLIR stage the backend declares; PTX and
// SASS are found by format. Missing, empty, unmapped, mislabelled or degraded stages (a defect in
// LoadedCompile::problems) leave their facts empty and add a sentence to `problems`; an
// unparsable TTGIR is an error naming its file and line.
Expected<KernelIrFacts> collectIrFacts(const LoadedCompile &compile);

QJsonObject toJson(const SourceLineFacts &facts);
QJsonObject toJson(const KernelIrFacts &facts);

} // namespace strata::diagnosis
