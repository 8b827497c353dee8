#pragma once
// L3 facts of an Ascend compile, read from its ttadapter (Linalg/memref) listing: where
// triton-ascend runs the kernel (cube and vector cores, or vector only), the loads and stores it
// split into element-by-element loops, the integer vector ops the NPU may run on its scalar unit,
// and the masked loads that fill their padding first (ASCEND-NOTES.md sections 2 and 6). Each
// finding cites the ttadapter line it rests on. HIVM, where the compiler's final choices show,
// needs CANN and was never read here: these are what ttadapter already tells.
#include "host/BackendPlugin.h"

namespace strata::ascend {

// Rule ids, stable for JSON and tests.
inline constexpr const char *kCoreMixRule = "L3.ascend-core-mix";
inline constexpr const char *kDiscreteAccessRule = "L3.ascend-discrete-access";
inline constexpr const char *kScalarFallbackRule = "L3.ascend-scalar-fallback-risk";
inline constexpr const char *kPaddingFillRule = "L3.ascend-masked-load-fill";
inline constexpr const char *kUnalignedTailRule = "L3.ascend-unaligned-tail";          // AscendLayoutFacts
inline constexpr const char *kRuntimeBlockPtrRule = "L3.ascend-runtime-block-ptr-stride";
inline constexpr const char *kGridOverCoresRule = "L3.ascend-grid-over-cores";

// Every rule over the compile's ttadapter (and TTIR, and the captured launch where the input has
// one: AscendLayoutFacts.h); none when ttadapter was not read.
QVector<diagnosis::Finding> irFindings(const BackendIrInput &input);

} // namespace strata::ascend
