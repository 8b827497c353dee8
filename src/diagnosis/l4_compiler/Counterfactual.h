#pragma once
// Counterfactual compiles: one change to the launch spec that, if the finding names the right
// cause, makes its fact disappear on its line. The changes come from the finding's rule and the
// spec alone (which arguments the spec leaves unconstrained), never from variable names.
#include "diagnosis/l3_ir/IrFacts.h"
#include "diagnosis/model/Finding.h"

#include <QJsonObject>
#include <QString>
#include <QVector>

#include <optional>

namespace strata::diagnosis {

struct SpecChange {
    QString id;           // stable, for de-duplication: "divisibility_16:n_elements"
    QString description;  // "n_elements divisible by 16"
    QJsonObject spec;     // the whole changed spec
};

// The single-change specs worth compiling for `finding`, most telling first. Rules whose cause
// the spec cannot express (a dot's input precision) give none.
QVector<SpecChange> counterfactualChanges(const Finding &finding, const QJsonObject &spec);

// Whether the fact `finding` names holds on its line in `facts`, and how it reads there
// ("ld.global.b32 x8", "tt.load, no async copy"). nullopt for rules without a per-line fact.
struct FactState {
    bool holds = false;
    QString text;
};
std::optional<FactState> factOnLine(const Finding &finding, const KernelIrFacts &facts);

} // namespace strata::diagnosis
