#pragma once
// Two AST questions every structural recipe asks of the kernel's Python AST (PyAst.h nodes).

#include "diagnosis/l1_triage/PyAst.h"

namespace strata::rewrite::recipes {

// The identifier of a Name node; empty for anything else.
inline QString nameOf(const diagnosis::pyast::Node &node)
{
    return diagnosis::pyast::isType(node, "Name") ? node.value(QLatin1String("id")).toString() : QString();
}

// Whether node is a binary operation with operator type op ("Add", "Mult", ...).
inline bool isBinOp(const diagnosis::pyast::Node &node, const char *op)
{
    using namespace diagnosis::pyast;
    return isType(node, "BinOp") && isType(child(node, "op"), op);
}

} // namespace strata::rewrite::recipes
