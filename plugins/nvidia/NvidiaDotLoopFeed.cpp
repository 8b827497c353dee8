// The NVIDIA backend's part of the dot-loop feed model (ladder/DotLoopFeed.h): which dots the
// tensor cores run and where they read their operands from (wgmma, mma.sync), the PTX
// instructions that run on the special-function unit, Hopper's per-SM rates, and the recipe that
// gives a dot a larger tile.
#include "NvidiaIrRules.h"

#include "compile/LoadedCompile.h"
#include "NvidiaTargets.h"

#include <algorithm>

namespace strata::nvidia {

using namespace strata::diagnosis;

namespace {

// Hopper (sm_90) per-SM rates, from NVIDIA's H100 SXM figures: 989 dense fp16 TFLOP/s over 132
// SMs at 1.83 GHz is 4096 FLOP per clock (8-bit operands twice that, tf32 half); 33 TB/s of
// shared memory is 128 bytes per clock; 3.9 TFLOP/s of special functions is 16 per clock.
constexpr double kHopperDenseBytesFlopsPerClock = 8192;   // FLOP per clock x operand bytes
constexpr double kHopperSharedBytesPerClock = 128;
constexpr double kHopperSpecialPerClock = 16;
constexpr double kHopperClockHz = 1.83e9;

} // namespace

DotFeed NvidiaIrRules::dotFeed(const SourceLineFacts &line, const QString &target) const
{
    switch (line.dotKind) {
    case DotKind::AsyncMatrix:
        // wgmma reads a memdesc operand from shared memory and a tensor operand from registers.
        return DotFeed{DotFeed::Use::Counted, false};
    case DotKind::SyncMatrix:
        // A dot on mma.sync where wgmma exists is L3.mma-sync-dot's mechanism (the tile that ruled
        // wgmma out). Elsewhere mma.sync loads both operands from shared memory through ldmatrix.
        if (isHopperTarget(target))
            return DotFeed{DotFeed::Use::NamedElsewhere, true};
        return DotFeed{DotFeed::Use::Counted, true};
    case DotKind::Fma:
    case DotKind::None:
        break;
    }
    return {};
}

std::optional<ComputeUnitRates> NvidiaIrRules::computeUnitRates(const QString &target, int operandBytes) const
{
    if (!isHopperTarget(target) || operandBytes <= 0)
        return std::nullopt;
    ComputeUnitRates rates;
    rates.tensorFlopsPerClock = kHopperDenseBytesFlopsPerClock / operandBytes;
    rates.sharedBytesPerClock = kHopperSharedBytesPerClock;
    rates.specialPerClock = kHopperSpecialPerClock;
    rates.clockHz = kHopperClockHz;
    const TargetLimits limits = nvidiaTargetLimits(target);
    rates.units = limits.computeUnits;
    rates.dramBytesPerSecond = limits.dramBytesPerSecond;
    return rates;
}

// PTX instructions that run on the special-function unit (the MUFU pipe).
int NvidiaIrRules::specialFunctionOps(const LoadedCompile &compile, int sourceLine) const
{
    const StageListing *ptx = compile.listing(QStringLiteral("ptx"));
    if (!ptx)
        return 0;
    static const QStringList prefixes{QStringLiteral("ex2."), QStringLiteral("lg2."), QStringLiteral("rsqrt."),
                                      QStringLiteral("rcp.approx"), QStringLiteral("sin."), QStringLiteral("cos."),
                                      QStringLiteral("tanh.")};
    int count = 0;
    for (int irLine : compile.map.linesForSource(QStringLiteral("ptx"), sourceLine)) {
        if (irLine < 0 || irLine >= ptx->lines.size())
            continue;
        const QString &opcode = ptx->lines[irLine].opcode;
        if (std::any_of(prefixes.cbegin(), prefixes.cend(), [&](const QString &p) { return opcode.startsWith(p); }))
            ++count;
    }
    return count;
}

QStringList NvidiaIrRules::dotTileRecipes() const
{
    return {QStringLiteral("hopper-dot-tile")};
}

} // namespace strata::nvidia
