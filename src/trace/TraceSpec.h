#pragma once
// Rebuilds a compile spec (suites/samples/README.md: signature, constexprs, divisibility_16,
// equal_to_1, options, target) from one tritonparse compilation event, so a traced kernel can be
// read, diagnosed and recompiled like one compiled from a spec. tritonparse records no signature:
// the parameter names and their order come from the kernel's `def` in python_source, the types of
// runtime parameters from the TTIR's `tt.func` arguments, constexpr values and `tt.divisibility`
// hints from metadata.src_constants / src_attrs (keyed by parameter index, "(4,)").
#include "core/Expected.h"

#include <QJsonObject>
#include <QStringList>

namespace strata::trace {

struct PythonParam {
    QString name;
    QString annotation;  // "tl.constexpr", or empty
    bool isConstexpr() const { return annotation.contains(QLatin1String("constexpr")); }
};

// The parameters of `def kernel(...)` in `code`; empty when no such def is found.
QVector<PythonParam> pythonParams(const QString &code, const QString &kernel);

// Runtime parameters of the TTIR's `tt.func @kernel(...)`, name -> spec type ("*fp32", "i32").
// Types the spec cannot name are reported in `unsupported`.
QHash<QString, QString> ttirParamTypes(const QString &ttir, const QString &kernel, QStringList *unsupported);

// An MLIR type as a spec type: "!tt.ptr<f16>" -> "*fp16", "i32" -> "i32"; empty if unknown.
QString specType(const QString &mlirType);

// The spec of the compile in `payload` (a compilation event's payload). Fails, saying what is
// missing, when the def or the TTIR cannot be read.
Expected<QJsonObject> specFromCompilation(const QJsonObject &payload);

// Target name of a compile's metadata.target: {"backend": "cuda", "arch": 90} -> "sm_90".
QString targetName(const QJsonObject &metadata);

} // namespace strata::trace
