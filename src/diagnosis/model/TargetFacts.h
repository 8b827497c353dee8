#pragma once
// Facts of the GPUs a compile target names that rules on the launch need (the grid against the
// machine). One place, so L1 (the captured grid) and L3 (the grid against the compiled kernel's
// CTAs per SM) count the same SMs.
#include <QString>

namespace strata::diagnosis {

// Streaming multiprocessors of the GPU a target names (the H100/H200 SXM for sm_90, B200 for
// sm_100, A100 for sm_80); 0 when unknown, which turns the launch rules off.
inline int smCount(const QString &target)
{
    if (target.startsWith(QLatin1String("sm_100")))
        return 148;
    if (target.startsWith(QLatin1String("sm_90")))
        return 132;
    if (target.startsWith(QLatin1String("sm_80")))
        return 108;
    return 0;
}

// Peak DRAM bandwidth in bytes per second of the slowest GPU a target names (H100 SXM's 3.35 TB/s
// for sm_90, though an H200 reaches 4.8): a lower bound's time for static estimates, which it
// makes conservative (a longer bound leaves a smaller share to a finding). 0 when unknown.
inline double dramBytesPerSecond(const QString &target)
{
    if (target.startsWith(QLatin1String("sm_100")))
        return 8.0e12;
    if (target.startsWith(QLatin1String("sm_90")))
        return 3.35e12;
    if (target.startsWith(QLatin1String("sm_80")))
        return 2.0e12;
    return 0;
}

} // namespace strata::diagnosis
