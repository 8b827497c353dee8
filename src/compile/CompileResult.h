#pragma once
// What one compile produced, as the agent reports it (agent/PROTOCOL.md, method "compile"):
// artifacts by path + size + hash, per-pass dumps, remarks, ptxas figures and metadata.
#include "core/Expected.h"
#include "core/SourceLocation.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>

namespace strata {

struct ArtifactRef {
    QString path;    // absolute (compile.json's relative paths are resolved against its folder)
    qint64 size = 0;
    QString sha256;
};

struct PassDumpRef {
    int index = 0;          // order in the pipeline
    QString passName;       // "TritonGPUCoalesce"
    QString argument;       // "tritongpu-coalesce"
    QString anchor;         // "builtin.module"
    QString stage;          // pipeline stage the pass belongs to: "ttir", "ttgir", "llir"
    ArtifactRef file;       // the IR *before* this pass (after it when `after`); path empty when not kept
    // The agent's `kind` is "after": a tool's --mlir-print-ir-after-all (Ascend's adapter and
    // bishengir passes). Else "before" (Triton's MLIR_ENABLE_DUMP) or "internal_after".
    bool after = false;
};

struct Remark {
    SourceLocation loc;
    QString severity;       // "remark", "warning", "error"
    QString message;
};

struct PtxasInfo {
    int registers = -1;     // -1 when unknown
    int spillStoreBytes = 0;
    int spillLoadBytes = 0;
    int stackBytes = 0;
    int sharedBytes = 0;
    QStringList warnings;   // e.g. "Potential Performance Loss: wgmma.mma_async ..."
};

// How one backend stage fared, as the agent reports it (the result's `stages`, Ascend so far):
// a stage that did not run says why, so a pane can show the reason instead of nothing.
struct StageRun {
    QString stage;        // "hivm"
    bool ran = true;      // false: "skipped"
    QString reason;       // why it was skipped
    QStringList tools;    // the external tools it ran ("triton-adapter-opt")
};

struct CompileResult {
    QJsonValue protocol;     // the agent's protocol version, kept as sent
    QString kernel;
    QString sourcePath;      // the path the compiler saw; IR locations use it
    QString target;          // "sm_90"
    QString workDir;
    QJsonObject spec;        // the spec it was compiled with
    QMap<QString, ArtifactRef> artifacts;   // "source","ttir","ttgir","llir","ptx","cubin","sass","ptxas_log"
    QVector<PassDumpRef> passDumps;
    QVector<Remark> remarks;
    PtxasInfo ptxas;
    QJsonObject metadata;
    QString backend;                 // the agent's backend ("ascend"); empty from NVIDIA results
    QVector<StageRun> stageRuns;     // the agent's `stages`, pipeline order; empty when not sent
    double durationSeconds = 0;
    // Read from a compile folder: what was surprising about where its files are (an old
    // compile.json of a moved folder, files changed since the compile). Not part of the JSON.
    QStringList warnings;

    // The run record of `stageId`, or nullptr when the agent sent none for it.
    const StageRun *stageRun(const QString &stageId) const
    {
        for (const StageRun &run : stageRuns)
            if (run.stage == stageId)
                return &run;
        return nullptr;
    }
};

// Parses the agent's compile result. `baseDir`: the compile folder, against which relative paths
// resolve (compile.json, CompileFolder.h); empty leaves the paths as they are.
Expected<CompileResult> parseCompileResult(const QJsonObject &json, const QString &baseDir = {});
// Reads a compile.json file written by the agent or by `strata-cli compile --out`.
Expected<CompileResult> readCompileResultFile(const QString &path);
QJsonObject toJson(const CompileResult &result);
// The "ptxas" object of a compile result (also how the store reads it back).
PtxasInfo ptxasFromJson(const QJsonObject &obj);

} // namespace strata
