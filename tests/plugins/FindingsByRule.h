#pragma once
// The findings of one rule, for the plugin tests that check what a backend's rules report.
#include "diagnosis/model/Finding.h"

#include <QVector>

namespace strata::diagnosis {

inline QVector<Finding> withRule(const QVector<Finding> &findings, const char *rule)
{
    QVector<Finding> matching;
    for (const Finding &finding : findings)
        if (finding.ruleId == QLatin1String(rule))
            matching.append(finding);
    return matching;
}

} // namespace strata::diagnosis
