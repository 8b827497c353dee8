// Whether text that parsed as MLIR is a compiler stage. The parser keys on syntax alone, so
// "root:x:0:0:root:/root:/bin/bash" or a line of prose reads as a top-level op named "root" or
// "This": the checks here look for the structure every stage has (a module or function holding
// the ops, bodies ending in a terminator) and refuse or flag what lacks it.
#include "ir/mlir/MlirParser.h"
#include "ir/mlir/MlirReader.h"

namespace strata::ir {
namespace {

bool isStageRoot(const MlirOp &op)
{
    return detail::isModuleOpName(op.name) || op.isFunction();
}

// The ops that may end a function's last block: returns, branches, `unreachable`. Matched on the
// name's last segment so that every dialect's (tt.return, llvm.return, cf.br, ...) counts.
bool isTerminatorName(const QString &name)
{
    const QString last = name.section(QLatin1Char('.'), -1);
    static const QStringList terminators = {QStringLiteral("return"), QStringLiteral("unreachable"),
                                            QStringLiteral("br"), QStringLiteral("cond_br"),
                                            QStringLiteral("switch"), QStringLiteral("yield")};
    return terminators.contains(last);
}

QString shortened(const QString &text)
{
    const QString line = text.trimmed();
    return line.size() > 60 ? line.left(57) + QStringLiteral("...") : line;
}

// The last op directly inside function `function` (its region's last statement), or -1.
int lastChildOf(const MlirModule &module, int function)
{
    int last = -1;
    for (int i = function + 1; i < module.ops.size() && module.ops[i].line <= module.ops[function].endLine; ++i) {
        if (module.ops[i].parent == function)
            last = i;
    }
    return last;
}

std::optional<ReadError> checkTerminators(const MlirModule &module)
{
    for (int i = 0; i < module.ops.size(); ++i) {
        const MlirOp &op = module.ops[i];
        if (!op.isFunction() || !op.hasRegions)
            continue;
        const int last = lastChildOf(module, i);
        if (last < 0 || !isTerminatorName(module.ops[last].name))
            return ReadError{module.path, (last < 0 ? op.endLine : module.ops[last].line) + 1, 0,
                             QStringLiteral("function %1 ends without a terminator (a return): its body is cut short")
                                 .arg(op.symbol.isEmpty() ? op.name : op.symbol),
                             ProblemKind::Truncated};
    }
    return std::nullopt;
}

} // namespace

Expected<QVector<ReadError>> checkMlirStage(const MlirModule &module, const QStringList &textLines)
{
    QVector<int> strayOps;  // top-level ops that are neither a module nor a function
    bool hasRoot = false;
    for (int i = 0; i < module.ops.size(); ++i) {
        if (module.ops[i].parent >= 0)
            continue;
        if (isStageRoot(module.ops[i]))
            hasRoot = true;
        else
            strayOps.append(i);
    }
    if (!hasRoot) {
        const bool onlyDefinitions = module.ops.isEmpty()
            && (!module.locationDefs.isEmpty() || !module.aliases.isEmpty() || !module.layouts.isEmpty());
        if (onlyDefinitions)
            return ReadError{module.path, 0, 0,
                             QStringLiteral("the MLIR holds alias and #loc definitions but no module or function: "
                                            "the file is cut short"),
                             ProblemKind::Truncated};
        const int first = strayOps.isEmpty() ? -1 : module.ops[strayOps.first()].line;
        return ReadError{module.path, first + 1, 0,
                         first < 0 ? QStringLiteral("no MLIR module or function in the text: not a compiler stage")
                                   : QStringLiteral("no MLIR module or function in the text: not a compiler stage "
                                                    "(it starts \"%1\")").arg(shortened(textLines.value(first))),
                         ProblemKind::NotAStage};
    }
    if (auto error = checkTerminators(module))
        return *error;
    QVector<ReadError> problems;
    if (!strayOps.isEmpty()) {
        const int first = module.ops[strayOps.first()].line;
        problems.append(ReadError{module.path, first + 1, 0,
                                  QStringLiteral("%1 outside the module and its functions %2 not MLIR ops "
                                                 "(first: \"%3\"); shown, not read")
                                      .arg(strayOps.size() == 1 ? QStringLiteral("1 line") : QStringLiteral("%1 lines").arg(strayOps.size()),
                                           strayOps.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
                                           shortened(textLines.value(first))),
                                  ProblemKind::JunkLines});
    }
    return problems;
}

QVector<int> strayOpLines(const MlirModule &module)
{
    QVector<int> rootOf(module.ops.size());  // parents precede their children
    QVector<int> lines;
    for (int i = 0; i < module.ops.size(); ++i) {
        const MlirOp &op = module.ops[i];
        rootOf[i] = op.parent < 0 ? i : rootOf[op.parent];
        if (!isStageRoot(module.ops[rootOf[i]]))
            lines.append(op.line);
    }
    return lines;
}

} // namespace strata::ir
