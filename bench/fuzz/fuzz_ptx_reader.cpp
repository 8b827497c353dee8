// fuzz_ptx_reader: arbitrary bytes as a compile's .ptx stage, loaded by loadCompile beside the
// fixture's real SASS, so the fuzzed PTX also feeds the SASS call-site adoption
// (adoptCallSitesFromPtx, resolvePtxTextFrames) as it does in every NVIDIA compile, then queried
// as the GUI's panes and `strata-cli map` query it.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strata::fuzz::loadCompileWithStage(QStringLiteral("ptx"), data, size, {QStringLiteral("sass")});
    return 0;
}
