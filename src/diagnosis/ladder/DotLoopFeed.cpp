#include "diagnosis/ladder/DotLoopFeed.h"

#include "compile/LoadedCompile.h"
#include "diagnosis/ladder/StaticCost.h"
#include "diagnosis/ladder/Symptoms.h"
#include "diagnosis/model/ElementTypes.h"
#include "tasks/TaskRun.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace strata::diagnosis {

namespace {

// One dot op as TTGIR types it: `A * B -> C`, A and B either registers (tensor<..>) or shared
// memory (!ttg.memdesc<..>); the last two dims of A are M x K.
struct DotType {
    QVector<qint64> a, b, c;
    QString element;
    bool aShared = false, bShared = false;
};

std::optional<DotType> readDotType(const QString &text)
{
    static const QRegularExpression operand(QStringLiteral("(!ttg\\.memdesc|tensor)<((?:\\d+x)+)([a-zA-Z0-9]+)"));
    const int colon = text.indexOf(QLatin1String(" : "));
    if (colon < 0)
        return std::nullopt;
    QVector<std::pair<bool, QVector<qint64>>> shapes;
    QString element;
    auto it = operand.globalMatch(text, colon);
    while (it.hasNext() && shapes.size() < 3) {
        const QRegularExpressionMatch m = it.next();
        QVector<qint64> dims;
        for (const QString &dim : m.captured(2).split(u'x', Qt::SkipEmptyParts))
            dims.append(dim.toLongLong());
        if (shapes.isEmpty())
            element = m.captured(3);
        shapes.append({m.captured(1).startsWith(u'!'), dims});
    }
    if (shapes.size() < 3 || shapes[0].second.size() < 2 || shapes[1].second.size() < 2 || shapes[2].second.size() < 2)
        return std::nullopt;
    return DotType{shapes[0].second, shapes[1].second, shapes[2].second, element, shapes[0].first, shapes[1].first};
}

qint64 elements(const QVector<qint64> &dims)
{
    qint64 n = 1;
    for (qint64 d : dims)
        n *= d;
    return n;
}

// Adds the dot on `line` to the budget; false when its type cannot be read.
bool addDot(const SourceLineFacts &line, const DotFeed &feed, const StageListing &ttgir, DotLoopBudget &budget)
{
    if (line.dotIrLine < 0 || line.dotIrLine >= ttgir.lines.size())
        return false;
    const QString &text = ttgir.lines[line.dotIrLine].text;
    const std::optional<DotType> type = readDotType(text);
    const int bytes = type ? mlirElementBytes(type->element) : 0;
    if (!type || bytes <= 0)
        return false;
    const qint64 m = type->a[type->a.size() - 2], k = type->a.last(), n = type->b.last();
    const qint64 batch = elements(type->c) / (type->c[type->c.size() - 2] * type->c.last());
    budget.flops += 2.0 * batch * m * n * k;
    // An operand in shared memory is read from there; one in registers only where the backend's
    // unit loads register operands through shared memory as well.
    if (feed.registerOperandsViaShared || type->aShared)
        budget.sharedReadBytes += double(batch * m * k * bytes);
    if (feed.registerOperandsViaShared || type->bShared)
        budget.sharedReadBytes += double(batch * k * n * bytes);
    budget.operandBytes = std::max(budget.operandBytes, bytes);
    budget.dotLines.append(line.line);
    if (budget.firstDotIrLine < 0) {
        budget.firstDotIrLine = line.dotIrLine;
        budget.firstDotText = text.trimmed();
    }
    if (!budget.dotShapes.isEmpty())
        budget.dotShapes += QStringLiteral(", ");
    budget.dotShapes += QStringLiteral("%1x%2x%3 %4 (%5)").arg(m).arg(n).arg(k).arg(type->element, dotLabel(line));
    return true;
}

QString percent(double fraction)
{
    return QString::number(fraction * 100, 'f', 0) + u'%';
}

// Iterations of the dot's loop nest at the launch: the product of the trips of every loop around
// `line` (a 3x3 tap loop inside a channel loop runs its body 9 x channels times); nullopt when
// no loop is around it or one of them has no known trip count.
std::optional<qint64> nestTrips(const QVector<LoopAtLaunch> &loops, int line)
{
    std::optional<qint64> trips;
    for (const LoopAtLaunch &loop : loops) {
        if (loop.firstLine > line || line > loop.lastLine)
            continue;
        if (!loop.trips)
            return std::nullopt;
        trips = trips.value_or(1) * *loop.trips;
    }
    return trips;
}

// Whether the launch says the kernel's tensor work at the peak takes less time than its tensor
// bytes at DRAM bandwidth: its lower bound is memory, so how fast the tile is fed does not matter.
bool memoryIsTheBound(const DotLoopBudget &budget, const QJsonObject &spec, const QVector<LoopAtLaunch> &loops)
{
    const qint64 programs = launchPrograms(spec);
    const double bytes = spec.value(QStringLiteral("tensor_bytes")).toDouble();
    const std::optional<qint64> trips = nestTrips(loops, budget.dotLines.first());
    const ComputeUnitRates &rates = budget.rates;
    if (programs <= 0 || bytes <= 0 || !trips || rates.dramBytesPerSecond <= 0 || rates.units <= 0 || rates.clockHz <= 0)
        return false;
    const double flops = budget.flops * double(*trips) * double(programs);
    const double tensorSeconds = flops / (rates.tensorFlopsPerClock * rates.units * rates.clockHz);
    return tensorSeconds < bytes / rates.dramBytesPerSecond;
}

Severity bySaving(double share)
{
    return share >= 0.5 ? Severity::High : share >= 0.25 ? Severity::Medium : Severity::Low;
}

// Which limit dominates: the shared-memory feed (a tile choice: larger tiles fix it) or the
// special-function work (the schedule: exp count per FLOP is set by the head dimension, and only
// overlapping it with the MMA of other warps, ping-pong warpgroups, removes it).
bool specialWorkDominates(const DotLoopBudget &b)
{
    return b.specialCycles > std::max(0.0, b.sharedCycles - b.tensorCycles);
}

// Without measurements: high only when the shared-memory feed alone halves the tensor rate (the
// tile is too small for its operands); the schedule's cost is an estimate of a structural limit
// that tuned kernels share (flash attention at head dim 64), so it stays medium until measured.
Severity staticSeverity(const DotLoopBudget &b, double estimated)
{
    const double feedOnly = b.sharedCycles > 0 ? std::min(1.0, b.tensorCycles / b.sharedCycles) : 1.0;
    if (1.0 - feedOnly >= 0.5)
        return Severity::High;
    return estimated >= 0.25 ? Severity::Medium : Severity::Low;
}

// The measured saving: the time of the lines the finding names, capped at the gap to the bound.
std::optional<double> measuredSaving(const L2Analysis *measured, const QVector<int> &lines)
{
    if (!measured || measured->lines.isEmpty())
        return std::nullopt;
    double share = 0;
    for (int line : lines)
        if (const LineCost *cost = measured->line(line))
            share += cost->timeShare;
    const std::optional<double> gap = measuredGap(*measured);
    return std::min(std::min(share, 1.0), gap.value_or(1.0));
}

QString causeOf(const DotLoopBudget &b)
{
    QString limit = b.sharedCycles > b.tensorCycles
        ? QStringLiteral("its operands cross the SM's shared memory in %1 clocks (%2 bytes read by the MMAs, %3 written by the loop's copies)")
              .arg(b.sharedCycles, 0, 'f', 0).arg(b.sharedReadBytes, 0, 'f', 0).arg(b.copyBytes, 0, 'f', 0)
        : QString();
    if (b.specialCycles > 0) {
        if (!limit.isEmpty())
            limit += QStringLiteral(", and ");
        limit += QStringLiteral("%1 special-function results (exp, log, rsqrt) between the dots take %2 clocks that the MMA of the "
                                "same warps does not overlap").arg(b.specialOps, 0, 'f', 0).arg(b.specialCycles, 0, 'f', 0);
    }
    const QString fix = specialWorkDominates(b)
        ? QStringLiteral("The special-function work per FLOP is fixed by the head dimension, so a larger tile does not "
                         "help: overlapping it with the MMA of other warps (ping-pong warpgroups, warp specialization) "
                         "or skipping work (fully masked blocks) does.")
        : QStringLiteral("Larger tiles per CTA (more rows per warpgroup, wider N) raise the FLOPs per byte moved.");
    return QStringLiteral("Each iteration of the dot loop gives the tensor cores %1 clocks of work (%2), but %3: the loop reaches "
                          "at most %4 of the tensor peak however well its loads are pipelined. Its loads then show as the hot "
                          "line (warps wait on operands) and the kernel as latency-bound. %5")
        .arg(b.tensorCycles, 0, 'f', 0).arg(b.dotShapes, limit, percent(b.attainable()), fix);
}

} // namespace

double DotLoopBudget::attainable() const
{
    const double iteration = std::max(tensorCycles, sharedCycles) + specialCycles;
    return iteration > 0 ? std::min(1.0, tensorCycles / iteration) : 1.0;
}

std::optional<DotLoopBudget> dotLoopBudget(const KernelIrFacts &facts, const LoadedCompile &compile,
                                           const BackendIrRules &rules)
{
    const StageListing *ttgir = compile.listing(QStringLiteral("ttgir"));
    if (!facts.gpuIrRead || !ttgir)
        return std::nullopt;
    DotLoopBudget budget;
    for (const SourceLineFacts &line : facts.lines) {
        if (!line.inLoop)
            continue;
        // A dot whose tile another rule of the backend already names as the mechanism: budgeting
        // it here would name the same tile twice.
        const DotFeed feed = line.dotKind == DotKind::None ? DotFeed{} : rules.dotFeed(line, facts.target);
        if (feed.use == DotFeed::Use::NamedElsewhere)
            return std::nullopt;
        if (feed.use == DotFeed::Use::Counted && !addDot(line, feed, *ttgir, budget))
            return std::nullopt;
        const int copies = line.asyncCopies + line.bulkTensorCopies + line.ttgirLoads;
        if (copies > line.scalarTtgirLoads) {
            // The pipeliner issues a line's copy once per stage in the prologue and once in the
            // loop; the line's bytes count them all, one iteration moves one of them.
            budget.copyBytes += line.globalBytes / copies;
            budget.copyLines.append(line.line);
        }
        if (const int special = rules.specialFunctionOps(compile, line.line); special > 0 && facts.numWarps > 0) {
            budget.specialOps += double(special) * facts.numWarps * 32;
            budget.specialLines.append(line.line);
        }
    }
    if (budget.dotLines.isEmpty() || budget.operandBytes <= 0)
        return std::nullopt;
    const std::optional<ComputeUnitRates> rates = rules.computeUnitRates(facts.target, budget.operandBytes);
    if (!rates || rates->tensorFlopsPerClock <= 0 || rates->sharedBytesPerClock <= 0 || rates->specialPerClock <= 0)
        return std::nullopt;
    budget.rates = *rates;
    budget.tensorCycles = budget.flops / rates->tensorFlopsPerClock;
    budget.sharedCycles = (budget.sharedReadBytes + budget.copyBytes) / rates->sharedBytesPerClock;
    budget.specialCycles = budget.specialOps / rates->specialPerClock;
    return budget;
}

QVector<Finding> dotLoopFeedFindings(const KernelIrFacts &facts, const LoadedCompile &compile, const BackendIrRules &rules,
                                     const QJsonObject &spec, const QVector<LoopAtLaunch> &loops, const L2Analysis *measured)
{
    const std::optional<DotLoopBudget> budget = dotLoopBudget(facts, compile, rules);
    if (!budget || budget->attainable() > kFeedAttainableLimit || memoryIsTheBound(*budget, spec, loops))
        return {};
    const double estimated = 1.0 - budget->attainable();
    QVector<int> named = budget->copyLines + budget->dotLines + budget->specialLines;
    std::sort(named.begin(), named.end());
    named.erase(std::unique(named.begin(), named.end()), named.end());
    const std::optional<double> saving = measuredSaving(measured, named);
    const int line = budget->dotLines.first();
    const bool special = specialWorkDominates(*budget);
    const QString title = special
        ? QStringLiteral("Special-function work between the dots serializes with the MMA: at most %1 of the tensor peak")
        : QStringLiteral("Dot tile too small to feed the tensor cores: at most %1 of the tensor peak");
    Finding finding = newFinding(QStringLiteral("L3.dot-loop-feed"), Level::L3, title.arg(percent(budget->attainable())),
                                 saving ? bySaving(*saving) : staticSeverity(*budget, estimated), 0.75,
                                 SourceSpan{facts.sourcePath, line, 0, line, 0},
                                 (saving ? QString() : QString::fromLatin1(kEstimatedCostPrefix)) + causeOf(*budget),
                                 special ? QStringList{} : rules.dotTileRecipes() + QStringList{QStringLiteral("autotune-blocks")});
    finding.gapShare = GapShare{saving.value_or(estimated), !saving.has_value()};
    finding.evidence.append(Evidence::irOp(QStringLiteral("ttgir"), budget->firstDotIrLine, facts.line(line)->dotOp,
                                           budget->firstDotText, QStringLiteral("the dot and its operand types")));
    for (int other : named)
        if (other != line)
            finding.evidence.append(Evidence::span(SourceSpan{facts.sourcePath, other, 0, other, 0},
                                                   budget->specialLines.contains(other) ? QStringLiteral("special-function work in the loop")
                                                   : budget->dotLines.contains(other) ? QStringLiteral("another dot of the loop")
                                                                                       : QStringLiteral("operand load of the loop")));
    finding.evidence.append(Evidence::metric(QStringLiteral("flops_per_iteration"), budget->flops, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("tensor_clocks"), budget->tensorCycles, QString(), QStringLiteral("per iteration, one SM")));
    finding.evidence.append(Evidence::metric(QStringLiteral("shared_clocks"), budget->sharedCycles, QString(),
                                             QStringLiteral("operand bytes through shared memory at %1 B/clock").arg(budget->rates.sharedBytesPerClock)));
    if (budget->specialCycles > 0)
        finding.evidence.append(Evidence::metric(QStringLiteral("special_function_clocks"), budget->specialCycles, QString(),
                                                 QStringLiteral("SFU results at %1/clock, not overlapped with the MMA").arg(budget->rates.specialPerClock)));
    finding.evidence.append(Evidence::metric(QStringLiteral("num_stages"), facts.numStages, QString()));
    finding.evidence.append(Evidence::metric(QStringLiteral("estimated_share"), estimated, QString(),
                                             QStringLiteral("1 - attainable fraction of the tensor peak (estimate)")));
    return {finding};
}

} // namespace strata::diagnosis
