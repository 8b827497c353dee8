#include "diagnosis/l4_compiler/PassAttribution.h"

#include <QFile>
#include <QRegularExpression>

#include <algorithm>

namespace strata::diagnosis {

namespace {

bool hasLocatedOp(const ir::MlirModule &module)
{
    return std::any_of(module.ops.cbegin(), module.ops.cend(),
                       [](const ir::MlirOp &op) { return !op.frames.isEmpty(); });
}

bool hasLayoutOfKind(const ir::MlirOp &op, const ir::MlirModule &module, ir::LayoutKind kind)
{
    return std::any_of(op.layouts.cbegin(), op.layouts.cend(), [&](int index) {
        return index >= 0 && index < module.layouts.size() && module.layouts[index].kind == kind;
    });
}

// Inline PTX of a global access without a vector suffix: "ld.global.b32", "st.global.b16".
bool isNarrowGlobalAsm(const QString &text, const char *mnemonic)
{
    static const QRegularExpression vector(QStringLiteral("\\.global(\\.[a-z0-9_]+)*\\.v[248]\\."));
    return text.contains(QLatin1String(mnemonic)) && !vector.match(text).hasMatch();
}

// The pipeliner's internal snapshots: no locations, so they are never diffed.
constexpr char kInternalDumpHeader[] = "// -----// SoftwarePipeliner internal";

// Text every dump that shows the fact must contain: a cheap filter before parsing.
QLatin1String textMarker(TracedFact fact)
{
    switch (fact) {
    case TracedFact::AsyncCopy: return QLatin1String("copy_global_to_local");
    case TracedFact::MmaDot: return QLatin1String("nvidia_mma");
    case TracedFact::NarrowGlobalLoad: return QLatin1String("ld.global");
    case TracedFact::NarrowGlobalStore: return QLatin1String("st.global");
    case TracedFact::LayoutConversion: return QLatin1String("ttg.convert_layout");
    }
    return QLatin1String("");
}

struct TracedRule {
    const char *ruleId;
    TracedFact fact;
    const char *decidingPass;  // for facts that are missing: the pass that would have made them
};

// L3 rules whose fact the pass dumps show. A null decidingPass: the finding's fact is present.
constexpr TracedRule kTracedRules[] = {
    {"L3.unpipelined-loop-load", TracedFact::AsyncCopy, "tritongpu-pipeline"},
    {"L3.fma-dot", TracedFact::MmaDot, "tritongpu-accelerate-matmul"},
    {"L3.wgmma-serialized", TracedFact::MmaDot, nullptr},
    {"L3.smem-layout-conversion", TracedFact::LayoutConversion, nullptr},
};

bool isStoreFinding(const Finding &finding)
{
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *op = std::get_if<IrOpEvidence>(&evidence.data))
            return op->opcode.startsWith(QLatin1String("st.")) || op->opcode.startsWith(QLatin1String("STG"));
    }
    return false;
}

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

PassHistory::PassHistory(const CompileResult &result) : m_kernelFile(result.sourcePath)
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
    if (!op)
        return false;
    switch (fact) {
    case TracedFact::AsyncCopy:
        return op->name == QLatin1String("ttg.async_copy_global_to_local")
            || op->name == QLatin1String("ttng.async_tma_copy_global_to_local");
    case TracedFact::MmaDot:
        return op->name == QLatin1String("ttng.warp_group_dot")
            || (op->name == QLatin1String("tt.dot") && hasLayoutOfKind(*op, dump.module, ir::LayoutKind::NvidiaMma));
    case TracedFact::NarrowGlobalLoad:
    case TracedFact::NarrowGlobalStore:
        return op->name == QLatin1String("llvm.inline_asm")
            && isNarrowGlobalAsm(dump.lines.value(textLine), fact == TracedFact::NarrowGlobalLoad ? "ld.global" : "st.global");
    case TracedFact::LayoutConversion:
        return op->name == QLatin1String("ttg.convert_layout");
    }
    return false;
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
    const QLatin1String marker = textMarker(fact);
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
    const QLatin1String marker = textMarker(fact);
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
    if (finding.ruleId == QLatin1String("L3.scalar-global-access")) {
        const TracedFact fact = isStoreFinding(finding) ? TracedFact::NarrowGlobalStore : TracedFact::NarrowGlobalLoad;
        if (const std::optional<PassOrigin> origin = history.firstPassProducing(line, fact))
            return Evidence::pass(origin->passName, origin->argument,
                                  QStringLiteral("first pass whose output has this line's %1").arg(tracedFactName(fact)));
        return std::nullopt;
    }
    for (const TracedRule &rule : kTracedRules) {
        if (finding.ruleId != QLatin1String(rule.ruleId))
            continue;
        if (rule.fact == TracedFact::LayoutConversion) {
            // convert-triton-to-tritongpu makes conversions that later passes remove and re-create.
            if (const std::optional<PassOrigin> origin = history.lastPassProducing(line, rule.fact))
                return Evidence::pass(origin->passName, origin->argument,
                                      QStringLiteral("last pass that made a %1 on this line").arg(tracedFactName(rule.fact)));
            return std::nullopt;
        }
        if (!rule.decidingPass) {
            if (const std::optional<PassOrigin> origin = history.firstPassProducing(line, rule.fact))
                return Evidence::pass(origin->passName, origin->argument,
                                      QStringLiteral("first pass whose output has this line's %1").arg(tracedFactName(rule.fact)));
            return std::nullopt;
        }
        // A missing fact: cite the deciding pass when it ran and produced no such op here.
        if (history.firstPassProducing(line, rule.fact))
            return std::nullopt;
        const QString deciding = QString::fromLatin1(rule.decidingPass);
        const std::optional<bool> changed = history.passChangedLine(deciding, line);
        if (!changed)
            return std::nullopt;
        return Evidence::pass(history.passNameOf(deciding), deciding,
                              QStringLiteral("ran and made no %1 on this line%2").arg(tracedFactName(rule.fact),
                                  *changed ? QStringLiteral(" (it changed other ops of the line)") : QString()));
    }
    return std::nullopt;
}

} // namespace strata::diagnosis
