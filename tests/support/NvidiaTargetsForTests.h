#pragma once
// Tests that run the core's rules on sm_90 compiles without loading the NVIDIA plugin: including
// this registers the plugin's own target facts (plugins/nvidia/NvidiaTargets.h) as a source of
// diagnosis::targetLimits() for the test binary's lifetime, as PluginRegistry does when it loads
// the plugin. Link strata_nvidia_stages for the header's include path.
#include "NvidiaTargets.h"

namespace strata::testsupport {

struct NvidiaTargetsRegistration {
    NvidiaTargetsRegistration() : id(diagnosis::addTargetLimitsSource(&nvidia::nvidiaTargetLimits)) {}
    ~NvidiaTargetsRegistration() { diagnosis::removeTargetLimitsSource(id); }
    int id;
};

inline const NvidiaTargetsRegistration nvidiaTargetsRegistered;

} // namespace strata::testsupport
