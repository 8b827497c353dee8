#pragma once
// `run_task` (agent/PROTOCOL.md, "Task methods"): one forward of the task's ModelNew with every
// Triton launch captured, each distinct (kernel, spec) once, with the spec that rebuilds it.
#include "core/Expected.h"

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata {

namespace taskjson { class Fields; }

// One argument of a launch: a tensor (shape, dtype, stride, device) or a scalar (value).
struct KernelArgument {
    QString name;
    QString type;              // Triton signature type: "*fp32", "i32", "constexpr"
    QJsonValue value;          // scalars and constexprs; undefined for tensors
    QVector<qint64> shape;     // tensors only
    QVector<qint64> stride;
    QString dtype;             // "float32"
    QString device;            // "cuda:0"

    bool isTensor() const { return !dtype.isEmpty(); }
    // Bytes of the tensor's elements (numel x element size); 0 for scalars or unknown dtypes.
    qint64 tensorBytes() const;
};

struct CapturedKernel {
    QString kernel;            // the @triton.jit function
    QString sourcePath;        // the file that defines it
    int line = 0;              // its `def` line
    QVector<qint64> grid;      // always 3 entries
    int numWarps = 0;
    int numStages = 0;
    int launches = 0;          // launches with this spec in the forward
    QVector<KernelArgument> args;
    QJsonObject spec;          // suites/samples/README.md format: `compile` with it rebuilds the kernel
    QStringList problems;      // what the spec cannot express
    QString mode;              // "compiled" or "interpreted"
    QString ptxSha256;         // absent under the interpreter
    QJsonObject compiled;      // the JIT's metadata (name, shared, ...); empty under the interpreter
    QJsonObject forwardGlue;   // the run's "torch_glue": torch work of the whole forward outside Triton

    QString target() const { return spec.value(QStringLiteral("target")).toString(); }
    // "add_kernel grid (5, 1, 1), 4 warps, 3 stages"
    QString summary() const;
    // `spec` plus what the launch rules read of the launch (launchSpecKeys): "grid",
    // "launches", "scalar_args" ({name: value} of the integer arguments the JIT kept run-time,
    // so a rule can tell a stride of 1 from a real one), "tensor_bytes" (of its tensor
    // arguments), "tensor_elements" ({name: numel} of each tensor argument) and "forward_glue"
    // (the forward's torch work, when the run measured it).
    QJsonObject specWithLaunch() const;
};

// The keys specWithLaunch adds to a spec; a diagnosis copies them onto the compile's spec.
const QStringList &launchSpecKeys();
// The programs a spec's captured "grid" launches (the product of its dimensions, each at least
// 1); 0 when the spec carries no grid.
qint64 launchPrograms(const QJsonObject &specWithLaunch);

struct TensorDescription {
    QVector<qint64> shape;
    QString dtype;
    // The relative error verify allows this output (run_task outputs[i].tolerance): what a
    // precision rewrite may spend. Absent from older agents.
    std::optional<double> tolerance;
};

struct TaskRun {
    int protocol = 0;
    QString task;              // absolute path of the task file
    QString device;            // "cuda", or "cpu" under the interpreter
    QJsonObject meta;          // the task's STRATA_TASK
    double durationSeconds = 0;
    QVector<TensorDescription> outputs;
    int launchCount = 0;
    QVector<CapturedKernel> kernels;
    QStringList captureErrors;
    QString memoryCap;         // "none", "RLIMIT_AS 16384 MiB"
    QJsonObject torchGlue;     // {"ops": [{op, count, bytes}], "bytes"}; empty from older agents

    // The smallest tolerance over the outputs that state one (0 when none does): a precision
    // rewrite must hold every output, so the tightest is what it may spend.
    double tightestTolerance() const;
};

// Parses a run_task result. A missing or mistyped field gives a ReadError naming the task file,
// the field ("kernels[0].grid") and, inside a kernel, the kernel and its line.
Expected<TaskRun> parseTaskRun(const QJsonObject &result);

// The "kernels" arrays that run_task, verify and profile share.
QVector<CapturedKernel> parseCapturedKernels(const taskjson::Fields &result);

} // namespace strata
