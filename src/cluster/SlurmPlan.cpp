#include "cluster/SlurmPlan.h"

#include "core/AtomicFile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace strata::cluster {

namespace {

QJsonArray idsToJson(const QVector<qint64> &ids)
{
    QJsonArray array;
    for (qint64 id : ids)
        array.append(id);
    return array;
}

QVector<qint64> idsFromJson(const QJsonValue &value)
{
    QVector<qint64> ids;
    for (const QJsonValue &id : value.toArray())
        ids.append(id.toInteger());
    return ids;
}

QStringList stringsFromJson(const QJsonValue &value)
{
    QStringList strings;
    for (const QJsonValue &text : value.toArray())
        strings.append(text.toString());
    return strings;
}

QString scriptHeader(const SlurmPlan &plan, const QString &what)
{
    return QStringLiteral("#!/bin/bash\n"
                          "# Written by strata-cli bench --slurm for %1 (%2); rewritten at each submission.\n"
                          "set -euo pipefail\n"
                          "cd %3\n")
        .arg(plan.suiteName(), what, shellQuote(plan.workingDir));
}

} // namespace

QString SlurmPlan::suiteName() const { return QFileInfo(suiteDir).fileName(); }
QString SlurmPlan::planPath() const { return runDir + QStringLiteral("/plan.json"); }
QString SlurmPlan::elementScriptPath() const { return runDir + QStringLiteral("/element.sh"); }
QString SlurmPlan::mergeScriptPath() const { return runDir + QStringLiteral("/merge.sh"); }
QString SlurmPlan::storePath(int index) const { return QStringLiteral("%1/stores/%2.db").arg(runDir).arg(index); }
QString SlurmPlan::partPath(int index) const { return QStringLiteral("%1/parts/%2.json").arg(runDir).arg(index); }
QString SlurmPlan::workDir(int index) const { return QStringLiteral("%1/work/%2").arg(runDir).arg(index); }
QString SlurmPlan::logDir() const { return runDir + QStringLiteral("/logs"); }
QString SlurmPlan::resultsPath() const { return runDir + QStringLiteral("/results.json"); }

int SlurmPlan::indexOfTask(const QString &stem) const
{
    for (int i = 0; i < batches.size(); ++i)
        if (batches[i].contains(stem))
            return i;
    return -1;
}

QJsonObject SlurmPlan::toJson() const
{
    QJsonArray batchArray;
    for (const QStringList &batch : batches)
        batchArray.append(QJsonArray::fromStringList(batch));
    return {{QStringLiteral("schema"), QStringLiteral("strata.slurm-run")},
            {QStringLiteral("version"), 1},
            {QStringLiteral("suite_dir"), suiteDir},
            {QStringLiteral("cli"), cli},
            {QStringLiteral("working_dir"), workingDir},
            {QStringLiteral("batches"), batchArray},
            {QStringLiteral("bench_args"), QJsonArray::fromStringList(benchArgs)},
            {QStringLiteral("results_copy"), resultsCopy},
            {QStringLiteral("partition"), resources.partition},
            {QStringLiteral("gres"), resources.gres},
            {QStringLiteral("time"), resources.time},
            {QStringLiteral("sbatch_args"), QJsonArray::fromStringList(resources.sbatchArgs)},
            {QStringLiteral("array_jobs"), idsToJson(arrayJobs)},
            {QStringLiteral("merge_jobs"), idsToJson(mergeJobs)}};
}

QVector<QStringList> splitIntoBatches(const QStringList &stems, int arrayMax)
{
    const int count = arrayMax <= 0 ? int(stems.size()) : std::min(arrayMax, int(stems.size()));
    QVector<QStringList> batches(count);
    for (int i = 0, next = 0; i < count; ++i) {
        // The first (size % count) batches take one task more.
        const int size = int(stems.size()) / count + (i < int(stems.size()) % count ? 1 : 0);
        batches[i] = stems.mid(next, size);
        next += size;
    }
    return batches;
}

Expected<SlurmPlan> planFromJson(const QJsonObject &json, const QString &origin)
{
    if (json.value(QStringLiteral("schema")).toString() != QLatin1String("strata.slurm-run"))
        return ReadError{origin, 0, 0, QStringLiteral("not a Strata Slurm plan (schema strata.slurm-run)")};
    SlurmPlan plan;
    plan.runDir = QFileInfo(origin).absolutePath();
    plan.suiteDir = json.value(QStringLiteral("suite_dir")).toString();
    plan.cli = json.value(QStringLiteral("cli")).toString();
    plan.workingDir = json.value(QStringLiteral("working_dir")).toString();
    for (const QJsonValue &batch : json.value(QStringLiteral("batches")).toArray())
        plan.batches.append(stringsFromJson(batch));
    plan.benchArgs = stringsFromJson(json.value(QStringLiteral("bench_args")));
    plan.resultsCopy = json.value(QStringLiteral("results_copy")).toString();
    plan.resources.partition = json.value(QStringLiteral("partition")).toString();
    plan.resources.gres = json.value(QStringLiteral("gres")).toString();
    plan.resources.time = json.value(QStringLiteral("time")).toString();
    plan.resources.sbatchArgs = stringsFromJson(json.value(QStringLiteral("sbatch_args")));
    plan.arrayJobs = idsFromJson(json.value(QStringLiteral("array_jobs")));
    plan.mergeJobs = idsFromJson(json.value(QStringLiteral("merge_jobs")));
    if (plan.suiteDir.isEmpty() || plan.batches.isEmpty())
        return ReadError{origin, 0, 0, QStringLiteral("the plan names no suite or no batch")};
    return plan;
}

Expected<SlurmPlan> readPlan(const QString &runDir)
{
    const QString path = QDir(runDir).absoluteFilePath(QStringLiteral("plan.json"));
    QFile file(path);
    if (!file.exists())
        return ReadError{path, 0, 0, QStringLiteral("no Slurm run in %1 (submit one with bench --slurm)").arg(runDir),
                         ProblemKind::Missing};
    if (!file.open(QIODevice::ReadOnly))
        return ReadError{path, 0, 0, file.errorString(), ProblemKind::Unreadable};
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &error);
    if (!document.isObject())
        return ReadError{path, 0, 0, QStringLiteral("not JSON: ") + error.errorString()};
    return planFromJson(document.object(), path);
}

QString writePlan(const SlurmPlan &plan)
{
    for (const QString &dir : {QStringLiteral("stores"), QStringLiteral("parts"), QStringLiteral("work"), QStringLiteral("logs")})
        if (!QDir().mkpath(plan.runDir + u'/' + dir))
            return QStringLiteral("cannot create %1/%2").arg(plan.runDir, dir);
    const QList<QPair<QString, QByteArray>> files{
        {plan.planPath(), QJsonDocument(plan.toJson()).toJson(QJsonDocument::Indented)},
        {plan.elementScriptPath(), elementScript(plan).toUtf8()},
        {plan.mergeScriptPath(), mergeScript(plan).toUtf8()}};
    for (const auto &[path, bytes] : files) {
        if (const QString why = writeFileAtomically(path, bytes); !why.isEmpty())
            return QStringLiteral("cannot write %1: %2").arg(path, why);
    }
    for (const QString &script : {plan.elementScriptPath(), plan.mergeScriptPath()})
        QFile::setPermissions(script, QFile::permissions(script) | QFile::ExeOwner | QFile::ExeGroup);
    return {};
}

QString shellQuote(const QString &text)
{
    if (!text.isEmpty() && !text.contains(QRegularExpression(QStringLiteral("[^A-Za-z0-9_./:=,+@%-]"))))
        return text;
    QString quoted = text;
    quoted.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + quoted + u'\'';
}

QString elementScript(const SlurmPlan &plan)
{
    QString script = scriptHeader(plan, QStringLiteral("one array element: one batch of tasks"));
    script += QStringLiteral("index=\"${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array element}\"\n"
                             "case \"$index\" in\n");
    for (int i = 0; i < plan.batches.size(); ++i)
        script += QStringLiteral("  %1) tasks=%2 ;;\n").arg(i).arg(shellQuote(plan.batches[i].join(u',')));
    script += QStringLiteral("  *) echo \"element.sh: no batch $index in this plan\" >&2; exit 2 ;;\n"
                             "esac\n");
    QStringList command{shellQuote(plan.cli), QStringLiteral("bench"), shellQuote(plan.suiteDir),
                        QStringLiteral("--only"), QStringLiteral("\"$tasks\""),
                        QStringLiteral("--db"), shellQuote(plan.runDir + QStringLiteral("/stores/")) + QStringLiteral("\"$index.db\""),
                        QStringLiteral("--json"), shellQuote(plan.runDir + QStringLiteral("/parts/")) + QStringLiteral("\"$index.json\""),
                        QStringLiteral("--work-dir"), shellQuote(plan.runDir + QStringLiteral("/work/")) + QStringLiteral("\"$index\"")};
    for (const QString &arg : plan.benchArgs)
        command.append(shellQuote(arg));
    // exec: Slurm's signals (scancel, the time limit) reach strata-cli itself, which stores what
    // it was doing and stops.
    script += QStringLiteral("exec ") + command.join(u' ') + u'\n';
    return script;
}

QString mergeScript(const SlurmPlan &plan)
{
    QString script = scriptHeader(plan, QStringLiteral("the merge of every element's store"));
    QStringList command{shellQuote(plan.cli), QStringLiteral("merge"), shellQuote(plan.runDir)};
    if (!plan.resultsCopy.isEmpty())
        command += {QStringLiteral("--json"), shellQuote(plan.resultsCopy)};
    script += QStringLiteral("exec ") + command.join(u' ') + u'\n';
    return script;
}

} // namespace strata::cluster
