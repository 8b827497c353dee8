// JSON of the L3 facts (documented in docs/diagnosis.md, "L3 line facts").
#include "diagnosis/l3_ir/IrFacts.h"

#include <QJsonArray>

namespace strata::diagnosis {

namespace {

QJsonArray intArray(const QVector<int> &values)
{
    QJsonArray array;
    for (const int value : values)
        array.append(value);
    return array;
}

QJsonObject toJson(const GlobalAccess &access)
{
    return {{QStringLiteral("stage"), access.stage},
            {QStringLiteral("kind"), access.store ? QStringLiteral("store") : QStringLiteral("load")},
            {QStringLiteral("opcode"), access.opcode},
            {QStringLiteral("vector_width"), access.vectorWidth},
            {QStringLiteral("element_bits"), access.elementBits},
            {QStringLiteral("access_bits"), access.accessBits},
            {QStringLiteral("count"), access.count},
            {QStringLiteral("first_ir_line"), access.firstIrLine}};
}

QJsonObject toJson(const LineLayout &layout)
{
    return {{QStringLiteral("op"), layout.op},
            {QStringLiteral("ir_line"), layout.irLine},
            {QStringLiteral("layout"), layout.layout},
            {QStringLiteral("kind"), layout.kind},
            {QStringLiteral("size_per_thread"), intArray(layout.sizePerThread)},
            {QStringLiteral("threads_per_warp"), intArray(layout.threadsPerWarp)},
            {QStringLiteral("warps_per_cta"), intArray(layout.warpsPerCTA)},
            {QStringLiteral("order"), intArray(layout.order)},
            {QStringLiteral("mma_version"), layout.mmaVersion},
            {QStringLiteral("instr_shape"), intArray(layout.instrShape)}};
}

} // namespace

QJsonObject toJson(const SourceLineFacts &facts)
{
    QJsonArray accesses;
    for (const GlobalAccess &access : facts.accesses)
        accesses.append(toJson(access));
    QJsonArray layouts;
    for (const LineLayout &layout : facts.layouts)
        layouts.append(toJson(layout));
    return {{QStringLiteral("line"), facts.line},
            {QStringLiteral("global_accesses"), accesses},
            {QStringLiteral("layouts"), layouts},
            {QStringLiteral("dot_kind"), dotLabel(facts)},
            {QStringLiteral("dot_op"), facts.dotOp},
            {QStringLiteral("mma_instructions"), facts.mmaInstructions},
            {QStringLiteral("fma_instructions"), facts.fmaInstructions},
            {QStringLiteral("int_divisions"), facts.integerDivisions},
            {QStringLiteral("ttgir_loads"), facts.ttgirLoads},
            {QStringLiteral("global_bytes"), facts.globalBytes},
            {QStringLiteral("async_copies"), facts.asyncCopies},
            {QStringLiteral("cp_async"), facts.asyncCopyInstructions},
            {QStringLiteral("tma_copies"), facts.bulkTensorCopies},
            {QStringLiteral("tma_instructions"), facts.bulkTensorInstructions},
            {QStringLiteral("buffers"), facts.buffers},
            {QStringLiteral("convert_layouts"), facts.convertLayouts},
            {QStringLiteral("shared_stores"), facts.sharedStores},
            {QStringLiteral("shared_loads"), facts.sharedLoads},
            {QStringLiteral("barriers"), facts.barriers},
            {QStringLiteral("spill_stores"), facts.spillStores},
            {QStringLiteral("spill_loads"), facts.spillLoads},
            {QStringLiteral("in_loop"), facts.inLoop}};
}

QJsonObject toJson(const KernelIrFacts &facts)
{
    QJsonArray lines;
    for (const SourceLineFacts &line : facts.lines)
        lines.append(toJson(line));
    return {{QStringLiteral("kernel"), facts.kernel},
            {QStringLiteral("source_path"), facts.sourcePath},
            {QStringLiteral("target"), facts.target},
            {QStringLiteral("num_warps"), facts.numWarps},
            {QStringLiteral("num_stages"), facts.numStages},
            {QStringLiteral("registers"), facts.registers},
            {QStringLiteral("spill_store_bytes"), facts.spillStoreBytes},
            {QStringLiteral("spill_load_bytes"), facts.spillLoadBytes},
            {QStringLiteral("stack_bytes"), facts.stackBytes},
            {QStringLiteral("static_shared_bytes"), facts.staticSharedBytes},
            {QStringLiteral("dynamic_shared_bytes"), facts.dynamicSharedBytes},
            {QStringLiteral("ptxas_warnings"), QJsonArray::fromStringList(facts.assemblerWarnings)},
            {QStringLiteral("stages"), QJsonArray::fromStringList(facts.stagesRead)},
            {QStringLiteral("lines"), lines}};
}

} // namespace strata::diagnosis
