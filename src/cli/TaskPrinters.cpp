// Readable summaries of run_task, verify and ceilings results (time and profile: TimingPrinters.cpp).
#include "cli/TaskCommon.h"

#include "tasks/TaskRun.h"
#include "tasks/Timing.h"
#include "tasks/Verdict.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace strata::cli {

namespace {

QString shapeText(const QVector<qint64> &shape)
{
    QStringList dims;
    for (qint64 d : shape)
        dims.append(QString::number(d));
    return QLatin1Char('[') + dims.join(QStringLiteral(", ")) + QLatin1Char(']');
}

QString listOrDash(const QJsonValue &value)
{
    QStringList items;
    for (const QJsonValue &item : value.toArray())
        items.append(item.toString());
    return items.isEmpty() ? QStringLiteral("-") : items.join(QStringLiteral(", "));
}

// "BLOCK=1024, num_warps 4": what distinguishes one specialization from another.
QString specText(const QJsonObject &spec)
{
    QStringList constexprs;
    const QJsonObject values = spec.value(QStringLiteral("constexprs")).toObject();
    for (auto it = values.begin(); it != values.end(); ++it)
        constexprs.append(it.key() + QLatin1Char('=') + it.value().toVariant().toString());
    return QStringLiteral("target %1; constexprs %2; divisibility_16 %3; equal_to_1 %4")
        .arg(spec.value(QStringLiteral("target")).toString(QStringLiteral("?")),
             constexprs.isEmpty() ? QStringLiteral("-") : constexprs.join(QStringLiteral(", ")),
             listOrDash(spec.value(QStringLiteral("divisibility_16"))), listOrDash(spec.value(QStringLiteral("equal_to_1"))));
}

void printKernel(const CapturedKernel &k)
{
    QTextStream &o = out();
    o << "  " << k.summary() << ", " << k.launches << (k.launches == 1 ? " launch" : " launches") << "  ("
      << shortLocation(k.sourcePath, k.line) << ")\n";
    o << "    spec: " << specText(k.spec) << "\n";
    for (const QString &problem : k.problems)
        o << "    spec cannot express: " << problem << "\n";
}

QString versionsText(const QMap<QString, QString> &versions)
{
    QStringList parts;
    for (const char *name : {"torch", "triton", "cuda", "agent"}) {
        const QString version = versions.value(QLatin1String(name));
        if (!version.isEmpty())
            parts.append(QLatin1String(name) + QLatin1Char(' ') + version);
    }
    return parts.join(QStringLiteral(", "));
}

// "shape 1 (N=5003), draw 2": where a reason was first seen.
QString whereSeen(const VerifyReason &r, const Verdict &v)
{
    if (r.shape < 0)
        return {};
    QString text = QStringLiteral("shape %1").arg(r.shape);
    const QJsonObject overrides = v.shapes.at(r.shape).toObject();
    if (!overrides.isEmpty()) {
        QStringList parts;
        for (auto it = overrides.begin(); it != overrides.end(); ++it)
            parts.append(it.key() + QLatin1Char('=') + it.value().toVariant().toString());
        text += QStringLiteral(" (%1)").arg(parts.join(QStringLiteral(", ")));
    }
    if (r.draw >= 0)
        text += QStringLiteral(", draw %1").arg(r.draw);
    return text;
}

void printChecks(const Verdict &v)
{
    double worst = -1;
    double tolerance = 0;
    for (const VerifyCheck &check : v.checks) {
        for (const OutputCheck &output : check.outputs) {
            if (output.relError && *output.relError > worst) {
                worst = *output.relError;
                tolerance = output.tolerance.value_or(0);
            }
        }
    }
    out() << "Checks: " << v.checks.size();
    if (v.drawsPerShape > 0)
        out() << " (" << v.drawsPerShape << " draws x " << v.shapes.size() << " shapes)";
    if (worst >= 0)
        out() << ", worst relative error " << QString::number(worst, 'g', 3) << " (tolerance "
              << QString::number(tolerance, 'g', 3) << ")";
    out() << "\n";
}

} // namespace

int printTaskRun(const TaskRun &run)
{
    QTextStream &o = out();
    o << "Ran " << run.task << " on " << (run.device.isEmpty() ? QStringLiteral("?") : run.device) << ": "
      << run.launchCount << (run.launchCount == 1 ? " launch" : " launches") << " in "
      << QString::number(run.durationSeconds, 'f', 2) << " s\n";
    o << "Kernels captured: " << run.kernels.size() << "\n";
    for (const CapturedKernel &k : run.kernels)
        printKernel(k);
    QStringList outputs;
    for (const TensorDescription &t : run.outputs)
        outputs.append(t.dtype + shapeText(t.shape));
    o << "Outputs: " << (outputs.isEmpty() ? QStringLiteral("-") : outputs.join(QStringLiteral(", "))) << "\n";
    for (const QString &error : run.captureErrors)
        o << "Capture error: " << error << "\n";
    return ExitOk;
}

int printVerdict(const Verdict &v)
{
    QTextStream &o = out();
    o << "Verdict: " << (v.passed() ? "PASS" : "FAIL") << "  " << v.task << "\n";
    if (!v.reasons.isEmpty())
        o << "Reasons: " << v.failureCount() << " failing, " << v.reasons.size() - v.failureCount() << " warnings\n";
    for (const VerifyReason &r : v.reasons) {
        o << "  " << (r.isFailure() ? "fail    " : "warning ") << r.kind;
        const QString where = whereSeen(r, v);
        if (!where.isEmpty() || r.occurrences > 1)
            o << " [" << where << (r.occurrences > 1 ? QStringLiteral(", seen %1 times").arg(r.occurrences) : QString()) << "]";
        o << "\n    " << r.located() << "\n";
    }
    printChecks(v);
    if (!v.glueCalls.isEmpty()) {
        QStringList glue;
        for (auto it = v.glueCalls.begin(); it != v.glueCalls.end(); ++it)
            glue.append(QStringLiteral("aten.%1 x%2").arg(it.key()).arg(it.value()));
        o << "Torch glue per forward: " << glue.join(QStringLiteral(", ")) << "\n";
    }
    for (const CapturedKernel &k : v.kernels)
        printKernel(k);
    return v.passed() ? ExitOk : ExitTaskFailed;
}

int printCeilings(const CeilingsResult &c)
{
    QTextStream &o = out();
    o << "Device: " << c.device.name << " (" << c.device.capability << ", " << c.device.multiprocessors
      << " SMs, driver " << c.device.driver << "); " << versionsText(c.versions) << "\n";
    if (!c.ceilings.error.isEmpty()) {
        o << "Ceilings: not measured: " << c.ceilings.error << "\n";
        return ExitAgentFailed;
    }
    o << "Copy bandwidth: " << QString::number(c.ceilings.copyBandwidthGbs.value_or(0), 'f', 0) << " GB/s";
    QStringList methods;
    for (auto it = c.ceilings.copyBandwidthByMethodGbs.cbegin(); it != c.ceilings.copyBandwidthByMethodGbs.cend(); ++it)
        methods.append(QStringLiteral("%1 %2").arg(it.key()).arg(it.value(), 0, 'f', 0));
    if (!methods.isEmpty())
        o << " (" << methods.join(QStringLiteral(", ")) << ")";
    o << "\nMatmul TFLOP/s:";
    for (const char *precision : {"fp16", "bf16", "tf32", "fp32"}) {
        const auto it = c.ceilings.matmulTflops.constFind(QLatin1String(precision));
        if (it != c.ceilings.matmulTflops.cend())
            o << " " << precision << " " << QString::number(it.value(), 'f', 1);
    }
    o << "\n" << (c.ceilings.cached ? "Cached in " : "Measured now; cached in ") << c.ceilings.cachePath << "\n";
    return ExitOk;
}

} // namespace strata::cli
