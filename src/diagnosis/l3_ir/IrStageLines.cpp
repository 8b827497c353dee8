#include "diagnosis/l3_ir/IrStageLines.h"

#include "diagnosis/model/ElementTypes.h"

#include <QRegularExpression>

#include <algorithm>

namespace strata::diagnosis {

const StageDescriptor *lastStageOf(const LoadedCompile &compile, StageFormat format)
{
    const StageDescriptor *found = nullptr;
    for (const StageDescriptor &stage : compile.stages) {
        if (stage.format == format && (!found || stage.order > found->order))
            found = &stage;
    }
    return found;
}

bool degradedStage(const LoadedCompile &compile, const StageDescriptor &stage, QStringList &problems)
{
    if (!compile.isDegraded(stage.id))
        return false;
    QStringList kinds;
    for (const StageProblem &problem : compile.problems) {
        if (problem.stage == stage.id && !kinds.contains(problemKindName(problem.error.kind)))
            kinds << problemKindName(problem.error.kind);
    }
    problems << QStringLiteral("the %1 of kernel %2 is degraded (%3): L3 does not read it")
                    .arg(stage.displayName, compile.result.kernel, kinds.join(QStringLiteral(", ")));
    return true;
}

InstructionCount forEachAttributedInstruction(const StageListing &listing, const LocationMap &map, const LineFactsAt &lineAt,
                                              const std::function<void(const QString &, int, SourceLineFacts &)> &add)
{
    InstructionCount count;
    for (int i = 0; i < listing.lines.size(); ++i) {
        const ListingLine &line = listing.lines[i];
        if (line.kind != LineKind::Instruction)
            continue;
        ++count.instructions;
        const int sourceLine = map.sourceForLine(listing.stage, i).line;
        if (sourceLine > 0) {
            add(line.opcode, i, lineAt(sourceLine));
            ++count.attributed;
        }
    }
    return count;
}

void noteUnattributed(const StageDescriptor &stage, const InstructionCount &count, QStringList &problems)
{
    if (count.instructions == 0)
        problems << QStringLiteral("the %1 holds no instructions (empty or truncated)").arg(stage.displayName);
    else if (count.attributed == 0)
        problems << QStringLiteral("none of the %1's %2 instructions maps to a kernel source line")
                        .arg(stage.displayName).arg(count.instructions);
}

double firstTileBytes(const QString &types)
{
    static const QRegularExpression tile(QStringLiteral("(?:(?:tensor|memdesc)<((?:\\d+x)+))?(?:!tt\\.ptr<)?([fiu]\\d+|bf16|f8\\w*)\\b"));
    const QRegularExpressionMatch match = tile.match(types);
    if (!match.hasMatch())
        return 0;
    double elements = 1;
    for (const QString &dim : match.captured(1).split(u'x', Qt::SkipEmptyParts))
        elements *= dim.toDouble();
    return elements * std::max(1, mlirElementBytes(match.captured(2)));
}

} // namespace strata::diagnosis
