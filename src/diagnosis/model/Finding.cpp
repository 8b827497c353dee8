#include "diagnosis/model/Finding.h"

#include <algorithm>
#include <array>

namespace strata::diagnosis {

namespace {

constexpr std::array<const char *, 4> kSeverityNames = {"info", "low", "medium", "high"};

template <typename T>
constexpr const char *kindOf();
template <> constexpr const char *kindOf<SpanEvidence>() { return "source_span"; }
template <> constexpr const char *kindOf<MetricEvidence>() { return "metric"; }
template <> constexpr const char *kindOf<IrOpEvidence>() { return "ir_op"; }
template <> constexpr const char *kindOf<PassEvidence>() { return "pass"; }
template <> constexpr const char *kindOf<RemarkEvidence>() { return "remark"; }
template <> constexpr const char *kindOf<CounterfactualEvidence>() { return "counterfactual"; }

} // namespace

QString levelName(Level level)
{
    return QStringLiteral("L%1").arg(int(level));
}

std::optional<Level> levelFromName(const QString &name)
{
    for (const Level level : {Level::L1, Level::L2, Level::L3, Level::L4}) {
        if (levelName(level) == name)
            return level;
    }
    return std::nullopt;
}

QString severityName(Severity severity)
{
    return QString::fromLatin1(kSeverityNames[size_t(severity)]);
}

std::optional<Severity> severityFromName(const QString &name)
{
    for (size_t i = 0; i < kSeverityNames.size(); ++i) {
        if (name == QLatin1String(kSeverityNames[i]))
            return Severity(i);
    }
    return std::nullopt;
}

namespace {
constexpr std::array<const char *, 4> kStatusNames{"not_examined", "untested", "unconfirmed", "confirmed"};
}

QString statusName(FindingStatus status)
{
    return QString::fromLatin1(kStatusNames[size_t(status)]);
}

std::optional<FindingStatus> statusFromName(const QString &name)
{
    for (size_t i = 0; i < kStatusNames.size(); ++i) {
        if (name == QLatin1String(kStatusNames[i]))
            return FindingStatus(i);
    }
    return std::nullopt;
}

QString Evidence::kindName() const
{
    return std::visit([](const auto &item) {
        return QString::fromLatin1(kindOf<std::decay_t<decltype(item)>>());
    }, data);
}

Evidence Evidence::span(const SourceSpan &span, const QString &note)
{
    return {SpanEvidence{span}, note};
}

Evidence Evidence::metric(const QString &name, double value, const QString &unit, const QString &note)
{
    return {MetricEvidence{name, value, unit}, note};
}

Evidence Evidence::irOp(const QString &stage, int irLine, const QString &opcode, const QString &text,
                        const QString &note)
{
    return {IrOpEvidence{stage, irLine, opcode, text.trimmed()}, note};
}

Evidence Evidence::pass(const QString &name, const QString &argument, const QString &note)
{
    return {PassEvidence{name, argument}, note};
}

Evidence Evidence::remark(const SourceSpan &span, const QString &severity, const QString &message,
                          const QString &note)
{
    return {RemarkEvidence{span, severity, message}, note};
}

Evidence Evidence::counterfactual(const QString &change, const QString &before, const QString &after,
                                  const QString &note)
{
    return {CounterfactualEvidence{change, before, after}, note};
}

void Diagnosis::addFindings(Level level, const QVector<Finding> &findings)
{
    auto it = std::find_if(levels.begin(), levels.end(),
                           [level](const LevelFindings &entry) { return entry.level >= level; });
    if (it == levels.end() || it->level != level)
        it = levels.insert(it, LevelFindings{level, {}});
    it->findings += findings;
}

QVector<Finding> Diagnosis::findings(Level level) const
{
    for (const LevelFindings &entry : levels) {
        if (entry.level == level)
            return entry.findings;
    }
    return {};
}

QVector<Finding> Diagnosis::allFindings() const
{
    QVector<Finding> all;
    for (const LevelFindings &entry : levels)
        all += entry.findings;
    return all;
}

void Diagnosis::logStep(const QString &step, const QString &reason)
{
    escalation.append({step, reason});
}

double metricValue(const Finding &finding, const char *name, double fallback)
{
    for (const Evidence &evidence : finding.evidence) {
        if (const auto *metric = std::get_if<MetricEvidence>(&evidence.data); metric && metric->name == QLatin1String(name))
            return metric->value;
    }
    return fallback;
}

Finding newFinding(const QString &ruleId, Level level, const QString &title, Severity severity, double confidence,
                   const SourceSpan &span, const QString &cause, const QStringList &recipes)
{
    Finding finding;
    finding.ruleId = ruleId;
    finding.level = level;
    finding.title = title;
    finding.severity = severity;
    finding.confidence = confidence;
    finding.span = span;
    finding.cause = cause;
    finding.recipes = recipes;
    return finding;
}

} // namespace strata::diagnosis
