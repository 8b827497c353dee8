#pragma once
// Loads that read a module-scope constant table of the PTX (libdevice's `__cudart_i2opi_f`, the
// 2/pi bits of sin/cos/tan argument reduction, taken only for huge arguments) are not accesses to
// the kernel's tensors: they say nothing about how the kernel's data is laid out or coalesced.
#include "core/StageListing.h"

#include <QSet>

namespace strata::nvidia {

// 0-based listing lines of the `ld.global*` instructions whose address derives (through any
// chain of register moves and arithmetic) from a `.global` or `.const` variable the module
// declares, rather than from a kernel parameter.
QSet<int> constantTableLoads(const StageListing &ptx);

} // namespace strata::nvidia
