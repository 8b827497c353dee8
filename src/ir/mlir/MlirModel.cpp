// The public entry points and the small helpers of MlirReader.h's structs.

#include "core/TextLines.h"
#include "ir/mlir/MlirParser.h"
#include "ir/mlir/MlirReader.h"

namespace strata::ir {

QString MlirOp::attribute(const QString &key) const
{
    for (const MlirAttribute &a : attributes) {
        if (a.key == key)
            return a.value;
    }
    return {};
}

bool MlirOp::isFunction() const
{
    return name == QLatin1String("func") || name.endsWith(QLatin1String(".func"));
}

QString MlirModule::moduleAttribute(const QString &key) const
{
    for (const MlirAttribute &a : moduleAttributes) {
        if (a.key == key)
            return a.value;
    }
    return {};
}

int MlirModule::numWarps() const
{
    const QString value = moduleAttribute(QStringLiteral("ttg.num-warps"));
    return value.section(QLatin1Char(':'), 0, 0).trimmed().toInt();
}

const LayoutAttr *MlirModule::layout(const QString &alias) const
{
    const QString name = alias.startsWith(QLatin1Char('#')) ? alias.mid(1) : alias;
    for (const LayoutAttr &l : layouts) {
        if (!l.alias.isEmpty() && l.alias == name)
            return &l;
    }
    return nullptr;
}

const MlirOp *MlirModule::opAtTextLine(int line) const
{
    if (line < 0 || line >= opAtLine.size() || opAtLine[line] < 0)
        return nullptr;
    return &ops[opAtLine[line]];
}

Expected<MlirModule> readMlir(const QString &text, const QString &path)
{
    detail::MlirParser parser(text, path);
    return parser.run();
}

StageListing toListing(const MlirModule &module, const QStringList &textLines)
{
    StageListing listing;
    listing.path = module.path;
    listing.lines.resize(module.lineCount);
    for (int i = 0; i < module.lineCount; ++i) {
        ListingLine &line = listing.lines[i];
        line.text = i < textLines.size() ? textLines[i] : QString();
        line.kind = module.lineKinds.value(i, LineKind::Other);
        if (const MlirOp *op = module.opAtTextLine(i)) {
            line.opcode = op->name;
            line.frames = op->frames;
        }
    }
    return listing;
}

namespace {

// Text the parser rejects that has none of MLIR's words is not a stage at all (prose with an
// apostrophe fails on its "unterminated string" first): say so, with the parser's reason.
ReadError asStageError(ReadError error, const QString &text)
{
    const bool mlirWords = text.contains(QLatin1String("module")) || text.contains(QLatin1String(".func"))
        || text.contains(QLatin1String("loc("));
    if (error.kind == ProblemKind::Syntax && !mlirWords) {
        error.kind = ProblemKind::NotAStage;
        error.message = QStringLiteral("not MLIR (no module, function or loc(...) anywhere): ") + error.message;
    }
    return error;
}

} // namespace

Expected<StageListing> readMlirListing(const QString &text, const QString &path)
{
    if (text.trimmed().isEmpty())
        return ReadError{path, 0, 0, QStringLiteral("the MLIR file is empty"), ProblemKind::Empty};
    Expected<MlirModule> module = readMlir(text, path);
    if (!module)
        return asStageError(module.error(), text);
    const QStringList lines = splitLines(text);
    Expected<QVector<ReadError>> problems = checkMlirStage(*module, lines);
    if (!problems)
        return problems.error();
    StageListing listing = toListing(*module, lines);
    for (int line : strayOpLines(*module)) {  // shown as text, never attributed
        listing.lines[line].kind = LineKind::Other;
        listing.lines[line].opcode.clear();
        listing.lines[line].frames.clear();
    }
    listing.problems = *problems;
    return listing;
}

QString opSummary(const MlirOp &op, const MlirModule &module)
{
    QString s = op.name;
    const QString types = op.resultTypes.isEmpty() ? op.operandTypes : op.resultTypes;
    if (!types.isEmpty())
        s += (op.resultTypes.isEmpty() ? QStringLiteral(" : ") : QStringLiteral(" -> ")) + types;
    for (int index : op.layouts) {
        const LayoutAttr &l = module.layouts[index];
        if (l.kind != LayoutKind::Other)
            s += QStringLiteral(" [%1 = %2]").arg(l.displayName(), layoutSummary(l));
    }
    if (!op.frames.isEmpty())
        s += QStringLiteral(" @ ") + toString(op.frames.first());
    return s;
}

} // namespace strata::ir
