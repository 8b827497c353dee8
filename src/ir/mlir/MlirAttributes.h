#pragma once
// Internal: attribute dictionaries and layout attributes, decoded from raw text.
#include "ir/mlir/MlirReader.h"

#include <QStringView>

namespace strata::ir::detail {

// Entries of an attribute dictionary, given the text between its braces.
QVector<MlirAttribute> parseAttrDict(QStringView inner);

// Decodes `#dialect.mnemonic<params>` (e.g. "#ttg.blocked<{sizePerThread = [4], ...}>") into
// `out`. False when the text is not a dialect attribute with parameters.
bool decodeLayout(QStringView attrText, LayoutAttr &out);

} // namespace strata::ir::detail
