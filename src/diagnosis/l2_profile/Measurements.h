#pragma once
// What L2 reads: the GPU host's replies to `time` (timing + roofline), `profile` (the backend's
// profiler: Nsight Compute, msprof) and `ceilings`, typed by src/tasks. Any of them may be missing;
// L2 uses what is there.
#include "core/Expected.h"
#include "tasks/ProfileResult.h"
#include "tasks/Timing.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace strata::diagnosis {

struct Measurements {
    std::optional<Timing> timing;
    std::optional<ProfileResult> profile;
    std::optional<Ceilings> ceilings;  // a `ceilings` reply; else the timing's roofline ceilings are used
    QStringList origins;               // "timing: t.json", for the log

    bool isEmpty() const { return !timing && !profile && !ceilings; }
    const Ceilings *bestCeilings() const;
};

// A saved reply: the result object as `strata-cli time|profile|ceilings --json` writes it, a
// JSON-RPC reply ({"result": ...}) or a captured exchange ({"reply": {"result": ...}}). Errors
// name the file, and say when it is a reply of another method.
Expected<Timing> readTimingFile(const QString &path);
Expected<ProfileResult> readProfileFile(const QString &path);
Expected<CeilingsResult> readCeilingsFile(const QString &path);

} // namespace strata::diagnosis
