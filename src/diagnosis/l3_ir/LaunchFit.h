#pragma once
// L3 rules on the captured launch against the compiled kernel: the grid (from the spec that
// `diagnose TASK.py` and the loop fill from the launch) set against the target's compute units,
// which only the backend knows (BackendIrRules::launchFindings).
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>

namespace strata::diagnosis {

// The fraction of the compute units' time a grid of `programs` equal programs keeps busy when each
// unit works through its share one program's worth at a time: (programs / units) / ceil(programs /
// units). (LaunchFit.cpp)
double waveEfficiency(qint64 programs, int units);

// The default backend's launch rules (defaultIrRules().launchFindings; IrAttribution.cpp): a
// partial last wave of dot-loop programs (L3.wave-tail). Silent without a captured grid.
QVector<Finding> launchFitFindings(const KernelIrFacts &facts, const QJsonObject &spec);

} // namespace strata::diagnosis
