#pragma once
// The backend plugin interface (one Qt plugin per backend: plugins/nvidia, plugins/ascend).
// A plugin owns what only its backend knows: its targets, its stage pipeline (each stage naming
// the reader format that understands it and whether it carries source locations), how a compile
// of it is summarised, the L3 facts it reads from its own stages, the L2 findings it reads from its
// own profiler's figures and the published ceilings of its parts. Readers live in src/ir/ and
// are shared by all backends; the core never names a backend's registers, modes or tools.
// docs/backends.md says how to add a backend.
#include "compile/CompileResult.h"
#include "core/Stage.h"
#include "core/StageListing.h"
#include "diagnosis/model/Finding.h"
#include "diagnosis/model/TargetFacts.h"
#include "tasks/ProfileResult.h"
#include "tasks/Timing.h"

#include <QJsonObject>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QtPlugin>

namespace strata {

namespace diagnosis {
class BackendIrRules;
class BackendProfileRules;
} // namespace diagnosis

namespace rewrite::recipes {
class BackendRecipes;
} // namespace rewrite::recipes

// The one-line account of a compile the app's status bar shows beside kernel and target.
struct CompileHeadline {
    QString text;            // "Registers: 128, spills: 0 B store / 0 B load", "Mode: aiv (vector cores)"
    bool alarming = false;   // drawn as a warning (register spills)
};

// What a backend's L3 fact collector reads: the compile and the stages that were read, by id.
// Only plain data, so a plugin needs none of the core's libraries to read it.
struct BackendIrInput {
    const CompileResult *result = nullptr;
    QVector<const StageListing *> listings;   // pipeline order; each listing's `stage` is its id
    // The launch spec: the compile's, plus what a captured launch says ("grid", "launches": the
    // keys of launchSpecKeys()) when the diagnosis has one; empty otherwise.
    QJsonObject launch;

    const StageListing *listing(const QString &stageId) const
    {
        for (const StageListing *candidate : listings)
            if (candidate->stage == stageId)
                return candidate;
        return nullptr;
    }
};

// What a backend's L2 reader gets: the measurements of one kernel (any may be null) and where
// its findings point.
struct BackendProfileInput {
    const ProfileResult *profile = nullptr;   // a `profile` reply whose status is ok
    const Timing *timing = nullptr;           // a `time` reply
    QString kernel;                           // the kernel function
    QString sourcePath;                       // the kernel's file
    QString target;                           // the compile's target ("ascend910_95")
};

// The published ceilings of the part a target names, for a lower bound on a launch's time. Each
// figure is optional: a backend whose vendor publishes no number leaves it unknown (and says so
// in `unknown`) rather than guess.
struct BackendCeilings {
    std::optional<double> copyBandwidthGbs;   // device memory bandwidth, GB/s
    QMap<QString, double> peakTflops;         // per precision ("fp8": 1000); absent: unknown
    QString part;                             // which part the figures are of ("Ascend 950PR")
    QString source;                           // where they were published
    QStringList unknown;                      // what is not published ("fp16 peak: unpublished")

    bool isEmpty() const { return !copyBandwidthGbs && peakTflops.isEmpty(); }
};

// The environment a backend's runtime reads to see only some of the host's devices: `variable`
// takes a comma list of device indices (CUDA_VISIBLE_DEVICES, ASCEND_RT_VISIBLE_DEVICES), and
// `orderVariables` make those indices the ones the agent's `info` reports (set only when this
// side chose the indices, not when it kept a list someone else set).
struct DeviceMask {
    QString variable;
    QVector<QPair<QString, QString>> orderVariables;

    bool isEmpty() const { return variable.isEmpty(); }
};

class BackendPlugin {
public:
    virtual ~BackendPlugin() = default;

    virtual QString id() const = 0;              // "nvidia"
    virtual QString displayName() const = 0;     // "NVIDIA (CUDA)"
    virtual QStringList targets() const = 0;     // {"sm_80", "sm_90", "sm_100"}
    virtual QString defaultTarget() const = 0;   // "sm_90"

    // The pipeline in order, source first. Stage ids equal the agent's artifact keys.
    virtual QVector<StageDescriptor> stages() const = 0;
    // The pipeline for one of targets(); the same for every target unless a backend says otherwise.
    virtual QVector<StageDescriptor> stagesFor(const QString &target) const
    {
        Q_UNUSED(target);
        return stages();
    }

    // Format of the per-pass dumps (MLIR text for every Triton backend so far).
    virtual StageFormat passDumpFormat() const { return StageFormat::MlirText; }

    // Backend-specific compile options a user may set, with defaults (num_warps, num_stages, ...).
    virtual QJsonObject defaultOptions() const = 0;

    // Artifact keys `strata-cli compile` lists under "Stages:", in order: the stage ids unless the
    // backend produces artifacts that are no stage of their own.
    virtual QStringList summaryArtifacts(const QString &target) const
    {
        QStringList ids;
        for (const StageDescriptor &stage : stagesFor(target))
            ids.append(stage.id);
        return ids;
    }

    // The lines `strata-cli compile` prints after the stage list: what the backend's compiler
    // said of the compile as a whole (NVIDIA: ptxas registers and spills; Ascend: the kernel's
    // cube/vector mode).
    virtual QStringList summaryLines(const CompileResult &result) const = 0;
    // The same in one short field for the app's status bar.
    virtual CompileHeadline headline(const CompileResult &result) const = 0;

    // Whether the core's L3/L4 (src/diagnosis: the GPU IR's facts, with irRules() for the rest, and
    // L4's counterfactuals over them) applies to this backend's stages. A backend that says false
    // gets its irFindings() for L3 and no L4, and the ladder logs why.
    virtual bool usesCoreIrRules() const { return false; }
    // L3 findings the backend reads from its own stages, each citing its evidence line. Default: none.
    virtual QVector<diagnosis::Finding> irFindings(const BackendIrInput &input) const
    {
        Q_UNUSED(input);
        return {};
    }

    // 1.2: L2 findings the backend reads from its own profiler's figures (a profile reply whose
    // `profiler` is its own, e.g. msprof) and its timing, each citing its metrics, beyond what the
    // core's L2 reads through profileRules(). Default: none.
    virtual QVector<diagnosis::Finding> profileFindings(const BackendProfileInput &input) const
    {
        Q_UNUSED(input);
        return {};
    }
    // 1.2: the published ceilings of the part `target` names. Default: none known.
    virtual BackendCeilings ceilings(const QString &target) const
    {
        Q_UNUSED(target);
        return {};
    }

    // 1.3: the backend's part of the core's L3 (diagnosis/l3_ir/BackendIrRules.h): what its own
    // GPU IR ops and machine-code stages say per source line, its compiler's figures and its rules
    // over those facts. Owned by the plugin. Null: the backend has none (usesCoreIrRules() false).
    virtual const diagnosis::BackendIrRules *irRules() const { return nullptr; }

    // 1.4: the backend's part of the core's L2 (diagnosis/l2_profile/BackendProfileRules.h): its
    // profiler's figures of a launch in the core's measurement model (duration, throughputs,
    // occupancy), what its stall reasons mean, the occupancy of a compile from its resources and
    // its rules over it. Owned by the plugin. Null: the core's L2 reads only the timing, and the
    // backend's profileFindings() read its profiler.
    virtual const diagnosis::BackendProfileRules *profileRules() const { return nullptr; }

    // 1.5: the backend's part of the built-in recipes (rewrite/recipes/BackendRecipes.h): its own
    // recipes and what its facts call a matrix-unit dot. Owned by the plugin. Null: the core's
    // recipes alone.
    virtual const rewrite::recipes::BackendRecipes *recipes() const { return nullptr; }

    // 1.6: how this backend's runtime is told which devices an agent may use (a host pool spreads
    // its workers one device apiece with it). Empty: it cannot be restricted; workers share all.
    virtual DeviceMask deviceMask() const { return {}; }

    // 1.8: the part `target` names, as the core's rules and recipes count it (compute units,
    // bandwidth, per-program limits; diagnosis/model/TargetFacts.h). The plugin registry makes it
    // a source of diagnosis::targetLimits() while the plugin is loaded. Default: nothing known,
    // which turns off the rules and recipes that need it.
    virtual diagnosis::TargetLimits targetLimits(const QString &target) const
    {
        Q_UNUSED(target);
        return {};
    }

    // 1.7: the target id of Triton's GPUTarget as tritonparse records it ({"backend", "arch",
    // "warp_size"}), when that target is this backend's; empty otherwise.
    virtual QString targetFromTriton(const QJsonObject &tritonTarget) const
    {
        Q_UNUSED(tritonTarget);
        return {};
    }
};

} // namespace strata

// 1.1: stagesFor, summaryArtifacts, summaryLines, headline, usesCoreIrRules, irFindings.
// 1.2: profileFindings, ceilings. 1.3: irRules. 1.4: profileRules. 1.5: recipes. 1.6: deviceMask. 1.7: targetFromTriton.
// 1.8: targetLimits.
// An older plugin has a shorter vtable, so the
// registry refuses it by this id rather than crash.
#define StrataBackendPlugin_iid "dev.strata.BackendPlugin/1.8"
Q_DECLARE_INTERFACE(strata::BackendPlugin, StrataBackendPlugin_iid)
