#pragma once
// Joins L1 source patterns with the L3 compiler facts they cause. An L1 finding names a cause in
// the code (a run-time stride, a strided or divided index, an ieee fp32 dot); an L3 finding names
// what the compiler made (scalar loads, no pipelining, an FMA dot). When an L3 fact sits on the
// L1 finding's line, or on a load / store the L1 code feeds, and the L1 cause is one that can
// produce that fact, the L1 finding is *corroborated*: it gains a span item naming the fact and
// the fact's severity (a cause is as serious as the worst fact it explains), and ranks before
// compiler facts that no counterfactual confirmed. The table of which cause can produce which
// fact is compiler knowledge, not kernel knowledge. Without measurements the ladder has already
// capped each fact's severity by its estimated cost (StaticCost.h), so a cheap fact (a scalar
// access over adjacent lanes, a side load of a few bytes) lends a cause no more than its own
// low or medium: a cheap fact must not make its cause high (review pattern D1).
#include "diagnosis/model/Finding.h"

namespace strata::diagnosis {

inline constexpr char kCorroboratedNote[] = "corroborated by the compiler: ";

// Whether the L1 rule `cause` can produce the L3 fact `fact` (both rule ids).
bool canExplain(const QString &cause, const QString &fact);

// Adds the corroboration items to the L1 findings of `diagnosis` (L3 and L4 findings are read).
void corroborateSourceCauses(Diagnosis &diagnosis);

bool isCorroborated(const Finding &finding);

} // namespace strata::diagnosis
