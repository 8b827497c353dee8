#pragma once
// The evidence model every diagnosis level produces: a finding states one cause at one source
// place and backs it with typed evidence (a source span, a metric, an IR op in a stage, a pass,
// a compiler remark, a counterfactual result). A diagnosis is the tree levels -> findings ->
// evidence, plus the log of why the ladder climbed from one level to the next.
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>
#include <variant>

namespace strata::diagnosis {

// L1 reads the source, L2 measures, L3 reads the compiler's output, L4 runs counterfactuals.
enum class Level { L1 = 1, L2 = 2, L3 = 3, L4 = 4 };
enum class Severity { Info, Low, Medium, High };
// How far a finding's cause got: a counterfactual flipped its fact (confirmed), counterfactuals
// ran and none did (unconfirmed), none could run (untested), or no level examined it.
enum class FindingStatus { NotExamined, Untested, Unconfirmed, Confirmed };

QString levelName(Level level);           // "L1"
std::optional<Level> levelFromName(const QString &name);
QString severityName(Severity severity);  // "info", "low", "medium", "high"
std::optional<Severity> severityFromName(const QString &name);
QString statusName(FindingStatus status);  // "not_examined", "untested", "unconfirmed", "confirmed"
std::optional<FindingStatus> statusFromName(const QString &name);

// A range in a source file. Lines 1-based; columns 1-based (0 = unknown), end inclusive-exclusive
// as Python's ast reports it (end column is the column after the last character).
struct SourceSpan {
    QString file;
    int line = 0;
    int column = 0;
    int endLine = 0;
    int endColumn = 0;

    bool isValid() const { return line > 0; }
    friend bool operator==(const SourceSpan &, const SourceSpan &) = default;
};

struct SpanEvidence {
    SourceSpan span;
    friend bool operator==(const SpanEvidence &, const SpanEvidence &) = default;
};
struct MetricEvidence {
    QString name;   // "registers", "vector_width", "spill_store_bytes"
    double value = 0;
    QString unit;   // "regs", "elements", "bytes", "" for plain counts
    friend bool operator==(const MetricEvidence &, const MetricEvidence &) = default;
};
struct IrOpEvidence {
    QString stage;    // "ttgir", "ptx", "sass"
    int irLine = -1;  // 0-based line in that stage's listing
    QString opcode;   // "ld.global.b32", "ttng.warp_group_dot"
    QString text;     // the line as printed (trimmed)
    friend bool operator==(const IrOpEvidence &, const IrOpEvidence &) = default;
};
struct PassEvidence {
    QString name;      // "TritonGPUPipeline"
    QString argument;  // "tritongpu-pipeline"
    friend bool operator==(const PassEvidence &, const PassEvidence &) = default;
};
struct RemarkEvidence {
    SourceSpan span;
    QString severity;  // "remark", "warning"
    QString message;
    friend bool operator==(const RemarkEvidence &, const RemarkEvidence &) = default;
};
struct CounterfactualEvidence {
    QString change;      // "stride_ak as constexpr 1"
    QString factBefore;  // "ld.global.b32"
    QString factAfter;   // "ld.global.v4.b32"
    friend bool operator==(const CounterfactualEvidence &, const CounterfactualEvidence &) = default;
};

using EvidenceData = std::variant<SpanEvidence, MetricEvidence, IrOpEvidence, PassEvidence,
                                  RemarkEvidence, CounterfactualEvidence>;

struct Evidence {
    EvidenceData data;
    QString note;  // what this item shows, one short phrase

    QString kindName() const;  // "source_span", "metric", "ir_op", "pass", "remark", "counterfactual"
    friend bool operator==(const Evidence &, const Evidence &) = default;

    static Evidence span(const SourceSpan &span, const QString &note = {});
    static Evidence metric(const QString &name, double value, const QString &unit, const QString &note = {});
    static Evidence irOp(const QString &stage, int irLine, const QString &opcode, const QString &text,
                         const QString &note = {});
    static Evidence pass(const QString &name, const QString &argument, const QString &note = {});
    static Evidence remark(const SourceSpan &span, const QString &severity, const QString &message,
                           const QString &note = {});
    static Evidence counterfactual(const QString &change, const QString &before, const QString &after,
                                   const QString &note = {});
};

// The part of the gap to roofline this finding explains, 0..1. `estimate` is true when it is
// derived from static facts rather than from a measured counterfactual.
struct GapShare {
    double share = 0;
    bool estimate = true;
    friend bool operator==(const GapShare &, const GapShare &) = default;
};

struct Finding {
    QString ruleId;         // stable id: "L1.runtime-unit-stride", "L3.scalar-global-access"
    Level level = Level::L1;
    QString title;          // short headline for a list
    Severity severity = Severity::Info;
    double confidence = 0;  // 0..1: how sure the rule is that the fact holds (not that it matters)
    SourceSpan span;        // where it is, in the kernel source
    QVector<Evidence> evidence;
    QString cause;          // one sentence
    QStringList recipes;    // recommended rewrite recipe ids ("constexpr-unit-stride")
    std::optional<GapShare> gapShare;
    FindingStatus status = FindingStatus::NotExamined;

    friend bool operator==(const Finding &, const Finding &) = default;
};

// The value of the metric evidence named `name` of a finding; `fallback` when it has none.
double metricValue(const Finding &finding, const char *name, double fallback);

// A finding's headline fields, for the rules of every level (each adds its evidence).
Finding newFinding(const QString &ruleId, Level level, const QString &title, Severity severity, double confidence,
                   const SourceSpan &span, const QString &cause, const QStringList &recipes = {});

struct LevelFindings {
    Level level = Level::L1;
    QVector<Finding> findings;
    friend bool operator==(const LevelFindings &, const LevelFindings &) = default;
};

// One step of the escalation ladder: what ran ("L1 triage", "L3 IR attribution") and why.
struct EscalationStep {
    QString step;
    QString reason;
    friend bool operator==(const EscalationStep &, const EscalationStep &) = default;
};

struct Diagnosis {
    QString kernel;
    QString sourcePath;
    QVector<LevelFindings> levels;  // ascending level, each at most once
    QVector<EscalationStep> escalation;
    // Degraded inputs the levels ran on or around (a missing stage, a stage that is not what its
    // name says, unmapped locations): a user must see them beside the findings.
    QStringList warnings;

    // Appends findings to `level`, creating it in order when it is new.
    void addFindings(Level level, const QVector<Finding> &findings);
    QVector<Finding> findings(Level level) const;
    QVector<Finding> allFindings() const;
    void logStep(const QString &step, const QString &reason);

    friend bool operator==(const Diagnosis &, const Diagnosis &) = default;
};

} // namespace strata::diagnosis
