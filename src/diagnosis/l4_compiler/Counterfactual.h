#pragma once
// Counterfactual compiles: one change to the launch spec (or, for what the spec cannot say, one
// edit of the finding's own source line) that, if the finding names the right cause, makes its
// fact disappear on its line. The changes come from the finding's rule, the spec (which arguments
// it leaves unconstrained) and the keyword arguments of the finding's op, never from variable names.
// Which changes fit a rule, and how its fact reads, the backend's rules say (BackendIrRules.h): the
// rules are its own. A null `rules` means the default backend's (defaultIrRules()), for callers that
// name none.
#include "diagnosis/l3_ir/BackendIrRules.h"
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
    QString sourceText;   // non-empty: compile this kernel text instead of the file (one line edited)
};

// The single changes worth compiling for `finding`, most telling first (the levers its backend
// names for the rule). `sourceText` (the kernel file as compiled) lets a dot's input precision be
// changed in the source: `input_precision="ieee"` becomes "tf32", `allow_tf32=False` becomes True,
// on the finding's line or the next three (a call may span lines). Without it, or without such a
// keyword, a cause the spec cannot express gets none.
QVector<SpecChange> counterfactualChanges(const Finding &finding, const QJsonObject &spec, const QString &sourceText = {},
                                          const BackendIrRules *rules = nullptr);

// Whether the fact `finding` names holds on its line in `facts`, and how it reads there
// (BackendIrRules::factOnLine). nullopt for rules without a per-line fact.
std::optional<FactState> factOnLine(const Finding &finding, const KernelIrFacts &facts, const BackendIrRules *rules = nullptr);

// `rules`, or the default backend's when a caller passes none.
const BackendIrRules &rulesOrDefault(const BackendIrRules *rules);

} // namespace strata::diagnosis
