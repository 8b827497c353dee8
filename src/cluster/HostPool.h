#pragma once
// The hosts of `strata-cli bench --hosts ssh:a,ssh:b=2,local`: one optimize::BenchHost each, whose
// agents see one device apiece when the host has several (through the backends' device masks,
// BackendPlugin::deviceMask). The queue, the per-device gates and the return of a dropped host's
// tasks are SuiteBench's.
#include "core/Expected.h"
#include "host/BackendPlugin.h"
#include "optimize/SuiteBench.h"

#include <QString>
#include <QVector>

namespace strata::cluster {

// "local" or "ssh:HOST", each optionally "=N" (its tasks at a time per device; default `jobs`).
Expected<QVector<optimize::BenchHost>> parseHosts(const QString &list, int jobs, const QVector<DeviceMask> &masks);

// One host by name ("local", "ssh:HOST"): an agent started for `device` gets it in every mask's
// variable (the host's backend is not known before its agent answers; each runtime reads only its
// own). No mask: the host's workers all see every device. For "local" the devices this process
// may already use (the first mask variable set in its environment) are the ones spread.
optimize::BenchHost benchHost(const QString &name, int jobs, const QVector<DeviceMask> &masks);

// The masks of every loaded backend, or of the one `target` names when it is given.
QVector<DeviceMask> deviceMasks(const PluginRegistry &plugins, const QString &target);

} // namespace strata::cluster
