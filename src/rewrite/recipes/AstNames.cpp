#include "rewrite/recipes/AstNames.h"

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

// Elementwise Triton functions: a 1-D value that becomes a tile still means the same through them.
bool isElementwiseCall(const Node &call)
{
    static const char *const functions[] = {"exp", "exp2", "log", "log2", "sigmoid", "where", "maximum", "minimum",
                                            "abs", "sqrt", "rsqrt", "fma", "cos", "sin", "erf"};
    if (isMethodCall(call, "to"))
        return true;
    for (const char *function : functions) {
        if (isTritonCall(call, function) || dottedName(child(call, "func")) == QStringLiteral("tl.math.%1").arg(QLatin1String(function)))
            return true;
    }
    return false;
}

// `float("inf")`, `int(...)`: a Python scalar, the same for every element.
bool isPythonScalarCall(const Node &call)
{
    const QString name = dottedName(child(call, "func"));
    return name == QLatin1String("float") || name == QLatin1String("int");
}

} // namespace

bool elementwise(const Node &expr, bool allowLoad, bool allowPythonScalars)
{
    bool ok = true;
    walk(expr, [&](const Node &node, const QVector<Node> &) {
        const QString type = typeOf(node);
        if (type == QLatin1String("Call"))
            ok = ok && (isElementwiseCall(node) || (allowLoad && isTritonCall(node, "load"))
                        || (allowPythonScalars && isPythonScalarCall(node)));
        else if (type == QLatin1String("Subscript") || type == QLatin1String("Lambda") || type == QLatin1String("IfExp")
                 || type == QLatin1String("ListComp") || type == QLatin1String("Starred"))
            ok = false;
    });
    return ok;
}

} // namespace strata::rewrite::recipes
