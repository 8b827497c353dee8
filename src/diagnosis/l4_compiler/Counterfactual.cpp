#include "diagnosis/l4_compiler/Counterfactual.h"

#include <QRegularExpression>

#include "diagnosis/l2_profile/Occupancy.h"

#include <QJsonArray>

#include <algorithm>

namespace strata::diagnosis {

namespace {

constexpr int kNarrowAccessBits = 64;  // as L3.scalar-global-access
constexpr int kPipelinedStages = 3;    // Triton's default num_stages on sm_90
constexpr int kMaxNumWarps = 8;

QStringList stringList(const QJsonValue &value)
{
    QStringList names;
    for (const QJsonValue &item : value.toArray())
        names.append(item.toString());
    return names;
}

// Run-time integer arguments the spec says nothing about: neither divisible by 16 nor 1.
QStringList unconstrainedIntegers(const QJsonObject &spec)
{
    const QStringList divisible = stringList(spec.value(QStringLiteral("divisibility_16")));
    const QStringList ones = stringList(spec.value(QStringLiteral("equal_to_1")));
    const QJsonObject signature = spec.value(QStringLiteral("signature")).toObject();
    QStringList names;
    for (auto it = signature.constBegin(); it != signature.constEnd(); ++it) {
        const QString type = it.value().toString();
        if ((type.startsWith(u'i') || type.startsWith(u'u')) && !divisible.contains(it.key()) && !ones.contains(it.key()))
            names.append(it.key());
    }
    return names;
}

QStringList unalignedPointers(const QJsonObject &spec)
{
    const QStringList divisible = stringList(spec.value(QStringLiteral("divisibility_16")));
    const QJsonObject signature = spec.value(QStringLiteral("signature")).toObject();
    QStringList names;
    for (auto it = signature.constBegin(); it != signature.constEnd(); ++it) {
        if (it.value().toString().startsWith(u'*') && !divisible.contains(it.key()))
            names.append(it.key());
    }
    return names;
}

SpecChange withListed(const QJsonObject &spec, const QString &list, const QString &argument, const QString &description)
{
    QJsonObject changed = spec;
    QJsonArray names = spec.value(list).toArray();
    names.append(argument);
    changed.insert(list, names);
    return {list + u':' + argument, description, changed};
}

SpecChange withOption(const QJsonObject &spec, const QString &option, int value)
{
    QJsonObject changed = spec;
    QJsonObject options = spec.value(QStringLiteral("options")).toObject();
    options.insert(option, value);
    changed.insert(QStringLiteral("options"), options);
    return {QStringLiteral("%1=%2").arg(option).arg(value), QStringLiteral("%1 = %2").arg(option).arg(value), changed};
}

int option(const QJsonObject &spec, const QString &name, int fallback)
{
    return spec.value(QStringLiteral("options")).toObject().value(name).toInt(fallback);
}

// The largest power-of-2 constexpr of at least 32 (a tile size), halved.
std::optional<SpecChange> halvedBlock(const QJsonObject &spec)
{
    const QJsonObject constexprs = spec.value(QStringLiteral("constexprs")).toObject();
    QString largest;
    int value = 0;
    for (auto it = constexprs.constBegin(); it != constexprs.constEnd(); ++it) {
        const int candidate = it.value().toInt();
        if (candidate >= 32 && (candidate & (candidate - 1)) == 0 && candidate > value) {
            largest = it.key();
            value = candidate;
        }
    }
    if (largest.isEmpty())
        return std::nullopt;
    QJsonObject changed = spec;
    QJsonObject halved = constexprs;
    halved.insert(largest, value / 2);
    changed.insert(QStringLiteral("constexprs"), halved);
    return SpecChange{QStringLiteral("constexpr:%1=%2").arg(largest).arg(value / 2),
                      QStringLiteral("%1 = %2 (was %3)").arg(largest).arg(value / 2).arg(value), changed};
}

QVector<SpecChange> alignmentChanges(const QJsonObject &spec)
{
    QVector<SpecChange> changes;
    for (const QString &name : unconstrainedIntegers(spec))
        changes.append(withListed(spec, QStringLiteral("divisibility_16"), name, name + QStringLiteral(" divisible by 16")));
    for (const QString &name : unalignedPointers(spec))
        changes.append(withListed(spec, QStringLiteral("divisibility_16"), name, name + QStringLiteral(" 16-byte aligned")));
    return changes;
}

QVector<SpecChange> unitStrideChanges(const QJsonObject &spec)
{
    QVector<SpecChange> changes;
    for (const QString &name : unconstrainedIntegers(spec))
        changes.append(withListed(spec, QStringLiteral("equal_to_1"), name, name + QStringLiteral(" equal to 1")));
    return changes;
}

QVector<SpecChange> registerPressureChanges(const QJsonObject &spec)
{
    QVector<SpecChange> changes;
    const int warps = option(spec, QStringLiteral("num_warps"), 4);
    if (warps < kMaxNumWarps)
        changes.append(withOption(spec, QStringLiteral("num_warps"), warps * 2));
    if (const std::optional<SpecChange> block = halvedBlock(spec))
        changes.append(*block);
    return changes;
}

const SourceLineFacts &lineOrEmpty(const KernelIrFacts &facts, int line)
{
    static const SourceLineFacts empty;
    const SourceLineFacts *found = facts.line(line);
    return found ? *found : empty;
}

bool isStore(const Finding &finding)
{
    return finding.title.contains(QLatin1String("stores"));
}

// The most frequent PTX access shape of the line ("ld.global.b32 x8"), widest first on ties.
QString accessText(const SourceLineFacts &line, bool store)
{
    const GlobalAccess *chosen = nullptr;
    for (const GlobalAccess &access : line.accesses) {
        if (access.stage != QLatin1String("ptx") || access.store != store)
            continue;
        if (!chosen || access.accessBits > chosen->accessBits)
            chosen = &access;
    }
    if (!chosen && !store && line.cpAsync > 0)
        return QStringLiteral("no ld.global, cp.async x%1").arg(line.cpAsync);  // the loads became async copies
    if (!chosen)
        return QStringLiteral("no PTX global %1").arg(store ? QStringLiteral("stores") : QStringLiteral("loads"));
    return QStringLiteral("%1 x%2").arg(chosen->opcode).arg(line.accessCount(QStringLiteral("ptx"), store));
}

FactState scalarAccessState(const SourceLineFacts &line, bool store)
{
    const int count = line.accessCount(QStringLiteral("ptx"), store);
    const int widest = line.maxAccessBits(QStringLiteral("ptx"), store);
    return {count >= 2 && widest < kNarrowAccessBits, accessText(line, store)};
}

FactState unpipelinedState(const SourceLineFacts &line)
{
    const int asyncOps = line.asyncCopies + line.tmaCopies;
    if (line.ttgirLoads > 0 && asyncOps == 0)
        return {true, QStringLiteral("synchronous tt.load x%1, no async copy").arg(line.ttgirLoads)};
    return {false, QStringLiteral("async copies x%1 (PTX cp.async x%2, TMA x%3), tt.load x%4")
                       .arg(asyncOps).arg(line.cpAsync).arg(line.tmaInstructions).arg(line.ttgirLoads)};
}

// The dot's precision keyword flipped to tensor-core precision, on the finding's line or the next
// three; nothing when the call names none (the FMA fallback then has another cause: its types).
QVector<SpecChange> precisionChanges(const Finding &finding, const QJsonObject &spec, const QString &sourceText)
{
    static const QRegularExpression ieee(QStringLiteral("input_precision\\s*=\\s*([\"'])ieee\\1"));
    static const QRegularExpression noTf32(QStringLiteral("allow_tf32\\s*=\\s*False\\b"));
    QStringList lines = sourceText.split(u'\n');
    for (int index = finding.span.line - 1; index >= 0 && index < lines.size() && index < finding.span.line + 3; ++index) {
        QString edited = lines[index];
        edited.replace(ieee, QStringLiteral("input_precision=\\1tf32\\1"));
        edited.replace(noTf32, QStringLiteral("allow_tf32=True"));
        if (edited == lines[index])
            continue;
        lines[index] = edited;
        return {SpecChange{QStringLiteral("source:tf32@%1").arg(index + 1),
                           QStringLiteral("dot input precision tf32 instead of ieee (line %1)").arg(index + 1), spec,
                           lines.join(u'\n')}};
    }
    return {};
}

} // namespace

QVector<SpecChange> counterfactualChanges(const Finding &finding, const QJsonObject &spec, const QString &sourceText)
{
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return alignmentChanges(spec);  // a unit stride, if it is the cause, is tried for the loop loads
    if (rule == QLatin1String("L3.unpipelined-loop-load")) {
        QVector<SpecChange> changes = unitStrideChanges(spec);
        if (option(spec, QStringLiteral("num_stages"), kPipelinedStages) <= 1)
            changes.prepend(withOption(spec, QStringLiteral("num_stages"), kPipelinedStages));
        return changes;
    }
    if (rule == QLatin1String("L3.register-spill") || rule == QLatin1String("L3.wgmma-serialized")
        || rule == QLatin1String("L3.low-occupancy"))
        return registerPressureChanges(spec);
    if (rule == QLatin1String("L3.fma-dot") && !sourceText.isEmpty())
        return precisionChanges(finding, spec, sourceText);  // not part of the spec: a source edit
    return {};  // other rules have no cause a spec or a one-keyword edit can express
}

std::optional<FactState> factOnLine(const Finding &finding, const KernelIrFacts &facts)
{
    const SourceLineFacts &line = lineOrEmpty(facts, finding.span.line);
    const QString &rule = finding.ruleId;
    if (rule == QLatin1String("L3.scalar-global-access"))
        return scalarAccessState(line, isStore(finding));
    if (rule == QLatin1String("L3.unpipelined-loop-load"))
        return unpipelinedState(line);
    if (rule == QLatin1String("L3.fma-dot"))
        return FactState{line.dotKind == DotKind::Fma, QStringLiteral("dot kind %1").arg(dotKindName(line.dotKind))};
    if (rule == QLatin1String("L3.register-spill")) {
        const int spills = line.spillStores + line.spillLoads;
        return FactState{spills > 0, QStringLiteral("STL x%1, LDL x%2 (%3 registers)")
                                         .arg(line.spillStores).arg(line.spillLoads).arg(facts.registers)};
    }
    if (rule == QLatin1String("L3.wgmma-serialized")) {
        const bool serialized = std::any_of(facts.ptxasWarnings.cbegin(), facts.ptxasWarnings.cend(), [](const QString &w) {
            return w.contains(QLatin1String("wgmma.mma_async instructions are serialized"));
        });
        return FactState{serialized && line.dotKind == DotKind::Wgmma,
                         serialized ? QStringLiteral("ptxas serializes wgmma") : QStringLiteral("no serialization warning")};
    }
    if (rule == QLatin1String("L3.smem-layout-conversion")) {
        const bool holds = line.convertLayouts > 0 && line.sharedStores > 0 && line.barriers > 0;
        return FactState{holds, QStringLiteral("convert_layout x%1, shared stores x%2, barriers x%3")
                                    .arg(line.convertLayouts).arg(line.sharedStores).arg(line.barriers)};
    }
    if (rule == QLatin1String("L3.low-occupancy")) {
        const int shared = facts.staticSharedBytes + facts.dynamicSharedBytes;
        const Occupancy occupancy = computeOccupancy(facts.registers, shared, facts.numWarps, SmLimits::forTarget(facts.target));
        return FactState{occupancy.theoretical < kLowOccupancyFraction, QStringLiteral("%1 warps per SM (%2 registers, %3 bytes shared, %4 warps per CTA)")
                                                           .arg(occupancy.activeWarps).arg(facts.registers).arg(shared).arg(facts.numWarps)};
    }
    return std::nullopt;
}

} // namespace strata::diagnosis
