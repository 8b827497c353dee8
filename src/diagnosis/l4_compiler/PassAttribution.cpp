#include "diagnosis/l4_compiler/PassAttribution.h"

#include "diagnosis/l4_compiler/Counterfactual.h"

#include <QFile>

#include <algorithm>

namespace strata::diagnosis {

namespace {

bool hasLocatedOp(const ir::MlirModule &module)
{
    return std::any_of(module.ops.cbegin(), module.ops.cend(),
                       [](const ir::MlirOp &op) { return !op.frames.isEmpty(); });
}

// The pipeliner's internal snapshots: no locations, so they are never diffed.
constexpr char kInternalDumpHeader[] = "// -----// SoftwarePipeliner internal";

} // namespace

QString tracedFactName(TracedFact fact)
{
    switch (fact) {
    case TracedFact::AsyncCopy: return QStringLiteral("async copy");
    case TracedFact::MmaDot: return QStringLiteral("MMA dot");
    case TracedFact::NarrowGlobalLoad: return QStringLiteral("narrow global loads");
    case TracedFact::NarrowGlobalStore: return QStringLiteral("narrow global stores");
    case TracedFact::LayoutConversion: return QStringLiteral("layout conversion");
    }
    return {};
}

PassHistory::PassHistory(const CompileResult &result, const BackendIrRules *rules)
    : m_kernelFile(result.sourcePath), m_rules(&rulesOrDefault(rules))
{
    for (const PassDumpRef &ref : result.passDumps) {
        if (!ref.file.path.isEmpty())
            m_dumps.append(Dump{ref, false, false, {}, {}});
    }
    std::sort(m_dumps.begin(), m_dumps.end(), [](const Dump &a, const Dump &b) { return a.ref.index < b.ref.index; });
}

const QString &PassHistory::text(int position)
{
    Dump &entry = m_dumps[position];
    if (!entry.read) {
        entry.read = true;
        QFile file(entry.ref.file.path);
        if (file.open(QIODevice::ReadOnly))
            entry.text = QString::fromUtf8(file.readAll());
        else
            m_problems.append(QStringLiteral("%1: %2").arg(entry.ref.file.path, file.errorString()));
    }
    return entry.text;
}

PassHistory::Dump *PassHistory::dump(int position)
{
    Dump &entry = m_dumps[position];
    if (!entry.loaded) {
        entry.loaded = true;
        const QString &source = text(position);
        if (source.isEmpty())
            return nullptr;
        Expected<ir::MlirModule> module = ir::readMlir(source, entry.ref.file.path);
        if (!module) {
            m_problems.append(module.error().toString());
            return nullptr;
        }
        entry.module = std::move(*module);
        entry.lines = source.split(u'\n');
        entry.usable = hasLocatedOp(entry.module);
    }
    return entry.usable ? &entry : nullptr;
}

int PassHistory::nextUsable(int position)
{
    for (int next = position + 1; next < m_dumps.size(); ++next) {
        if (dump(next))
            return next;
    }
    return -1;
}

int PassHistory::sourceLineOf(const ir::MlirOp &op) const
{
    // The kernel-file frame, as diffOps keys ops: inlined helpers count on their call site.
    return frameInFile(op.frames, m_kernelFile).line;
}

const PassHistory::PassChanges &PassHistory::changesAfter(int before)
{
    const auto cached = m_changes.constFind(before);
    if (cached != m_changes.cend())
        return *cached;
    PassChanges changes;
    changes.after = nextUsable(before);
    if (changes.after >= 0) {
        const Dump &from = m_dumps[before];
        const Dump &to = m_dumps[changes.after];
        const ir::OpChanges diff = ir::diffOps(from.module, to.module, ir::OpDiffOptions{m_kernelFile, 0, true});
        for (const int textLine : diff.added) {
            if (const ir::MlirOp *op = to.module.opAtTextLine(textLine)) {
                const int line = sourceLineOf(*op);
                changes.added.append({textLine, line});
                changes.touchedLines.append(line);
            }
        }
        for (const int textLine : diff.removed) {
            if (const ir::MlirOp *op = from.module.opAtTextLine(textLine))
                changes.touchedLines.append(sourceLineOf(*op));
        }
    }
    return *m_changes.insert(before, changes);
}

bool PassHistory::showsFact(const Dump &dump, int textLine, TracedFact fact) const
{
    const ir::MlirOp *op = dump.module.opAtTextLine(textLine);
    return op && m_rules->showsTracedFact(fact, dump.module, *op, dump.lines.value(textLine));
}

bool PassHistory::addsFact(const Dump &after, const PassChanges &changes, int line, TracedFact fact) const
{
    return std::any_of(changes.added.cbegin(), changes.added.cend(), [&](const QPair<int, int> &added) {
        return added.second == line && showsFact(after, added.first, fact);
    });
}

std::optional<PassOrigin> PassHistory::firstPassProducing(int line, TracedFact fact)
{
    // Only a dump that mentions the fact can show it, so only those and the dump before each
    // are parsed: the large LLVM-dialect dumps of a matmul are skipped for TTGIR facts.
    const QString marker = m_rules->tracedFactMarker(fact);
    if (marker.isEmpty())
        return std::nullopt;  // the backend's dumps never show it
    for (int after = 1; after < m_dumps.size(); ++after) {
        if (!text(after).contains(marker) || !dump(after))
            continue;
        const int before = usableBefore(after);
        if (before < 0)
            continue;
        const PassChanges &changes = changesAfter(before);
        if (changes.after == after && addsFact(m_dumps[after], changes, line, fact))
            return originOf(before);
    }
    return std::nullopt;
}

std::optional<PassOrigin> PassHistory::lastPassProducing(int line, TracedFact fact)
{
    // The ops of `fact` on the line in the last dump that mentions it are the survivors; the
    // producer is the pass before the first dump from which they exist without a break. Ops
    // live in one stretch of the pipeline, so a bisection over the dumps that mention the fact
    // finds it with a handful of parses instead of one per pass.
    const QString marker = m_rules->tracedFactMarker(fact);
    if (marker.isEmpty())
        return std::nullopt;
    QVector<int> mentioning;  // by text alone: parsing is what the bisection saves
    for (int position = 0; position < m_dumps.size(); ++position) {
        if (text(position).contains(marker) && !text(position).startsWith(QLatin1String(kInternalDumpHeader)))
            mentioning.append(position);
    }
    while (!mentioning.isEmpty() && !dump(mentioning.last()))
        mentioning.removeLast();
    if (mentioning.isEmpty())
        return std::nullopt;
    const Dump &last = m_dumps[mentioning.last()];
    QVector<int> survivors;
    for (const ir::MlirOp &op : last.module.ops) {
        if (sourceLineOf(op) == line && showsFact(last, op.line, fact))
            survivors.append(op.line);
    }
    if (survivors.isEmpty())
        return std::nullopt;
    const ir::OpDiffOptions options{m_kernelFile, line, true};
    const auto holdsSurvivors = [&](int position) {
        if (!dump(position))
            return false;
        const QVector<int> added = ir::diffOps(m_dumps[position].module, last.module, options).added;
        return std::none_of(survivors.cbegin(), survivors.cend(), [&](int survivor) { return added.contains(survivor); });
    };
    int low = 0, high = mentioning.size() - 1;  // holdsSurvivors(mentioning[high]) is true
    while (low < high) {
        const int middle = (low + high) / 2;
        if (holdsSurvivors(mentioning[middle]))
            high = middle;
        else
            low = middle + 1;
    }
    const int before = usableBefore(mentioning[low]);
    return before < 0 ? std::nullopt : std::optional<PassOrigin>(originOf(before));
}

int PassHistory::usableBefore(int position)
{
    for (int before = position - 1; before >= 0; --before) {
        if (dump(before))
            return before;
    }
    return -1;
}

PassOrigin PassHistory::originOf(int position) const
{
    const PassDumpRef &ref = m_dumps[position].ref;
    return PassOrigin{ref.passName, ref.argument, ref.index, true};
}

std::optional<bool> PassHistory::passChangedLine(const QString &argument, int line)
{
    for (int position = 0; position < m_dumps.size(); ++position) {
        if (m_dumps[position].ref.argument != argument)
            continue;
        if (!dump(position))
            return std::nullopt;
        const PassChanges &changes = changesAfter(position);
        if (changes.after < 0)
            return std::nullopt;
        return changes.touchedLines.contains(line);
    }
    return std::nullopt;
}

QString PassHistory::passNameOf(const QString &argument) const
{
    for (const Dump &entry : m_dumps) {
        if (entry.ref.argument == argument)
            return entry.ref.passName;
    }
    return {};
}

std::optional<Evidence> passEvidenceFor(const Finding &finding, PassHistory &history)
{
    const int line = finding.span.line;
    if (!history.hasDumps() || line <= 0)
        return std::nullopt;
    const std::optional<PassTrace> trace = history.rules().passTrace(finding);
    if (!trace)
        return std::nullopt;
    const QString factName = tracedFactName(trace->fact);
    switch (trace->mode) {
    case PassTrace::Mode::FirstProducer:
        if (const std::optional<PassOrigin> origin = history.firstPassProducing(line, trace->fact))
            return Evidence::pass(origin->passName, origin->argument,
                                  QStringLiteral("first pass whose output has this line's %1").arg(factName));
        return std::nullopt;
    case PassTrace::Mode::LastProducer:
        // Some passes make ops that later passes remove and re-create (layout conversions).
        if (const std::optional<PassOrigin> origin = history.lastPassProducing(line, trace->fact))
            return Evidence::pass(origin->passName, origin->argument,
                                  QStringLiteral("last pass that made a %1 on this line").arg(factName));
        return std::nullopt;
    case PassTrace::Mode::MissingAfter: {
        // A missing fact: cite the deciding pass when it ran and produced no such op here.
        if (history.firstPassProducing(line, trace->fact))
            return std::nullopt;
        const std::optional<bool> changed = history.passChangedLine(trace->decidingPass, line);
        if (!changed)
            return std::nullopt;
        return Evidence::pass(history.passNameOf(trace->decidingPass), trace->decidingPass,
                              QStringLiteral("ran and made no %1 on this line%2").arg(factName,
                                  *changed ? QStringLiteral(" (it changed other ops of the line)") : QString()));
    }
    }
    return std::nullopt;
}

} // namespace strata::diagnosis
