#pragma once
// strata-cli diagnose: the diagnosis ladder on one kernel (compiled now) or on a compile folder.
#include "diagnosis/ladder/Ladder.h"

#include <QStringList>
#include <QTextStream>

namespace strata::cli {

int runDiagnose(const QStringList &args);

// The readable report: ranked findings with their source line, evidence and status, then the
// escalation log. `sourceText` is the kernel source as compiled (for the quoted lines).
void printDiagnosis(QTextStream &stream, const diagnosis::LadderResult &result, const QString &sourceText);

} // namespace strata::cli
