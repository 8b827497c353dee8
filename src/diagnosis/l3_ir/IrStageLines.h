#pragma once
// Helpers every backend's L3 fact reader shares: which stage of a compile to read, whether it is
// degraded, its instruction lines attributed to kernel source lines, and the bytes of an MLIR tile.
#include "compile/LoadedCompile.h"
#include "diagnosis/l3_ir/BackendIrRules.h"

#include <QStringList>

namespace strata::diagnosis {

// The last stage of `format` that was read, or nullptr.
const StageDescriptor *lastStageOf(const LoadedCompile &compile, StageFormat format);

// Whether `stage` loaded with defects (junk lines, locations that point nowhere): its facts would
// be partial, so L3 does not read it, and says so in `problems`.
bool degradedStage(const LoadedCompile &compile, const StageDescriptor &stage, QStringList &problems);

struct InstructionCount {
    int instructions = 0;
    int attributed = 0;  // with a kernel source line
};

// Calls `add(opcode, irLine, facts)` for every instruction line of `listing` with a kernel line.
InstructionCount forEachAttributedInstruction(const StageListing &listing, const LocationMap &map, const LineFactsAt &lineAt,
                                              const std::function<void(const QString &, int, SourceLineFacts &)> &add);

// A machine-code stage that read but gives L3 nothing to attribute is degraded, not clean.
void noteUnattributed(const StageDescriptor &stage, const InstructionCount &count, QStringList &problems);

// Bytes of the first tile in MLIR `types`: a tensor or shared buffer of values or of pointers
// ("tensor<64x!tt.ptr<f16>>" -> 128), or one scalar ("f32", "!tt.ptr<bf16>"); 0 when none.
double firstTileBytes(const QString &types);

} // namespace strata::diagnosis
