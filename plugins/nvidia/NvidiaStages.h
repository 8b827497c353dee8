#pragma once
// The NVIDIA pipeline as data, in one place: the plugin declares it, and code that must work
// without loading plugins (the app's fallback, tests, benchmarks) reads the same list.
// Stage ids equal the agent's artifact keys (agent/PROTOCOL.md).
#include "core/Stage.h"

#include <QVector>

namespace strata {

inline QVector<StageDescriptor> nvidiaStages()
{
    return {
        {QStringLiteral("source"), QStringLiteral("Source"), QStringLiteral(".py"), StageFormat::PythonSource, 0},
        {QStringLiteral("ttir"), QStringLiteral("TTIR"), QStringLiteral(".ttir"), StageFormat::MlirText, 1, {},
         QStringLiteral("ttg.")},
        {QStringLiteral("ttgir"), QStringLiteral("TTGIR"), QStringLiteral(".ttgir"), StageFormat::MlirText, 2,
         QStringLiteral("ttg.num-warps"), {}},
        {QStringLiteral("llir"), QStringLiteral("LLVM IR"), QStringLiteral(".llir"), StageFormat::LlvmIr, 3},
        {QStringLiteral("ptx"), QStringLiteral("PTX"), QStringLiteral(".ptx"), StageFormat::Ptx, 4},
        {QStringLiteral("sass"), QStringLiteral("SASS"), QStringLiteral(".sass"), StageFormat::Sass, 5},
    };
}

} // namespace strata
