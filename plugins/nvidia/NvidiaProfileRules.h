#pragma once
// The NVIDIA backend's part of L2 (diagnosis/l2_profile/BackendProfileRules.h): what Nsight
// Compute's sections say of a launch (Speed Of Light duration and throughputs, the Occupancy
// section), what its warp-stall reasons mean, the occupancy of a compile from ptxas's registers
// and shared memory against the SM's limits (NvidiaOccupancy.h), and L2.low-occupancy over it.
#include "diagnosis/l2_profile/BackendProfileRules.h"

namespace strata::nvidia {

class NvidiaProfileRules : public diagnosis::BackendProfileRules {
public:
    QString profiler() const override;
    diagnosis::ProfiledFigures readLaunch(const ProfiledKernel &launch) const override;
    std::optional<diagnosis::Occupancy> staticOccupancy(const CompileResult &compile, QString &note) const override;
    QString stallMeaning(const QString &reason) const override;
    QVector<diagnosis::Finding> occupancyFindings(const diagnosis::Occupancy &occupancy,
                                                  const diagnosis::OccupancyContext &context) const override;
    QStringList launchOverheadRecipes() const override;
};

// The one instance, for the plugin and for diagnosis::defaultProfileRules().
const NvidiaProfileRules &nvidiaProfileRules();

} // namespace strata::nvidia
