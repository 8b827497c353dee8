// fuzz_llvm_ir_reader: arbitrary bytes as a compile's .llir stage, read by LLVM 22's parser
// through the stage reader (readLlvmIrListing), checked for locations and mapped by loadCompile,
// then queried as the GUI's panes and `strata-cli map` query it. LLVM itself is not instrumented
// (Debian's libLLVM), so coverage guides through Strata's side of the reader only.
#include "FuzzSupport.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    strata::fuzz::loadCompileWithStage(QStringLiteral("llir"), data, size);
    return 0;
}
