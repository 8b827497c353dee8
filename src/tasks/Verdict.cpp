#include "tasks/Verdict.h"

#include "tasks/TaskJson.h"

namespace strata {

using taskjson::Fields;

namespace {

VerifyReason parseReason(const Fields &f)
{
    VerifyReason r;
    r.kind = f.string(QStringLiteral("kind"));
    r.severity = f.optionalString(QStringLiteral("severity"), QStringLiteral("fail"));
    if (r.severity != QLatin1String("fail") && r.severity != QLatin1String("warning"))
        f.fail(QStringLiteral("severity"), QStringLiteral("expected \"fail\" or \"warning\", got \"%1\"").arg(r.severity));
    r.message = f.string(QStringLiteral("message"));
    r.shape = int(f.optionalInteger(QStringLiteral("shape"), -1));
    r.draw = int(f.optionalInteger(QStringLiteral("draw"), -1));
    r.group = int(f.optionalInteger(QStringLiteral("group"), -1));
    r.occurrences = int(f.optionalInteger(QStringLiteral("occurrences"), 1));
    r.file = f.optionalString(QStringLiteral("file"));
    r.line = int(f.optionalInteger(QStringLiteral("line"), 0));
    r.detail = f.object();
    return r;
}

OutputCheck parseOutput(const Fields &f)
{
    OutputCheck o;
    o.output = int(f.optionalInteger(QStringLiteral("output"), 0));
    o.shape = f.optionalIntegers(QStringLiteral("shape"));
    o.dtype = f.optionalString(QStringLiteral("dtype"));
    o.tolerance = f.optionalNumber(QStringLiteral("tolerance"));
    o.nonFinite = int(f.optionalInteger(QStringLiteral("non_finite"), 0));
    o.relError = f.optionalNumber(QStringLiteral("rel_error"));
    o.referenceRelError = f.optionalNumber(QStringLiteral("reference_rel_error"));
    return o;
}

// {"abs": 1, "max": 2}: aten op names with call counts.
QMap<QString, int> opCounts(const Fields &f, const QString &key)
{
    QMap<QString, int> counts;
    const Fields ops = f.optionalChild(key);
    for (auto it = ops.object().begin(); it != ops.object().end(); ++it)
        counts.insert(it.key(), int(ops.integer(it.key())));
    return counts;
}

VerifyCheck parseCheck(const Fields &f)
{
    VerifyCheck c;
    c.shape = int(f.integer(QStringLiteral("shape")));
    c.draw = int(f.integer(QStringLiteral("draw")));
    c.group = int(f.optionalInteger(QStringLiteral("group"), 0));
    c.seed = f.optionalInteger(QStringLiteral("seed"), 0);
    c.order = f.optionalString(QStringLiteral("order"));
    c.launches = int(f.optionalInteger(QStringLiteral("launches"), 0));
    c.torchOps = opCounts(f, QStringLiteral("torch_ops"));
    f.forEachObject(f.optionalArray(QStringLiteral("outputs")), QStringLiteral("outputs"),
                    [&](const Fields &o) { c.outputs.append(parseOutput(o)); });
    return c;
}

Verdict parse(const Fields &f)
{
    Verdict v;
    v.protocol = int(f.integer(QStringLiteral("protocol")));
    v.task = f.string(QStringLiteral("task"));
    v.verdict = f.string(QStringLiteral("verdict"));
    if (v.verdict != QLatin1String("pass") && v.verdict != QLatin1String("fail"))
        f.fail(QStringLiteral("verdict"), QStringLiteral("expected \"pass\" or \"fail\", got \"%1\"").arg(v.verdict));
    v.drawsPerShape = int(f.optionalInteger(QStringLiteral("draws_per_shape"), 0));
    v.shapes = f.optionalArray(QStringLiteral("shapes"));
    f.forEachObject(f.array(QStringLiteral("reasons")), QStringLiteral("reasons"),
                    [&](const Fields &r) { v.reasons.append(parseReason(r)); });
    f.forEachObject(f.optionalArray(QStringLiteral("checks")), QStringLiteral("checks"),
                    [&](const Fields &c) { v.checks.append(parseCheck(c)); });
    v.kernels = parseCapturedKernels(f);
    v.glueCalls = opCounts(f, QStringLiteral("glue_calls"));
    if (v.passed() && v.failureCount() > 0)
        f.fail(QStringLiteral("verdict"), QStringLiteral("\"pass\" although %1 reason(s) have severity \"fail\"")
                                              .arg(v.failureCount()));
    return v;
}

} // namespace

QString VerifyReason::located() const
{
    if (file.isEmpty())
        return message;
    return line > 0 ? QStringLiteral("%1:%2: %3").arg(file).arg(line).arg(message)
                    : QStringLiteral("%1: %2").arg(file, message);
}

int Verdict::failureCount() const
{
    int failures = 0;
    for (const VerifyReason &reason : reasons)
        failures += reason.isFailure();
    return failures;
}

Expected<Verdict> parseVerdict(const QJsonObject &result)
{
    return taskjson::parseGuarded<Verdict>(result, QStringLiteral("verify result"),
                                           taskjson::taskOrigin(result), parse);
}

} // namespace strata
