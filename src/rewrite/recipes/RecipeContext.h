#pragma once
// What every recipe reads: the task text with its spans, the kernel as L1 triage sees it
// (KernelView), the launch site in ModelNew.forward (the agent's `ast` reply, `launch_sites`),
// the launch as captured (run_task: argument values, constexprs, num_warps/num_stages) and the
// diagnosis. It also builds the edits recipes share (a launch option, a launch constexpr).
#include "diagnosis/l1_triage/KernelView.h"
#include "diagnosis/model/TargetFacts.h"
#include "rewrite/RewriteProvider.h"
#include "rewrite/recipes/KernelDecorators.h"
#include "rewrite/recipes/SourceEdit.h"

#include <QHash>
#include <QJsonArray>

#include <optional>

namespace strata::rewrite::recipes {

class BackendRecipes;

// Bytes per element of a pointer type ("*fp16" -> 2, "*i8" -> 1); 0 when it names no width.
int elementBytesOf(const QString &pointerType);

class RecipeContext {
public:
    // Fails only when the request's AST is not a kernel FunctionDef; a missing launch site or
    // launch capture leaves the recipes that need them silent. `backend`: the recipes of the
    // request's backend (BackendRecipes.h), null for none; the core's recipes ask it what only
    // the backend's facts know.
    static Expected<RecipeContext> build(const RewriteRequest &request, const BackendRecipes *backend);

    const RewriteRequest &request() const { return *m_request; }
    const SourceText &source() const { return m_source; }
    const diagnosis::KernelView &kernel() const { return *m_kernel; }

    // Findings whose rule is one of `rules` (an L4 finding counts as the L3 rule it examines).
    QVector<diagnosis::Finding> findingsFor(const QStringList &rules) const;
    QStringList ruleIdsOf(const QVector<diagnosis::Finding> &findings) const;
    bool hasAnyFinding() const { return !m_findings.isEmpty(); }
    // Rank of a rule in request.rankedRuleIds (0 = most important); a large number when absent.
    int rankOf(const QString &rule) const;

    // --- the launch ---
    bool hasLaunchSite() const { return !m_site.isEmpty(); }
    const QJsonObject &launchSite() const { return m_site; }
    QJsonObject launchKeyword(const QString &name) const;   // {} when not passed by keyword
    // The launch's expression text for kernel parameter `param` (keyword or positional); empty
    // when the launch does not pass it.
    QString launchArgumentText(const QString &param) const;
    // The same argument as the agent's expression node (text and span); {} when not passed.
    QJsonObject launchArgument(const QString &param) const;
    // Launch-time value of an int argument (run_task `args[].value`).
    std::optional<qint64> launchIntValue(const QString &param) const;
    std::optional<qint64> constexprValue(const QString &param) const;  // spec constexprs
    QString pointerType(const QString &param) const;                     // "*fp16", or empty
    int numWarps() const { return m_numWarps; }
    int numStages() const { return m_numStages; }
    QVector<qint64> grid() const;  // launched grid, [x, y, z]; empty when unknown
    const KernelDecorators &decorators() const { return m_decorators; }
    QString target() const;        // the compile's target as the launch's spec names it; empty when unknown
    // The part the target names, as its backend counts it (compute units, per-program limits);
    // zeros when no loaded backend knows the target: the recipes that size a grid or prune tiles
    // by them stay silent then.
    const diagnosis::TargetLimits &limits() const { return m_limits; }

    // --- what the backend's facts answer (empty without a backend) ---
    const BackendRecipes *backend() const { return m_backend; }
    // BackendRecipes::matrixDotKind: the dot kind a dot of `tileM` rows over `warps` warps becomes.
    QString matrixDotKind(qint64 tileM, int warps) const;
    // BackendRecipes::accumulatorPressureRules: its rules that say the accumulator is too big.
    QStringList accumulatorPressureRules() const;

    // Edits setting launch option `name` (num_warps, num_stages) to `value`: replaces the keyword's
    // value or appends `, name=value` after the last argument; for an autotuned kernel the same in
    // every triton.Config instead (KernelDecorators). nullopt without a launch site, or when a
    // decorator decides the option in a way no edit here can change.
    std::optional<QVector<TextEdit>> setLaunchOption(const QString &name, int value) const;
    // Edits that make launch constexpr `name` equal `value` at every launch while keeping the grid
    // consistent: a literal keyword changes with the equal literals of the grid; a keyword bound
    // to a local changes the int literals that local is assigned. nullopt when the value is not
    // decided by literals, when another constexpr shares a grid literal with it (ambiguous), or
    // when a decorator (autotune config, heuristic) decides it.
    std::optional<QVector<TextEdit>> setLaunchConstexpr(const QString &name, qint64 value) const;
    // Several at once. A grid literal shared by two of them stays unambiguous when both get the
    // same value, when they scale program ids of different grid axes, or when only one of them
    // scales a program id at all (a loop step such as BLOCK_K never sizes the grid).
    std::optional<QVector<TextEdit>> setLaunchConstexprs(const QVector<QPair<QString, qint64>> &values) const;
    bool launchConstexprSettable(const QString &name) const { return setLaunchConstexpr(name, 64).has_value(); }
    // Constexprs that scale a program id, with the grid axis they follow (-1: mixed or unknown).
    const QHash<QString, int> &programBlocks() const { return m_programBlocks; }
    // True when the grid expression (or the local it is assigned from) reads the value of `name`.
    bool gridDependsOn(const QString &name) const;

    // The insertion point after the last argument of a call node (before `)`), or -1.
    int afterLastArgument(const QJsonObject &call) const { return m_source.afterLastArgument(call); }

    // The grid expression, or the value of the local it names (the agent's expression node:
    // text, span, names).
    QJsonObject gridNode() const;

private:
    QStringList gridNames() const;

    const RewriteRequest *m_request = nullptr;
    const BackendRecipes *m_backend = nullptr;
    SourceText m_source{QString()};
    std::optional<diagnosis::KernelView> m_kernel;
    QVector<diagnosis::Finding> m_findings;
    QJsonObject m_site;
    QHash<QString, QJsonObject> m_args;
    QHash<QString, int> m_programBlocks;
    KernelDecorators m_decorators;
    QJsonObject m_spec;
    diagnosis::TargetLimits m_limits;
    int m_numWarps = 4;
    int m_numStages = 3;
};

} // namespace strata::rewrite::recipes
