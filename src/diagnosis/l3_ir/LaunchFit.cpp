#include "diagnosis/l3_ir/LaunchFit.h"

#include <cmath>

namespace strata::diagnosis {

double waveEfficiency(qint64 programs, int units)
{
    if (programs <= 0 || units <= 0)
        return 1.0;
    const double perUnit = double(programs) / units;
    return perUnit / std::ceil(perUnit);
}

} // namespace strata::diagnosis
