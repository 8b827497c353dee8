#pragma once
// Which compiler pass made (or declined to make) a fact of one source line. The agent keeps the
// IR before every pass (CompileResult::passDumps); diffing consecutive dumps restricted to one
// source line tells which pass first produced an op of interest there. Dumps without locations
// (the pipeliner's internal snapshots) are skipped: their diff would be attributed to the pass
// that owns them anyway. Which ops show a fact (TracedFact, BackendIrRules.h), and which pass
// decides a missing one, the compile's backend says.
#include "compile/CompileResult.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/model/Finding.h"
#include "ir/mlir/MlirReader.h"

#include <QHash>
#include <QPair>
#include <QVector>
#include <optional>

namespace strata::diagnosis {

QString tracedFactName(TracedFact fact);  // "async copy", "MMA dot", ...

struct PassOrigin {
    QString passName;     // "TritonGPUPipeline"
    QString argument;     // "tritongpu-pipeline"
    int dumpIndex = -1;   // PassDumpRef::index of the pass
    bool produced = true; // false: the pass that decides the fact ran and left the line without it
};

class PassHistory {
public:
    // Dumps are read lazily, each at most once; `result` and `rules` must outlive the history.
    // A null `rules`: the default backend's (defaultIrRules()), for callers that name none.
    explicit PassHistory(const CompileResult &result, const BackendIrRules *rules = nullptr);

    const BackendIrRules &rules() const { return *m_rules; }

    bool hasDumps() const { return !m_dumps.isEmpty(); }
    // The first pass after which source line `line` has an op showing `fact`.
    std::optional<PassOrigin> firstPassProducing(int line, TracedFact fact);
    // The last pass that added such an op on the line: for ops that passes remove and re-create
    // (layout conversions), the one whose op reaches the final IR.
    std::optional<PassOrigin> lastPassProducing(int line, TracedFact fact);
    // Whether pass `argument` (first run of it) changed any op of `line`; nullopt when the pass
    // is not among the dumps or its dumps cannot be read.
    std::optional<bool> passChangedLine(const QString &argument, int line);
    // The pass name ("TritonGPUPipeline") of pass `argument`, empty when it is not among the dumps.
    QString passNameOf(const QString &argument) const;
    // Dumps that could not be read, as "file: why".
    QStringList problems() const { return m_problems; }

private:
    struct Dump {
        PassDumpRef ref;
        bool read = false;    // text read (or failed to)
        bool loaded = false;  // parsed (or failed to)
        bool usable = false;  // parsed, and its ops carry locations
        QString text;
        ir::MlirModule module;
        QStringList lines;
    };
    const QString &text(int position);      // read on first use; empty when unreadable
    Dump *dump(int position);               // parsed on first use; null when unusable
    int usableBefore(int position);          // the last usable dump before `position`, or -1
    PassOrigin originOf(int position) const;  // the pass whose "before" dump is at `position`
    int nextUsable(int position);           // the next usable dump after `position`, or -1
    // Ops that the pass at `before` added or removed, on any line; diffed once per pair of dumps
    // and shared by every query (a matmul has ~70 dumps and several findings).
    struct PassChanges {
        int after = -1;                     // position of the next usable dump
        QVector<QPair<int, int>> added;     // (text line in `after`, kernel source line)
        QVector<int> touchedLines;          // kernel source lines with an added or removed op
    };
    const PassChanges &changesAfter(int before);
    bool addsFact(const Dump &after, const PassChanges &changes, int line, TracedFact fact) const;
    bool showsFact(const Dump &dump, int textLine, TracedFact fact) const;  // the op at textLine shows it
    int sourceLineOf(const ir::MlirOp &op) const;

    QString m_kernelFile;
    const BackendIrRules *m_rules = nullptr;
    QVector<Dump> m_dumps;                  // in pipeline order
    QHash<int, PassChanges> m_changes;      // by position of the `before` dump
    QStringList m_problems;
};

// The pass evidence for an L3 finding (positive facts: the pass that produced it; missing facts
// such as an unpipelined load: the deciding pass that left the line unchanged), as the history's
// backend traces the finding's rule (BackendIrRules::passTrace). nullopt when the rule has no
// traced fact or the dumps do not show it.
std::optional<Evidence> passEvidenceFor(const Finding &finding, PassHistory &history);

} // namespace strata::diagnosis
