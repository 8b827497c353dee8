#pragma once
// The hosts of `strata-cli bench --hosts ssh:a,ssh:b=2,local`: one optimize::BenchHost each, whose
// agents see one GPU apiece when the host has several (CUDA_VISIBLE_DEVICES per worker). The
// queue, the per-GPU gates and the return of a dropped host's tasks are SuiteBench's.
#include "core/Expected.h"
#include "optimize/SuiteBench.h"

#include <QString>
#include <QVector>

namespace strata::cluster {

// "local" or "ssh:HOST", each optionally "=N" (its tasks at a time per GPU; default `jobs`).
Expected<QVector<optimize::BenchHost>> parseHosts(const QString &list, int jobs);

// One host by name ("local", "ssh:HOST"): agents started with `device` as CUDA_VISIBLE_DEVICES.
// For "local" the GPUs this process may use (its own CUDA_VISIBLE_DEVICES) are the ones spread.
optimize::BenchHost benchHost(const QString &name, int jobs);

} // namespace strata::cluster
