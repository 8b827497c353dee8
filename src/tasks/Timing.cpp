#include "tasks/Timing.h"

#include "tasks/TaskJson.h"

#include <algorithm>

namespace strata {

using taskjson::Fields;

namespace {

DeviceInfo parseDevice(const Fields &f)
{
    DeviceInfo d;
    d.name = f.optionalString(QStringLiteral("name"));
    d.capability = f.optionalString(QStringLiteral("capability"));
    d.multiprocessors = int(f.optionalInteger(QStringLiteral("multiprocessors"), 0));
    d.l2Bytes = f.optionalInteger(QStringLiteral("l2_bytes"), 0);
    d.memoryBytes = f.optionalInteger(QStringLiteral("memory_bytes"), 0);
    d.driver = f.optionalString(QStringLiteral("driver"));
    return d;
}

// Versions are strings, or null for what the host lacks (cuda on a CPU-only host).
QMap<QString, QString> parseVersions(const Fields &f)
{
    QMap<QString, QString> versions;
    for (auto it = f.object().begin(); it != f.object().end(); ++it)
        versions.insert(it.key(), f.optionalString(it.key()));
    return versions;
}

// nvidia-smi's fields are numbers, or null where it said N/A; anything else is left unread,
// since clocks are context for the timing, not something a result stands or falls by.
std::optional<double> lenientNumber(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isDouble() ? std::optional<double>(value.toDouble()) : std::nullopt;
}

QVector<ClockReading> parseClocks(const Fields &f)
{
    QVector<ClockReading> clocks;
    f.forEachObject(f.optionalArray(QStringLiteral("gpus")), QStringLiteral("gpus"), [&](const Fields &gpu) {
        const QJsonObject &o = gpu.object();
        clocks.append({o.value(QStringLiteral("name")).toString(), lenientNumber(o, "clocks_sm"),
                       lenientNumber(o, "clocks_mem"), lenientNumber(o, "clocks_max_sm"),
                       lenientNumber(o, "temperature_gpu"), o.value(QStringLiteral("pstate")).toString()});
    });
    return clocks;
}

CandidateTiming parseCandidate(const QString &name, const Fields &f)
{
    CandidateTiming c;
    c.name = name;
    c.method = f.optionalString(QStringLiteral("method"));
    c.l2 = f.optionalString(QStringLiteral("l2"));
    c.error = f.optionalString(QStringLiteral("error"));
    c.notes = f.optionalStrings(QStringLiteral("notes"));
    c.n = int(f.optionalInteger(QStringLiteral("n"), 0));
    c.medianMs = f.optionalNumber(QStringLiteral("median_ms"));
    c.q1Ms = f.optionalNumber(QStringLiteral("q1_ms"));
    c.q3Ms = f.optionalNumber(QStringLiteral("q3_ms"));
    c.iqrMs = f.optionalNumber(QStringLiteral("iqr_ms"));
    c.minMs = f.optionalNumber(QStringLiteral("min_ms"));
    c.maxMs = f.optionalNumber(QStringLiteral("max_ms"));
    c.meanMs = f.optionalNumber(QStringLiteral("mean_ms"));
    c.medianCiRel = f.optionalNumber(QStringLiteral("median_ci_rel"));
    if (c.error.isEmpty() && c.n > 0 && !c.medianMs)
        f.fail(QStringLiteral("median_ms"), QStringLiteral("missing for a candidate with %1 repetitions").arg(c.n));
    return c;
}

QMap<QString, double> numberMap(const Fields &f)
{
    QMap<QString, double> numbers;
    for (auto it = f.object().begin(); it != f.object().end(); ++it) {
        if (const std::optional<double> value = f.optionalNumber(it.key()))
            numbers.insert(it.key(), *value);
    }
    return numbers;
}

Ceilings parseCeilings(const Fields &f)
{
    Ceilings c;
    c.error = f.optionalString(QStringLiteral("error"));
    if (!c.error.isEmpty())
        return c;
    c.copyBandwidthGbs = f.number(QStringLiteral("copy_bandwidth_gbs"));
    c.copyBandwidthByMethodGbs = numberMap(f.optionalChild(QStringLiteral("copy_bandwidth_by_method_gbs")));
    c.matmulTflops = numberMap(f.child(QStringLiteral("matmul_tflops")));
    c.cached = f.optionalBool(QStringLiteral("cached"), false);
    c.cachePath = f.optionalString(QStringLiteral("cache_path"));
    return c;
}

RooflineEstimate parseEstimate(const QString &name, const Fields &f)
{
    RooflineEstimate e;
    e.candidate = name;
    e.error = f.optionalString(QStringLiteral("error"));
    if (!e.error.isEmpty())
        return e;
    e.precisionCeiling = f.optionalString(QStringLiteral("precision_ceiling"));
    e.bound = f.string(QStringLiteral("bound"));
    e.memoryFloorMs = f.optionalNumber(QStringLiteral("memory_floor_ms"));
    e.computeFloorMs = f.optionalNumber(QStringLiteral("compute_floor_ms"));
    e.solPct = f.optionalNumber(QStringLiteral("sol_pct"));
    e.achievedGbs = f.optionalNumber(QStringLiteral("achieved_gbs"));
    e.achievedTflops = f.optionalNumber(QStringLiteral("achieved_tflops"));
    e.arithmeticIntensity = f.optionalNumber(QStringLiteral("arithmetic_intensity"));
    e.implausible = f.optionalString(QStringLiteral("implausible"));
    return e;
}

Roofline parseRoofline(const Fields &f)
{
    Roofline r;
    r.error = f.optionalString(QStringLiteral("error"));
    if (!r.error.isEmpty())
        return r;
    r.ceilings = parseCeilings(f.child(QStringLiteral("ceilings")));
    const Fields counts = f.optionalChild(QStringLiteral("counts"));
    r.flops = counts.optionalNumber(QStringLiteral("flops"));
    r.bytes = counts.optionalNumber(QStringLiteral("bytes"));
    r.bytesSource = counts.optionalString(QStringLiteral("bytes_source"));
    r.category = f.optionalString(QStringLiteral("category"));
    r.precision = f.optionalString(QStringLiteral("precision"));
    f.forEachMember(QStringLiteral("per_candidate"), [&](const QString &name, const Fields &e) {
        r.perCandidate.append(parseEstimate(name, e));
    });
    return r;
}

// "triton" leads (it is the subject); the others keep the agent's (alphabetical) order.
void putTritonFirst(QVector<CandidateTiming> *candidates)
{
    std::stable_partition(candidates->begin(), candidates->end(),
                          [](const CandidateTiming &c) { return c.name == QLatin1String("triton"); });
}

Timing parse(const Fields &f)
{
    Timing t;
    t.protocol = int(f.integer(QStringLiteral("protocol")));
    t.tasks = f.optionalStrings(QStringLiteral("tasks"));
    t.backend = f.optionalString(QStringLiteral("backend"));
    t.target = f.optionalString(QStringLiteral("target"));
    t.shape = f.object().value(QStringLiteral("shape"));
    t.stopReason = f.optionalString(QStringLiteral("stop_reason"));
    t.timingSeconds = f.optionalNumber(QStringLiteral("timing_s")).value_or(0);
    t.l2FlushBytes = f.optionalInteger(QStringLiteral("l2_flush_bytes"), 0);
    t.device = parseDevice(f.optionalChild(QStringLiteral("device")));
    t.versions = parseVersions(f.optionalChild(QStringLiteral("versions")));
    t.clocksBefore = parseClocks(f.optionalChild(QStringLiteral("clocks_before")));
    t.clocksAfter = parseClocks(f.optionalChild(QStringLiteral("clocks_after")));
    f.child(QStringLiteral("candidates"));   // required, even if every candidate failed
    f.forEachMember(QStringLiteral("candidates"), [&](const QString &name, const Fields &c) {
        t.candidates.append(parseCandidate(name, c));
    });
    putTritonFirst(&t.candidates);
    t.comparisons = numberMap(f.optionalChild(QStringLiteral("comparisons")));
    if (f.has(QStringLiteral("roofline")))
        t.roofline = parseRoofline(f.child(QStringLiteral("roofline")));
    return t;
}

CeilingsResult parseCeilingsOnly(const Fields &f)
{
    CeilingsResult c;
    c.protocol = int(f.integer(QStringLiteral("protocol")));
    c.device = parseDevice(f.optionalChild(QStringLiteral("device")));
    c.versions = parseVersions(f.optionalChild(QStringLiteral("versions")));
    c.ceilings = parseCeilings(f.child(QStringLiteral("ceilings")));
    return c;
}

} // namespace

const RooflineEstimate *Roofline::estimate(const QString &candidate) const
{
    for (const RooflineEstimate &e : perCandidate) {
        if (e.candidate == candidate)
            return &e;
    }
    return nullptr;
}

const CandidateTiming *Timing::candidate(const QString &name) const
{
    for (const CandidateTiming &c : candidates) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

Expected<Timing> parseTiming(const QJsonObject &result)
{
    return taskjson::parseGuarded<Timing>(result, QStringLiteral("time result"), taskjson::taskOrigin(result), parse);
}

Expected<CeilingsResult> parseCeilingsResult(const QJsonObject &result)
{
    return taskjson::parseGuarded<CeilingsResult>(result, QStringLiteral("ceilings result"), QString(),
                                                  parseCeilingsOnly);
}

} // namespace strata
