#pragma once
// Stage descriptors: how a backend declares its pipeline as data (tritonparse's adapter idea).
#include <QString>
#include <QVector>

namespace strata {

// Which reader understands a stage's text. Readers live in src/ir/, backends only choose.
enum class StageFormat {
    PythonSource,
    MlirText,   // Triton TTIR/TTGIR, Ascend ttadapter/HIVM: custom-form MLIR text
    LlvmIr,
    Ptx,
    Sass,       // nvdisasm -c -g -gi output
    PlainText,  // logs and anything without locations
    Binary,     // an object file (cubin, Ascend npubin): listed with its size, never read as text
};

struct StageDescriptor {
    QString id;           // "ttgir"
    QString displayName;  // "TTGIR"
    QString fileSuffix;   // ".ttgir"
    StageFormat format = StageFormat::PlainText;
    int order = 0;        // position in the pipeline, source first
    // How this stage's text is told from another stage of the same format (TTIR and TTGIR are
    // both MLIR): text every file of it holds, and text none holds. Empty: not checked.
    QString signature;         // TTGIR: "ttg.num-warps" (its module attributes)
    QString foreignSignature;  // TTIR: "ttg." (TritonGPU ops and layouts appear only later)
    // Whether the stage's ops carry source locations the line map joins. A stage the backend
    // prints without them (or never saw print them) is shown but not checked for unmapped ops.
    bool carriesLocations = true;
};

QString formatName(StageFormat format);

} // namespace strata
