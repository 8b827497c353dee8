#include "optimize/SuiteEnvironment.h"

#include <QJsonArray>

namespace strata::optimize {

namespace {

void describeBackend(const QJsonObject &info, const QString &requestedTarget, SuiteOutcome &suite)
{
    suite.target = requestedTarget;
    const QJsonArray gpus = info.value(QStringLiteral("gpus")).toArray();
    if (suite.target.isEmpty() && !gpus.isEmpty())
        suite.target = gpus.first().toObject().value(QStringLiteral("target")).toString();
    if (suite.target.isEmpty())
        suite.target = info.value(QStringLiteral("default_target")).toString();
    for (const QJsonValue &backend : info.value(QStringLiteral("backends")).toArray()) {
        if (backend.toObject().value(QStringLiteral("targets")).toArray().contains(suite.target)) {
            suite.backend = backend.toObject().value(QStringLiteral("name")).toString();
            break;
        }
    }
}

QJsonObject backendEntry(const QJsonObject &info, const QString &backend)
{
    for (const QJsonValue &entry : info.value(QStringLiteral("backends")).toArray())
        if (entry.toObject().value(QStringLiteral("name")).toString() == backend)
            return entry.toObject();
    return {};
}

} // namespace

void describeEnvironment(const QJsonObject &info, const QString &requestedTarget, SuiteOutcome &suite)
{
    describeBackend(info, requestedTarget, suite);
    const QJsonObject entry = backendEntry(info, suite.backend);
    suite.triton = entry.value(QStringLiteral("triton")).isString() ? entry.value(QStringLiteral("triton")).toString()
                                                                    : info.value(QStringLiteral("triton")).toString();
    suite.torch = info.value(QStringLiteral("torch")).toString();
    const QJsonArray gpus = info.value(QStringLiteral("gpus")).toArray();
    if (!gpus.isEmpty()) {
        suite.device = gpus.first().toObject().value(QStringLiteral("name")).toString();
        suite.driver = gpus.first().toObject().value(QStringLiteral("driver")).toString();
    } else if (entry.value(QStringLiteral("device")).isString()) {
        // A backend whose devices are not GPUs (an Ascend host's NPUs) names them in its entry.
        suite.device = entry.value(QStringLiteral("device")).toString();
    } else {
        suite.device = QStringLiteral("cpu (no GPU)");
    }
}

} // namespace strata::optimize
