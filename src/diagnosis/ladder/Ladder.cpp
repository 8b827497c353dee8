#include "diagnosis/ladder/Ladder.h"

#include "diagnosis/l1_triage/Triage.h"
#include "diagnosis/ladder/Corroboration.h"
#include "diagnosis/ladder/DotLoopFeed.h"
#include "diagnosis/ladder/StaticCost.h"
#include "diagnosis/ladder/Symptoms.h"
#include "diagnosis/l3_ir/BackendIrRules.h"
#include "diagnosis/l3_ir/IrAttribution.h"
#include "diagnosis/l4_compiler/CompilerAnalysis.h"
#include "diagnosis/model/DiagnosisJson.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace strata::diagnosis {

namespace {

bool reaches(const LadderOptions &options, Level level)
{
    return int(options.maxLevel) >= int(level);
}

// Confirmed by a counterfactual, then a source-level cause the compiler's output corroborates,
// then a fact L4 examined without confirming it, then the rest.
int statusWeight(const Finding &finding)
{
    if (finding.status == FindingStatus::Confirmed)
        return 3;
    if (isCorroborated(finding))
        return 2;
    return finding.status == FindingStatus::NotExamined ? 0 : 1;
}

// The L3 rule an L4 finding examines (its first evidence item says so).
QString examinedRule(const Finding &finding)
{
    static const QString prefix = QStringLiteral("examines ");
    if (finding.level != Level::L4 || finding.evidence.isEmpty() || !finding.evidence.first().note.startsWith(prefix))
        return {};
    return finding.evidence.first().note.mid(prefix.size());
}

// Severity first; within one severity a confirmed cause before an unconfirmed one, then the
// deeper level (it carries more evidence), then confidence, then source order.
// A finding's estimated share of the gap to the bound (from IR facts and the launch); -1 when it
// has none.
double estimatedShare(const Finding &finding)
{
    return finding.gapShare ? finding.gapShare->share : -1;
}

// Static order: severity, confirmation, then the larger estimated share of the gap where both
// findings carry one (two high mechanisms: the one that explains more of the time first), then
// the deeper level, confidence and line.
bool ranksBefore(const RankedFinding &a, const RankedFinding &b)
{
    if (a.finding.severity != b.finding.severity)
        return a.finding.severity > b.finding.severity;
    if (statusWeight(a.finding) != statusWeight(b.finding))
        return statusWeight(a.finding) > statusWeight(b.finding);
    const double shareA = estimatedShare(a.finding), shareB = estimatedShare(b.finding);
    if (shareA >= 0 && shareB >= 0 && shareA != shareB)
        return shareA > shareB;
    if (a.finding.level != b.finding.level)
        return a.finding.level > b.finding.level;
    if (a.finding.confidence != b.finding.confidence)
        return a.finding.confidence > b.finding.confidence;
    return a.finding.span.line < b.finding.span.line;
}

double measuredShare(const Finding &finding)
{
    return finding.gapShare && !finding.gapShare->estimate ? finding.gapShare->share : -1;
}

// With measurements, three tiers: mechanisms of medium severity or more; then symptoms (a hot
// line or a bound class says where, not why, but a hot line no mechanism explains is still where
// the time goes); then the mechanisms measured costs demoted to low ("present, not the cause"),
// which must never outrank an unexplained 90% hot line. Within a tier: severity, then the larger
// measured share of the time, then the static order.
int measuredTier(const Finding &finding)
{
    if (isSymptomRule(finding.ruleId))
        return 1;
    return finding.severity >= Severity::Medium ? 0 : 2;
}

bool ranksBeforeMeasured(const RankedFinding &a, const RankedFinding &b)
{
    const int tierA = measuredTier(a.finding), tierB = measuredTier(b.finding);
    if (tierA != tierB)
        return tierA < tierB;
    if (a.finding.severity != b.finding.severity)
        return a.finding.severity > b.finding.severity;
    const double shareA = measuredShare(a.finding), shareB = measuredShare(b.finding);
    if (std::abs(shareA - shareB) > 1e-9)
        return shareA > shareB;
    return ranksBefore(a, b);
}

QVector<Finding> bySeverity(QVector<Finding> findings)
{
    std::stable_sort(findings.begin(), findings.end(), [](const Finding &a, const Finding &b) {
        return a.severity > b.severity;
    });
    return findings;
}

void runL1(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L1 triage");
    if (!reaches(options, Level::L1))
        return;
    if (!inputs.astReply) {
        diagnosis.logStep(step, QStringLiteral("skipped: no AST of the kernel (%1)")
                                    .arg(inputs.astMissingReason.isEmpty() ? QStringLiteral("not requested") : inputs.astMissingReason));
        return;
    }
    Expected<QVector<Finding>> findings = runTriage(*inputs.astReply, inputs.spec);
    if (!findings) {
        diagnosis.logStep(step, QStringLiteral("failed: ") + findings.error().toString());
        return;
    }
    diagnosis.addFindings(Level::L1, *findings);
    diagnosis.logStep(step, QStringLiteral("the kernel's AST and launch spec are available: %1 findings").arg(findings->size()));
}

std::optional<L2Analysis> runL2(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L2 measurement");
    if (!reaches(options, Level::L2))
        return std::nullopt;
    if (!inputs.measurements || inputs.measurements->isEmpty()) {
        diagnosis.logStep(step, inputs.gpuHostConnected
                                    ? QStringLiteral("skipped: a GPU host is connected but no timing or profile was taken")
                                    : QStringLiteral("skipped: no GPU host is connected, so no timing or profile can be taken"));
        return std::nullopt;
    }
    L2Context context{inputs.kernel, inputs.sourcePath};
    context.backend = inputs.backend;   // its profiler's figures and its parts' limits are its to read
    if (inputs.compile) {
        context.target = inputs.compile->result.target;
        context.compile = &inputs.compile->result;   // the static occupancy, from the compile's resources
        context.inlinedCallers = inputs.compile->inlinedCallers();
    }
    L2Analysis analysis = analyzeMeasurements(*inputs.measurements, context);
    diagnosis.addFindings(Level::L2, analysis.findings);
    diagnosis.logStep(step, QStringLiteral("measurements given (%1): bound %2, %3 source lines with measured cost; %4 findings")
                                .arg(inputs.measurements->origins.join(QStringLiteral(", ")),
                                     analysis.bound.isEmpty() ? QStringLiteral("unknown") : analysis.bound)
                                .arg(analysis.lines.size()).arg(analysis.findings.size()));
    for (const QString &note : analysis.notes)
        diagnosis.logStep(step, note);
    return analysis;
}

// A backend whose stages the core's L3 does not read (usesCoreIrRules() false: its GPU IR is not
// Triton's with a BackendIrRules for the rest, as Ascend's HIVM is not) reads its own stages with
// irFindings(); L4's counterfactuals examine the core's rules only, so they do not run.
void runBackendL3(const LadderInputs &inputs, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L3 IR attribution");
    const LoadedCompile &compile = *inputs.compile;
    diagnosis.warnings << compile.result.warnings;
    for (const StageProblem &problem : compile.problems)
        diagnosis.warnings << problem.toString();
    BackendIrInput input{&compile.result, {}, inputs.spec};
    QStringList stages;
    for (const StageListing &listing : compile.listings) {
        input.listings.append(&listing);
        stages << listing.stage;
    }
    const QVector<Finding> findings = inputs.backend->irFindings(input);
    diagnosis.addFindings(Level::L3, findings);
    QStringList locations;
    for (const LocationStats &stats : compile.locations)
        locations << stats.stage + QStringLiteral(": ") + stats.summary();
    diagnosis.logStep(step, QStringLiteral("the %1 backend reads its own stages (%2): %3 findings; the core's L3 rules "
                                           "do not apply to its stages (its plugin hands out no L3 rules for them). Locations: %4")
                                .arg(inputs.backend->displayName(), stages.join(QStringLiteral(", ")))
                                .arg(findings.size())
                                .arg(locations.join(QStringLiteral("; "))));
    diagnosis.logStep(QStringLiteral("L4 compiler analysis"),
                      QStringLiteral("not run: its pass attribution and counterfactuals examine the core's L3 rules, "
                                     "which do not apply to the %1 backend").arg(inputs.backend->displayName()));
}

// Returns the L3 attribution, or nullopt when L3 did not run.
std::optional<IrAttribution> runL3(const LadderInputs &inputs, const LadderOptions &options, Diagnosis &diagnosis)
{
    const QString step = QStringLiteral("L3 IR attribution");
    if (!reaches(options, Level::L3)) {
        diagnosis.logStep(step, QStringLiteral("not run: --max-level is %1").arg(levelName(options.maxLevel)));
        return std::nullopt;
    }
    if (!inputs.compile) {
        diagnosis.logStep(step, QStringLiteral("skipped: no compile of the kernel is available"));
        return std::nullopt;
    }
    if (inputs.backend && !inputs.backend->usesCoreIrRules()) {
        runBackendL3(inputs, diagnosis);
        return std::nullopt;
    }
    diagnosis.warnings << inputs.compile->result.warnings;   // files of a moved or changed compile folder
    // The compile's backend reads its own machine stages and owns its rules (plugins/nvidia for
    // sm_*); without a plugin (a caller that names none) the core's default rules apply.
    const BackendIrRules *backendRules = inputs.backend ? inputs.backend->irRules() : nullptr;
    const BackendIrRules &rules = backendRules ? *backendRules : defaultIrRules();
    Expected<IrAttribution> attribution = attributeIr(*inputs.compile, rules);
    if (!attribution) {
        diagnosis.logStep(step, QStringLiteral("failed: ") + attribution.error().toString());
        return std::nullopt;
    }
    attribution->findings += rules.launchFindings(attribution->facts, inputs.spec);
    diagnosis.addFindings(Level::L3, attribution->findings);
    for (const StageProblem &problem : inputs.compile->problems)
        diagnosis.warnings << problem.toString();
    diagnosis.warnings << attribution->facts.problems;
    QStringList locations;  // how each stage's ops map to source lines, and why the rest do not
    for (const LocationStats &stats : inputs.compile->locations)
        locations << stats.stage + QStringLiteral(": ") + stats.summary();
    diagnosis.logStep(step, QStringLiteral("a compile is available (%1 stages read: %2): %3 findings; L1 findings are "
                                           "pattern matches, L3 checks what the compiler made. Locations: %4")
                                .arg(attribution->facts.stagesRead.size())
                                .arg(attribution->facts.stagesRead.join(QStringLiteral(", ")))
                                .arg(attribution->findings.size())
                                .arg(locations.join(QStringLiteral("; "))));
    if (!attribution->uncheckedRules.isEmpty())
        diagnosis.logStep(step, QStringLiteral("not checked (the GPU IR is missing or degraded, and no other stage may stand in "
                                               "for it): %1").arg(attribution->uncheckedRules.join(QStringLiteral(", "))));
    return std::move(*attribution);
}

// The L3 rules of the compile's backend, as runL3 picks them: its plugin's, else the default.
const BackendIrRules &irRulesOf(const LadderInputs &inputs)
{
    const BackendIrRules *backendRules = inputs.backend ? inputs.backend->irRules() : nullptr;
    return backendRules ? *backendRules : defaultIrRules();
}

void runL4(const LadderInputs &inputs, const LadderOptions &options, const IrAttribution &attribution, Diagnosis &diagnosis)
{
    const QVector<Finding> &l3 = attribution.findings;
    const QString step = QStringLiteral("L4 compiler analysis");
    if (l3.isEmpty()) {
        diagnosis.logStep(step, QStringLiteral("not needed: L3 found nothing to confirm"));
        return;
    }
    const QVector<Finding> top = bySeverity(l3).mid(0, options.topFindings);
    if (!reaches(options, Level::L4)) {
        diagnosis.logStep(step, QStringLiteral("not run: %1 top findings are unconfirmed, but --max-level is %2")
                                    .arg(top.size()).arg(levelName(options.maxLevel)));
        return;
    }
    diagnosis.logStep(step, QStringLiteral("%1 top L3 findings are unconfirmed compiler facts; confirming their causes")
                                .arg(top.size()));
    const CompilerAnalysis analysis = analyzeWithCompiler(top, *inputs.compile, attribution.facts, inputs.spec, inputs.runner,
                                                          {options.maxCounterfactuals, &irRulesOf(inputs)});
    for (const EscalationStep &entry : analysis.log)
        diagnosis.logStep(entry.step, entry.reason);
    diagnosis.addFindings(Level::L4, analysis.findings);
    const int confirmed = std::count_if(analysis.findings.cbegin(), analysis.findings.cend(), isConfirmed);
    diagnosis.logStep(QStringLiteral("stop"), confirmed == analysis.findings.size()
        ? QStringLiteral("all %1 top findings are confirmed").arg(confirmed)
        : QStringLiteral("%1 of %2 top findings confirmed; L4 is the deepest level")
              .arg(confirmed).arg(analysis.findings.size()));
}

// Mechanisms of a loop as a whole, judged from the compile and the launch (and the measured line
// costs when there are some). Added after L4: they are estimates of cost, not compiler facts a
// counterfactual compile could flip, so they must not take L4's places.
void addLoopMechanisms(const LadderInputs &inputs, const IrAttribution &l3, const QVector<LoopAtLaunch> &loops,
                       const L2Analysis *measured, Diagnosis &diagnosis)
{
    const QVector<Finding> feed = dotLoopFeedFindings(l3.facts, *inputs.compile, irRulesOf(inputs), inputs.spec, loops, measured);
    if (feed.isEmpty())
        return;
    diagnosis.addFindings(Level::L3, feed);
    diagnosis.logStep(QStringLiteral("L3 loop mechanisms"),
                      QStringLiteral("the dot loop's tensor work per iteration against its shared-memory and special-function "
                                     "work: %1").arg(feed.first().title));
}

QVector<RankedFinding> rank(const Diagnosis &diagnosis, bool measured)
{
    // An L3 finding examined at L4 is represented by its L4 finding.
    QVector<RankedFinding> ranked;
    const QVector<Finding> l4 = diagnosis.findings(Level::L4);
    auto examined = [&](const Finding &finding) {
        return std::any_of(l4.cbegin(), l4.cend(), [&](const Finding &deeper) {
            return deeper.span == finding.span && deeper.title == finding.title && deeper.cause == finding.cause;
        });
    };
    for (const Finding &finding : diagnosis.allFindings()) {
        if (finding.level == Level::L3 && examined(finding))
            continue;
        ranked.append({finding, statusName(finding.status), examinedRule(finding)});
    }
    std::stable_sort(ranked.begin(), ranked.end(), measured ? ranksBeforeMeasured : ranksBefore);
    return ranked;
}

} // namespace

LadderResult runLadder(const LadderInputs &inputs, const LadderOptions &options)
{
    LadderResult result;
    Diagnosis &diagnosis = result.diagnosis;
    diagnosis.kernel = inputs.kernel;
    diagnosis.sourcePath = inputs.sourcePath;
    runL1(inputs, options, diagnosis);
    result.measured = runL2(inputs, options, diagnosis);
    const bool measuredLines = result.measured && !result.measured->lines.isEmpty();
    std::optional<IrAttribution> l3 = runL3(inputs, options, diagnosis);
    QVector<LoopAtLaunch> loops;
    if (l3 && inputs.astReply) {
        if (Expected<QVector<LoopAtLaunch>> found = loopsAtLaunch(*inputs.astReply, inputs.spec))
            loops = *found;
    }
    if (l3 && !measuredLines) {
        // Before L4 picks its top facts and before corroboration lends a fact's severity to its
        // source cause: a cheap fact must neither be examined first nor raise a cheap cause.
        for (const QString &change : applyStaticCosts(diagnosis, l3->facts, *inputs.compile, irRulesOf(inputs), loops))
            diagnosis.logStep(QStringLiteral("estimated costs"), change);
        l3->findings = diagnosis.findings(Level::L3);
    } else if (l3) {
        for (const QString &change : applyLaunchFacts(diagnosis, loops))
            diagnosis.logStep(QStringLiteral("launch facts"), change);
        l3->findings = diagnosis.findings(Level::L3);
    }
    if (l3) {
        if (const int demoted = demoteOccupancyOfMmaKernels(l3->facts, diagnosis))
            diagnosis.logStep(QStringLiteral("L3 IR attribution"),
                              QStringLiteral("%1 measured occupancy findings demoted: the kernel's dots run on MMA "
                                             "tiles, which hide latency by tile size and pipelining").arg(demoted));
        runL4(inputs, options, *l3, diagnosis);
        addLoopMechanisms(inputs, *l3, loops, result.measured ? &*result.measured : nullptr, diagnosis);
    }
    else if (!reaches(options, Level::L3))
        diagnosis.logStep(QStringLiteral("stop"), QStringLiteral("--max-level %1 reached").arg(levelName(options.maxLevel)));
    corroborateSourceCauses(diagnosis);
    if (result.measured) {
        for (const QString &change : attachMeasuredCosts(*result.measured, diagnosis))
            diagnosis.logStep(QStringLiteral("symptoms and costs"), change);
    }
    result.ranking = rank(diagnosis, result.measured.has_value());
    result.rankingIsEstimate = !measuredLines;
    result.rankingBasis = measuredLines
        ? QStringLiteral("measured: mechanisms (medium or more) before symptoms, cheap facts last (hot lines, stall mix and bound class are their "
                         "evidence); facts with a small measured cost demoted to low; then severity, each finding's "
                         "share of the measured time (capped at the gap to the bound), confirmation")
        : result.measured
        ? QStringLiteral("estimate: the measurements have no per-line cost (no source view in the profile), so mechanisms are "
                         "ranked before symptoms by static severity (demoted when the kernel is near its bound), "
                         "then confirmation")
        : QStringLiteral("estimate: ranked by static severity, then confirmation, then the larger estimated share "
                         "of the gap where two findings carry one, since no GPU measurement gives each finding's "
                         "share of the time");
    diagnosis.logStep(QStringLiteral("ranking"), result.rankingBasis);
    return result;
}

namespace {

// The changes whose counterfactual flipped the finding's fact.
QJsonArray confirmingChanges(const Finding &finding)
{
    QJsonArray changes;
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *item = std::get_if<CounterfactualEvidence>(&evidence.data); item && evidence.note == QLatin1String(kFlippedNote))
            changes.append(item->change);
    }
    return changes;
}

QJsonObject measuredJson(const L2Analysis &measured)
{
    QJsonObject json{{QStringLiteral("bound"), measured.bound}, {QStringLiteral("launch_share"), measured.launchShare}};
    if (measured.durationUs)
        json.insert(QStringLiteral("duration_us"), *measured.durationUs);
    if (measured.gapFraction)
        json.insert(QStringLiteral("gap_to_roofline"), *measured.gapFraction);
    if (measured.occupancy)
        json.insert(QStringLiteral("occupancy"), QJsonObject{{QStringLiteral("theoretical"), measured.occupancy->theoretical},
                                                             {QStringLiteral("limiter"), measured.occupancy->limiter},
                                                             {QStringLiteral("source"), measured.occupancy->source}});
    QJsonArray lines;
    for (const LineCost &line : measured.lines)
        lines.append(QJsonObject{{QStringLiteral("line"), line.line}, {QStringLiteral("samples"), line.samples},
                                 {QStringLiteral("share"), line.share}, {QStringLiteral("time_share"), line.timeShare}});
    json.insert(QStringLiteral("lines"), lines);
    return json;
}

} // namespace

QJsonObject toJson(const LadderResult &result)
{
    QJsonObject json = toJson(result.diagnosis);
    QJsonArray ranking;
    for (int i = 0; i < result.ranking.size(); ++i) {
        const Finding &finding = result.ranking[i].finding;
        QJsonObject entry{{QStringLiteral("rank"), i + 1},
                          {QStringLiteral("status"), result.ranking[i].status},
                          {QStringLiteral("rule"), finding.ruleId},
                          {QStringLiteral("level"), levelName(finding.level)},
                          {QStringLiteral("title"), finding.title},
                          {QStringLiteral("severity"), severityName(finding.severity)},
                          {QStringLiteral("line"), finding.span.line}};
        if (!result.ranking[i].examines.isEmpty())
            entry.insert(QStringLiteral("examines"), result.ranking[i].examines);
        if (const QJsonArray changes = confirmingChanges(finding); !changes.isEmpty())
            entry.insert(QStringLiteral("confirmed_by"), changes);
        if (finding.gapShare)
            entry.insert(QStringLiteral("gap_share"), QJsonObject{{QStringLiteral("share"), finding.gapShare->share},
                                                                  {QStringLiteral("estimate"), finding.gapShare->estimate}});
        ranking.append(entry);
    }
    json.insert(QStringLiteral("ranking"), ranking);
    json.insert(QStringLiteral("ranking_estimate"), result.rankingIsEstimate);
    json.insert(QStringLiteral("ranking_basis"), result.rankingBasis);
    if (result.measured)
        json.insert(QStringLiteral("measured"), measuredJson(*result.measured));
    return json;
}

} // namespace strata::diagnosis
