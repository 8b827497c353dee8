#pragma once
// The Ascend pipeline as data (triton-ascend 3.2's add_stages, plus HIVM as bishengir-compile
// prints it): the plugin declares it, tests read the same list. Stage ids equal the agent's
// artifact keys and its `stages` entries (agent/PROTOCOL.md, "compile for an Ascend target").
#include "core/Stage.h"

#include <QVector>

namespace strata {

inline QVector<StageDescriptor> ascendStages()
{
    return {
        {QStringLiteral("source"), QStringLiteral("Source"), QStringLiteral(".py"), StageFormat::PythonSource, 0},
        // triton-ascend's TTIR holds no TritonGPU ops either: the same text as NVIDIA's TTIR.
        {QStringLiteral("ttir"), QStringLiteral("TTIR"), QStringLiteral(".ttir"), StageFormat::MlirText, 1, {},
         QStringLiteral("ttg.")},
        // Linalg/memref/scf from triton-adapter-opt; every kernel function carries mix_mode.
        {QStringLiteral("ttadapter"), QStringLiteral("ttadapter (Linalg)"), QStringLiteral(".ttadapter"),
         StageFormat::MlirText, 2, QStringLiteral("mix_mode"), QStringLiteral("tt.func")},
        // HIVM IR: bishengir-compile prints it only with CANN, never seen here, so whether it keeps
        // Python locations is unknown (ASCEND-NOTES open question 3): not checked for them.
        {QStringLiteral("hivm"), QStringLiteral("HIVM"), QStringLiteral(".hivm"), StageFormat::MlirText, 3, {}, {},
         false},
        {QStringLiteral("npubin"), QStringLiteral("NPU binary"), QStringLiteral(".npubin"), StageFormat::Binary, 4, {},
         {}, false},
    };
}

} // namespace strata
