// Which ops a pass changed: two dumps compared as multisets of (op name, source location).
#include "ir/mlir/MlirReader.h"

#include <QHash>

namespace strata::ir {
namespace {

// The location an op is keyed on: the kernel-file frame when a kernel file is given (inlined
// helpers then count for the kernel line that called them), else the innermost frame.
SourceLocation keyLocation(const MlirOp &op, const OpDiffOptions &options)
{
    if (op.frames.isEmpty())
        return {};
    if (!options.kernelFile.isEmpty())
        return frameInFile(op.frames, options.kernelFile);
    return op.frames.first();
}

// Result types with each layout alias replaced by its definition, so that alias renumbering
// between two dumps (#blocked1 -> #blocked2) does not count as a change.
QString canonicalTypes(const MlirOp &op, const MlirModule &module)
{
    QString types = op.resultTypes;
    for (int index : op.layouts) {
        const LayoutAttr &l = module.layouts[index];
        if (l.alias.isEmpty())
            continue;
        const QString alias = QLatin1Char('#') + l.alias;
        const QString full = QLatin1Char('#') + l.attrName + QLatin1Char('<') + l.params + QLatin1Char('>');
        int pos = 0;
        while ((pos = types.indexOf(alias, pos)) >= 0) {
            const int end = pos + alias.size();
            const bool whole = end >= types.size() || !(types[end].isLetterOrNumber() || types[end] == QLatin1Char('_'));
            if (whole) {
                types.replace(pos, alias.size(), full);
                pos += full.size();
            } else {
                pos = end;
            }
        }
    }
    return types;
}

bool wanted(const MlirOp &op, const SourceLocation &loc, const OpDiffOptions &options)
{
    if (op.name == QLatin1String("module") || op.name == QLatin1String("builtin.module"))
        return false;
    return options.sourceLine <= 0 || loc.line == options.sourceLine;
}

QString keyOf(const MlirOp &op, const MlirModule &module, const SourceLocation &loc,
              const OpDiffOptions &options)
{
    QString key = op.name + QLatin1Char('|') + toString(loc);
    if (options.compareTypes)
        key += QLatin1Char('|') + canonicalTypes(op, module);
    return key;
}

// Lines of `side`'s wanted ops whose key has no partner left in `other`.
QVector<int> unmatched(const MlirModule &side, const MlirModule &other, const OpDiffOptions &options)
{
    QHash<QString, int> available;
    for (const MlirOp &op : other.ops) {
        const SourceLocation loc = keyLocation(op, options);
        if (wanted(op, loc, options))
            ++available[keyOf(op, other, loc, options)];
    }
    QVector<int> lines;
    for (const MlirOp &op : side.ops) {
        const SourceLocation loc = keyLocation(op, options);
        if (!wanted(op, loc, options))
            continue;
        int &count = available[keyOf(op, side, loc, options)];
        if (count > 0)
            --count;
        else
            lines.append(op.line);
    }
    return lines;
}

} // namespace

OpChanges diffOps(const MlirModule &before, const MlirModule &after, const OpDiffOptions &options)
{
    OpChanges changes;
    changes.added = unmatched(after, before, options);
    changes.removed = unmatched(before, after, options);
    return changes;
}

QVector<int> changedOpLines(const MlirModule &before, const MlirModule &after, const OpDiffOptions &options)
{
    return diffOps(before, after, options).added;
}

} // namespace strata::ir
