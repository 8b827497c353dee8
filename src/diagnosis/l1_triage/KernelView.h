#pragma once
// One kernel as L1 triage sees it: its FunctionDef (agent `ast` result), the launch spec it is
// compiled under (suites/samples/README.md format: signature, constexprs, equal_to_1, options),
// and the small data-flow facts the rules share: which names derive from tl.arange, which feed
// pointers, what a constexpr expression evaluates to, where the loops are.
#include "core/Expected.h"
#include "diagnosis/l1_triage/PyAst.h"

#include <QHash>
#include <QJsonObject>

#include <optional>

namespace strata::diagnosis {

struct KernelParam {
    QString name;
    QString type;             // spec signature type ("*fp32", "i32", "constexpr"); empty if unknown
    bool isConstexpr = false; // spec says constexpr, or annotated tl.constexpr
    bool equalToOne = false;  // in the spec's equal_to_1 (the JIT folds it to constexpr 1)
    bool divisibleBy16 = false;
    std::optional<qint64> value;  // constexpr value from the spec (ints only)
    std::optional<qint64> launchValue;  // a run-time int's value at the captured launch ("scalar_args")
    std::optional<qint64> tensorElements;  // a pointer's tensor size at the captured launch ("tensor_elements")
    SourceSpan span;

    bool isPointer() const { return type.startsWith(u'*'); }
    bool isRuntimeInteger() const;  // i8..i64 / u8..u64, not constexpr and not folded to 1
};

// A python-level loop (`for` or `while`) in the kernel.
struct LoopInfo {
    pyast::Node node;            // the For / While node
    QString iterator;            // "range", "tl.range", "tl.static_range", "while", or the callee text
    pyast::Node iteratorCall;    // the Call after `in` (empty for while)
    QStringList inductionNames;  // names bound by the `for` target
};

// A node found by a search, with its enclosing nodes (outermost first).
struct LocatedNode {
    pyast::Node node;
    QVector<pyast::Node> ancestors;
};

class KernelView {
public:
    // `astResult`: the agent's `ast` reply (with "ast" a FunctionDef). `spec` may be empty: the
    // rules that need launch facts then stay silent. Fails when the AST is not a function.
    static Expected<KernelView> build(const QJsonObject &astResult, const QJsonObject &spec);

    const QString &file() const { return m_file; }
    const QString &kernel() const { return m_kernel; }
    const pyast::Node &function() const { return m_function; }
    const QStringList &decorators() const { return m_decorators; }
    const QVector<KernelParam> &params() const { return m_params; }
    const KernelParam *param(const QString &name) const;
    bool hasSpec() const { return m_hasSpec; }
    int numWarps() const { return m_numWarps; }    // spec options, Triton's default 4
    int numStages() const { return m_numStages; }  // spec options, Triton's default 3
    QString target() const { return m_target; }    // spec target ("sm_90"); empty if unknown
    // The captured launch, when the spec came from one (fields "grid" and "launches" that
    // `diagnose TASK.py` adds): programs per launch and launches per forward; 0 unknown.
    qint64 programs() const { return m_programs; }
    const QVector<qint64> &grid() const { return m_grid; }  // per axis; empty when unknown
    // Bytes of the launch's tensor arguments, and the forward's torch work outside Triton
    // ({"ops": [{op, count, bytes}], "bytes"}); 0 and empty when the launch was not captured.
    qint64 tensorBytes() const { return m_tensorBytes; }
    const QJsonObject &forwardGlue() const { return m_forwardGlue; }
    int launchesPerForward() const { return m_launches; }

    const QVector<LoopInfo> &loops() const { return m_loops; }
    const QVector<LocatedNode> &calls() const { return m_calls; }
    QVector<LocatedNode> callsOf(const char *tritonFunction) const;
    // The loops enclosing a node, innermost last.
    QVector<const LoopInfo *> enclosingLoops(const QVector<pyast::Node> &ancestors) const;

    SourceSpan span(const pyast::Node &node) const { return pyast::spanOf(node, m_file); }

    // Value of an integer expression built from literals, spec constexprs and names bound once
    // to such expressions; nullopt when it is not a compile-time constant.
    std::optional<qint64> constValue(const pyast::Node &expr) const;
    // Names `expr` reads, and every name those were assigned from, transitively.
    QSet<QString> dependencies(const pyast::Node &expr) const;
    // The same, not through values loaded from memory (the tensors an address walks).
    QSet<QString> addressDependencies(const pyast::Node &expr) const;
    // The grid axes whose tl.program_id `expr` depends on (directly or through the names it
    // reads); an axis that is not a constant counts as every axis.
    QSet<int> programAxes(const pyast::Node &expr) const;
    // The values a name is assigned (=, +=, annotated =); empty for parameters.
    QVector<pyast::Node> assignmentsOf(const QString &name) const { return m_assignments.value(name); }
    // True when `expr` contains tl.arange or reads a name derived from one (a per-element value).
    bool isPerElement(const pyast::Node &expr) const;
    // Extent (end - start) of each tl.arange `expr` depends on, when constant.
    QVector<qint64> arangeExtents(const pyast::Node &expr) const;
    std::optional<qint64> arangeExtent(const pyast::Node &arangeCall) const;
    // The largest tile the kernel builds: max over tl.zeros/tl.full shapes, tl.arange extents and
    // tiles broadcast from aranges (`rows[:, None]` x `cols[None, :]`), with a node that builds it.
    // `accumulatorsOnly` counts tl.zeros/tl.full only.
    struct Tile {
        pyast::Node node;
        qint64 elements = 0;
    };
    Tile largestTile(bool accumulatorsOnly = false) const;
    // True when the value computed by a node with these `ancestors` ends up in a load, store or
    // atomic: it sits inside one, or the statement holding it assigns a name a pointer depends on.
    bool flowsIntoPointer(const QVector<pyast::Node> &ancestors) const;
    // The loads, stores and atomics whose pointer the value computed at `ancestors` feeds (the
    // memory call it sits in, or those reading a name its statement assigns).
    QVector<LocatedNode> memoryCallsFedBy(const QVector<pyast::Node> &ancestors) const;

    // Elements of a shape tuple of constant dims (0 when one is not constant).
    qint64 shapeElements(const pyast::Node &shape) const;

private:
    Tile broadcastTile() const;
    QStringList assignedBy(const QVector<pyast::Node> &ancestors, const pyast::Node **insideMemoryCall) const;
    QSet<QString> closure(const pyast::Node &expr, QSet<QString> (*read)(const pyast::Node &)) const;
    void readSpec(const QJsonObject &spec);
    void collect();

    QString m_file, m_kernel;
    pyast::Node m_function;
    QStringList m_decorators;
    QVector<KernelParam> m_params;
    bool m_hasSpec = false;
    int m_numWarps = 4;
    int m_numStages = 3;
    QString m_target;
    qint64 m_programs = 0;
    QVector<qint64> m_grid;
    qint64 m_tensorBytes = 0;
    QJsonObject m_forwardGlue;
    int m_launches = 0;
    QHash<QString, QVector<pyast::Node>> m_assignments;
    QSet<QString> m_perElementNames;
    QSet<QString> m_pointerNames;  // names in the dependency closure of a memory op's pointer
    QVector<LoopInfo> m_loops;
    QVector<LocatedNode> m_calls;
};

// Memory operations of Triton whose first argument is a pointer.
bool isMemoryCall(const pyast::Node &call);
bool isAtomicCall(const pyast::Node &call);

} // namespace strata::diagnosis
