#include "diagnosis/model/TargetFacts.h"

#include <QMutex>
#include <QMutexLocker>

#include <vector>

namespace strata::diagnosis {

namespace {

struct Sources {
    QMutex mutex;
    std::vector<std::pair<int, TargetLimitsSource>> list;
    int nextId = 1;
};

Sources &sources()
{
    static Sources instance;
    return instance;
}

} // namespace

int addTargetLimitsSource(TargetLimitsSource source)
{
    Sources &all = sources();
    QMutexLocker lock(&all.mutex);
    const int id = all.nextId++;
    all.list.emplace_back(id, std::move(source));
    return id;
}

void removeTargetLimitsSource(int id)
{
    Sources &all = sources();
    QMutexLocker lock(&all.mutex);
    std::erase_if(all.list, [id](const auto &entry) { return entry.first == id; });
}

TargetLimits targetLimits(const QString &target)
{
    if (target.isEmpty())
        return {};
    Sources &all = sources();
    QMutexLocker lock(&all.mutex);
    for (const auto &[id, source] : all.list) {
        Q_UNUSED(id);
        if (const TargetLimits limits = source(target); limits.isKnown())
            return limits;
    }
    return {};
}

} // namespace strata::diagnosis
