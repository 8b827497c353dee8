#pragma once
// Versioned JSON for a diagnosis (schema in docs/diagnosis.md). fromJson(toJson(d)) == d.
#include "core/Expected.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>

namespace strata::diagnosis {

// 2 added Finding.status (version 1 readers ignore it; 1 is read with the status derived from
// the L4 rule ids).
inline constexpr int kDiagnosisSchemaVersion = 2;
inline constexpr char kDiagnosisSchemaName[] = "strata.diagnosis";

QJsonObject toJson(const SourceSpan &span);
QJsonObject toJson(const Evidence &evidence);
QJsonObject toJson(const Finding &finding);
QJsonObject toJson(const Diagnosis &diagnosis);

// Reads a diagnosis. `origin` (a file name, or "<memory>") names the input in errors, which
// also give the JSON path of the bad field: "levels[0].findings[2].severity: unknown severity 'x'".
// A newer major version than this build knows is rejected.
Expected<Diagnosis> diagnosisFromJson(const QJsonObject &json, const QString &origin = {});
Expected<Finding> findingFromJson(const QJsonObject &json, const QString &origin = {});

} // namespace strata::diagnosis
