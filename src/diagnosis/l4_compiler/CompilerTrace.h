#pragma once
// The compiler's own account of its decisions, from the LLVM_DEBUG lines the agent keeps
// (compile artifact "debug_trace", TRITON_LLVM_DEBUG_ONLY=axis-info,tritongpu-coalesce,
// triton-loop-pipeline):
//   tritongpu-coalesce, per tt.load / tt.store: the pointer's axis info (contiguity and
//     divisibility per dimension) and the elements per thread it chose from them;
//   axis-info at lowering: the mask's alignment, which caps the vector width when a bound is not
//     known to be divisible;
//   triton-loop-pipeline, per load in a loop: its copy width and why it was not pipelined.
// Ops carry no source location here; they are matched to findings by op, shape and element type.
#include "core/Expected.h"

#include <QString>
#include <QVector>

namespace strata::diagnosis {

struct TracedAccess {
    QString op;       // "tt.load", "tt.store"
    QString value;    // "%91" for loads; empty for stores
    QString shape;    // "128x64"
    QString element;  // "f16"
    QVector<int> contiguity;    // of the pointer, per dimension
    QVector<int> divisibility;  // of the pointer, in bytes, per dimension
    int perThread = 0;          // elements per thread coalescing chose (0: not traced)
};

struct TracedPipelineLoad {
    QString value;    // "%85"
    QString shape, element;
    int widthBits = 0;    // "has width N" (0: not traced)
    QString verdict;      // "is too small for pipelining", ...; empty when pipelined without a note
};

struct CompilerTrace {
    QVector<TracedAccess> accesses;
    QVector<TracedPipelineLoad> pipelineLoads;
    QVector<int> maskAlignments;  // getMaskAlignment's result for each masked access at lowering

    bool isEmpty() const { return accesses.isEmpty() && pipelineLoads.isEmpty() && maskAlignments.isEmpty(); }
    // The first traced access / pipeline load of this op kind, shape and element type.
    const TracedAccess *access(const QString &op, const QString &shape, const QString &element) const;
    const TracedPipelineLoad *pipelineLoad(const QString &shape, const QString &element) const;
};

CompilerTrace parseCompilerTrace(const QString &text);
// The shape and element type of the first tensor of pointers in an op's text
// ("tensor<128x64x!tt.ptr<f16>, ...>" -> "128x64", "f16"); false when there is none.
bool pointerTensorOf(const QString &opText, QString *shape, QString *element);
Expected<CompilerTrace> readCompilerTrace(const QString &path);

} // namespace strata::diagnosis
