#include "diagnosis/l4_compiler/Counterfactual.h"

#include <QRegularExpression>

#include <QJsonArray>


namespace strata::diagnosis {

namespace {

constexpr int kPipelinedStages = 3;    // Triton's default num_stages
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

const BackendIrRules &rulesOrDefault(const BackendIrRules *rules)
{
    return rules ? *rules : defaultIrRules();
}

QVector<SpecChange> counterfactualChanges(const Finding &finding, const QJsonObject &spec, const QString &sourceText,
                                          const BackendIrRules *rules)
{
    QVector<SpecChange> changes;
    for (const CounterfactualLever lever : rulesOrDefault(rules).counterfactualLevers(finding)) {
        switch (lever) {
        case CounterfactualLever::Pipelining:
            if (option(spec, QStringLiteral("num_stages"), kPipelinedStages) <= 1)
                changes.append(withOption(spec, QStringLiteral("num_stages"), kPipelinedStages));
            break;
        case CounterfactualLever::Alignment: changes += alignmentChanges(spec); break;
        case CounterfactualLever::UnitStride: changes += unitStrideChanges(spec); break;
        case CounterfactualLever::RegisterPressure: changes += registerPressureChanges(spec); break;
        case CounterfactualLever::DotPrecision:
            if (!sourceText.isEmpty())
                changes += precisionChanges(finding, spec, sourceText);  // not part of the spec: a source edit
            break;
        }
    }
    return changes;
}

std::optional<FactState> factOnLine(const Finding &finding, const KernelIrFacts &facts, const BackendIrRules *rules)
{
    return rulesOrDefault(rules).factOnLine(finding, facts);
}

} // namespace strata::diagnosis
