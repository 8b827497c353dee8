#include "core/Stage.h"

namespace strata {

QString formatName(StageFormat format)
{
    switch (format) {
    case StageFormat::PythonSource: return QStringLiteral("python");
    case StageFormat::MlirText: return QStringLiteral("mlir");
    case StageFormat::LlvmIr: return QStringLiteral("llvm-ir");
    case StageFormat::Ptx: return QStringLiteral("ptx");
    case StageFormat::Sass: return QStringLiteral("sass");
    case StageFormat::PlainText: return QStringLiteral("text");
    case StageFormat::Binary: return QStringLiteral("binary");
    }
    return QStringLiteral("text");
}

} // namespace strata
