#pragma once
// AST questions every structural recipe asks of the kernel's Python AST (PyAst.h nodes).

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

// The last source line of a node (its `end_lineno`).
inline int endLineOf(const diagnosis::pyast::Node &node)
{
    return node.value(QLatin1String("end_lineno")).toInt();
}

// True when every node of `expr` keeps its meaning when a 1-D value becomes a tile with one more
// axis (a scan's chunk of steps, a window's columns): names, constants, arithmetic, compares,
// attributes (dtypes), Triton's elementwise functions and `.to` casts, loads when `allowLoad`,
// and Python scalars (`float("inf")`) when `allowPythonScalars` (AstNames.cpp).
bool elementwise(const diagnosis::pyast::Node &expr, bool allowLoad, bool allowPythonScalars = false);

} // namespace strata::rewrite::recipes
