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

#include <functional>

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

// Triton's GPUTarget of a compile as tritonparse records it (metadata.target: {"backend", "arch",
// "warp_size"}) to the target id of the backend that owns it (PluginRegistry::targetFromTriton):
// each backend names its own targets. Empty: no backend claims it.
using TargetNamer = std::function<QString(const QJsonObject &tritonTarget)>;

// The spec of the compile in `payload` (a compilation event's payload), its target named by
// `namer`. Fails, saying what is missing, when the def or the TTIR cannot be read.
Expected<QJsonObject> specFromCompilation(const QJsonObject &payload, const TargetNamer &namer);

// Target name of a compile's metadata.target by `namer`; when no namer is given or no backend
// claims it, the arch if Triton gives it as a name, else empty (unknown).
QString targetName(const QJsonObject &metadata, const TargetNamer &namer);

} // namespace strata::trace
