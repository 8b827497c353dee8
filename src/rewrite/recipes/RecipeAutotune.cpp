// The autotune recipe: @triton.autotune over the launch's tile constexprs x num_warps x
// num_stages, pruned by the target's shared memory per program (its backend's TargetLimits) and a
// register budget for the accumulator, launched with a grid lambda.
#include "rewrite/recipes/Recipe.h"

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;
using diagnosis::Finding;

namespace {

struct Config {
    QVector<QPair<QString, qint64>> constexprs;
    int warps = 4;
    int stages = 3;
};

QVector<Config> dotConfigs(const MatmulRoles &roles, qint64 sharedBytes)
{
    struct Tile { qint64 bm, bn, bk; int warps, stages; };
    const qint64 bk = roles.elementBytes >= 4 ? 32 : roles.elementBytes == 2 ? 64 : 128;
    const QVector<Tile> tiles = {{128, 128, bk, 8, 3}, {128, 256, bk, 8, 3}, {256, 128, bk, 8, 3}, {128, 128, bk, 4, 4},
                                 {128, 64, bk, 4, 4},  {64, 128, bk, 4, 4},  {64, 64, bk, 4, 4},   {128, 128, bk * 2, 8, 3}};
    QVector<Config> configs;
    for (const Tile &tile : tiles) {
        if (tileSharedBytes(tile.bm, tile.bn, tile.bk, roles.elementBytes, tile.stages) > sharedBytes
            || accumulatorRegisters(tile.bm, tile.bn, tile.warps) > 128)
            continue;
        configs.append({{{roles.blockM, tile.bm}, {roles.blockN, tile.bn}, {roles.blockK, tile.bk}}, tile.warps, tile.stages});
    }
    return configs;
}

QVector<Config> blockConfigs(const QString &block)
{
    QVector<Config> configs;
    for (const qint64 size : {4096, 1024, 2048, 8192}) {
        for (const int warps : {8, 4}) {
            if (size / (warps * 32) <= 64)
                configs.append({{{block, size}}, warps, 3});
        }
    }
    return configs;
}

QString configText(const Config &config)
{
    QStringList items;
    for (const auto &[name, value] : config.constexprs)
        items.append(QStringLiteral("\"%1\": %2").arg(name).arg(value));
    return QStringLiteral("    triton.Config({%1}, num_warps=%2, num_stages=%3),")
        .arg(items.join(QLatin1String(", "))).arg(config.warps).arg(config.stages);
}

// The grid expression of the launch as `lambda meta: ...`, with each tuned constexpr's value
// (the local it is bound to, or its literal) read from `meta`; empty when that is ambiguous.
QString gridLambda(const RecipeContext &context, const QStringList &tuned)
{
    const QJsonObject grid = context.launchSite().value(QLatin1String("grid")).toObject();
    const QJsonObject definition = grid.value(QLatin1String("definition")).toObject();
    const QJsonObject expression = definition.isEmpty() ? grid : definition.value(QLatin1String("value")).toObject();
    const SourceText &source = context.source();
    const int base = source.startOf(expression);
    QVector<TextEdit> edits;
    QSet<qint64> literalsSeen;
    for (const QString &name : tuned) {
        const QJsonObject value = context.launchKeyword(name).value(QLatin1String("value")).toObject();
        const QString meta = QStringLiteral("meta[\"%1\"]").arg(name);
        bool isLiteral = false;
        const qint64 literal = value.value(QLatin1String("text")).toString().toLongLong(&isLiteral);
        if (isLiteral) {
            if (literalsSeen.contains(literal))
                return {};
            literalsSeen.insert(literal);
            for (const QJsonValue &item : expression.value(QLatin1String("int_literals")).toArray()) {
                const QJsonObject object = item.toObject();
                if (qint64(object.value(QLatin1String("value")).toDouble()) == literal)
                    edits.append({source.startOf(object) - base, source.endOf(object) - base, meta});
            }
            continue;
        }
        // Only a bare local (BLOCK=block) maps to meta["BLOCK"].
        const QJsonArray names = value.value(QLatin1String("names")).toArray();
        const QString local = names.size() == 1 ? names.first().toObject().value(QLatin1String("id")).toString() : QString();
        if (local.isEmpty() || value.value(QLatin1String("text")).toString() != local)
            return {};
        for (const QJsonValue &item : expression.value(QLatin1String("names")).toArray()) {
            const QJsonObject object = item.toObject();
            if (object.value(QLatin1String("id")).toString() == local)
                edits.append({source.startOf(object) - base, source.endOf(object) - base, meta});
        }
    }
    const Expected<QString> text = applyEdits(source.slice(expression), edits);
    return text ? QStringLiteral("lambda meta: ") + *text : QString();
}

// Deletes launch keywords `names` with the comma before each.
QVector<TextEdit> removeKeywords(const RecipeContext &context, const QStringList &names)
{
    QVector<TextEdit> edits;
    const SourceText &source = context.source();
    int previousEnd = -1;
    for (const char *field : {"args", "keywords"}) {
        for (const QJsonValue &item : context.launchSite().value(QLatin1String(field)).toArray()) {
            const QJsonObject object = item.toObject();
            if (QLatin1String(field) == QLatin1String("keywords") && names.contains(object.value(QLatin1String("name")).toString())
                && previousEnd >= 0)
                edits.append({previousEnd, source.endOf(object), QString()});
            previousEnd = source.endOf(object);
        }
    }
    return edits;
}

} // namespace

QVector<RecipeCandidate> proposeAutotune(const RecipeContext &context)
{
    const QVector<Finding> findings = context.findingsFor({QStringLiteral("L1.no-autotune"), QStringLiteral("L1.tiny-block"),
                                                           QStringLiteral("L1.num-warps-mismatch"), QStringLiteral("L1.small-dot-tile")});
    const bool dot = hasDot(context);
    const QJsonObject timing = context.request().timing;
    const bool memoryBound = timing.value(QLatin1String("bound")).toString() == QLatin1String("memory");
    if ((findings.isEmpty() && !(memoryBound && !dot)) || !context.hasLaunchSite()
        || context.kernel().decorators().join(u' ').contains(QLatin1String("autotune"))
        || !context.kernel().callsOf("atomic_add").isEmpty() || !context.kernel().callsOf("atomic_max").isEmpty())
        return {};
    QVector<Config> configs;
    QStringList tuned;
    if (dot) {
        const MatmulRoles roles = matmulRoles(context);
        const qint64 sharedBytes = context.limits().sharedBytesPerProgram;
        if (!roles.valid() || sharedBytes <= 0)
            return {};  // without the target's shared memory no tile list can be pruned
        tuned = {roles.blockM, roles.blockN, roles.blockK};
        configs = dotConfigs(roles, sharedBytes);
    } else {
        // An element-wise kernel whose grid follows its one block constexpr.
        QString block;
        for (const diagnosis::LocatedNode &call : context.kernel().callsOf("arange")) {
            const QString extent = argument(call.node, 1, "end").value(QLatin1String("id")).toString();
            const diagnosis::KernelParam *param = context.kernel().param(extent);
            if (param && param->isConstexpr)
                block = block.isEmpty() || block == extent ? extent : QStringLiteral("\n");
        }
        if (block.isEmpty() || block == QLatin1String("\n") || !context.gridDependsOn(block) || !context.kernel().loops().isEmpty())
            return {};
        tuned = {block};
        configs = blockConfigs(block);
    }
    // A constexpr the launch derives from the inputs (HEAD_DIM=q.shape[-1] in attention) is a
    // shape, not a tile: a config must never decide it.
    for (const QString &name : tuned) {
        if (context.launchKeyword(name).isEmpty() || !context.launchConstexprSettable(name))
            return {};
    }
    QStringList key;
    for (const diagnosis::KernelParam &param : context.kernel().params()) {
        if (param.isRuntimeInteger())
            key.append(QStringLiteral("\"%1\"").arg(param.name));
    }
    const QString lambda = gridLambda(context, tuned);
    if (configs.size() < 2 || key.isEmpty() || lambda.isEmpty())
        return {};

    const SourceText &source = context.source();
    const QJsonArray decorators = children(context.kernel().function(), "decorator_list");
    const int decoratorLine = decorators.isEmpty() ? 0 : lineOf(decorators.first().toObject());
    if (decoratorLine <= 0 || !source.indentOf(decoratorLine).isEmpty())
        return {};
    const QString list = QStringLiteral("_%1_CONFIGS").arg(context.request().kernelName.toUpper());
    QStringList block = {QStringLiteral("import os  # the interpreter check below"), QString(),
                         dot ? QStringLiteral("# Configs for the %1, pruned to <= %2 KiB of shared memory and <= 128 accumulator")
                                   .arg(context.limits().part).arg(context.limits().sharedBytesPerProgram / 1024)
                             : QStringLiteral("# Configs of block size x num_warps, at most 64 elements per thread"),
                         dot ? QStringLiteral("# registers per thread; the first is the expected best.")
                             : QStringLiteral("# the first is the expected best."),
                         QStringLiteral("%1 = [").arg(list)};
    for (const Config &config : configs)
        block.append(configText(config));
    block += {QStringLiteral("]"),
              QStringLiteral("if os.environ.get(\"TRITON_INTERPRET\") == \"1\":  # the CPU interpreter cannot time configs"),
              QStringLiteral("    %1 = %1[:1]").arg(list), QString(), QString(),
              QStringLiteral("@triton.autotune(configs=%1, key=[%2])").arg(list, key.join(QLatin1String(", "))), QString()};

    RecipeCandidate candidate;
    candidate.edits.append({source.lineStart(decoratorLine), source.lineStart(decoratorLine), block.join(u'\n')});
    candidate.edits += removeKeywords(context, tuned + QStringList{QStringLiteral("num_warps"), QStringLiteral("num_stages")});
    const QJsonObject gridNode = context.launchSite().value(QLatin1String("grid")).toObject();
    candidate.edits.append({source.startOf(gridNode), source.endOf(gridNode), lambda});
    candidate.recipeId = QStringLiteral("autotune-blocks");
    candidate.title = QStringLiteral("autotune %1 x num_warps x num_stages (%2 configs)").arg(tuned.join(QLatin1String(", "))).arg(configs.size());
    candidate.rationale = QStringLiteral("The launch fixes %1 and num_warps=%2 by hand; the best tile depends on the shape "
                                         "and on the target's limits, so the configs are timed per shape (key: %3).")
                              .arg(tuned.join(QLatin1String(", "))).arg(context.numWarps()).arg(key.join(QLatin1String(", ")));
    candidate.findingRuleIds = context.ruleIdsOf(findings);
    candidate.value = dot ? 0.8 : 0.3;
    for (const QString &name : tuned)
        candidate.sets.append(QStringLiteral("constexpr:") + name);
    candidate.sets += {QStringLiteral("launch:num_warps"), QStringLiteral("launch:num_stages"), QStringLiteral("launch:grid")};
    return {candidate};
}

} // namespace strata::rewrite::recipes
