// Recipe: a serial running-sum loop (one row per trip) rewritten as a chunked scan.
#include "rewrite/recipes/Recipe.h"
#include "rewrite/recipes/AstNames.h"

#include "diagnosis/l1_triage/PyAst.h"

#include <QRegularExpression>

namespace strata::rewrite::recipes {

using namespace diagnosis::pyast;

namespace {

bool reads(const Node &node, const QString &name) { return namesRead(node).contains(name); }

// The parts of `for s in range(N): x = tl.load(..); tl.store(.., acc ..); acc += x` (the store
// before or after the update; plain assignments that do not read acc may come first).
struct ScanLoop {
    const diagnosis::LoopInfo *loop = nullptr;
    QString induction, accumulator, loaded;
    Node bound, load, loadStatement, store, update;
    bool exclusive = false;  // the store writes the sum before this row is added
};

std::optional<ScanLoop> readScanLoop(const diagnosis::KernelView &kernel, const diagnosis::LoopInfo &loop)
{
    const QJsonArray args = children(loop.iteratorCall, "args");
    if (loop.iterator != QLatin1String("tl.range") || loop.inductionNames.size() != 1 || args.isEmpty() || args.size() > 2
        || (args.size() == 2 && kernel.constValue(args.at(0).toObject()) != 0) || !children(loop.iteratorCall, "keywords").isEmpty())
        return std::nullopt;
    ScanLoop scan;
    scan.loop = &loop;
    scan.induction = loop.inductionNames.first();
    scan.bound = args.last().toObject();
    int storeIndex = -1, updateIndex = -1;
    const QJsonArray body = children(loop.node, "body");
    for (int i = 0; i < body.size(); ++i) {
        const Node statement = body.at(i).toObject();
        QVector<Node> loads, stores;
        walk(statement, [&](const Node &node, const QVector<Node> &) {
            if (isTritonCall(node, "load"))
                loads.append(node);
            if (isTritonCall(node, "store"))
                stores.append(node);
        });
        if (isType(statement, "AugAssign") && isType(child(statement, "op"), "Add") && updateIndex < 0) {
            scan.accumulator = nameOf(child(statement, "target"));
            scan.update = statement;
            updateIndex = i;
        } else if (isType(statement, "Expr") && stores.size() == 1 && child(statement, "value") == stores.first() && storeIndex < 0) {
            scan.store = stores.first();
            storeIndex = i;
        } else if (isType(statement, "Assign") && loads.size() == 1 && scan.load.isEmpty() && children(statement, "targets").size() == 1) {
            scan.load = loads.first();
            scan.loadStatement = statement;
            scan.loaded = nameOf(children(statement, "targets").at(0).toObject());
        } else if (!isType(statement, "Assign") || !loads.isEmpty() || !stores.isEmpty()) {
            return std::nullopt;  // anything but plain assignments around the three
        }
    }
    if (scan.load.isEmpty() || scan.store.isEmpty() || scan.update.isEmpty() || scan.loaded.isEmpty() || scan.accumulator.isEmpty()
        || nameOf(child(scan.update, "value")) != scan.loaded || keyword(scan.load, "mask").isEmpty()
        || keyword(scan.store, "mask").isEmpty())
        return std::nullopt;
    // Only the store and the update may read the accumulator in the loop; it starts as a 1-D
    // tl.zeros before it.
    for (const QJsonValue &item : body) {
        const Node statement = item.toObject();
        if (statement != scan.update && child(statement, "value") != scan.store && reads(statement, scan.accumulator))
            return std::nullopt;
    }
    const QVector<Node> starts = kernel.assignmentsOf(scan.accumulator);
    if (starts.isEmpty() || !isTritonCall(starts.first(), "zeros")
        || children(argument(starts.first(), 0, "shape"), "elts").size() != 1)
        return std::nullopt;
    scan.exclusive = storeIndex < updateIndex;
    return scan;
}

} // namespace

QVector<RecipeCandidate> proposeChunkedScan(const RecipeContext &context)
{
    // One trip per row: load a row, store the running sum, add the row. Each trip's load waits
    // on a loop-carried chain, so a program has one small row in flight (the exclusive cumsum ran
    // at 7% of roofline on the H200). Loading a chunk of rows as a 2-D tile and scanning it with
    // tl.cumsum keeps the running sum exact (carried between chunks) while each trip moves
    // SCAN_CHUNK rows. Rows past the end are masked out.
    const diagnosis::KernelView &kernel = context.kernel();
    const Node arguments = child(kernel.function(), "args");
    const QJsonArray params = children(arguments, "args");
    const QString chunk = QStringLiteral("SCAN_CHUNK"), start = QStringLiteral("_chunk_start"), scanned = QStringLiteral("_scan");
    if (hasDot(context) || !context.hasLaunchSite() || params.isEmpty() || !children(arguments, "defaults").isEmpty())
        return {};
    for (const QString &name : {chunk, start, scanned}) {
        if (context.source().text().contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(name))))
            return {};
    }
    std::optional<ScanLoop> scan;
    for (const diagnosis::LoopInfo &loop : kernel.loops()) {
        if ((scan = readScanLoop(kernel, loop)))
            break;
    }
    const int launchEnd = context.afterLastArgument(context.launchSite());
    if (!scan || launchEnd < 0)
        return {};
    const SourceText &source = context.source();
    const QString tl = tritonLanguage(context);
    const QString bound = source.slice(scan->bound);
    const Node firstStatement = children(scan->loop->node, "body").at(0).toObject();
    const QString indent = source.indentOf(lineOf(firstStatement));
    const auto rowMask = [&](const Node &call) {
        const Node mask = keyword(call, "mask");
        return TextEdit{source.startOf(mask), source.endOf(mask),
                        QStringLiteral("(%1) & (%2 < %3)").arg(source.slice(mask), scan->induction, bound)};
    };
    QVector<TextEdit> edits;
    edits.append({source.startOf(child(scan->loop->node, "target")), source.endOf(child(scan->loop->node, "target")), start});
    edits.append({source.startOf(scan->loop->iteratorCall), source.endOf(scan->loop->iteratorCall),
                  QStringLiteral("range(0, %1, %2)").arg(bound, chunk)});
    edits.append({source.lineStart(lineOf(firstStatement)), source.lineStart(lineOf(firstStatement)),
                  QStringLiteral("%1%2 = %3 + %4.arange(0, %5)[:, None]  # %5 rows per trip\n")
                      .arg(indent, scan->induction, start, tl, chunk)});
    edits.append(rowMask(scan->load));
    const int afterLoad = scan->loadStatement.value(QLatin1String("end_lineno")).toInt() + 1;
    edits.append({source.lineStart(afterLoad), source.lineStart(afterLoad),
                  QStringLiteral("%1%2 = %3.cumsum(%4, axis=0)\n").arg(indent, scanned, tl, scan->loaded)});
    edits.append(rowMask(scan->store));
    const QString runningSum = scan->exclusive ? QStringLiteral("(%1[None, :] + %2 - %3)").arg(scan->accumulator, scanned, scan->loaded)
                                               : QStringLiteral("(%1[None, :] + %2)").arg(scan->accumulator, scanned);
    walk(argument(scan->store, 1, "value"), [&](const Node &node, const QVector<Node> &) {
        if (nameOf(node) == scan->accumulator)
            edits.append({source.startOf(node), source.endOf(node), runningSum});
    });
    const Node added = child(scan->update, "value");
    edits.append({source.startOf(added), source.endOf(added), QStringLiteral("%1.sum(%2, axis=0)").arg(tl, scan->loaded)});
    const int signatureEnd = source.endOf(params.last().toObject());
    edits.append({signatureEnd, signatureEnd, QStringLiteral(", %1: %2").arg(chunk, constexprAnnotation(context))});

    QVector<RecipeCandidate> out;
    for (const int rows : {32, 64}) {
        RecipeCandidate candidate;
        candidate.recipeId = QStringLiteral("chunked-scan");
        candidate.title = QStringLiteral("%1 scan in chunks of %2 rows (tl.cumsum) on line %3")
                              .arg(scan->exclusive ? QStringLiteral("exclusive") : QStringLiteral("inclusive"))
                              .arg(rows).arg(lineOf(scan->loop->node));
        candidate.rationale = QStringLiteral("The loop on line %1 adds one row per trip to a running sum, so each program has "
                                             "one row in flight behind a loop-carried chain. A %2-row tile scanned with "
                                             "tl.cumsum (the running sum carried between tiles) moves %2 rows per trip.")
                                  .arg(lineOf(scan->loop->node)).arg(rows);
        candidate.findingRuleIds = QStringList{QStringLiteral("source: serial running-sum loop")}
                                   + context.ruleIdsOf(context.findingsFor({QStringLiteral("L2.memory-bound"), QStringLiteral("L2.latency-bound")}));
        candidate.edits = edits;
        candidate.edits.append({launchEnd, launchEnd, QStringLiteral(", %1=%2").arg(chunk).arg(rows)});
        // The trip count is not an IR fact the checker reads: nothing to check before timing.
        candidate.value = 0.6 - 0.05 * out.size();
        candidate.sets = {QStringLiteral("kernel:scan"), QStringLiteral("constexpr:") + chunk};
        out.append(candidate);
    }
    return out;
}

} // namespace strata::rewrite::recipes
