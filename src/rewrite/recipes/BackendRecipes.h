#pragma once
// A backend's part of the built-in recipes (issue #16): the recipes that only make sense on its
// hardware (NVIDIA: Hopper dot tiles, TMA descriptors, relaxed atomics) and what the core's own
// recipes need its facts to answer (the name of a matrix-unit dot, the rules that say a dot's
// accumulator is too big for its warps). A backend's plugin implements this in plugins/<id> and
// hands it out through BackendPlugin::recipes(); the RecipeProvider asks the plugin of each
// request's target, so the core names no backend's recipes.
#include "rewrite/recipes/Recipe.h"

#include <functional>

namespace strata::rewrite::recipes {

class BackendRecipes {
public:
    virtual ~BackendRecipes() = default;

    // The backend's own recipes, proposed beside the core's (RecipeInfo::before places each in
    // the order ties of value are broken in).
    virtual const QVector<RecipeInfo> &recipes() const = 0;

    // The dot kind, as the backend's L3 facts name it (the "dot_kind" fact a recipe promises), of
    // a dot with an M tile of `tileM` rows over `warps` warps on the matrix unit of the request's
    // target. Empty: the backend promises no dot kind (the recipe then declares none).
    virtual QString matrixDotKind(const RecipeContext &context, qint64 tileM, int warps) const
    {
        Q_UNUSED(context);
        Q_UNUSED(tileM);
        Q_UNUSED(warps);
        return {};
    }

    // The faster input precision its matrix unit offers an fp32 dot (Triton's `input_precision`:
    // NVIDIA's "tf32"), the relative error it needs the task to allow, and the precisions it
    // replaces (slower ones the backend accepts). Empty precision: none (dot-tf32 stays silent).
    struct FastFp32Dot {
        QString precision;
        double tolerance = 0;
        QStringList replaces;
    };
    virtual FastFp32Dot fastFp32Dot() const { return {}; }

    // The backend's L3 rules that say a dot's accumulator is too big for its warps (besides the
    // core's L3.register-spill): the warps and program-order recipes respond to them too.
    virtual QStringList accumulatorPressureRules() const { return {}; }
};

// The recipes of the backend a compile's target belongs to (the plugin of that target); null
// when no backend, or one without recipes of its own: then only the core's recipes propose.
using BackendRecipesLookup = std::function<const BackendRecipes *(const QString &target)>;

} // namespace strata::rewrite::recipes
