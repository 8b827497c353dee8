#pragma once
// LLVM IR stage reader. Parses the text with LLVM 22's own parser (so anything LLVM accepts reads,
// and anything it rejects gives LLVM's own message and position) and ties each llvm::Instruction
// to its text line through llvm::AsmParserContext. LLVM types stay inside the .cpp.
#include "core/Expected.h"
#include "core/StageListing.h"

#include <QString>
#include <QVector>

namespace strata::ir {

struct LlvmInstructionInfo {
    int line = -1;           // 0-based index into the listing
    QString function;        // enclosing function's name
    QString opcode;          // LLVM's opcode name: "load", "call", "getelementptr", ...
    QString inlineAsm;       // for a call to inline asm: the asm text (Triton emits PTX this way)
    LocationChain frames;    // DILocation chain, innermost first
};

struct LlvmFunctionInfo {
    QString name;
    int headerLine = -1;     // the `define` line (0-based); -1 for declarations
    int lastLine = -1;       // the closing brace
    int instructionCount = 0;
    bool isDeclaration = false;
};

struct LlvmModule {
    StageListing listing;
    QVector<LlvmFunctionInfo> functions;
    QVector<LlvmInstructionInfo> instructions;  // in text order
};

// The richer form: listing plus per-function and per-instruction detail.
Expected<LlvmModule> readLlvmIrModule(const QString &text, const QString &path = {});

// Just the listing (stage id "llir"), checked as a stage: a module that defines no function is
// an error (Truncated). Errors carry LLVM's line, column and message, typed (ProblemKind).
Expected<StageListing> readLlvmIrListing(const QString &text, const QString &path = {});

// The version of the LLVM whose parser this reader uses ("22.1.0"), for reports and --version.
QString llvmVersion();

} // namespace strata::ir
