#include "tasks/ProfileResult.h"

#include "tasks/TaskJson.h"

#include <QMap>

#include <algorithm>

namespace strata {

using taskjson::Fields;

namespace {

const QStringList kStatuses{QStringLiteral("ok"), QStringLiteral("unavailable"),
                            QStringLiteral("counters_unavailable"), QStringLiteral("profiler_failed"),
                            QStringLiteral("no_report")};

NcuSection parseSection(const QString &name, const Fields &f)
{
    NcuSection section{name, {}};
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        if (!it.value().isObject())
            f.fail(it.key(), QStringLiteral("expected an object {value, unit}, got %1").arg(taskjson::typeName(it.value())));
        const Fields metric(it.value().toObject(), f.pathOf(it.key()));
        if (!metric.object().contains(QStringLiteral("value")))
            metric.fail(QStringLiteral("value"), QStringLiteral("missing"));
        section.metrics.append({it.key(), metric.object().value(QStringLiteral("value")),
                                metric.optionalString(QStringLiteral("unit"))});
    }
    return section;
}

NcuRule parseRule(const Fields &f)
{
    NcuRule rule;
    rule.section = f.optionalString(QStringLiteral("section"));
    rule.rule = f.string(QStringLiteral("rule"));
    rule.type = f.optionalString(QStringLiteral("type"));
    rule.description = f.optionalString(QStringLiteral("description"));
    // ncu leaves the estimate empty ("") for rules without one.
    if (f.object().value(QStringLiteral("estimated_speedup")).isDouble())
        rule.estimatedSpeedup = f.number(QStringLiteral("estimated_speedup"));
    rule.estimatedSpeedupType = f.optionalString(QStringLiteral("estimated_speedup_type"));
    return rule;
}

StallCounts parseStalls(const Fields &f)
{
    StallCounts stalls;
    const Fields counts = f.optionalChild(QStringLiteral("stalls"));
    for (auto it = counts.object().begin(); it != counts.object().end(); ++it)
        stalls.append({it.key(), counts.number(it.key())});
    std::stable_sort(stalls.begin(), stalls.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return stalls;
}

SourceLineCost parseLineCost(const Fields &f)
{
    SourceLineCost c;
    c.file = f.optionalString(QStringLiteral("file"));
    c.function = f.optionalString(QStringLiteral("function"));
    c.line = int(f.integer(QStringLiteral("line")));
    c.source = f.optionalString(QStringLiteral("source"));
    c.stallSamples = f.optionalNumber(QStringLiteral("stall_samples")).value_or(0);
    c.instructionsExecuted = f.optionalNumber(QStringLiteral("instructions_executed")).value_or(0);
    c.stalls = parseStalls(f);
    c.cycles = f.optionalNumber(QStringLiteral("cycles")).value_or(0);
    c.callCount = f.optionalInteger(QStringLiteral("call_count"), 0);
    return c;
}

InstructionCost parseInstructionCost(const Fields &f)
{
    InstructionCost c;
    c.address = f.string(QStringLiteral("address"));
    c.sass = f.optionalString(QStringLiteral("sass"));
    c.file = f.optionalString(QStringLiteral("file"));
    c.line = int(f.optionalInteger(QStringLiteral("line"), 0));
    c.stallSamples = f.optionalNumber(QStringLiteral("stall_samples")).value_or(0);
    c.instructionsExecuted = f.optionalNumber(QStringLiteral("instructions_executed")).value_or(0);
    c.stalls = parseStalls(f);
    return c;
}

ProfiledKernel parseProfiledKernel(const Fields &f)
{
    ProfiledKernel k;
    k.id = f.optionalInteger(QStringLiteral("id"), 0);
    k.kernel = f.string(QStringLiteral("kernel"));
    k.grid = f.optionalString(QStringLiteral("grid"));
    k.block = f.optionalString(QStringLiteral("block"));
    const Fields sections = f.child(QStringLiteral("sections"));
    for (auto it = sections.object().begin(); it != sections.object().end(); ++it)
        k.sections.append(parseSection(it.key(), sections.child(it.key())));
    f.forEachObject(f.optionalArray(QStringLiteral("rules")), QStringLiteral("rules"),
                    [&](const Fields &r) { k.rules.append(parseRule(r)); });
    return k;
}

SourceView parseSourceView(const QString &view, const Fields &f)
{
    SourceView s;
    s.view = view;
    s.error = f.optionalString(QStringLiteral("error"));
    if (!s.error.isEmpty())
        return s;
    s.kernel = f.optionalString(QStringLiteral("kernel"));
    s.columns = f.optionalStrings(QStringLiteral("columns"));
    s.costColumn = f.optionalString(QStringLiteral("cost_column"));
    s.totalStallSamples = f.optionalNumber(QStringLiteral("total_stall_samples")).value_or(0);
    s.instructionCount = int(f.optionalInteger(QStringLiteral("instruction_count"), 0));
    f.forEachObject(f.optionalArray(QStringLiteral("lines")), QStringLiteral("lines"),
                    [&](const Fields &line) { s.lines.append(parseLineCost(line)); });
    f.forEachObject(f.optionalArray(QStringLiteral("top_instructions")), QStringLiteral("top_instructions"),
                    [&](const Fields &row) { s.topInstructions.append(parseInstructionCost(row)); });
    return s;
}

void parseNcu(const Fields &ncu, ProfileResult *p)
{
    p->status = ncu.string(QStringLiteral("status"));
    if (!kStatuses.contains(p->status))
        ncu.fail(QStringLiteral("status"), QStringLiteral("unknown status \"%1\" (expected one of %2)")
                                               .arg(p->status, kStatuses.join(QStringLiteral(", "))));
    p->message = ncu.optionalString(QStringLiteral("message"));
    p->profiler = ncu.optionalString(QStringLiteral("profiler"));
    if (p->profiler.isEmpty())
        p->profiler = QStringLiteral("ncu");
    p->reason = ncu.optionalString(QStringLiteral("reason"));
    p->ncuPath = ncu.optionalString(QStringLiteral("path"));
    p->ncuVersion = ncu.optionalString(QStringLiteral("version"));
    p->report = ncu.optionalString(QStringLiteral("report"));
    p->sections = ncu.optionalStrings(QStringLiteral("sections"));
    p->files = ncu.optionalStrings(QStringLiteral("files"));
    p->detailsError = ncu.optionalString(QStringLiteral("details_error"));
    if (!p->ok())
        return;
    ncu.forEachObject(ncu.optionalArray(QStringLiteral("kernels")), QStringLiteral("kernels"),
                      [&](const Fields &k) {
                          // An {"error"} entry: the agent could not read ncu's details header; the
                          // source views may still be there, so it is reported, not fatal.
                          if (k.has(QStringLiteral("error")))
                              p->detailsError = k.string(QStringLiteral("error"));
                          else
                              p->profiled.append(parseProfiledKernel(k));
                      });
    ncu.forEachMember(QStringLiteral("source"), [&](const QString &view, const Fields &s) {
        p->source.append(parseSourceView(view, s));
    });
}

ProfileResult parse(const Fields &f)
{
    ProfileResult p;
    p.protocol = int(f.integer(QStringLiteral("protocol")));
    p.task = f.string(QStringLiteral("task"));
    p.backend = f.optionalString(QStringLiteral("backend"));
    p.target = f.optionalString(QStringLiteral("target"));
    p.device = f.optionalChild(QStringLiteral("device")).object();
    p.kernels = parseCapturedKernels(f);
    parseNcu(f.child(QStringLiteral("ncu")), &p);
    return p;
}

} // namespace

const NcuMetric *NcuSection::metric(const QString &name) const
{
    for (const NcuMetric &m : metrics) {
        if (m.name == name)
            return &m;
    }
    return nullptr;
}

const NcuSection *ProfiledKernel::section(const QString &name) const
{
    for (const NcuSection &s : sections) {
        if (s.name == name)
            return &s;
    }
    return nullptr;
}

const NcuMetric *ProfiledKernel::find(const QString &sectionPart, const QString &metric) const
{
    for (const NcuSection &s : sections) {
        if (!s.name.contains(sectionPart, Qt::CaseInsensitive))
            continue;
        if (const NcuMetric *m = s.metric(metric))
            return m;
    }
    return nullptr;
}

namespace {

void addStalls(const StallCounts &from, QMap<QString, double> *into)
{
    for (const auto &[reason, samples] : from)
        (*into)[reason] += samples;
}

} // namespace

StallCounts SourceView::stallTotals() const
{
    QMap<QString, double> sums;
    if (!lines.isEmpty()) {
        for (const SourceLineCost &line : lines)
            addStalls(line.stalls, &sums);
    } else {
        for (const InstructionCost &instruction : topInstructions)
            addStalls(instruction.stalls, &sums);
    }
    StallCounts totals;
    for (auto it = sums.cbegin(); it != sums.cend(); ++it)
        totals.append({it.key(), it.value()});
    std::stable_sort(totals.begin(), totals.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return totals;
}

const SourceView *ProfileResult::sourceFor(const QString &kernel) const
{
    const SourceView *found = nullptr;
    for (const SourceView &view : source) {
        if (!view.error.isEmpty() || (!view.kernel.isEmpty() && view.kernel != kernel))
            continue;
        if (!found || view.view == QLatin1String("cuda,sass"))
            found = &view;
    }
    return found;
}

Expected<ProfileResult> parseProfileResult(const QJsonObject &result)
{
    return taskjson::parseGuarded<ProfileResult>(result, QStringLiteral("profile result"),
                                                 taskjson::taskOrigin(result), parse);
}

} // namespace strata
