"""Writes the tuned-libs suite: KernelBench-format tasks whose ModelNew calls a tuned PyPI library's
Triton op (flag-gems, liger-kernel) and whose Model is the plain torch reference.

Nothing of the libraries is copied: each task imports the installed library (bench/corpus/install.sh
installs the pinned versions). The suite serves two ends: real, tuned kernels to diagnose with GPU
measurements (bench/corpus/measure_libs.py), and a no-harm check for the optimization loop, which
must never break or slow them.

usage: python suites/tuned-libs/generate.py [OUT_DIR] [--only NAME,...]   (default out/tuned-libs)
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class LibTask:
    name: str
    library: str  # the PyPI distribution the op comes from
    imports: str  # import lines of the task file
    category: str
    shapes: dict  # int globals (sized for an H200)
    small: dict  # interpret_shapes and capture-friendly sizes
    inputs: list  # expressions of get_inputs(), over the globals and DEVICE
    reference: str  # Model.forward's return expression over the inputs a, b, c, ...
    candidate: str  # ModelNew.forward's return expression
    bytes: str  # minimum traffic formula (PROTOCOL.md)
    flops: str | None = None
    extra: dict = field(default_factory=dict)  # more STRATA_TASK keys


GEMS = "import flag_gems.ops as gems"
F = "import torch.nn.functional as F"


def _tasks() -> list[LibTask]:
    elementwise = {"N": 1 << 27}, {"N": 4099}
    rows = {"ROWS": 16384, "COLS": 4096}, {"ROWS": 8, "COLS": 512}
    tokens = {"TOKENS": 16384, "HIDDEN": 4096}, {"TOKENS": 8, "HIDDEN": 512}
    gemm = {"M": 4096, "N": 4096, "K": 4096}, {"M": 64, "N": 64, "K": 64}
    t = LibTask
    return [
        t("gems_add_fp16", "flag-gems", GEMS, "elementwise", *elementwise,
          ["torch.randn(N, device=DEVICE, dtype=torch.float16)"] * 2, "a + b", "gems.add(a, b)",
          "3 * N * 2", "N"),
        t("gems_mul_bf16", "flag-gems", GEMS, "elementwise", *elementwise,
          ["torch.randn(N, device=DEVICE, dtype=torch.bfloat16)"] * 2, "a * b", "gems.mul(a, b)",
          "3 * N * 2", "N"),
        t("gems_gelu_fp16", "flag-gems", GEMS + "\n" + F, "elementwise", *elementwise,
          ["torch.randn(N, device=DEVICE, dtype=torch.float16)"], "F.gelu(a)", "gems.gelu(a)",
          "2 * N * 2", "8 * N"),
        t("gems_silu_bf16", "flag-gems", GEMS + "\n" + F, "elementwise", *elementwise,
          ["torch.randn(N, device=DEVICE, dtype=torch.bfloat16)"], "F.silu(a)", "gems.silu(a)",
          "2 * N * 2", "4 * N"),
        t("gems_exp_fp32", "flag-gems", GEMS, "elementwise", *elementwise,
          ["torch.randn(N, device=DEVICE)"], "torch.exp(a)", "gems.exp(a)", "2 * N * 4", "N"),
        t("gems_softmax_fp16", "flag-gems", GEMS, "softmax", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)"],
          "torch.softmax(a, dim=-1)", "gems.softmax(a, -1)", "2 * ROWS * COLS * 2",
          "5 * ROWS * COLS"),
        t("gems_log_softmax_fp32", "flag-gems", GEMS, "softmax", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "torch.log_softmax(a, dim=-1)",
          "gems.log_softmax(a, -1)", "2 * ROWS * COLS * 4", "5 * ROWS * COLS"),
        t("gems_layer_norm_fp16", "flag-gems", GEMS + "\n" + F, "normalization", *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.float16) + 0.5",
           "torch.randn(HIDDEN, device=DEVICE, dtype=torch.float16)"],
          "F.layer_norm(a, (a.shape[-1],), b, c)", "gems.layer_norm(a, (a.shape[-1],), b, c)[0]",
          "(2 * TOKENS * HIDDEN + 2 * HIDDEN) * 2", "8 * TOKENS * HIDDEN"),
        t("gems_rms_norm_bf16", "flag-gems", GEMS, "normalization", *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.bfloat16) + 0.5"],
          "(a.float() * torch.rsqrt(a.float().pow(2).mean(-1, keepdim=True) + 1e-5)).to(a.dtype) * b",
          "gems.rms_norm(a, [a.shape[-1]], b, 1e-5)",
          "(2 * TOKENS * HIDDEN + HIDDEN) * 2", "4 * TOKENS * HIDDEN"),
        t("gems_row_sum_fp32", "flag-gems", GEMS, "reduction", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "a.sum(dim=1)", "gems.sum_dim(a, [1])",
          "ROWS * COLS * 4 + ROWS * 4", "ROWS * COLS"),
        t("gems_col_sum_fp32", "flag-gems", GEMS, "reduction", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "a.sum(dim=0)", "gems.sum_dim(a, [0])",
          "ROWS * COLS * 4 + COLS * 4", "ROWS * COLS"),
        t("gems_row_max_fp16", "flag-gems", GEMS, "reduction", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE, dtype=torch.float16)"],
          "a.max(dim=1).values", "gems.max_dim(a, 1)[0]", "ROWS * COLS * 2 + ROWS * 10",
          "ROWS * COLS"),
        t("gems_argmax_fp32", "flag-gems", GEMS, "reduction", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "a.argmax(dim=1)", "gems.argmax(a, 1)",
          "ROWS * COLS * 4 + ROWS * 8", "ROWS * COLS"),
        t("gems_cumsum_fp32", "flag-gems", GEMS, "scan", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "torch.cumsum(a, dim=1)",
          "gems.cumsum(a, 1)", "2 * ROWS * COLS * 4", "ROWS * COLS"),
        t("gems_mm_fp16", "flag-gems", GEMS, "matmul", *gemm,
          ["torch.randn(M, K, device=DEVICE, dtype=torch.float16)",
           "torch.randn(K, N, device=DEVICE, dtype=torch.float16)"],
          "a @ b", "gems.mm(a, b)", "(M * K + K * N + M * N) * 2", "2 * M * N * K"),
        t("gems_bmm_bf16", "flag-gems", GEMS, "matmul",
          {"B": 16, "M": 1024, "N": 1024, "K": 1024}, {"B": 2, "M": 64, "N": 64, "K": 64},
          ["torch.randn(B, M, K, device=DEVICE, dtype=torch.bfloat16)",
           "torch.randn(B, K, N, device=DEVICE, dtype=torch.bfloat16)"],
          "torch.bmm(a, b)", "gems.bmm(a, b)", "B * (M * K + K * N + M * N) * 2",
          "2 * B * M * N * K"),
        t("gems_mv_fp16", "flag-gems", GEMS, "matmul", {"M": 16384, "K": 8192},
          {"M": 64, "K": 128},
          ["torch.randn(M, K, device=DEVICE, dtype=torch.float16)",
           "torch.randn(K, device=DEVICE, dtype=torch.float16)"],
          "torch.mv(a, b)", "gems.mv(a, b)", "(M * K + K + M) * 2", "2 * M * K"),
        t("gems_embedding_fp16", "flag-gems", GEMS + "\n" + F, "indexing",
          {"VOCAB": 65536, "DIM": 4096, "TOKENS": 16384}, {"VOCAB": 64, "DIM": 128, "TOKENS": 16},
          ["torch.randn(VOCAB, DIM, device=DEVICE, dtype=torch.float16)",
           "torch.randint(0, VOCAB, (TOKENS,), device=DEVICE)"],
          "F.embedding(b, a)", "gems.embedding(a, b)", "2 * TOKENS * DIM * 2 + TOKENS * 8", None),
        t("liger_rms_norm_bf16", "liger-kernel",
          "from liger_kernel.ops.rms_norm import LigerRMSNormFunction", "normalization", *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.bfloat16) + 0.5"],
          "(a.float() * torch.rsqrt(a.float().pow(2).mean(-1, keepdim=True) + 1e-6)).to(a.dtype) * b",
          "LigerRMSNormFunction.apply(a, b, 1e-6, 0.0, 'llama', False)",
          "(2 * TOKENS * HIDDEN + HIDDEN) * 2", "4 * TOKENS * HIDDEN"),
        t("liger_layer_norm_fp16", "liger-kernel",
          "from liger_kernel.ops.layer_norm import LigerLayerNormFunction\n" + F, "normalization",
          *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.float16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.float16) + 0.5",
           "torch.randn(HIDDEN, device=DEVICE, dtype=torch.float16)"],
          "F.layer_norm(a, (a.shape[-1],), b, c, 1e-6)",
          "LigerLayerNormFunction.apply(a, b, c, 1e-6)",
          "(2 * TOKENS * HIDDEN + 2 * HIDDEN) * 2", "8 * TOKENS * HIDDEN"),
        t("liger_swiglu_bf16", "liger-kernel",
          "from liger_kernel.ops.swiglu import LigerSiLUMulFunction\n" + F, "llm_fused",
          {"TOKENS": 16384, "INTER": 11008}, {"TOKENS": 8, "INTER": 512},
          ["torch.randn(TOKENS, INTER, device=DEVICE, dtype=torch.bfloat16)"] * 2,
          "F.silu(a) * b", "LigerSiLUMulFunction.apply(a, b)", "3 * TOKENS * INTER * 2",
          "5 * TOKENS * INTER"),
        t("liger_geglu_fp16", "liger-kernel",
          "from liger_kernel.ops.geglu import LigerGELUMulFunction\n" + F, "llm_fused",
          {"TOKENS": 16384, "INTER": 11008}, {"TOKENS": 8, "INTER": 512},
          ["torch.randn(TOKENS, INTER, device=DEVICE, dtype=torch.float16)"] * 2,
          "F.gelu(a, approximate='tanh') * b", "LigerGELUMulFunction.apply(a, b)",
          "3 * TOKENS * INTER * 2", "10 * TOKENS * INTER"),
        t("liger_softmax_fp32", "liger-kernel",
          "from liger_kernel.ops.softmax import LigerSoftmaxFunction", "softmax", *rows,
          ["torch.randn(ROWS, COLS, device=DEVICE)"], "torch.softmax(a, dim=-1)",
          "LigerSoftmaxFunction.apply(a)", "2 * ROWS * COLS * 4", "5 * ROWS * COLS"),
        t("liger_dyt_bf16", "liger-kernel",
          "from liger_kernel.ops.dyt import LigerDyTFunction", "normalization", *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)",
           "torch.full((1,), 0.5, device=DEVICE, dtype=torch.bfloat16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.bfloat16) + 0.5",
           "torch.randn(HIDDEN, device=DEVICE, dtype=torch.bfloat16)"],
          "c * torch.tanh(b * a) + d", "LigerDyTFunction.apply(a, b, c, d)",
          "(2 * TOKENS * HIDDEN + 2 * HIDDEN) * 2", "4 * TOKENS * HIDDEN"),
        t("liger_fused_add_rms_norm_bf16", "liger-kernel",
          "from liger_kernel.ops.fused_add_rms_norm import LigerFusedAddRMSNormFunction",
          "normalization", *tokens,
          ["torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)",
           "torch.randn(TOKENS, HIDDEN, device=DEVICE, dtype=torch.bfloat16)",
           "torch.rand(HIDDEN, device=DEVICE, dtype=torch.bfloat16) + 0.5"],
          "_rms(a + b, c)", "LigerFusedAddRMSNormFunction.apply(a, b, c, 1e-6, 0.0, 'llama', False)[0]",
          "(4 * TOKENS * HIDDEN + HIDDEN) * 2", "5 * TOKENS * HIDDEN"),
    ]


_HELPERS = '''

def _rms(x, w, eps=1e-6):
    h = x.float()
    return (h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + eps)).to(x.dtype) * w
'''


def render(task: LibTask) -> str:
    names = "abcdefgh"[: len(task.inputs)]
    args = ", ".join(names)
    meta = {"category": task.category, "flops": task.flops, "bytes": task.bytes,
            "interpret_shapes": task.small, **task.extra}
    globals_ = "\n".join(f"{key} = {value}" for key, value in task.shapes.items())
    inputs = ",\n        ".join(task.inputs)
    helpers = _HELPERS if "_rms(" in task.reference else ""
    return f'''"""{task.library}: `{task.candidate}` against torch (generated by suites/tuned-libs/generate.py)."""
import torch
import triton  # noqa: F401  (a task computes through Triton; the library launches it)
{task.imports}

DEVICE = "cuda" if torch.cuda.is_available() else "cpu"
{globals_}

STRATA_TASK = {json.dumps(meta, indent=4)}
{helpers}

class Model(torch.nn.Module):
    def forward(self, {args}):
        return {task.reference}


class ModelNew(torch.nn.Module):
    def forward(self, {args}):
        return {task.candidate}


def get_inputs():
    return [
        {inputs},
    ]


def get_init_inputs():
    return []
'''.replace(": null", ": None")


def write_suite(out: Path, only: set[str] | None = None) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for task in _tasks():
        if only and task.name not in only:
            continue
        path = out / f"{task.name}.py"
        path.write_text(render(task))
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", default=str(REPO / "out" / "tuned-libs"))
    parser.add_argument("--only", default="")
    args = parser.parse_args(argv)
    only = {name for name in args.only.split(",") if name} or None
    written = write_suite(Path(args.out), only)
    if only and len(written) != len(only):
        known = {task.name for task in _tasks()}
        print(f"unknown task names: {sorted(only - known)}", file=sys.stderr)
        return 2
    print(f"{len(written)} tasks in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
