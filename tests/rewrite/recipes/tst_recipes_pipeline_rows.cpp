// The rows of TestRecipesPipeline::recipeCandidatePassesTheLoopCheck: each a task, what timing
// would have said, the recipe whose candidate must pass the loop's check, and why.
#include "tst_recipes_pipeline.h"

#include <QTest>

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
    // A pooling kernel written for any window: size, stride and padding are run-time ints (3, 2, 1
    // at the launch; the padding of 1 the JIT already folds). They become constexpr: the loop's trips
    // and the column's stride compile-time, which load-contiguous-axis needs next round.
    QTest::newRow("window passed as run-time ints: constexpr window")
        << QStringLiteral("fixtures/window_max_runtime_params_fp32") << QString() << QStringLiteral("constexpr-window:size=3, step=2")
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
