#include "rewrite/recipes/RecipeContext.h"

#include "rewrite/recipes/BackendRecipes.h"
#include "rewrite/recipes/LaunchGrid.h"

#include <QJsonValue>
#include <QRegularExpression>

namespace strata::rewrite::recipes {

using diagnosis::Finding;

namespace {

QString examinedRule(const Finding &finding)
{
    // L4 findings start with a span item noted "examines <L3 rule>" (CompilerAnalysis.cpp).
    for (const diagnosis::Evidence &item : finding.evidence) {
        if (item.note.startsWith(QLatin1String("examines ")))
            return item.note.mid(9).trimmed();
    }
    return {};
}

int intField(const QJsonObject &object, const char *key, int fallback)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isDouble() ? value.toInt() : fallback;
}

// The launch's spec with the run-time int arguments' captured values as `scalar_args` (where
// the spec has none), so the KernelView recipes read counts a loop's trips at this launch as
// the diagnosis's does (launchTripCount).
QJsonObject kernelSpec(QJsonObject spec, const QHash<QString, QJsonObject> &args)
{
    if (spec.contains(QLatin1String("scalar_args")))
        return spec;
    QJsonObject scalars;
    for (auto it = args.cbegin(); it != args.cend(); ++it) {
        const QString type = it->value(QLatin1String("type")).toString();
        const QJsonValue value = it->value(QLatin1String("value"));
        if ((type.startsWith(u'i') || type.startsWith(u'u')) && value.isDouble())
            scalars.insert(it.key(), value);
    }
    spec.insert(QStringLiteral("scalar_args"), scalars);
    return spec;
}

} // namespace

Expected<RecipeContext> RecipeContext::build(const RewriteRequest &request, const BackendRecipes *backend)
{
    RecipeContext context;
    context.m_request = &request;
    context.m_backend = backend;
    context.m_source = SourceText(request.taskText);
    context.m_spec = request.launch.value(QLatin1String("spec")).toObject();
    context.m_limits = diagnosis::targetLimits(context.target());
    for (const QJsonValue &arg : request.launch.value(QLatin1String("args")).toArray())
        context.m_args.insert(arg.toObject().value(QLatin1String("name")).toString(), arg.toObject());
    Expected<diagnosis::KernelView> kernel = diagnosis::KernelView::build(request.ast, kernelSpec(context.m_spec, context.m_args));
    if (!kernel) {
        ReadError error = kernel.error();
        if (error.file.isEmpty())
            error.file = request.taskPath;
        error.message = QStringLiteral("recipes cannot read kernel '%1': %2").arg(request.kernelName, error.message);
        return error;
    }
    context.m_kernel = std::move(*kernel);
    context.m_programBlocks = programBlockAxes(*context.m_kernel);
    context.m_decorators = KernelDecorators::read(context.m_kernel->function());
    context.m_findings = request.diagnosis.allFindings();
    const QJsonArray sites = request.ast.value(QLatin1String("launch_sites")).toArray();
    if (!sites.isEmpty())
        context.m_site = sites.first().toObject();  // the first launch decides (one per task here)
    const QJsonObject options = context.m_spec.value(QLatin1String("options")).toObject();
    context.m_numWarps = intField(request.launch, "num_warps", intField(options, "num_warps", 4));
    context.m_numStages = intField(request.launch, "num_stages", intField(options, "num_stages", 3));
    return context;
}

QVector<Finding> RecipeContext::findingsFor(const QStringList &rules) const
{
    QVector<Finding> found;
    for (const Finding &finding : m_findings) {
        if (rules.contains(finding.ruleId) || rules.contains(examinedRule(finding)))
            found.append(finding);
    }
    return found;
}

QStringList RecipeContext::ruleIdsOf(const QVector<Finding> &findings) const
{
    QStringList ids;
    for (const Finding &finding : findings) {
        const QString examined = examinedRule(finding);
        const QString id = examined.isEmpty() ? finding.ruleId : examined;
        if (!ids.contains(id))
            ids.append(id);
    }
    return ids;
}

int RecipeContext::rankOf(const QString &rule) const
{
    const int index = int(m_request->rankedRuleIds.indexOf(rule));
    return index < 0 ? 1000 : index;
}

QJsonObject RecipeContext::launchKeyword(const QString &name) const
{
    for (const QJsonValue &keyword : m_site.value(QLatin1String("keywords")).toArray()) {
        if (keyword.toObject().value(QLatin1String("name")).toString() == name)
            return keyword.toObject();
    }
    return {};
}

QJsonObject RecipeContext::launchArgument(const QString &param) const
{
    const QJsonObject keywordArg = launchKeyword(param);
    if (!keywordArg.isEmpty())
        return keywordArg.value(QLatin1String("value")).toObject();
    const QJsonArray params = m_kernel->function().value(QLatin1String("args")).toObject().value(QLatin1String("args")).toArray();
    const QJsonArray args = m_site.value(QLatin1String("args")).toArray();
    for (int i = 0; i < params.size() && i < args.size(); ++i) {
        if (params.at(i).toObject().value(QLatin1String("arg")).toString() == param)
            return args.at(i).toObject();
    }
    return {};
}

QString RecipeContext::launchArgumentText(const QString &param) const
{
    return launchArgument(param).value(QLatin1String("text")).toString();
}

std::optional<qint64> RecipeContext::launchIntValue(const QString &param) const
{
    const QJsonValue value = m_args.value(param).value(QLatin1String("value"));
    if (!value.isDouble())
        return std::nullopt;
    return qint64(value.toDouble());
}

std::optional<qint64> RecipeContext::constexprValue(const QString &param) const
{
    const QJsonValue value = m_spec.value(QLatin1String("constexprs")).toObject().value(param);
    if (!value.isDouble())
        return std::nullopt;
    return qint64(value.toDouble());
}

int elementBytesOf(const QString &pointerType)
{
    static const QRegularExpression bits(QStringLiteral("(\\d+)$"));
    const QRegularExpressionMatch match = bits.match(pointerType);
    return match.hasMatch() && match.captured(1).toInt() >= 8 ? match.captured(1).toInt() / 8 : 0;
}

QString RecipeContext::pointerType(const QString &param) const
{
    const QString type = m_args.value(param).value(QLatin1String("type")).toString();
    if (type.startsWith(u'*'))
        return type;
    const QString specType = m_spec.value(QLatin1String("signature")).toObject().value(param).toString();
    return specType.startsWith(u'*') ? specType : QString();
}

QVector<qint64> RecipeContext::grid() const
{
    QVector<qint64> dims;
    for (const QJsonValue &dim : m_request->launch.value(QLatin1String("grid")).toArray())
        dims.append(qint64(dim.toDouble()));
    return dims;
}

QString RecipeContext::target() const
{
    return m_spec.value(QLatin1String("target")).toString();
}

QString RecipeContext::matrixDotKind(qint64 tileM, int warps) const
{
    return m_backend ? m_backend->matrixDotKind(*this, tileM, warps) : QString();
}

QStringList RecipeContext::accumulatorPressureRules() const
{
    return m_backend ? m_backend->accumulatorPressureRules() : QStringList();
}

std::optional<QVector<TextEdit>> RecipeContext::setLaunchOption(const QString &name, int value) const
{
    if (m_site.isEmpty())
        return std::nullopt;
    if (m_decorators.autotuned() || m_decorators.decides(name))
        return m_decorators.setConfigOption(m_source, name, value);
    const QJsonObject keyword = launchKeyword(name);
    if (!keyword.isEmpty()) {
        const QJsonObject valueNode = keyword.value(QLatin1String("value")).toObject();
        return QVector<TextEdit>{{m_source.startOf(valueNode), m_source.endOf(valueNode), QString::number(value)}};
    }
    const int last = m_source.afterLastArgument(m_site);
    if (last < 0)
        return std::nullopt;
    return QVector<TextEdit>{{last, last, QStringLiteral(", %1=%2").arg(name).arg(value)}};
}

QJsonObject RecipeContext::gridNode() const
{
    const QJsonObject grid = m_site.value(QLatin1String("grid")).toObject();
    const QJsonObject definition = grid.value(QLatin1String("definition")).toObject();
    return definition.isEmpty() ? grid : definition.value(QLatin1String("value")).toObject();
}

QStringList RecipeContext::gridNames() const
{
    QStringList names;
    const QJsonObject grid = m_site.value(QLatin1String("grid")).toObject();
    const auto collect = [&names](const QJsonObject &expression) {
        for (const QJsonValue &name : expression.value(QLatin1String("names")).toArray())
            names.append(name.toObject().value(QLatin1String("id")).toString());
    };
    collect(grid);
    collect(grid.value(QLatin1String("definition")).toObject().value(QLatin1String("value")).toObject());
    return names;
}

bool RecipeContext::gridDependsOn(const QString &name) const
{
    const QJsonObject keyword = launchKeyword(name);
    if (keyword.isEmpty())
        return false;
    const QJsonObject value = keyword.value(QLatin1String("value")).toObject();
    const QString text = value.value(QLatin1String("text")).toString();
    bool isLiteral = false;
    const qint64 literal = text.toLongLong(&isLiteral);
    if (isLiteral) {
        for (const QJsonValue &gridLiteral : gridNode().value(QLatin1String("int_literals")).toArray()) {
            if (qint64(gridLiteral.toObject().value(QLatin1String("value")).toDouble()) == literal)
                return true;
        }
        return false;
    }
    const QStringList names = gridNames();
    for (const QJsonValue &read : value.value(QLatin1String("names")).toArray()) {
        if (names.contains(read.toObject().value(QLatin1String("id")).toString()))
            return true;
    }
    return false;
}

std::optional<QVector<TextEdit>> RecipeContext::setLaunchConstexpr(const QString &name, qint64 value) const
{
    return setLaunchConstexprs({{name, value}});
}

namespace {

std::optional<qint64> literalValue(const QJsonObject &keyword)
{
    bool isLiteral = false;
    const qint64 value = keyword.value(QLatin1String("value")).toObject().value(QLatin1String("text")).toString().toLongLong(&isLiteral);
    return isLiteral ? std::optional<qint64>(value) : std::nullopt;
}

// Adds `edit` unless the same range is already edited: equal edits merge, different ones conflict.
bool addEdit(QVector<TextEdit> &edits, const TextEdit &edit)
{
    for (const TextEdit &existing : edits) {
        if (existing.start == edit.start && existing.end == edit.end)
            return existing.replacement == edit.replacement;
    }
    edits.append(edit);
    return true;
}

} // namespace

std::optional<QVector<TextEdit>> RecipeContext::setLaunchConstexprs(const QVector<QPair<QString, qint64>> &values) const
{
    // A literal constexpr changes the grid literals equal to its old value. When the kernel shows
    // which constexprs scale a program id, only those touch the grid, and each only the grid
    // element of its axis; otherwise every equal literal anywhere in the grid.
    struct Change {
        qint64 from, to;
        int element;  // -1: any element
    };
    const auto overlaps = [](int a, int b) { return a < 0 || b < 0 || a == b; };
    const QJsonObject grid = gridNode();
    const QJsonArray literals = grid.value(QLatin1String("int_literals")).toArray();
    const bool gridIsTuple = !literals.isEmpty() && gridElementOf(m_source, grid, literals.first().toObject()) >= 0;
    const auto touchesGrid = [this](const QString &name) { return m_programBlocks.isEmpty() || m_programBlocks.contains(name); };
    const auto elementOf = [&](const QString &name) { return gridIsTuple ? m_programBlocks.value(name, -1) : -1; };

    QVector<TextEdit> edits;
    QVector<Change> changes;
    QStringList setNames;
    for (const auto &[name, newValue] : values) {
        const QJsonObject keyword = launchKeyword(name);
        if (keyword.isEmpty() || m_decorators.decides(name))
            return std::nullopt;
        setNames.append(name);
        const QString replacement = QString::number(newValue);
        const QJsonObject valueNode = keyword.value(QLatin1String("value")).toObject();
        if (const std::optional<qint64> old = literalValue(keyword)) {
            if (!addEdit(edits, {m_source.startOf(valueNode), m_source.endOf(valueNode), replacement}))
                return std::nullopt;
            if (!touchesGrid(name))
                continue;
            const Change change{*old, newValue, elementOf(name)};
            for (const Change &other : changes) {
                if (other.from == change.from && overlaps(other.element, change.element) && other.to != change.to)
                    return std::nullopt;  // one grid literal would need two values
            }
            changes.append(change);
            continue;
        }
        const QJsonValue sources = keyword.value(QLatin1String("binding")).toObject().value(QLatin1String("literal_sources"));
        if (!sources.isArray() || sources.toArray().isEmpty())
            return std::nullopt;
        for (const QJsonValue &source : sources.toArray()) {
            if (!addEdit(edits, {m_source.startOf(source.toObject()), m_source.endOf(source.toObject()), replacement}))
                return std::nullopt;
        }
    }
    const auto changeFor = [&](qint64 value, int element) -> const Change * {
        for (const Change &change : changes) {
            if (change.from == value && change.to != change.from && overlaps(change.element, element))
                return &change;
        }
        return nullptr;
    };
    // A literal constexpr left alone that shares a changed grid literal: which one the grid means
    // is ambiguous, so no edit.
    for (const QJsonValue &other : m_site.value(QLatin1String("keywords")).toArray()) {
        const QJsonObject keyword = other.toObject();
        const QString name = keyword.value(QLatin1String("name")).toString();
        const std::optional<qint64> old = literalValue(keyword);
        if (setNames.contains(name) || name == QLatin1String("num_warps") || name == QLatin1String("num_stages") || !old
            || !touchesGrid(name))
            continue;
        for (const QJsonValue &literal : literals) {
            const QJsonObject object = literal.toObject();
            const int element = gridElementOf(m_source, grid, object);
            if (qint64(object.value(QLatin1String("value")).toDouble()) == *old && overlaps(element, elementOf(name))
                && changeFor(*old, element))
                return std::nullopt;
        }
    }
    for (const QJsonValue &literal : literals) {
        const QJsonObject object = literal.toObject();
        const Change *change = changeFor(qint64(object.value(QLatin1String("value")).toDouble()), gridElementOf(m_source, grid, object));
        if (change && !addEdit(edits, {m_source.startOf(object), m_source.endOf(object), QString::number(change->to)}))
            return std::nullopt;
    }
    return edits;
}

} // namespace strata::rewrite::recipes
