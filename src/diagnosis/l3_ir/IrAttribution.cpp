// L3 attribution: the compile's facts and the backend's rules over them (BackendIrRules.h).
#include "diagnosis/l3_ir/IrAttribution.h"

#include "diagnosis/l3_ir/LaunchFit.h"

namespace strata::diagnosis {

QVector<Finding> findingsFromIrFacts(const KernelIrFacts &facts, const LoadedCompile &compile)
{
    return defaultIrRules().findings(facts, compile);
}

QStringList gpuIrRules()
{
    return defaultIrRules().gpuIrRules();
}

Expected<IrAttribution> attributeIr(const LoadedCompile &compile, const BackendIrRules &rules)
{
    Expected<KernelIrFacts> facts = collectIrFacts(compile, rules);
    if (!facts)
        return facts.error();
    IrAttribution attribution{std::move(*facts), {}, {}};
    attribution.findings = rules.findings(attribution.facts, compile);
    if (!attribution.facts.gpuIrRead)
        attribution.uncheckedRules = rules.gpuIrRules();
    return attribution;
}

QVector<Finding> launchFitFindings(const KernelIrFacts &facts, const QJsonObject &spec)
{
    return defaultIrRules().launchFindings(facts, spec);
}

Expected<IrAttribution> attributeIr(const LoadedCompile &compile)
{
    return attributeIr(compile, defaultIrRules());
}

} // namespace strata::diagnosis
