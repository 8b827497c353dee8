// fuzz_mlir_reader: arbitrary bytes as custom-form MLIR text, the way a user's TTIR/TTGIR stage
// or per-pass dump reaches the MLIR reader:
//   - as a compile's stage through loadCompile (the stage reader, the TTIR/TTGIR signature
//     check, the location check, the location map), then every lookup the panes make;
//   - as a module (readMlir, what the L3 IR facts and the pass-dump views read), with what those
//     views do next: each op's and layout's one-line summary, the stage check and its junk
//     lines, the op at every text line, and the pass diff of the module against itself.
#include "FuzzSupport.h"

#include "core/TextLines.h"
#include "ir/mlir/MlirReader.h"

using namespace strata;

namespace {

void exerciseModule(const ir::MlirModule &module, const QString &text)
{
    for (const ir::MlirOp &op : module.ops) {
        (void)ir::opSummary(op, module);
        (void)op.isFunction();
    }
    for (const ir::LayoutAttr &layout : module.layouts) {
        (void)ir::layoutSummary(layout);
        (void)layout.displayName();
    }
    (void)module.numWarps();
    for (int line = -1; line <= module.lineCount; ++line)
        (void)module.opAtTextLine(line);
    (void)ir::checkMlirStage(module, splitLines(text));
    (void)ir::strayOpLines(module);
    ir::OpDiffOptions byKernelLine;
    byKernelLine.kernelFile = fuzz::fixtureCompile().sourcePath;
    byKernelLine.compareTypes = true;  // replaces layout aliases by their definitions
    (void)ir::diffOps(module, module, byKernelLine);
    byKernelLine.sourceLine = 1;
    (void)ir::changedOpLines(module, module, byKernelLine);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    // TTGIR names TritonGPU ops and layouts, TTIR does not: as the file a compile would hold.
    const QString stage = text.contains(QLatin1String("ttg.")) ? QStringLiteral("ttgir") : QStringLiteral("ttir");
    fuzz::loadCompileWithStage(stage, data, size);
    Expected<ir::MlirModule> module = ir::readMlir(text, QStringLiteral("fuzz.mlir"));
    if (module)
        exerciseModule(*module, text);
    else
        (void)module.error().toString();
    return 0;
}
