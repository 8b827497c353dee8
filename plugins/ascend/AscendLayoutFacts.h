#pragma once
// L3 facts of an Ascend compile about how its tiles and launch fit the NPU (ASCEND-NOTES.md
// sections 2 and 6): a tile whose last axis is not a multiple of 32 bytes (ttadapter buffers), a
// tl.make_block_ptr with strides known only at launch (TTIR, triton-ascend#1673) and a captured
// grid larger than the AI cores it runs on. Each finding carries its estimated share of the time
// (GapShare, estimate): the padding's share, the one published slowdown's share, the last round's
// idle cores. AscendFacts.cpp runs them with its own rules.
#include "host/BackendPlugin.h"

#include <optional>

namespace strata::ascend {

QVector<diagnosis::Finding> unalignedTailFindings(const StageListing &ttadapter, const QString &sourcePath);
QVector<diagnosis::Finding> runtimeBlockPtrFindings(const StageListing &ttir, const QString &sourcePath);
// `mixMode`: the kernel's mix_mode ("aiv", "mix"); `kernelSpan`: where the finding points.
std::optional<diagnosis::Finding> gridOverCoresFinding(const BackendIrInput &input, const QString &mixMode,
                                                       const diagnosis::SourceSpan &kernelSpan);

} // namespace strata::ascend
