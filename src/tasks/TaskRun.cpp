#include "tasks/TaskRun.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <functional>
#include <numeric>

#include "tasks/TaskJson.h"

namespace strata {

using taskjson::Fields;
using taskjson::MalformedField;

namespace {

KernelArgument parseArgument(const Fields &f)
{
    KernelArgument arg;
    arg.name = f.string(QStringLiteral("name"));
    arg.type = f.optionalString(QStringLiteral("type"));
    arg.value = f.object().value(QStringLiteral("value"));
    arg.dtype = f.optionalString(QStringLiteral("dtype"));
    arg.shape = f.optionalIntegers(QStringLiteral("shape"));
    arg.stride = f.optionalIntegers(QStringLiteral("stride"));
    arg.device = f.optionalString(QStringLiteral("device"));
    return arg;
}

void parseKernelFields(const Fields &f, CapturedKernel *k)
{
    k->sourcePath = f.string(QStringLiteral("source_path"));
    k->line = int(f.optionalInteger(QStringLiteral("line"), 0));
    k->grid = f.optionalIntegers(QStringLiteral("grid"));
    if (k->grid.size() != 3)
        f.fail(QStringLiteral("grid"), QStringLiteral("expected 3 dimensions, got %1").arg(k->grid.size()));
    k->numWarps = int(f.optionalInteger(QStringLiteral("num_warps"), 0));
    k->numStages = int(f.optionalInteger(QStringLiteral("num_stages"), 0));
    k->launches = int(f.optionalInteger(QStringLiteral("launches"), 1));
    f.forEachObject(f.optionalArray(QStringLiteral("args")), QStringLiteral("args"),
                    [&](const Fields &arg) { k->args.append(parseArgument(arg)); });
    k->spec = f.child(QStringLiteral("spec")).object();
    if (k->spec.value(QStringLiteral("kernel")).toString() != k->kernel)
        f.fail(QStringLiteral("spec.kernel"), QStringLiteral("names \"%1\", not the captured kernel")
                                                  .arg(k->spec.value(QStringLiteral("kernel")).toString()));
    k->problems = f.optionalStrings(QStringLiteral("problems"));
    k->mode = f.optionalString(QStringLiteral("mode"));
    k->ptxSha256 = f.optionalString(QStringLiteral("ptx_sha256"));
    k->compiled = f.optionalChild(QStringLiteral("compiled")).object();
}

CapturedKernel parseKernel(const Fields &f)
{
    CapturedKernel k;
    k.kernel = f.string(QStringLiteral("kernel"));
    try {
        parseKernelFields(f, &k);
    } catch (MalformedField &bad) {
        // Name the kernel and where it is defined: the path alone ("kernels[1]") is not enough.
        bad.problem += QStringLiteral(" (kernel %1").arg(k.kernel);
        if (!k.sourcePath.isEmpty())
            bad.problem += QStringLiteral(" at %1:%2").arg(k.sourcePath).arg(k.line);
        bad.problem += QLatin1Char(')');
        throw;
    }
    return k;
}

TaskRun parseRun(const Fields &f)
{
    TaskRun run;
    run.protocol = int(f.integer(QStringLiteral("protocol")));
    run.task = f.string(QStringLiteral("task"));
    run.device = f.optionalString(QStringLiteral("device"));
    run.meta = f.optionalChild(QStringLiteral("meta")).object();
    run.durationSeconds = f.optionalNumber(QStringLiteral("duration_s")).value_or(0);
    f.forEachObject(f.optionalArray(QStringLiteral("outputs")), QStringLiteral("outputs"), [&](const Fields &o) {
        run.outputs.append({o.optionalIntegers(QStringLiteral("shape")), o.optionalString(QStringLiteral("dtype")),
                            o.optionalNumber(QStringLiteral("tolerance"))});
    });
    run.kernels = parseCapturedKernels(f);
    run.launchCount = int(f.optionalInteger(QStringLiteral("launch_count"), run.kernels.size()));
    run.captureErrors = f.optionalStrings(QStringLiteral("capture_errors"));
    run.memoryCap = f.optionalString(QStringLiteral("memory_cap"));
    run.torchGlue = f.optionalChild(QStringLiteral("torch_glue")).object();
    for (CapturedKernel &kernel : run.kernels)
        kernel.forwardGlue = run.torchGlue;
    return run;
}

} // namespace

QString CapturedKernel::summary() const
{
    QStringList dims;
    for (qint64 d : grid)
        dims.append(QString::number(d));
    QString text = QStringLiteral("%1 grid (%2)").arg(kernel, dims.join(QStringLiteral(", ")));
    // A backend without warps or software pipelining stages (Ascend) captures neither: no "0 warps".
    if (numWarps > 0)
        text += QStringLiteral(", %1 warps").arg(numWarps);
    if (numStages > 0)
        text += QStringLiteral(", %1 stages").arg(numStages);
    return text;
}

qint64 launchPrograms(const QJsonObject &specWithLaunch)
{
    const QJsonArray grid = specWithLaunch.value(QStringLiteral("grid")).toArray();
    if (grid.isEmpty())
        return 0;
    qint64 programs = 1;
    for (const QJsonValue &dim : grid)
        programs *= std::max<qint64>(1, dim.toInteger());
    return programs;
}

QJsonObject CapturedKernel::specWithLaunch() const
{
    QJsonObject withLaunch = spec;
    QJsonArray dims;
    for (const qint64 dim : grid)
        dims.append(dim);
    withLaunch.insert(QStringLiteral("grid"), dims);
    withLaunch.insert(QStringLiteral("launches"), launches);
    QJsonObject scalars;
    for (const KernelArgument &arg : args) {
        const bool runtimeInt = arg.type.startsWith(u'i') || arg.type.startsWith(u'u');
        if (!arg.isTensor() && runtimeInt && arg.value.isDouble())
            scalars.insert(arg.name, arg.value);
    }
    withLaunch.insert(QStringLiteral("scalar_args"), scalars);
    qint64 tensorBytes = 0;
    QJsonObject tensorElements;  // per tensor argument: what an address into it can reach
    for (const KernelArgument &arg : args) {
        tensorBytes += arg.tensorBytes();
        if (arg.isTensor())
            tensorElements.insert(arg.name, std::accumulate(arg.shape.cbegin(), arg.shape.cend(), qint64(1), std::multiplies<>()));
    }
    withLaunch.insert(QStringLiteral("tensor_bytes"), tensorBytes);
    withLaunch.insert(QStringLiteral("tensor_elements"), tensorElements);
    if (!forwardGlue.isEmpty())
        withLaunch.insert(QStringLiteral("forward_glue"), forwardGlue);
    return withLaunch;
}

qint64 KernelArgument::tensorBytes() const
{
    static const QHash<QString, int> sizes{
        {QStringLiteral("float64"), 8}, {QStringLiteral("int64"), 8}, {QStringLiteral("uint64"), 8},
        {QStringLiteral("complex64"), 8}, {QStringLiteral("float32"), 4}, {QStringLiteral("int32"), 4},
        {QStringLiteral("uint32"), 4}, {QStringLiteral("float16"), 2}, {QStringLiteral("bfloat16"), 2},
        {QStringLiteral("int16"), 2}, {QStringLiteral("uint16"), 2}, {QStringLiteral("int8"), 1},
        {QStringLiteral("uint8"), 1}, {QStringLiteral("bool"), 1}, {QStringLiteral("float8_e4m3fn"), 1},
        {QStringLiteral("float8_e5m2"), 1}};
    const int size = sizes.value(dtype, 0);
    if (!isTensor() || size == 0)
        return 0;
    qint64 elements = 1;
    for (qint64 dim : shape)
        elements *= dim;
    return elements * size;
}

const QStringList &launchSpecKeys()
{
    static const QStringList keys{QStringLiteral("grid"), QStringLiteral("launches"), QStringLiteral("scalar_args"),
                                  QStringLiteral("tensor_bytes"), QStringLiteral("tensor_elements"),
                                  QStringLiteral("forward_glue")};
    return keys;
}

QVector<CapturedKernel> parseCapturedKernels(const Fields &result)
{
    QVector<CapturedKernel> kernels;
    result.forEachObject(result.array(QStringLiteral("kernels")), QStringLiteral("kernels"),
                         [&](const Fields &k) { kernels.append(parseKernel(k)); });
    return kernels;
}

double TaskRun::tightestTolerance() const
{
    double tightest = 0;
    for (const TensorDescription &output : outputs) {
        if (output.tolerance && (tightest == 0 || *output.tolerance < tightest))
            tightest = *output.tolerance;
    }
    return tightest;
}

Expected<TaskRun> parseTaskRun(const QJsonObject &result)
{
    return taskjson::parseGuarded<TaskRun>(result, QStringLiteral("run_task result"),
                                           taskjson::taskOrigin(result), parseRun);
}

} // namespace strata
