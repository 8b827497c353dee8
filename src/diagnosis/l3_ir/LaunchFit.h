#pragma once
// L3 rules on the captured launch against the compiled kernel: the grid (from the spec that
// `diagnose TASK.py` and the loop fill from the launch) set against how many CTAs of this compile
// an SM holds (registers, shared memory, warps from ptxas and the metadata).
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>

namespace strata::diagnosis {

// The fraction of SM time a grid of `programs` equal programs keeps busy when each SM works
// through its share one program's worth at a time: (programs / sms) / ceil(programs / sms).
double waveEfficiency(qint64 programs, int sms);

// L3.wave-tail: a kernel whose programs each run a dot loop (compute-heavy, long, equal) on a
// grid that leaves a last partial wave: the SMs with one program fewer idle while the others
// finish. Silent without a grid, an SM count, a dot in a loop, or with fewer programs than SMs
// (L1.under-filled-grid's case).
QVector<Finding> launchFitFindings(const KernelIrFacts &facts, const QJsonObject &spec);

} // namespace strata::diagnosis
