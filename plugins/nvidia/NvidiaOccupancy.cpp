// The occupancy rules of NVIDIA SMs (NvidiaOccupancy.h).
#include "NvidiaOccupancy.h"

#include <algorithm>
#include <array>
#include <climits>

namespace strata::nvidia {

namespace {

int roundUp(int value, int unit)
{
    return unit <= 0 ? value : (value + unit - 1) / unit * unit;
}

// The limiter is the smallest CTA count; ties go to the first resource in this order (the one a
// kernel author can change most easily is not the point: the order is fixed so results are stable).
QString smallestLimit(const std::array<std::pair<const char *, int>, 4> &limits)
{
    const auto *smallest = std::min_element(limits.cbegin(), limits.cend(),
                                            [](const auto &a, const auto &b) { return a.second < b.second; });
    return QString::fromLatin1(smallest->first);
}

} // namespace

SmLimits SmLimits::forTarget(const QString &target)
{
    SmLimits limits;
    if (target == QLatin1String("sm_80")) {  // A100: 164 KiB shared per SM
        limits.sharedBytes = 167936;
        limits.maxSharedPerBlock = 166912;
    }
    return limits;  // sm_90 (H100/H200) and later Hopper-class defaults
}

Occupancy computeOccupancy(int registersPerThread, int sharedBytes, int warpsPerBlock, const SmLimits &limits)
{
    Occupancy occupancy;
    occupancy.source = QStringLiteral("static");
    const int warps = std::max(1, warpsPerBlock);
    const int registersPerWarp = roundUp(std::max(1, registersPerThread) * 32, limits.registerAllocationUnit);
    occupancy.blocksByRegisters = registersPerThread > limits.maxRegistersPerThread
        ? 0 : limits.registers / (registersPerWarp * warps);
    const int sharedPerBlock = sharedBytes + limits.reservedSharedPerBlock;
    occupancy.blocksBySharedMemory = sharedBytes > limits.maxSharedPerBlock ? 0
        : sharedBytes <= 0 ? limits.maxBlocks : limits.sharedBytes / sharedPerBlock;
    occupancy.blocksByWarps = limits.maxWarps / warps;
    occupancy.blocksBySlots = limits.maxBlocks;
    occupancy.activeBlocks = std::min({occupancy.blocksByRegisters, occupancy.blocksBySharedMemory,
                                       occupancy.blocksByWarps, occupancy.blocksBySlots});
    occupancy.activeWarps = occupancy.activeBlocks * warps;
    occupancy.theoretical = double(occupancy.activeWarps) / limits.maxWarps;
    occupancy.limiter = occupancy.activeBlocks == 0 ? QStringLiteral("launch")
        : occupancy.activeWarps >= limits.maxWarps ? QStringLiteral("none")
        : smallestLimit({{{"registers", occupancy.blocksByRegisters}, {"shared_memory", occupancy.blocksBySharedMemory},
                          {"warps", occupancy.blocksByWarps}, {"blocks", occupancy.blocksBySlots}}});
    return occupancy;
}

std::optional<Occupancy> occupancyFromProfile(const ProfiledKernel &kernel)
{
    const NcuSection *section = kernel.section(QStringLiteral("Occupancy"));
    if (!section)
        return std::nullopt;
    auto value = [&](const char *name) -> std::optional<double> {
        const NcuMetric *metric = section->metric(QString::fromLatin1(name));
        return metric ? metric->number() : std::nullopt;
    };
    const std::optional<double> theoretical = value("Theoretical Occupancy");
    if (!theoretical)
        return std::nullopt;
    Occupancy occupancy;
    occupancy.source = QStringLiteral("ncu");
    occupancy.blocksByRegisters = int(value("Block Limit Registers").value_or(INT_MAX));
    occupancy.blocksBySharedMemory = int(value("Block Limit Shared Mem").value_or(INT_MAX));
    occupancy.blocksByWarps = int(value("Block Limit Warps").value_or(INT_MAX));
    occupancy.blocksBySlots = int(value("Block Limit SM").value_or(INT_MAX));
    occupancy.activeBlocks = std::min({occupancy.blocksByRegisters, occupancy.blocksBySharedMemory,
                                       occupancy.blocksByWarps, occupancy.blocksBySlots});
    occupancy.activeWarps = int(value("Theoretical Active Warps per SM").value_or(0));
    occupancy.theoretical = *theoretical / 100.0;
    if (const std::optional<double> achieved = value("Achieved Occupancy"))
        occupancy.achieved = *achieved / 100.0;
    occupancy.limiter = occupancy.theoretical >= 1.0 ? QStringLiteral("none")
        : smallestLimit({{{"registers", occupancy.blocksByRegisters}, {"shared_memory", occupancy.blocksBySharedMemory},
                          {"warps", occupancy.blocksByWarps}, {"blocks", occupancy.blocksBySlots}}});
    return occupancy;
}

} // namespace strata::nvidia
