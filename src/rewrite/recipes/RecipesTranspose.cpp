// Recipe: a permutation copy that walks the destination's flat index and gathers from the
// source (NCHW -> NHWC, a 2-D transpose) rewritten as 2-D tiles.
//
// Such a kernel decodes its flat output index into coordinates with `%` and `//` by run-time
// sizes and loads from a linear combination of them. Its stores are contiguous, its loads are
// not: every thread of a warp reads another sector. A tile whose one axis is the destination's
// fastest coordinate and whose other axis is the source's fastest gives both sides a contiguous
// axis the compiler can see; Triton gives the load and the store their own coalesced layouts and
// converts between them through shared memory. The rewrite keeps the kernel's meaning per
// element: every coordinate and the flat index keep their names and values, only how they are
// computed changes (the two tile axes from the program id and aranges, the other coordinates
// decoded from what is left of the program id).
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <functional>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

// The kernel body as straight-line code: each name assigned once at the top level, the only
// other statements calls (tl.store) and docstrings. Anything else (loops, branches, returns,
// reassignments) and the recipe stays silent.
struct StraightBody {
    QHash<QString, Node> value;      // name -> assigned expression
    QHash<QString, Node> statement;  // name -> its Assign statement
    QVector<Node> statements;
};

std::optional<StraightBody> readStraightBody(const diagnosis::KernelView &kernel)
{
    StraightBody body;
    for (const QJsonValue &item : children(kernel.function(), "body")) {
        const Node statement = item.toObject();
        body.statements.append(statement);
        if (isType(statement, "Expr") && (isType(child(statement, "value"), "Call") || isType(child(statement, "value"), "Constant")))
            continue;
        const QJsonArray targets = children(statement, "targets");
        const QString name = targets.size() == 1 ? nameOf(targets.at(0).toObject()) : QString();
        if (!isType(statement, "Assign") || name.isEmpty() || body.value.contains(name))
            return std::nullopt;
        body.value.insert(name, child(statement, "value"));
        body.statement.insert(name, statement);
    }
    return body;
}

bool isRuntimeInt(const diagnosis::KernelView &kernel, const QString &name)
{
    const diagnosis::KernelParam *param = kernel.param(name);
    return param && param->isRuntimeInteger();
}

bool isPointerParam(const RecipeContext &context, const QString &name)
{
    const diagnosis::KernelParam *param = context.kernel().param(name);
    return param && (param->isPointer() || !context.pointerType(name).isEmpty());
}

// `a`, `a * b * c`: the run-time int parameters multiplied; nullopt for anything else.
std::optional<QStringList> productOfSizes(const diagnosis::KernelView &kernel, const Node &node)
{
    if (isBinOp(node, "Mult")) {
        const std::optional<QStringList> left = productOfSizes(kernel, child(node, "left"));
        const std::optional<QStringList> right = productOfSizes(kernel, child(node, "right"));
        if (!left || !right)
            return std::nullopt;
        return *left + *right;
    }
    if (!isRuntimeInt(kernel, nameOf(node)))
        return std::nullopt;
    return QStringList{nameOf(node)};
}

// One coordinate of the flat index: `flat % S`, `(flat // D) % S` or `flat // D`.
struct Coordinate {
    QString name;
    QStringList divisor;  // the sizes of the faster coordinates, sorted
    QString size;         // empty for the outermost (`flat // D`)
    Node statement;
};

std::optional<Coordinate> readCoordinate(const diagnosis::KernelView &kernel, const Node &value, const QString &flat)
{
    Coordinate coordinate;
    Node quotient = value;
    if (isBinOp(value, "Mod")) {
        coordinate.size = nameOf(child(value, "right"));
        if (!isRuntimeInt(kernel, coordinate.size))
            return std::nullopt;
        quotient = child(value, "left");
    }
    if (isBinOp(quotient, "FloorDiv") && nameOf(child(quotient, "left")) == flat) {
        const std::optional<QStringList> divisor = productOfSizes(kernel, child(quotient, "right"));
        if (!divisor)
            return std::nullopt;
        coordinate.divisor = *divisor;
    } else if (nameOf(quotient) != flat || coordinate.size.isEmpty()) {
        return std::nullopt;
    }
    coordinate.divisor.sort();
    return coordinate;
}

// The coordinates the flat index decodes into, fastest first, when they form a mixed radix:
// each one's divisor is the product of the faster ones' sizes, and only the slowest has no size
// (it covers whatever is left of the flat index, as the original kernel's did).
std::optional<QVector<Coordinate>> readDecode(const diagnosis::KernelView &kernel, const StraightBody &body,
                                              const QString &flat, const QString &mask)
{
    QVector<Coordinate> coordinates;
    for (auto it = body.value.cbegin(); it != body.value.cend(); ++it) {
        if (it.key() == flat || it.key() == mask || !namesRead(it.value()).contains(flat))
            continue;
        std::optional<Coordinate> coordinate = readCoordinate(kernel, it.value(), flat);
        if (!coordinate)
            return std::nullopt;  // another use of the flat index: not a plain decode
        coordinate->name = it.key();
        coordinate->statement = body.statement.value(it.key());
        coordinates.append(*coordinate);
    }
    std::sort(coordinates.begin(), coordinates.end(),
              [](const Coordinate &a, const Coordinate &b) { return a.divisor.size() < b.divisor.size(); });
    QStringList faster;
    for (int i = 0; i < coordinates.size(); ++i) {
        QStringList expected = faster;
        expected.sort();
        if (coordinates.at(i).divisor != expected || (coordinates.at(i).size.isEmpty() != (i == coordinates.size() - 1)))
            return std::nullopt;
        faster.append(coordinates.at(i).size);
    }
    if (coordinates.size() < 2)
        return std::nullopt;
    return coordinates;
}

// A polynomial over names with integer coefficients: monomial ("a*b", sorted; "" for the
// constant) -> coefficient.
using Polynomial = QMap<QString, qint64>;

Polynomial multiply(const Polynomial &a, const Polynomial &b)
{
    Polynomial out;
    for (auto x = a.cbegin(); x != a.cend(); ++x) {
        for (auto y = b.cbegin(); y != b.cend(); ++y) {
            QStringList names = x.key().split(u'*', Qt::SkipEmptyParts) + y.key().split(u'*', Qt::SkipEmptyParts);
            names.sort();
            out[names.join(u'*')] += x.value() * y.value();
        }
    }
    return out;
}

// The source offset as a polynomial in the coordinates and the run-time int parameters,
// following the locals it is built from; nullopt when it uses anything else (`%`, `//`, a load,
// the flat index itself).
std::optional<Polynomial> expand(const diagnosis::KernelView &kernel, const StraightBody &body, const QSet<QString> &symbols,
                                 const Node &expr, int depth = 0)
{
    if (depth > 32)
        return std::nullopt;
    const QString name = nameOf(expr);
    if (symbols.contains(name) || isRuntimeInt(kernel, name))
        return Polynomial{{name, 1}};
    if (!name.isEmpty())
        return body.value.contains(name) ? expand(kernel, body, symbols, body.value.value(name), depth + 1) : std::nullopt;
    if (isType(expr, "Constant") && expr.value(QLatin1String("value")).isDouble())
        return Polynomial{{QString(), qint64(expr.value(QLatin1String("value")).toDouble())}};
    const bool add = isBinOp(expr, "Add"), subtract = isBinOp(expr, "Sub"), times = isBinOp(expr, "Mult");
    if (!add && !subtract && !times)
        return std::nullopt;
    const std::optional<Polynomial> left = expand(kernel, body, symbols, child(expr, "left"), depth + 1);
    const std::optional<Polynomial> right = expand(kernel, body, symbols, child(expr, "right"), depth + 1);
    if (!left || !right)
        return std::nullopt;
    if (times)
        return multiply(*left, *right);
    Polynomial sum = *left;
    for (auto it = right->cbegin(); it != right->cend(); ++it)
        sum[it.key()] += subtract ? -it.value() : it.value();
    return sum;
}

// The address `base + offset` (written in any order) without its base: exactly one monomial
// names a pointer parameter, and it is that parameter alone.
std::optional<Polynomial> elementOffset(const RecipeContext &context, std::optional<Polynomial> address)
{
    if (!address)
        return std::nullopt;
    QStringList bases;
    for (auto it = address->cbegin(); it != address->cend(); ++it) {
        for (const QString &name : it.key().split(u'*', Qt::SkipEmptyParts)) {
            if (isPointerParam(context, name))
                bases.append(it.key());
        }
    }
    if (bases.size() != 1 || address->value(bases.first()) != 1 || !isPointerParam(context, bases.first()))
        return std::nullopt;
    address->remove(bases.first());
    return address;
}

// The coordinate with unit stride in the source offset; empty when there is none, when the
// offset is not linear in the coordinates, or when it is not unique.
QString unitStrideCoordinate(const Polynomial &offset, const QVector<Coordinate> &coordinates)
{
    QString unit;
    for (auto it = offset.cbegin(); it != offset.cend(); ++it) {
        const QStringList names = it.key().split(u'*', Qt::SkipEmptyParts);
        int inMonomial = 0;
        for (const Coordinate &coordinate : coordinates)
            inMonomial += int(names.count(coordinate.name));
        if (inMonomial > 1)
            return {};
        if (it.value() == 1 && names.size() == 1 && inMonomial == 1) {
            if (!unit.isEmpty())
                return {};
            unit = names.first();
        }
    }
    return unit;
}

// `X * BLOCK + tl.arange(0, BLOCK)` (either order): the program's block of the flat index.
// Returns X (the program id) when the shape matches.
std::optional<Node> programOfFlatBlock(const diagnosis::KernelView &kernel, const Node &value)
{
    if (!isBinOp(value, "Add"))
        return std::nullopt;
    Node product = child(value, "left"), arange = child(value, "right");
    if (!isTritonCall(arange, "arange"))
        std::swap(product, arange);
    if (!isTritonCall(arange, "arange") || !isBinOp(product, "Mult"))
        return std::nullopt;
    const Node end = argument(arange, 1, "end");
    for (const auto &[program, block] : {std::pair{child(product, "left"), child(product, "right")},
                                         std::pair{child(product, "right"), child(product, "left")}}) {
        const diagnosis::KernelParam *param = kernel.param(nameOf(block));
        if (param && param->isConstexpr && nameOf(end) == nameOf(block) && kernel.constValue(argument(arange, 0, "start")) == 0)
            return program;
    }
    return std::nullopt;
}

// `tl.program_id(0)`, inline or through the local it is assigned to: the new grid is 1-D.
bool isProgramIdOfAxisZero(const diagnosis::KernelView &kernel, const StraightBody &body, const Node &program)
{
    const Node call = body.value.contains(nameOf(program)) ? body.value.value(nameOf(program)) : program;
    return isTritonCall(call, "program_id") && kernel.constValue(argument(call, 0, "axis")) == 0;
}

// The mask of a load or store when it is `flat < TOTAL` (written inline or as a local): the
// Compare node and TOTAL.
std::optional<std::pair<Node, QString>> flatBoundMask(const diagnosis::KernelView &kernel, const StraightBody &body,
                                                       const Node &call, const QString &flat)
{
    Node mask = keyword(call, "mask");
    if (body.value.contains(nameOf(mask)))
        mask = body.value.value(nameOf(mask));
    const QJsonArray ops = children(mask, "ops"), bounds = children(mask, "comparators");
    if (!isType(mask, "Compare") || ops.size() != 1 || bounds.size() != 1 || !isType(ops.at(0).toObject(), "Lt")
        || nameOf(child(mask, "left")) != flat || !isRuntimeInt(kernel, nameOf(bounds.at(0).toObject())))
        return std::nullopt;
    return std::pair{mask, nameOf(bounds.at(0).toObject())};
}

// `P + E` (either order) with P a pointer parameter: E.
Node offsetFromPointer(const RecipeContext &context, const Node &pointer)
{
    if (!isBinOp(pointer, "Add"))
        return {};
    if (isPointerParam(context, nameOf(child(pointer, "left"))))
        return child(pointer, "right");
    if (isPointerParam(context, nameOf(child(pointer, "right"))))
        return child(pointer, "left");
    return {};
}

// Only keywords in `allowed` on the call.
bool keywordsWithin(const Node &call, const QStringList &allowed)
{
    for (const QJsonValue &item : children(call, "keywords")) {
        if (!allowed.contains(item.toObject().value(QLatin1String("arg")).toString()))
            return false;
    }
    return true;
}

// Everything the rewrite needs, read from the kernel; nullopt when it is not a decoded-index
// permutation copy whose source and destination move fastest along different coordinates.
struct PermutationCopy {
    StraightBody body;
    QString flat, total, program;
    Node flatStatement;
    QVector<Node> masks;  // the `flat < TOTAL` nodes to widen (one when it is a shared local)
    QVector<Coordinate> coordinates;
    int destinationAxis = 0, sourceAxis = 0;  // indices into coordinates
};

std::optional<PermutationCopy> readPermutationCopy(const RecipeContext &context)
{
    const diagnosis::KernelView &kernel = context.kernel();
    const QVector<diagnosis::LocatedNode> loads = kernel.callsOf("load"), stores = kernel.callsOf("store");
    std::optional<StraightBody> body = readStraightBody(kernel);
    if (!body || loads.size() != 1 || stores.size() != 1 || kernel.callsOf("program_id").size() != 1 || hasDot(context)
        || !keywordsWithin(loads.first().node, {QStringLiteral("mask"), QStringLiteral("other")})
        || !keywordsWithin(stores.first().node, {QStringLiteral("mask")}))
        return std::nullopt;
    PermutationCopy copy;
    copy.body = *body;
    copy.flat = nameOf(offsetFromPointer(context, argument(stores.first().node, 0, "pointer")));
    const std::optional<Node> program = programOfFlatBlock(kernel, copy.body.value.value(copy.flat));
    const auto loadMask = flatBoundMask(kernel, copy.body, loads.first().node, copy.flat);
    const auto storeMask = flatBoundMask(kernel, copy.body, stores.first().node, copy.flat);
    if (copy.flat.isEmpty() || !program || !loadMask || !storeMask || loadMask->second != storeMask->second
        || !isProgramIdOfAxisZero(kernel, copy.body, *program))
        return std::nullopt;
    copy.program = context.source().slice(*program);
    copy.total = loadMask->second;
    copy.flatStatement = copy.body.statement.value(copy.flat);
    copy.masks = {loadMask->first};
    if (storeMask->first != loadMask->first)  // written inline twice; a shared local is one node
        copy.masks.append(storeMask->first);
    const QString maskLocal = nameOf(keyword(loads.first().node, "mask"));
    const std::optional<QVector<Coordinate>> coordinates = readDecode(kernel, copy.body, copy.flat, maskLocal);
    if (!coordinates)
        return std::nullopt;
    copy.coordinates = *coordinates;
    QSet<QString> symbols;
    for (const Coordinate &coordinate : copy.coordinates)
        symbols.insert(coordinate.name);
    for (const diagnosis::KernelParam &param : kernel.params()) {
        if (isPointerParam(context, param.name))
            symbols.insert(param.name);
    }
    const std::optional<Polynomial> offset =
        elementOffset(context, expand(kernel, copy.body, symbols, argument(loads.first().node, 0, "pointer")));
    const QString unit = offset ? unitStrideCoordinate(*offset, copy.coordinates) : QString();
    copy.sourceAxis = int(std::find_if(copy.coordinates.cbegin(), copy.coordinates.cend(),
                                       [&unit](const Coordinate &c) { return c.name == unit; }) - copy.coordinates.cbegin());
    // Same fastest axis on both sides: the copy is already coalesced, nothing to transpose.
    if (unit.isEmpty() || copy.sourceAxis == copy.destinationAxis)
        return std::nullopt;
    // The program id must mean nothing but the flat block: it is about to mean a tile.
    const QString programName = nameOf(*program);
    for (const Node &statement : copy.body.statements) {
        if (!programName.isEmpty() && statement != copy.flatStatement && namesRead(statement).contains(programName))
            return std::nullopt;
    }
    return copy;
}

// Deletes a statement that sits alone on its lines (a trailing comment allowed).
std::optional<TextEdit> deleteStatementLines(const SourceText &source, const Node &statement)
{
    const int first = lineOf(statement), last = statement.value(QLatin1String("end_lineno")).toInt();
    const QString before = source.text().mid(source.lineStart(first), source.startOf(statement) - source.lineStart(first));
    const int nextLine = last < source.lineCount() ? source.lineStart(last + 1) : int(source.text().size());
    const QString after = source.text().mid(source.endOf(statement), nextLine - source.endOf(statement)).trimmed();
    if (!before.trimmed().isEmpty() || (!after.isEmpty() && !after.startsWith(u'#')))
        return std::nullopt;
    return TextEdit{source.lineStart(first), nextLine, QString()};
}

QString parenthesized(const QString &text) { return QStringLiteral("(%1)").arg(text); }

// `a * b` of the names' texts (the kernel's own names, or their launch arguments via `text`).
QString productText(const QStringList &names, const std::function<QString(const QString &)> &text)
{
    QStringList parts;
    for (const QString &name : names)
        parts.append(text(name));
    return parts.join(QLatin1String(" * "));
}

// The kernel lines that replace the flat block: tile ids, the two tile axes, the other
// coordinates decoded from the rest of the program id, and the flat index recomposed.
QStringList tileLines(const PermutationCopy &copy, const QString &tl, const QString &sizeU, const QString &sizeV, int tileU, int tileV)
{
    const Coordinate &u = copy.coordinates.at(copy.destinationAxis), &v = copy.coordinates.at(copy.sourceAxis);
    const auto same = [](const QString &name) { return name; };
    QStringList lines{QStringLiteral("_tiles_u = %1.cdiv(%2, %3)").arg(tl, sizeU).arg(tileU),
                      QStringLiteral("_tiles_v = %1.cdiv(%2, %3)").arg(tl, sizeV).arg(tileV),
                      QStringLiteral("_rest = %1 // (_tiles_u * _tiles_v)").arg(copy.program),
                      QStringLiteral("%1 = (%2 % _tiles_u) * %3 + %4.arange(0, %3)[None, :]").arg(u.name, copy.program).arg(tileU).arg(tl),
                      QStringLiteral("%1 = (%2 // _tiles_u % _tiles_v) * %3 + %4.arange(0, %3)[:, None]").arg(v.name, copy.program).arg(tileV).arg(tl)};
    QStringList faster, baseTerms;
    for (int i = 0; i < copy.coordinates.size(); ++i) {
        const Coordinate &other = copy.coordinates.at(i);
        if (i == copy.destinationAxis || i == copy.sourceAxis)
            continue;
        QString decoded = faster.isEmpty() ? QStringLiteral("_rest") : QStringLiteral("_rest // (%1)").arg(productText(faster, same));
        if (!other.size.isEmpty())
            decoded = faster.isEmpty() ? QStringLiteral("_rest % ") + other.size : QStringLiteral("(%1) % %2").arg(decoded, other.size);
        lines.append(QStringLiteral("%1 = %2").arg(other.name, decoded));
        baseTerms.append(other.divisor.isEmpty() ? other.name : QStringLiteral("%1 * (%2)").arg(other.name, productText(other.divisor, same)));
        faster.append(other.size);
    }
    lines.append(QStringLiteral("_base = %1").arg(baseTerms.isEmpty() ? QStringLiteral("0") : baseTerms.join(QLatin1String(" + "))));
    const QString vTerm = v.divisor.isEmpty() ? v.name : QStringLiteral("%1 * (%2)").arg(v.name, productText(v.divisor, same));
    lines.append(QStringLiteral("%1 = _base + %2 + %3").arg(copy.flat, vTerm, u.name));
    return lines;
}

// The rewrite keeps the original's coverage only when the flat bound is the whole mixed-radix
// box (a permute's numel): checked on the captured launch, and by verification on every shape.
bool boundCoversWholeRows(const RecipeContext &context, const PermutationCopy &copy)
{
    const std::optional<qint64> total = context.launchIntValue(copy.total);
    qint64 rows = 1;
    for (const Coordinate &coordinate : copy.coordinates) {
        const std::optional<qint64> size = coordinate.size.isEmpty() ? std::optional<qint64>(1) : context.launchIntValue(coordinate.size);
        if (!size || *size <= 0)
            return false;
        rows *= *size;
    }
    return total && *total % rows == 0;
}

// A new last kernel parameter `_extent_v` and the launch keyword that passes `value`; nullopt
// when the signature has defaults, keyword-only or variadic parameters.
std::optional<QVector<TextEdit>> passExtent(const RecipeContext &context, const QString &value)
{
    const Node arguments = child(context.kernel().function(), "args");
    const QJsonArray params = children(arguments, "args");
    const int launchEnd = context.afterLastArgument(context.launchSite());
    if (params.isEmpty() || !children(arguments, "defaults").isEmpty() || !children(arguments, "kwonlyargs").isEmpty()
        || !child(arguments, "vararg").isEmpty() || !child(arguments, "kwarg").isEmpty() || launchEnd < 0)
        return std::nullopt;
    const int signatureEnd = context.source().endOf(params.last().toObject());
    return QVector<TextEdit>{{signatureEnd, signatureEnd, QStringLiteral(", _extent_v")},
                             {launchEnd, launchEnd, QStringLiteral(", _extent_v=%1").arg(value)}};
}

QVector<RecipeCandidate> buildTiledTransposes(const RecipeContext &context, const PermutationCopy &copy)
{
    const SourceText &source = context.source();
    static const QRegularExpression importsTriton(QStringLiteral("^import triton\\s*$"), QRegularExpression::MultilineOption);
    for (const QString &name : {QStringLiteral("_tiles_u"), QStringLiteral("_tiles_v"), QStringLiteral("_rest"), QStringLiteral("_base"),
                                QStringLiteral("_extent_v")}) {
        if (source.text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};
    }
    if (!source.text().contains(importsTriton) || !boundCoversWholeRows(context, copy))
        return {};
    const Coordinate &u = copy.coordinates.at(copy.destinationAxis), &v = copy.coordinates.at(copy.sourceAxis);
    const QString tl = tritonLanguage(context);
    const auto launched = [&context](const QString &name) { return parenthesized(context.launchArgumentText(name)); };
    for (const QString &name : QStringList{copy.total, u.size} + (v.size.isEmpty() ? v.divisor : QStringList{v.size})) {
        if (context.launchArgumentText(name).isEmpty())
            return {};
    }
    // The source's fastest coordinate may be the slowest of the destination (a 2-D transpose):
    // its extent is what the flat bound leaves. It comes in as a new run-time argument, so
    // Triton's divisibility specialization sees it (a quotient computed in the kernel has no
    // known divisibility, and its mask would keep the load scalar).
    const QString sizeV = v.size.isEmpty() ? QStringLiteral("_extent_v") : v.size;
    const QString launchSizeU = launched(u.size);
    const QString launchSizeV = v.size.isEmpty() ? QStringLiteral("triton.cdiv(%1, max(%2, 1))").arg(launched(copy.total), productText(v.divisor, launched))
                                                 : launched(v.size);

    QVector<TextEdit> kernelEdits;
    if (v.size.isEmpty()) {
        const std::optional<QVector<TextEdit>> extent = passExtent(context, launchSizeV);
        if (!extent)
            return {};
        kernelEdits += *extent;
    }
    for (const Coordinate &coordinate : copy.coordinates) {
        const std::optional<TextEdit> removal = deleteStatementLines(source, coordinate.statement);
        if (!removal)
            return {};
        kernelEdits.append(*removal);
    }
    for (const Node &mask : copy.masks)
        kernelEdits.append({source.startOf(mask), source.endOf(mask),
                            QStringLiteral("(_base < %1) & (%2 < %3) & (%4 < %5)").arg(copy.total, u.name, u.size, v.name, sizeV)});
    const QJsonObject grid = context.launchSite().value(QLatin1String("grid")).toObject();
    const QString indent = source.indentOf(lineOf(copy.flatStatement));
    QVector<RecipeCandidate> out;
    for (const int tile : {64, 32}) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("tiled-transpose");
        candidate.title = QStringLiteral("%1x%1 tiles over (%2, %3): loads along %2, stores along %3").arg(tile).arg(v.name, u.name);
        candidate.rationale = QStringLiteral("The kernel walks the destination's flat index (%1) and gathers from the source, where "
                                             "%2, not %3, moves fastest: its loads are scattered. A %4x%4 tile over (%2, %3) is "
                                             "contiguous along %2 in the source and along %3 in the destination, so the load and the "
                                             "store each get a coalesced layout and Triton converts between them through shared memory.")
                                  .arg(copy.flat, v.name, u.name).arg(tile);
        candidate.findingRuleIds = QStringList{QStringLiteral("source: permutation copy through a decoded flat index")}
                                   + context.ruleIdsOf(context.findingsFor({QStringLiteral("L3.scalar-global-access"),
                                                                            QStringLiteral("L2.memory-bound")}));
        candidate.edits = kernelEdits;
        candidate.edits.append({source.startOf(copy.flatStatement), source.endOf(copy.flatStatement),
                                tileLines(copy, tl, u.size, sizeV, tile, tile).join(QLatin1Char('\n') + indent)});
        candidate.edits.append({source.startOf(grid), source.endOf(grid),
                                QStringLiteral("(triton.cdiv(%1, max(%2 * %3, 1)) * triton.cdiv(%2, %4) * triton.cdiv(%3, %4),)")
                                    .arg(launched(copy.total), launchSizeU, launchSizeV).arg(tile)});
        // The load's address is now contiguous along the tile's source axis: it widens (in the stage
        // the backend reads access widths from, BackendIrRules::accessWidthStage).
        candidate.expected.append({QStringLiteral("max_load_bits"), 0, {}});
        candidate.value = 0.6 - 0.05 * out.size();
        candidate.sets = {QStringLiteral("kernel:tiled-transpose"), QStringLiteral("launch:grid")};
        // The tile replaces the flat block: a block-size or autotune recipe would tune a
        // constexpr the kernel no longer reads.
        candidate.combinable = false;
        out.append(candidate);
    }
    return out;
}

} // namespace

QVector<RecipeCandidate> proposeTiledTranspose(const RecipeContext &context)
{
    const std::optional<PermutationCopy> copy = readPermutationCopy(context);
    if (!copy || !context.hasLaunchSite())
        return {};
    return buildTiledTransposes(context, *copy);
}

} // namespace strata::rewrite::recipes
