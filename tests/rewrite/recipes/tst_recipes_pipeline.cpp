// The built-in recipes on real kernels through the real pipeline, no GPU needed: the agent runs
// the suite task under Triton's interpreter (launch capture), the kernel is compiled for sm_90 and
// diagnosed by the ladder, the recipe provider proposes, and each expected recipe's candidate goes
// through the loop's own check: it must compile, change the IR fact it promised, and verify.
#include "../../support/AgentTestSupport.h"
#include "host/AgentTransport.h"
#include "host/HostConnection.h"
#include "host/PluginRegistry.h"
#include "optimize/AgentSession.h"
#include "optimize/CandidateCheck.h"
#include "optimize/KernelDiagnosis.h"
#include "optimize/ProviderSet.h"
#include "rewrite/recipes/RecipeProvider.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace strata;
using namespace strata::optimize;

class TestRecipesPipeline : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void recipeCandidatePassesTheLoopCheck_data();
    void recipeCandidatePassesTheLoopCheck();
    void assemblerHazardRejectsAKeptPromise();
    void recipeStaysSilent_data();
    void recipeStaysSilent();
    void recipeStaysSilentWithGpuFacts_data();  // the H200-size grid or a measured finding, which only a GPU gives
    void recipeStaysSilentWithGpuFacts();
    void kernelOfAnotherFileGetsNoRecipe();
    void aFewProposalsKeepARivalChoice();

private:
    // The candidate of `recipe` ("id:title fragment") for the first kernel of `task`, through the
    // loop's check (compile, promised fact, verification); `row.state` says how far it went.
    void checkRecipeCandidate(const QString &task, const QString &bound, const QString &recipe, qint64 fullGrid,
                              const QString &measured, CandidateRow &row);
    // No proposal of the first kernel of `task` has an id containing `recipe`; `fullGrid` > 0 puts
    // that many programs on grid axis 0 (the H200-size launch) before the recipes run.
    void expectSilent(const QString &task, const QString &recipe, qint64 fullGrid, const QString &measured = {});

    QTemporaryDir m_dir;
    PluginRegistry m_plugins;
    GpuGate m_gate;
    std::unique_ptr<HostConnection> m_agent;
    std::unique_ptr<AgentSession> m_session;
};

namespace {

// A hopper-core task by name, or "fixtures/NAME": a task of this test's own fixtures.
QString taskFile(const QString &task)
{
    return task.startsWith(QLatin1String("fixtures/")) ? QStringLiteral(STRATA_RECIPE_FIXTURES "/%1.py").arg(task.mid(9))
                                                      : QStringLiteral(STRATA_SUITE_DIR "/%1.py").arg(task);
}

// The request the loop would send for the first kernel of `taskPath`, diagnosed up to L3.
void buildRequest(AgentSession &session, PluginRegistry &plugins, const QString &taskPath, const TaskRun &run,
                  const QString &bound, const QString &work, rewrite::RewriteRequest &request,
                  std::optional<DiagnosedKernel> &diagnosed)
{
    const CapturedKernel &launch = run.kernels.first();
    Expected<DiagnosedKernel> result = diagnoseKernel(session, plugins, launch, work + QStringLiteral("/parent"), diagnosis::Level::L3);
    QVERIFY2(result.hasValue(), result ? "" : qPrintable(result.error().toString()));
    diagnosed.emplace(std::move(*result));
    request.taskPath = taskPath;
    QFile file(taskPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    request.taskText = QString::fromUtf8(file.readAll());
    request.kernelName = launch.kernel;
    request.ast = diagnosed->ast;
    request.launch = launchJson(launch);
    request.diagnosis = diagnosed->ladder.diagnosis;
    for (const diagnosis::RankedFinding &ranked : diagnosed->ladder.ranking)
        request.rankedRuleIds.append(ranked.finding.ruleId);
    if (!bound.isEmpty())
        request.timing.insert(QStringLiteral("bound"), bound);
    request.deviceName = QStringLiteral("NVIDIA H200");
    request.outputTolerance = run.tightestTolerance();  // as the loop does
    request.maxProposals = 100;
}

// An L2.low-occupancy finding as the NVIDIA profile rules write it, bound by `limiter`
// ("registers" or "warps"): CTAs per SM by each resource as its evidence.
void addMeasuredFinding(rewrite::RewriteRequest &request, const QString &measured)
{
    const bool registers = measured == QLatin1String("occupancy:registers");
    diagnosis::Finding finding = diagnosis::newFinding(
        QStringLiteral("L2.low-occupancy"), diagnosis::Level::L2,
        QStringLiteral("Occupancy limited by %1").arg(registers ? QStringLiteral("registers") : QStringLiteral("warps")),
        diagnosis::Severity::Medium, 0.9, diagnosis::SourceSpan{request.taskPath, 0, 0, 0, 0}, QStringLiteral("measured"),
        {QStringLiteral("retune-num-warps")});
    finding.evidence.append(diagnosis::Evidence::metric(QStringLiteral("blocks_by_registers"), registers ? 4 : 16, QString()));
    finding.evidence.append(diagnosis::Evidence::metric(QStringLiteral("blocks_by_shared_memory"), 32, QString()));
    finding.evidence.append(diagnosis::Evidence::metric(QStringLiteral("blocks_by_warps"), registers ? 16 : 8, QString()));
    request.diagnosis.addFindings(diagnosis::Level::L2, {finding});
    request.rankedRuleIds.prepend(finding.ruleId);
}

} // namespace

void TestRecipesPipeline::initTestCase()
{
    QString why;
    if (!testing::pythonImports(QStringLiteral("torch, triton"), &why))
        QSKIP(qPrintable(why));
    QVERIFY(m_plugins.loadFromDirectory(QStringLiteral(STRATA_PLUGIN_DIR)) >= 1);
    m_agent = std::make_unique<HostConnection>(std::make_unique<LocalProcessTransport>(testing::agentPython(), QStringLiteral(STRATA_AGENT_DIR)));
    QVERIFY2(m_agent->start(&why), qPrintable(why));
    m_session = std::make_unique<AgentSession>(*m_agent, m_gate, 600);
    m_session->setInterpret(true);
}

void TestRecipesPipeline::cleanupTestCase()
{
    m_session.reset();
    m_agent.reset();
}

void TestRecipesPipeline::recipeCandidatePassesTheLoopCheck_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("bound");    // what timing would have said ("" for none)
    QTest::addColumn<QString>("recipe");   // a proposal of this id ("id:fragment": whose title has it) must pass
    QTest::addColumn<qint64>("fullGrid");  // programs of the H200-size launch (0: as captured)
    // false: Triton 3.6's interpreter cannot run the candidate correctly (it multiplies bf16 dot
    // operands as raw 16-bit patterns: 2.8e10 off on a 16x16 product), so the row checks the
    // compile and the promised fact only; the GPU verifies it (docs/recipes.md).
    QTest::addColumn<bool>("interpreterVerifies");
    // A measured finding added to the diagnosis, as the profile would have given it (the test has
    // no GPU): "occupancy:registers" is L2.low-occupancy bound by registers (the 06c H100 run's
    // finding on maxpool2d), "occupancy:warps" the same bound by the warps per SM. Empty: none.
    QTest::addColumn<QString>("measured");
    QTest::newRow("matmul 64x64x32 tile") << QStringLiteral("matmul_fp16") << QString() << QStringLiteral("hopper-dot-tile") << qint64(0) << true << QString();
    // The launch writes BLOCK_M and BLOCK_N as the same grid literal (cdiv(M, 64), cdiv(N, 64)):
    // a 128x256 tile changes each grid element to its own axis's block.
    QTest::newRow("matmul 128x256 tile") << QStringLiteral("matmul_fp16") << QString() << QStringLiteral("hopper-dot-tile:128x256x64")
                                         << qint64(0) << true << QString();
    // BLOCK_K=64 shares the grid literal 64 with BLOCK_M and BLOCK_N, but only M and N scale a
    // program id: the grid is not ambiguous (the recipe stayed silent on the H200 before).
    QTest::newRow("linear+gelu, BLOCK_K equal to the grid literal")
        << QStringLiteral("linear_bias_gelu_fp16") << QString() << QStringLiteral("hopper-dot-tile") << qint64(0) << true << QString();
    // Both operands are pointer tiles with unit column strides and masked edges: descriptors,
    // and TTGIR must show TMA copies (the fact the recipe promises).
    QTest::newRow("matmul: TMA descriptors") << QStringLiteral("matmul_fp16") << QString() << QStringLiteral("tma-descriptors")
                                             << qint64(0) << true << QString();
    QTest::newRow("linear+gelu: TMA for x and the transposed weight")
        << QStringLiteral("linear_bias_gelu_fp16") << QString() << QStringLiteral("tma-descriptors") << qint64(0) << true << QString();
    // W stored N x K and read as the (k, n) tile of W^T (unit row stride): the descriptor
    // describes W as stored and the tile is transposed in shared memory (the W load went through
    // pointers on the H100 of 2026-12-06, 0.83x of cuBLAS).
    QTest::newRow("linear Y = X W^T: TMA for the transposed weight") << QStringLiteral("matmul_bt_fp16") << QString()
                                                                     << QStringLiteral("tma-descriptors:w_ptr, transposed") << qint64(0) << true << QString();
    // Batched: each operand's base is `ptr + batch * stride_b`, a local; the descriptor starts there
    // and the launch also checks the batch stride's alignment.
    QTest::newRow("bmm: TMA at the batch's base") << QStringLiteral("bmm_fp16") << QString()
                                                  << QStringLiteral("tma-descriptors:a_base") << qint64(0) << true << QString();
    // At the H200 size the launch makes 64 x 172 programs of one dot tile (83 per SM): one
    // persistent program per SM loops over them. Verified at the interpreter's shapes, where the
    // candidate's grid is the few programs those shapes make (the loop then runs one tile each).
    QTest::newRow("linear Y = X W^T at 11008 programs: persistent grid") << QStringLiteral("matmul_bt_fp16") << QString()
                                                                        << QStringLiteral("persistent-grid") << qint64(64 * 172) << true << QString();
    // A 3-D grid (row block, column block, batch): the virtual id's coordinates on all three axes.
    QTest::newRow("bmm at 4096 programs: persistent grid over three axes") << QStringLiteral("bmm_fp16") << QString()
                                                                          << QStringLiteral("persistent-grid") << qint64(4096) << true << QString();
    // Already wgmma at 128x128, 8 warps, 3 stages: a 128x256 retile at the same warps and stages
    // promises no IR fact, so the loop's check lets it through to timing (a promised wgmma, which
    // the dot already had, rejected it before).
    QTest::newRow("wgmma kernel: 128x256 retile") << QStringLiteral("fixtures/matmul_wgmma_128_tile_fp16") << QString()
                                                  << QStringLiteral("hopper-dot-tile:128x256x64, 8 warps, 3 stages") << qint64(0) << true << QString();
    // The conv's channel loop (the dot loop) inside its 3 x 3 tap loops: one loop over (tap,
    // channel block) pairs, the tap indices recomputed from the trip number. At the interpreter's
    // shapes the channel loop has 1 trip (a few trips is what makes the refills count).
    QTest::newRow("dot loop inside tap loops: one loop") << QStringLiteral("conv3x3_nhwc_fp16") << QString()
                                                         << QStringLiteral("flatten-dot-loop-nest") << qint64(0) << true << QString();
    // Loops over a feature map's rows and columns (run-time extents, clamped at 0 in the one loop)
    // around a dot loop over the batch: 12 pixels of one trip each under the interpreter.
    QTest::newRow("dot loop inside run-time pixel loops: one loop") << QStringLiteral("fixtures/pixel_loop_weight_grad_fp16") << QString()
                                                                    << QStringLiteral("flatten-dot-loop-nest") << qint64(0) << true << QString();
    // A 3 x 3 stride-2 max pool: lanes 2 elements apart, one 32-bit load per window column.
    // Columns 1 and 2 of each row start at 2 * ow, even: with the sum's -1 folded into the
    // column's start the compiler proves it and loads the pair as one 64-bit vector (columns 0
    // and 1 start odd: that candidate's load stays 32-bit and the fact check drops it).
    QTest::newRow("stride-2 max window: adjacent columns as one vector load")
        << QStringLiteral("maxpool2d_fp32") << QString() << QStringLiteral("load-contiguous-axis:kw = 1..2") << qint64(0) << true << QString();
    // A 4-column stride-2 window summed in fp32 after a cast: the sum reduces the pair first.
    QTest::newRow("stride-2 summed window: pairs as one vector load")
        << QStringLiteral("fixtures/window_sum_stride2_fp16") << QString() << QStringLiteral("load-contiguous-axis:k = 1..2")
        << qint64(0) << true << QString();
    QTest::newRow("matmul without swizzle") << QStringLiteral("matmul_fp16") << QString() << QStringLiteral("group-m-swizzle") << qint64(0) << true << QString();
    QTest::newRow("column sum on 64 programs") << QStringLiteral("col_sum_fp32") << QString() << QStringLiteral("more-programs") << qint64(0) << true << QString();
    QTest::newRow("column max on 256 programs") << QStringLiteral("col_max_fp32") << QString() << QStringLiteral("more-programs") << qint64(0) << true << QString();
    // One program per sample (4 under the interpreter, 16 at full size), each summing a long
    // row: a second grid axis splits the loop, partial sums atomically added into a zeroed
    // output; the extra shape (rows of 5000) ends every slice's last block partial.
    QTest::newRow("per-sample squared norms on few programs: split reduction")
        << QStringLiteral("fixtures/per_sample_sq_norm_fp16") << QString() << QStringLiteral("split-reduction") << qint64(0) << true << QString();
    // Each program owns a block of 32 columns (a vector of outputs): the split keeps the block's
    // row segments whole, the partial means (scaled by 1 / n_rows) add into the zeroed output. The
    // grid is written inline as `(triton.cdiv(n_cols, 32),)`: the comma inside the call is not a
    // second grid element (that comma kept the recipe silent on col_sum).
    QTest::newRow("column mean on 2 programs: split reduction of a block of outputs")
        << QStringLiteral("fixtures/column_mean_fp32") << QString() << QStringLiteral("split-reduction") << qint64(0) << true << QString();
    // The interpreter's shapes launch 64 RoPE programs; at the H200 size it is one per
    // (batch, position, head): 8 x 4096 x 32. Verification also runs each task's extra shapes
    // (21 and 30 programs, no multiple of 4), so the rows clamped to the last one are checked.
    QTest::newRow("rope: one head per program") << QStringLiteral("rope_fp16") << QString() << QStringLiteral("rows-per-program")
                                                << qint64(8 * 4096 * 32) << true << QString();
    QTest::newRow("avgpool: one row per program") << QStringLiteral("avgpool2d_fp16") << QString()
                                                  << QStringLiteral("rows-per-program") << qint64(64 * 256 * 56) << true << QString();
    QTest::newRow("maxpool: 3x3 window as two range(3) loops") << QStringLiteral("maxpool2d_fp32") << QString()
                                                            << QStringLiteral("unroll-constant-loops") << qint64(0) << true << QString();
    // Every output decodes its flat index by out_w and out_h, run-time ints (four divisions and
    // remainders per element, PTX div.s32 / rem.s32): as constexprs they compile to multiplies
    // (the promised fact: fewer run-time divisions). The extra shape (15 x 21) is another variant.
    QTest::newRow("maxpool: flat index decoded by run-time ints") << QStringLiteral("maxpool2d_fp32") << QString()
                                                                << QStringLiteral("constexpr-divisors") << qint64(0) << true << QString();
    // Group norm's second pass finds each element's channel as `offs // hw` on every trip.
    QTest::newRow("group norm: channel decoded in the normalize loop") << QStringLiteral("group_norm_fp32") << QString()
                                                                     << QStringLiteral("constexpr-divisors") << qint64(0) << true << QString();
    // The same in another hand: the channel of an NCHW element, `(idx // hw) % channels`, inside a
    // grid-stride loop, feeding a per-channel scale's load.
    QTest::newRow("nchw channel scale: channel decoded in a loop") << QStringLiteral("fixtures/channel_scale_nchw_fp32")
                                                                   << QString() << QStringLiteral("constexpr-divisors") << qint64(0) << true << QString();
    // One row per trip behind a running sum: a 2-D chunk scanned with tl.cumsum. The extra shape
    // (37 rows) is no multiple of the chunk, so the masked tail is verified too.
    QTest::newRow("exclusive cumsum: serial walk") << QStringLiteral("cumsum_exclusive_fp16") << QString()
                                                   << QStringLiteral("chunked-scan") << qint64(0) << true << QString();
    // h = exp(dt * A) * h + dt * B_t * u one step per trip (a diagonal state-space scan): chunks
    // scanned with tl.associative_scan; scalar per-step gates loaded without a mask get one; the
    // extra shape (37 steps) leaves the last chunk partial.
    QTest::newRow("diagonal SSM: serial recurrence scanned in chunks") << QStringLiteral("fixtures/diagonal_ssm_scan_fp16") << QString()
                                                                      << QStringLiteral("linear-recurrence-scan") << qint64(0) << true << QString();
    // The same in another hand: fp32 at tolerance 1e-4, the state on the left of the product, a
    // tl.range loop, the final state stored after the loop (the carry of a partial last chunk).
    QTest::newRow("gated linear RNN: serial recurrence scanned in chunks") << QStringLiteral("fixtures/gated_linear_rnn_fp32") << QString()
                                                                          << QStringLiteral("linear-recurrence-scan") << qint64(0) << true << QString();
    // Three loops over each row (max, sum, write): the block raised to cover the row makes them
    // straight-line code whose equal loads TTGIR shows merged (the fact the recipe promises).
    QTest::newRow("softmax in three passes: one pass") << QStringLiteral("softmax_fp32") << QString()
                                                       << QStringLiteral("single-pass-rows") << qint64(0) << true << QString();
    // The same in another hand: tl.range passes, the tile from a local of forward, a write pass
    // that loads with another fill value (1.0) on a continuation line; extra shape 3000 columns.
    QTest::newRow("layernorm in three tl.range passes: one pass") << QStringLiteral("fixtures/layer_norm_three_pass") << QString()
                                                                  << QStringLiteral("single-pass-rows") << qint64(0) << true << QString();
    QTest::newRow("group norm in two passes: one pass") << QStringLiteral("group_norm_fp32") << QString()
                                                        << QStringLiteral("single-pass-rows") << qint64(0) << true << QString();
    // A permutation copy that walks the output's flat index and gathers through `%` / `//`:
    // 2-D tiles over (pixel, channel), the load widened along pixel (the promised fact). The
    // extra shape (3 channels, 5x7 pixels) leaves every tile partial, so the masks are verified.
    QTest::newRow("nchw->nhwc gather: tiled transpose") << QStringLiteral("nchw_to_nhwc_fp16") << QString()
                                                        << QStringLiteral("tiled-transpose") << qint64(0) << true << QString();
    // The same in another hand: a 2-D transpose whose input-fastest coordinate is the output's
    // slowest (its extent what the flat bound leaves), program id and masks written inline.
    QTest::newRow("2-D transpose gather: tiled transpose") << QStringLiteral("fixtures/transpose_flat_gather_fp32") << QString()
                                                           << QStringLiteral("tiled-transpose:32x32") << qint64(0) << true << QString();
    // Causal attention that walks every key block: the loop stops at the diagonal, the blocks
    // below it run without the mask (BLOCK_M = 2 x BLOCK_N: the diagonal spans two key blocks;
    // the extra shape, 77 positions, leaves every block partial).
    QTest::newRow("causal attention over all keys: stop at the diagonal, split")
        << QStringLiteral("fixtures/causal_attention_all_blocks_fp16") << QString() << QStringLiteral("causal-block-skip:diagonal block, unmasked blocks split off")
        << qint64(0) << true << QString();
    QTest::newRow("causal attention over all keys: skip, split, heaviest first")
        << QStringLiteral("fixtures/causal_attention_all_blocks_fp16") << QString() << QStringLiteral("causal-block-skip:heaviest")
        << qint64(0) << true << QString();
    // The suite's kernel already stops at the diagonal: only the split of the unmasked blocks.
    QTest::newRow("causal attention to the diagonal: unmasked blocks split off")
        << QStringLiteral("causal_attention_fp16") << QString() << QStringLiteral("masked-block-split:unmasked blocks split off")
        << qint64(0) << true << QString();
    // Non-causal attention masking the keys past the sequence in every block: the tail split off.
    QTest::newRow("attention with a key bound: interior blocks split off")
        << QStringLiteral("flash_attention_fp16") << QString() << QStringLiteral("masked-block-split") << qint64(0) << true << QString();
    // Back-to-back dots over a 64-row query tile on 4 warps (one wgmma warp group): 128 rows on
    // 8 warps, the launch's tuple-assigned BLOCK_M/BLOCK_N and keyword options edited; flash's
    // literals share the grid's 64 with the key tile, which sizes no grid axis.
    QTest::newRow("causal attention: two warp groups over 128 queries")
        << QStringLiteral("causal_attention_fp16") << QString() << QStringLiteral("attention-tile:128 queries x 64 keys, 8 warps, 3 stages")
        << qint64(0) << true << QString();
    // At the interpreter's head dimension (64) 128 x 128 keys at 3 stages fits shared memory too.
    QTest::newRow("attention: 128 x 128 tile at a 64-wide head")
        << QStringLiteral("flash_attention_fp16") << QString() << QStringLiteral("attention-tile:128 queries x 128 keys, 8 warps, 3 stages")
        << qint64(0) << true << QString();
    // causal_attention launches num_stages=2: its own tile at a third stage.
    QTest::newRow("causal attention: a third stage") << QStringLiteral("causal_attention_fp16") << QString()
                                                     << QStringLiteral("attention-tile:64 queries x 64 keys, 4 warps, 3 stages") << qint64(0) << true << QString();
    // The online softmax in base 2: in the one key loop, and across the two loops masked-block-split
    // leaves (the running max is carried from one to the other).
    QTest::newRow("causal attention: softmax in base 2") << QStringLiteral("causal_attention_fp16") << QString()
                                                         << QStringLiteral("exp2-softmax:(2 exp -> exp2)") << qint64(0) << true << QString();
    QTest::newRow("attention: softmax in base 2") << QStringLiteral("flash_attention_fp16") << QString()
                                                  << QStringLiteral("exp2-softmax") << qint64(0) << true << QString();
    // The running max subtracted from the scores in place, tl.exp of the name: still score units.
    QTest::newRow("shifted scores: softmax in base 2") << QStringLiteral("fixtures/attention_shifted_scores_fp16") << QString()
                                                       << QStringLiteral("exp2-softmax:(2 exp -> exp2)") << qint64(0) << true << QString();
    QTest::newRow("split causal attention: softmax in base 2 in both loops")
        << QStringLiteral("fixtures/causal_attention_split_fp16") << QString() << QStringLiteral("exp2-softmax:(4 exp -> exp2)")
        << qint64(0) << true << QString();
    // The int8 weight is converted in the K loop by every program of the row axis (64 at the
    // 4096-token launch): converted once per forward into an fp16 tensor the kernel reads instead.
    QTest::newRow("w8a16: the int8 weight converted once") << QStringLiteral("matmul_w8a16") << QString()
                                                           << QStringLiteral("convert-operand-once") << qint64(64) << true << QString();
    // Occupancy bound by registers (16 warps resident at 4 warps per CTA), long-scoreboard stalls,
    // 62% of copy bandwidth on the H100: the same 1024-element tile over 8 warps (4 elements a thread).
    QTest::newRow("maxpool: registers bind the occupancy") << QStringLiteral("maxpool2d_fp32") << QStringLiteral("memory")
                                                           << QStringLiteral("retune-num-warps:registers bind the occupancy")
                                                           << qint64(0) << true << QStringLiteral("occupancy:registers");
    // The same finding: half the block at the same warps (fewer registers, promised), the grid following.
    QTest::newRow("maxpool: registers bind the occupancy, half the block") << QStringLiteral("maxpool2d_fp32") << QStringLiteral("memory")
                                                                          << QStringLiteral("thin-block:BLOCK_SIZE 1024 -> 512")
                                                                          << qint64(0) << true << QStringLiteral("occupancy:registers");
    // Sigmoid attention: the skip stays silent (recipeStaysSilent), the exact split does not.
    QTest::newRow("causal sigmoid attention: unmasked blocks split off")
        << QStringLiteral("fixtures/causal_sigmoid_attention_fp16") << QString() << QStringLiteral("masked-block-split") << qint64(0) << true << QString();
    // Scatter-add rows through an index read from memory: tl.atomic_add's default acq_rel puts a
    // GPU-wide barrier and an L1 invalidate around every atomic on sm_90; the sums only accumulate.
    QTest::newRow("index_add: relaxed atomics") << QStringLiteral("index_add_fp32") << QString()
                                                << QStringLiteral("relaxed-atomics") << qint64(0) << true << QString();
    QTest::newRow("cross entropy: relaxed atomic mean") << QStringLiteral("cross_entropy_fp32") << QString()
                                                        << QStringLiteral("relaxed-atomics") << qint64(0) << true << QString();
    QTest::newRow("streaming add") << QStringLiteral("add_fp32") << QStringLiteral("memory") << QStringLiteral("evict-first-streaming") << qint64(0) << true << QString();
    // num_warps comes from @triton.autotune's config over @triton.heuristics: the edit goes into
    // the config (a launch keyword raised "Heuristics.run() got multiple values" on the H200).
    // An IEEE fp32 dot in a task that allows 2e-2: bf16 operands, promised in TTGIR's dot types.
    QTest::newRow("fp32 ieee dot, loose tolerance: bf16") << QStringLiteral("fixtures/matmul_fp32_ieee_loose") << QString()
                                                          << QStringLiteral("dot-bf16") << qint64(0) << false << QString();
    QTest::newRow("warps of an autotuned, heuristics kernel") << QStringLiteral("fixtures/scale_autotuned_heuristics")
                                                              << QString() << QStringLiteral("retune-num-warps") << qint64(0) << true << QString();
}

void TestRecipesPipeline::recipeCandidatePassesTheLoopCheck()
{
    QFETCH(QString, task);
    QFETCH(QString, bound);
    QFETCH(QString, recipe);
    QFETCH(qint64, fullGrid);
    QFETCH(bool, interpreterVerifies);
    QFETCH(QString, measured);
    CandidateRow row;
    checkRecipeCandidate(task, bound, recipe, fullGrid, measured, row);
    if (QTest::currentTestFailed())
        return;
    if (!interpreterVerifies) {
        const QJsonObject factCheck = row.evidence.value(QStringLiteral("fact_check")).toObject();
        QVERIFY2(factCheck.value(QStringLiteral("passed")).toBool(), qPrintable(QStringLiteral("%1: %2").arg(row.state, row.detail)));
        return;
    }
    QVERIFY2(row.state == QLatin1String("verified"), qPrintable(QStringLiteral("%1: %2").arg(row.state, row.detail)));
}

// conv3x3's tap nest at 128 x 256 on 8 warps: one loop keeps the promise (the register count
// changes, about 254 -> 200) but ptxas serializes its wgmma, which the nest's compile does not
// (H100, 2026-12-08: 20% slower). The fact check rejects it before any timing, naming the warning.
void TestRecipesPipeline::assemblerHazardRejectsAKeptPromise()
{
    CandidateRow row;
    checkRecipeCandidate(QStringLiteral("fixtures/conv3x3_nested_wide_tile_fp16"), QString(),
                         QStringLiteral("flatten-dot-loop-nest"), 0, QString(), row);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(row.state, QStringLiteral("fact_unchanged"));
    const QJsonObject factCheck = row.evidence.value(QStringLiteral("fact_check")).toObject();
    QVERIFY(factCheck.value(QStringLiteral("facts")).toArray().at(0).toObject().value(QStringLiteral("changed")).toBool());
    QVERIFY2(factCheck.value(QStringLiteral("new_assembler_warnings")).toArray().at(0).toString().contains(QLatin1String("serialized")),
             qPrintable(row.detail));
}

void TestRecipesPipeline::checkRecipeCandidate(const QString &task, const QString &bound, const QString &recipe,
                                               qint64 fullGrid, const QString &measured, CandidateRow &row)
{
    const QString taskPath = taskFile(task);
    const QString work = m_dir.filePath(QString(task).replace(u'/', u'-') + u'-' + recipe);

    Expected<TaskRun> run = m_session->runTask(taskPath, QStringLiteral("sm_90"));
    QVERIFY2(run.hasValue(), run ? "" : qPrintable(run.error().toString()));
    QVERIFY(!run->kernels.isEmpty());
    const CapturedKernel &launch = run->kernels.first();
    rewrite::RewriteRequest request;
    std::optional<DiagnosedKernel> diagnosed;
    buildRequest(*m_session, m_plugins, taskPath, *run, bound, work, request, diagnosed);
    QVERIFY(diagnosed);
    if (fullGrid > 0)
        request.launch.insert(QStringLiteral("grid"), QJsonArray{fullGrid, 1, 1});
    if (!measured.isEmpty())
        addMeasuredFinding(request, measured);
    rewrite::recipes::RecipeProvider provider(backendRecipesOf(&m_plugins));  // the NVIDIA plugin's, for sm_90
    Expected<QVector<rewrite::RewriteProposal>> proposals = provider.propose(request);
    QVERIFY2(proposals.hasValue(), proposals ? "" : qPrintable(proposals.error().toString()));
    QStringList offered;
    const rewrite::RewriteProposal *chosen = nullptr;
    const QString recipeId = recipe.section(u':', 0, 0), titleFragment = recipe.section(u':', 1);
    for (const rewrite::RewriteProposal &proposal : *proposals) {
        offered.append(proposal.recipeId + QStringLiteral(" (") + proposal.title + u')');
        if (!chosen && proposal.recipeId == recipeId && proposal.title.contains(titleFragment))
            chosen = &proposal;
    }
    QVERIFY2(chosen, qPrintable(QStringLiteral("%1 not proposed; offered: %2; findings: %3")
                                    .arg(recipe, offered.join(QLatin1String(", ")), request.rankedRuleIds.join(QLatin1String(", ")))));
    QVERIFY(!chosen->findingRuleIds.isEmpty());
    QVERIFY(chosen->newText != request.taskText);
    qInfo("%s: %s", qPrintable(chosen->recipeId), qPrintable(chosen->title));
    if (qEnvironmentVariableIsSet("STRATA_SHOW_CANDIDATE")) qInfo("%s", qPrintable(chosen->newText));

    row.path = work + QStringLiteral("/candidate.py");
    QFile out(row.path);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(chosen->newText.toUtf8());
    out.close();
    CandidateCheckInput input;
    input.kernel = launch.kernel;
    input.parentFacts = &diagnosed->compiled.facts;
    input.expected = chosen->expected;
    input.target = QStringLiteral("sm_90");
    input.compileDir = work + QStringLiteral("/factcheck");
    checkCandidate(*m_session, m_plugins, input, row);
}

void TestRecipesPipeline::recipeStaysSilent_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("recipe");  // no proposal's id may contain it
    // add_fp32 under the interpreter launches few programs too, but each loads its block once:
    // there is no loop to lengthen, so splitting the grid finer is not offered.
    QTest::newRow("no loop: no more-programs") << QStringLiteral("add_fp32") << QStringLiteral("more-programs");
    // RoPE divides the program id, not the elements: once per program, nothing to gain.
    QTest::newRow("per-program divisions: no constexpr divisors") << QStringLiteral("rope_fp16") << QStringLiteral("constexpr-divisors");
    // The conv's window loops hold the dot's K loop: unrolling belongs to pipelining there.
    QTest::newRow("dot inside: no unrolling") << QStringLiteral("conv3x3_nhwc_fp16") << QStringLiteral("unroll-constant-loops");
    // A chunk's fp16 sum is promoted into the fp32 accumulator after its dot loop: a value leaves the inner loop on
    // every outer trip, so the nest stays a nest.
    QTest::newRow("statement after the dot loop: no flattening") << QStringLiteral("fixtures/chunked_promotion_matmul_fp16")
                                                                 << QStringLiteral("flatten-dot-loop-nest");
    // The window's loaded value is read again after the loop: it would be a tile of columns there.
    QTest::newRow("window value read after the loop: no column tiles")
        << QStringLiteral("fixtures/window_sum_value_escapes_fp16") << QStringLiteral("load-contiguous-axis");
    // Attention's accumulator is BLOCK_M x HEAD_DIM, and HEAD_DIM comes from q.shape: a shape,
    // which an autotune config must never decide (the H200 run of 2026-12-01 tried it: wrong
    // results).
    QTest::newRow("shape constexpr: no autotune") << QStringLiteral("causal_attention_fp16") << QStringLiteral("autotune-blocks");
    // The autotuner's configs are built outside the decorator: no edit can reach them, and a
    // launch keyword would collide with the config's.
    // Its tolerance is 1e-3: tf32 at most, never bf16 operands.
    QTest::newRow("tolerance 1e-3: no bf16 operands") << QStringLiteral("matmul_fp32") << QStringLiteral("dot-bf16");
    // A decoded-index copy whose load is already contiguous along the destination's fastest
    // coordinate (a column crop), and a gather through a loaded index: nothing to tile.
    QTest::newRow("same fastest axis: no tiled transpose") << QStringLiteral("fixtures/crop_columns_flat_fp16")
                                                           << QStringLiteral("tiled-transpose");
    QTest::newRow("gather by loaded index: no tiled transpose") << QStringLiteral("gather_dim1_fp32") << QStringLiteral("tiled-transpose");
    // The keys on the greater side of the compare (attention to the future): the masked blocks
    // are below the diagonal, so nothing past it may be dropped.
    QTest::newRow("anti-causal mask: no block skipping") << QStringLiteral("fixtures/anticausal_attention_fp16")
                                                         << QStringLiteral("causal-block-skip");
    // Masked scores that reach a sigmoid, not a row max and an exp: a masked block is not shown
    // to add nothing (the exact split is still offered, the skip is not).
    QTest::newRow("causal sigmoid attention: no block skipping") << QStringLiteral("fixtures/causal_sigmoid_attention_fp16")
                                                                 << QStringLiteral("causal-block-skip");
    // A matmul's K loop has a dot but no masked scores.
    // One dot per loop: the matmul's tile is hopper-dot-tile's.
    // The split copies the key loop's text as it was: joined with the base-2 softmax in one
    // candidate the copy would keep tl.exp beside base-2 scores (it failed verification once).
    QTest::newRow("no base-2 softmax joined with the split") << QStringLiteral("causal_attention_fp16")
                                                             << QStringLiteral("exp2-softmax+masked-block-split");
    QTest::newRow("no split joined with the base-2 softmax") << QStringLiteral("causal_attention_fp16")
                                                             << QStringLiteral("masked-block-split+exp2-softmax");
    // Another hand's attention already in base 2 (tl.math.exp2 of pre-scaled scores): nothing to fold.
    QTest::newRow("softmax already in base 2: no exp2 rewrite") << QStringLiteral("fixtures/causal_attention_all_blocks_fp16")
                                                                << QStringLiteral("exp2-softmax");
    // A fixed threshold compared with the scores: it would not scale with them.
    QTest::newRow("scores against a threshold: no base-2 softmax") << QStringLiteral("fixtures/attention_score_threshold_fp16")
                                                                   << QStringLiteral("exp2-softmax");
    // The running max leaves the loop in a stored log-sum-exp: its units are part of the output.
    QTest::newRow("stored log-sum-exp: no base-2 softmax") << QStringLiteral("fixtures/attention_lse_fp16")
                                                           << QStringLiteral("exp2-softmax");
    // The interpreter's w8a16 launch has one row block: no program would convert a tile twice.
    QTest::newRow("one program per weight tile: no conversion pass") << QStringLiteral("matmul_w8a16")
                                                                     << QStringLiteral("convert-operand-once");
    // Operands loaded as the dot takes them.
    QTest::newRow("fp16 matmul: no conversion pass") << QStringLiteral("matmul_fp16") << QStringLiteral("convert-operand-once");
    QTest::newRow("matmul: no attention tile") << QStringLiteral("matmul_fp16") << QStringLiteral("attention-tile");
    QTest::newRow("matmul: no masked-block split") << QStringLiteral("matmul_fp16") << QStringLiteral("masked-block-split");
    // A ReLU between the steps: they do not compose into (a, b) pairs.
    QTest::newRow("nonlinear recurrence: no associative scan") << QStringLiteral("fixtures/relu_rnn_fp32")
                                                               << QStringLiteral("linear-recurrence-scan");
    // A running sum with the store before the add (exclusive): chunked-scan's, not this one's.
    QTest::newRow("exclusive running sum: no linear-recurrence scan") << QStringLiteral("cumsum_exclusive_fp16")
                                                                      << QStringLiteral("linear-recurrence-scan");
    // A sqrt of the row's sum: partial sums cannot be added into the output.
    QTest::newRow("sqrt after the sum: no split reduction") << QStringLiteral("fixtures/per_sample_norm_fp16")
                                                           << QStringLiteral("split-reduction");
    // Operand bases at offsets loaded in the kernel: their alignment cannot be checked at launch.
    QTest::newRow("loaded group offsets: no TMA descriptors") << QStringLiteral("fixtures/grouped_matmul_loaded_offsets_fp16")
                                                              << QStringLiteral("tma-descriptors");
    // A ticket drawn with an atomic (its old value read) and a workspace read back by the last
    // program: the acquire-release order is what the read relies on.
    QTest::newRow("last program reads the sums back: no relaxed atomics") << QStringLiteral("fixtures/sum_last_program_finalizes_fp32")
                                                                          << QStringLiteral("relaxed-atomics");
    QTest::newRow("configs built elsewhere: no num_warps edit") << QStringLiteral("fixtures/scale_autotuned_config_list")
                                                                << QStringLiteral("retune-num-warps");
}

void TestRecipesPipeline::recipeStaysSilent()
{
    QFETCH(QString, task);
    QFETCH(QString, recipe);
    expectSilent(task, recipe, 0);
}

void TestRecipesPipeline::recipeStaysSilentWithGpuFacts_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("recipe");
    QTest::addColumn<qint64>("fullGrid");
    QTest::addColumn<QString>("measured");  // as in recipeCandidatePassesTheLoopCheck
    // 64 row blocks convert each weight tile, but the loaded int8 tile also feeds a column sum:
    // converted once, that second use would read fp16.
    QTest::newRow("loaded tile with a second use: no conversion pass") << QStringLiteral("fixtures/w8a16_zero_point_colsum")
                                                                       << QStringLiteral("convert-operand-once") << qint64(64) << QString();
    // The measured occupancy bound by the warps per SM, not the registers: more warps per CTA would
    // not let more of them reside.
    QTest::newRow("occupancy bound by warps: no more warps") << QStringLiteral("maxpool2d_fp32")
                                                             << QStringLiteral("retune-num-warps") << qint64(0)
                                                             << QStringLiteral("occupancy:warps");
}

void TestRecipesPipeline::recipeStaysSilentWithGpuFacts()
{
    QFETCH(QString, task);
    QFETCH(QString, recipe);
    QFETCH(qint64, fullGrid);
    QFETCH(QString, measured);
    expectSilent(task, recipe, fullGrid, measured);
}

void TestRecipesPipeline::expectSilent(const QString &task, const QString &recipe, qint64 fullGrid, const QString &measured)
{
    const QString taskPath = taskFile(task);
    Expected<TaskRun> run = m_session->runTask(taskPath, QStringLiteral("sm_90"));
    QVERIFY2(run.hasValue(), run ? "" : qPrintable(run.error().toString()));
    rewrite::RewriteRequest request;
    std::optional<DiagnosedKernel> diagnosed;
    buildRequest(*m_session, m_plugins, taskPath, *run, QStringLiteral("memory"),
                 m_dir.filePath(task + QStringLiteral("-silent")), request, diagnosed);
    QVERIFY(diagnosed);
    QVERIFY(!request.launch.value(QLatin1String("grid")).toArray().isEmpty());
    if (fullGrid > 0)
        request.launch.insert(QStringLiteral("grid"), QJsonArray{fullGrid, 1, 1});
    if (!measured.isEmpty())
        addMeasuredFinding(request, measured);
    rewrite::recipes::RecipeProvider provider(backendRecipesOf(&m_plugins));  // the NVIDIA plugin's, for sm_90
    Expected<QVector<rewrite::RewriteProposal>> proposals = provider.propose(request);
    QVERIFY(proposals.hasValue());
    QVERIFY(!proposals->isEmpty());  // the recipes did run on this kernel
    for (const rewrite::RewriteProposal &proposal : *proposals)
        QVERIFY2(!proposal.recipeId.contains(recipe), qPrintable(proposal.title));
}

void TestRecipesPipeline::kernelOfAnotherFileGetsNoRecipe()
{
    // A task that calls a library's kernel: the AST's spans are the library file's, so no edit
    // of the task text can be right (on the H200 they wrote into `def forward(...)`).
    const QString taskPath = taskFile(QStringLiteral("softmax_fp32"));
    Expected<TaskRun> run = m_session->runTask(taskPath, QStringLiteral("sm_90"));
    QVERIFY2(run.hasValue(), run ? "" : qPrintable(run.error().toString()));
    rewrite::RewriteRequest request;
    std::optional<DiagnosedKernel> diagnosed;
    buildRequest(*m_session, m_plugins, taskPath, *run, QString(), m_dir.filePath(QStringLiteral("library-kernel")), request, diagnosed);
    QVERIFY(diagnosed);
    rewrite::recipes::RecipeProvider provider(backendRecipesOf(&m_plugins));  // the NVIDIA plugin's, for sm_90
    Expected<QVector<rewrite::RewriteProposal>> own = provider.propose(request);
    QVERIFY(own.hasValue());
    QVERIFY(!own->isEmpty());  // defined in the task: recipes apply
    request.ast.insert(QStringLiteral("source_path"), QStringLiteral(STRATA_SUITE_DIR "/softmax_fp16.py"));
    Expected<QVector<rewrite::RewriteProposal>> library = provider.propose(request);
    QVERIFY(library.hasValue());
    QVERIFY(library->isEmpty());
}

// conv3x3 in a round of 4 proposals: the best tile's pairings with every other recipe outrank all
// single candidates, and the H100 round of 2026-12-08 timed five 128 x 128 candidates and never the
// 128 x 256 tile (the best of the run before). The last place goes to the best rival tile.
void TestRecipesPipeline::aFewProposalsKeepARivalChoice()
{
    const QString taskPath = taskFile(QStringLiteral("conv3x3_nhwc_fp16"));
    Expected<TaskRun> run = m_session->runTask(taskPath, QStringLiteral("sm_90"));
    QVERIFY2(run.hasValue(), run ? "" : qPrintable(run.error().toString()));
    rewrite::RewriteRequest request;
    std::optional<DiagnosedKernel> diagnosed;
    buildRequest(*m_session, m_plugins, taskPath, *run, QString(), m_dir.filePath(QStringLiteral("rival")), request, diagnosed);
    QVERIFY(diagnosed);
    rewrite::recipes::RecipeProvider provider(backendRecipesOf(&m_plugins));
    Expected<QVector<rewrite::RewriteProposal>> all = provider.propose(request);
    QVERIFY(all.hasValue() && all->size() > 5);
    request.maxProposals = 4;  // the loop's default round is 4 or 5 (--candidates)
    Expected<QVector<rewrite::RewriteProposal>> few = provider.propose(request);
    QVERIFY(few.hasValue());
    QCOMPARE(few->size(), 4);
    const auto tileOf = [](const rewrite::RewriteProposal &proposal) {
        const QRegularExpression tile(QStringLiteral("dot tile (\\d+x\\d+x\\d+)"));
        return tile.match(proposal.title).captured(1);
    };
    const QString first = tileOf(few->first());
    QVERIFY(!first.isEmpty());
    QStringList tiles;
    for (const rewrite::RewriteProposal &proposal : *few)
        tiles.append(tileOf(proposal));
    QVERIFY2(std::any_of(tiles.begin(), tiles.end(), [&first](const QString &tile) { return !tile.isEmpty() && tile != first; }),
             qPrintable(tiles.join(u',')));
}

QTEST_GUILESS_MAIN(TestRecipesPipeline)
#include "tst_recipes_pipeline.moc"
