#pragma once
// The backend plugin interface (one Qt plugin per backend: plugins/nvidia, later plugins/ascend).
// A backend is data: its targets and its stage pipeline, each stage naming the reader format
// that understands it. Readers live in src/ir/ and are shared by all backends.
#include "core/Stage.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtPlugin>

namespace strata {

class BackendPlugin {
public:
    virtual ~BackendPlugin() = default;

    virtual QString id() const = 0;              // "nvidia"
    virtual QString displayName() const = 0;     // "NVIDIA (CUDA)"
    virtual QStringList targets() const = 0;     // {"sm_80", "sm_90", "sm_100"}
    virtual QString defaultTarget() const = 0;   // "sm_90"

    // The pipeline in order, source first. Stage ids equal the agent's artifact keys.
    virtual QVector<StageDescriptor> stages() const = 0;

    // Format of the per-pass dumps (MLIR text for every Triton backend so far).
    virtual StageFormat passDumpFormat() const { return StageFormat::MlirText; }

    // Backend-specific compile options a user may set, with defaults (num_warps, num_stages, ...).
    virtual QJsonObject defaultOptions() const = 0;
};

} // namespace strata

#define StrataBackendPlugin_iid "dev.strata.BackendPlugin/1.0"
Q_DECLARE_INTERFACE(strata::BackendPlugin, StrataBackendPlugin_iid)
