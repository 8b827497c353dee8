#pragma once
// What a kernel's decorators decide in place of its launch: @triton.autotune's configs (each
// triton.Config's constexprs, num_warps, num_stages) and @triton.heuristics' values. A launch
// must not pass any of those (Triton then raises "got multiple values for argument"), so a recipe
// changes a launch option of an autotuned kernel in its configs, and leaves what heuristics
// compute alone.
#include "rewrite/recipes/SourceEdit.h"

#include <QJsonObject>
#include <QStringList>
#include <QVector>

#include <optional>

namespace strata::rewrite::recipes {

class KernelDecorators {
public:
    // `function`: the kernel's FunctionDef in the agent's AST JSON.
    static KernelDecorators read(const QJsonObject &function);

    bool autotuned() const { return m_autotuned; }
    // True when `name` (a constexpr, num_warps, num_stages) comes from a config or a heuristic.
    bool decides(const QString &name) const;
    // Edits setting option `name` to `value` in every triton.Config of the autotune decorator
    // (replacing the keyword or appending it); nullopt when the configs are not written inline
    // as triton.Config(...) calls (a list built elsewhere, a comprehension), or a heuristic
    // computes `name`.
    std::optional<QVector<TextEdit>> setConfigOption(const SourceText &source, const QString &name, int value) const;

private:
    bool m_autotuned = false;
    bool m_configsInline = false;       // configs=[triton.Config(...), ...] in the decorator itself
    QVector<QJsonObject> m_configCalls;
    QStringList m_configNames;          // constexprs and options the inline configs set
    QStringList m_heuristicNames;
};

} // namespace strata::rewrite::recipes
