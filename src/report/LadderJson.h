#pragma once
// Reads back what `strata-cli diagnose --json` writes: the diagnosis (schema strata.diagnosis)
// plus its "ranking" (rank, status, rule, level, line), so a report made from a DIAGNOSIS.json
// ranks and labels findings exactly as the ladder did.
#include "core/Expected.h"
#include "diagnosis/ladder/Ladder.h"

#include <QJsonObject>

namespace strata::report {

// A diagnosis without "ranking" gets every finding, most severe first, with status "not ranked".
Expected<diagnosis::LadderResult> ladderResultFromJson(const QJsonObject &json, const QString &origin);
Expected<diagnosis::LadderResult> readLadderResultFile(const QString &path);

} // namespace strata::report
