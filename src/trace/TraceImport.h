#pragma once
// Turns one compiled kernel of a tritonparse trace into an ordinary compile folder, the same as
// `strata-cli compile --out` writes: the kernel source, one file per IR stage and compile.json
// with the spec rebuilt from the trace (TraceSpec.h) and the launch's grid. Everything that reads
// compile folders (the panes, `map`, the diagnosis ladder, counterfactual recompiles) then reads
// a traced kernel without knowing it came from a trace.
#include "compile/CompileResult.h"
#include "trace/TritonParseTrace.h"

namespace strata::trace {

// Writes the folder (created if missing) and returns its compile result, read back from
// DIR/compile.json. metadata.tritonparse records where it came from (trace, line, hash,
// autotune role, launches).
Expected<CompileResult> importKernel(const TraceIndex &trace, int kernelIndex, const QString &outDir);

// A kernel of the index as JSON (label, name, hash, line, target, config, stages, source file,
// spec, launches, autotune role): what `strata-cli trace --json` lists.
QJsonObject kernelJson(const TraceKernel &kernel);

// The kernel source as a file: tritonparse keeps either the whole file or only the function's
// lines (start_line onwards). The function alone is put back at its own line numbers, so IR
// locations point at the right lines, after the imports Triton kernels need.
QString sourceFileText(const QJsonObject &pythonSource);

} // namespace strata::trace
