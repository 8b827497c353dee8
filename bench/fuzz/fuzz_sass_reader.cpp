// fuzz_sass_reader: arbitrary bytes as a compile's .sass stage (nvdisasm -c -g -gi text), loaded
// by loadCompile beside the fixture's real PTX, whose call sites and PTX-text frames the fuzzed
// SASS adopts (adoptCallSitesFromPtx, resolvePtxTextFrames), then queried as the GUI's panes and
// `strata-cli map` query it.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strata::fuzz::loadCompileWithStage(QStringLiteral("sass"), data, size, {QStringLiteral("ptx")});
    return 0;
}
