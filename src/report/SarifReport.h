#pragma once
// Diagnosis findings as SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), for code
// scanning tools and editors: one rule per finding rule id, one result per ranked finding with
// its source location, level from severity (high: error, medium: warning, low: note, info:
// none) and the finding's cause as the message; rank, status, confidence and evidence go in the
// result's property bag.
#include "diagnosis/ladder/Ladder.h"

#include <QJsonObject>
#include <QString>

namespace strata::report {

struct SarifOptions {
    QString toolVersion;      // the driver's version (STRATA_VERSION)
    QString sourceRoot;       // when set, file paths under it become relative URIs with uriBaseId SRCROOT
};

QJsonObject sarifLog(const diagnosis::LadderResult &result, const SarifOptions &options = {});
QString sarifLevel(diagnosis::Severity severity);

} // namespace strata::report
