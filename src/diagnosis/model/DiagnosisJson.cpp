#include "diagnosis/model/DiagnosisJson.h"

#include <QJsonArray>

namespace strata::diagnosis {

namespace {

// --- writing -------------------------------------------------------------------------------

struct EvidenceWriter {
    QJsonObject &out;
    void operator()(const SpanEvidence &e) const { out[QStringLiteral("span")] = toJson(e.span); }
    void operator()(const MetricEvidence &e) const
    {
        out[QStringLiteral("name")] = e.name;
        out[QStringLiteral("value")] = e.value;
        out[QStringLiteral("unit")] = e.unit;
    }
    void operator()(const IrOpEvidence &e) const
    {
        out[QStringLiteral("stage")] = e.stage;
        out[QStringLiteral("ir_line")] = e.irLine;
        out[QStringLiteral("opcode")] = e.opcode;
        out[QStringLiteral("text")] = e.text;
    }
    void operator()(const PassEvidence &e) const
    {
        out[QStringLiteral("pass")] = e.name;
        out[QStringLiteral("argument")] = e.argument;
    }
    void operator()(const RemarkEvidence &e) const
    {
        out[QStringLiteral("span")] = toJson(e.span);
        out[QStringLiteral("severity")] = e.severity;
        out[QStringLiteral("message")] = e.message;
    }
    void operator()(const CounterfactualEvidence &e) const
    {
        out[QStringLiteral("change")] = e.change;
        out[QStringLiteral("fact_before")] = e.factBefore;
        out[QStringLiteral("fact_after")] = e.factAfter;
    }
};

// --- reading -------------------------------------------------------------------------------

// Reads fields of one JSON object and remembers the first problem with its JSON path, so a
// reader can read every field and check once.
class FieldReader {
public:
    FieldReader(const QJsonObject &object, QString path, QString *error)
        : m_object(object), m_path(std::move(path)), m_error(error) {}

    QString string(const char *key, bool required = true) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isString())
            return value.toString();
        if (required || !value.isUndefined())
            fail(key, QStringLiteral("expected a string"));
        return {};
    }
    double number(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isDouble())
            fail(key, QStringLiteral("expected a number"));
        return value.toDouble();
    }
    int integer(const char *key, int fallback = 0) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            return fallback;
        if (!value.isDouble())
            fail(key, QStringLiteral("expected an integer"));
        return value.toInt(fallback);
    }
    QJsonObject object(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isObject())
            fail(key, QStringLiteral("expected an object"));
        return value.toObject();
    }
    QJsonArray array(const char *key) const
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isArray() && !value.isUndefined())
            fail(key, QStringLiteral("expected an array"));
        return value.toArray();
    }
    bool has(const char *key) const { return m_object.contains(QLatin1String(key)); }
    QString path(const char *key) const { return m_path.isEmpty() ? QString::fromLatin1(key)
                                                                  : m_path + u'.' + QLatin1String(key); }
    void fail(const char *key, const QString &message) const
    {
        if (m_error->isEmpty())
            *m_error = path(key) + QStringLiteral(": ") + message;
    }
    bool ok() const { return m_error->isEmpty(); }

private:
    QJsonObject m_object;
    QString m_path;
    QString *m_error;
};

SourceSpan readSpan(const FieldReader &parent, const char *key, QString *error)
{
    const FieldReader r(parent.object(key), parent.path(key), error);
    return {r.string("file", false), r.integer("line"), r.integer("column"),
            r.integer("end_line"), r.integer("end_column")};
}

EvidenceData readEvidenceData(const FieldReader &r, const QString &kind, QString *error)
{
    if (kind == QLatin1String("source_span"))
        return SpanEvidence{readSpan(r, "span", error)};
    if (kind == QLatin1String("metric"))
        return MetricEvidence{r.string("name"), r.number("value"), r.string("unit", false)};
    if (kind == QLatin1String("ir_op"))
        return IrOpEvidence{r.string("stage"), r.integer("ir_line", -1), r.string("opcode", false),
                            r.string("text", false)};
    if (kind == QLatin1String("pass"))
        return PassEvidence{r.string("pass"), r.string("argument", false)};
    if (kind == QLatin1String("remark"))
        return RemarkEvidence{readSpan(r, "span", error), r.string("severity", false), r.string("message")};
    if (kind == QLatin1String("counterfactual"))
        return CounterfactualEvidence{r.string("change"), r.string("fact_before", false),
                                      r.string("fact_after", false)};
    r.fail("kind", QStringLiteral("unknown evidence kind '%1'").arg(kind));
    return SpanEvidence{};
}

// Version 1 carried an L4 finding's status only in its rule id.
FindingStatus legacyStatus(const QString &ruleId)
{
    if (ruleId == QLatin1String("L4.confirmed-cause"))
        return FindingStatus::Confirmed;
    if (ruleId == QLatin1String("L4.unconfirmed-cause"))
        return FindingStatus::Unconfirmed;
    if (ruleId == QLatin1String("L4.untested-cause"))
        return FindingStatus::Untested;
    return FindingStatus::NotExamined;
}

Finding readFinding(const QJsonObject &json, const QString &path, QString *error)
{
    const FieldReader r(json, path, error);
    Finding finding;
    finding.ruleId = r.string("rule");
    const QString level = r.string("level");
    if (const auto parsed = levelFromName(level))
        finding.level = *parsed;
    else
        r.fail("level", QStringLiteral("unknown level '%1'").arg(level));
    finding.title = r.string("title");
    const QString severity = r.string("severity");
    if (const auto parsed = severityFromName(severity))
        finding.severity = *parsed;
    else
        r.fail("severity", QStringLiteral("unknown severity '%1'").arg(severity));
    finding.confidence = r.number("confidence");
    finding.span = readSpan(r, "span", error);
    finding.cause = r.string("cause");
    for (const QJsonValue &recipe : r.array("recipes"))
        finding.recipes.append(recipe.toString());
    if (r.has("status")) {
        const QString status = r.string("status");
        if (const auto parsed = statusFromName(status))
            finding.status = *parsed;
        else
            r.fail("status", QStringLiteral("unknown status '%1'").arg(status));
    } else {
        finding.status = legacyStatus(finding.ruleId);
    }
    if (r.has("gap_share")) {
        const FieldReader g(r.object("gap_share"), r.path("gap_share"), error);
        const QJsonObject gap = json.value(QStringLiteral("gap_share")).toObject();
        finding.gapShare = GapShare{g.number("share"), gap.value(QStringLiteral("estimate")).toBool(true)};
    }
    const QJsonArray evidence = r.array("evidence");
    for (int i = 0; i < evidence.size() && r.ok(); ++i) {
        const FieldReader e(evidence[i].toObject(), r.path("evidence") + QStringLiteral("[%1]").arg(i), error);
        finding.evidence.append({readEvidenceData(e, e.string("kind"), error), e.string("note", false)});
    }
    return finding;
}

ReadError errorFor(const QString &origin, const QString &message)
{
    return ReadError{origin.isEmpty() ? QStringLiteral("<diagnosis json>") : origin, 0, 0, message};
}

} // namespace

QJsonObject toJson(const SourceSpan &span)
{
    return {{QStringLiteral("file"), span.file}, {QStringLiteral("line"), span.line},
            {QStringLiteral("column"), span.column}, {QStringLiteral("end_line"), span.endLine},
            {QStringLiteral("end_column"), span.endColumn}};
}

QJsonObject toJson(const Evidence &evidence)
{
    QJsonObject out{{QStringLiteral("kind"), evidence.kindName()}, {QStringLiteral("note"), evidence.note}};
    std::visit(EvidenceWriter{out}, evidence.data);
    return out;
}

QJsonObject toJson(const Finding &finding)
{
    QJsonArray evidence;
    for (const Evidence &item : finding.evidence)
        evidence.append(toJson(item));
    QJsonObject out{{QStringLiteral("rule"), finding.ruleId},
                    {QStringLiteral("level"), levelName(finding.level)},
                    {QStringLiteral("title"), finding.title},
                    {QStringLiteral("severity"), severityName(finding.severity)},
                    {QStringLiteral("confidence"), finding.confidence},
                    {QStringLiteral("span"), toJson(finding.span)},
                    {QStringLiteral("cause"), finding.cause},
                    {QStringLiteral("recipes"), QJsonArray::fromStringList(finding.recipes)},
                    {QStringLiteral("status"), statusName(finding.status)},
                    {QStringLiteral("evidence"), evidence}};
    if (finding.gapShare)
        out[QStringLiteral("gap_share")] = QJsonObject{{QStringLiteral("share"), finding.gapShare->share},
                                                       {QStringLiteral("estimate"), finding.gapShare->estimate}};
    return out;
}

QJsonObject toJson(const Diagnosis &diagnosis)
{
    QJsonArray levels;
    for (const LevelFindings &entry : diagnosis.levels) {
        QJsonArray findings;
        for (const Finding &finding : entry.findings)
            findings.append(toJson(finding));
        levels.append(QJsonObject{{QStringLiteral("level"), levelName(entry.level)},
                                  {QStringLiteral("findings"), findings}});
    }
    QJsonArray escalation;
    for (const EscalationStep &step : diagnosis.escalation)
        escalation.append(QJsonObject{{QStringLiteral("step"), step.step}, {QStringLiteral("reason"), step.reason}});
    return {{QStringLiteral("schema"), QLatin1String(kDiagnosisSchemaName)},
            {QStringLiteral("version"), kDiagnosisSchemaVersion},
            {QStringLiteral("kernel"), diagnosis.kernel},
            {QStringLiteral("source_path"), diagnosis.sourcePath},
            {QStringLiteral("levels"), levels},
            {QStringLiteral("escalation"), escalation},
            {QStringLiteral("warnings"), QJsonArray::fromStringList(diagnosis.warnings)}};
}

Expected<Finding> findingFromJson(const QJsonObject &json, const QString &origin)
{
    QString error;
    Finding finding = readFinding(json, {}, &error);
    if (!error.isEmpty())
        return errorFor(origin, error);
    return finding;
}

Expected<Diagnosis> diagnosisFromJson(const QJsonObject &json, const QString &origin)
{
    QString error;
    const FieldReader r(json, {}, &error);
    if (r.string("schema") != QLatin1String(kDiagnosisSchemaName))
        return errorFor(origin, QStringLiteral("not a Strata diagnosis (schema is not '%1')").arg(QLatin1String(kDiagnosisSchemaName)));
    const int version = r.integer("version", -1);
    if (version < 1 || version > kDiagnosisSchemaVersion)
        return errorFor(origin, QStringLiteral("diagnosis schema version %1 is not supported (this build reads 1..%2)")
                                    .arg(version).arg(kDiagnosisSchemaVersion));
    Diagnosis diagnosis;
    diagnosis.kernel = r.string("kernel", false);
    diagnosis.sourcePath = r.string("source_path", false);
    const QJsonArray levels = r.array("levels");
    for (int i = 0; i < levels.size() && r.ok(); ++i) {
        const QString path = QStringLiteral("levels[%1]").arg(i);
        const FieldReader l(levels[i].toObject(), path, &error);
        const auto level = levelFromName(l.string("level"));
        if (!level) {
            l.fail("level", QStringLiteral("unknown level"));
            break;
        }
        const QJsonArray findings = l.array("findings");
        QVector<Finding> read;
        for (int j = 0; j < findings.size() && l.ok(); ++j)
            read.append(readFinding(findings[j].toObject(), path + QStringLiteral(".findings[%1]").arg(j), &error));
        diagnosis.addFindings(*level, read);
    }
    const QJsonArray escalation = r.array("escalation");
    for (int i = 0; i < escalation.size() && r.ok(); ++i) {
        const FieldReader s(escalation[i].toObject(), QStringLiteral("escalation[%1]").arg(i), &error);
        diagnosis.logStep(s.string("step"), s.string("reason", false));
    }
    for (const QJsonValue &warning : json.value(QStringLiteral("warnings")).toArray())
        diagnosis.warnings.append(warning.toString());
    if (!error.isEmpty())
        return errorFor(origin, error);
    return diagnosis;
}

} // namespace strata::diagnosis
