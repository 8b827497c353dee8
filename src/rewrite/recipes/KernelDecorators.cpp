#include "rewrite/recipes/KernelDecorators.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

QString lastNameOf(const Node &decorator)
{
    const Node target = isType(decorator, "Call") ? child(decorator, "func") : decorator;
    return dottedName(target).section(u'.', -1);
}

// Keys of a dict literal ({"BLOCK": 128}), empty for anything else.
QStringList dictKeys(const Node &node)
{
    QStringList keys;
    for (const QJsonValue &key : children(node, "keys")) {
        const Node constant = key.toObject();
        if (isType(constant, "Constant") && constant.value(QLatin1String("value")).isString())
            keys.append(constant.value(QLatin1String("value")).toString());
    }
    return keys;
}

} // namespace

KernelDecorators KernelDecorators::read(const QJsonObject &function)
{
    KernelDecorators decorators;
    for (const QJsonValue &item : children(function, "decorator_list")) {
        const Node decorator = item.toObject();
        const QString name = lastNameOf(decorator);
        if (name == QLatin1String("heuristics")) {
            decorators.m_heuristicNames += dictKeys(argument(decorator, 0, "values"));
        } else if (name == QLatin1String("autotune")) {
            decorators.m_autotuned = true;
            const Node configs = argument(decorator, 0, "configs");
            const QJsonArray elements = children(configs, "elts");
            bool allConfigs = isType(configs, "List") || isType(configs, "Tuple");
            for (const QJsonValue &element : elements) {
                const Node call = element.toObject();
                // Options passed by position (Config({...}, 4, 3)) are not edited by name.
                if (!isType(call, "Call") || lastNameOf(call) != QLatin1String("Config") || children(call, "args").size() > 1) {
                    allConfigs = false;
                    continue;
                }
                decorators.m_configCalls.append(call);
                decorators.m_configNames += dictKeys(argument(call, 0, "kwargs"));
                for (const QJsonValue &keywordNode : children(call, "keywords"))
                    decorators.m_configNames.append(keywordNode.toObject().value(QLatin1String("arg")).toString());
            }
            decorators.m_configsInline = allConfigs && !elements.isEmpty();
        }
    }
    return decorators;
}

bool KernelDecorators::decides(const QString &name) const
{
    // Configs built outside the decorator may set anything a launch could.
    return m_heuristicNames.contains(name) || m_configNames.contains(name) || (m_autotuned && !m_configsInline);
}

std::optional<QVector<TextEdit>> KernelDecorators::setConfigOption(const SourceText &source, const QString &name, int value) const
{
    if (!m_configsInline || m_heuristicNames.contains(name))
        return std::nullopt;
    QVector<TextEdit> edits;
    for (const Node &call : m_configCalls) {
        const Node valueNode = keyword(call, qPrintable(name));
        if (!valueNode.isEmpty()) {
            edits.append({source.startOf(valueNode), source.endOf(valueNode), QString::number(value)});
            continue;
        }
        const int last = source.afterLastArgument(call);
        if (last < 0)
            return std::nullopt;
        edits.append({last, last, QStringLiteral(", %1=%2").arg(name).arg(value)});
    }
    return edits;
}

} // namespace strata::rewrite::recipes
