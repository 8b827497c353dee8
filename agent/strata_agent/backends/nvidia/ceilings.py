"""Roofline ceilings of an NVIDIA GPU, measured on it (METHOD.md "Two numbers first"): copy
bandwidth from a large device-to-device copy (bytes read + bytes written), and matrix rates from
8192^3 products on random data in fp16, bf16, tf32 and fp32 (tf32 off). Cached by the core's
roofline.load_or_measure. Worker side.
"""
from __future__ import annotations

import contextlib
import time

import torch

from ...roofline import load_or_measure as load_cached
from .timing import Candidate, Timer

MATMUL_SIZE = 8192
COPY_BYTES = 2 << 30


def load_or_measure(device: dict, refresh: bool = False, measuring=contextlib.nullcontext) -> dict:
    """This GPU's ceilings from the cache, else measured here (`measuring`: the gate held alone)."""
    return load_cached(device, measure_ceilings, refresh, measuring)


def measure_ceilings() -> dict:
    started = time.perf_counter()
    timer = Timer(min_reps=10, time_cap_s=2.0, target_ci=0.01)
    source = torch.randn(COPY_BYTES // 4, device="cuda")
    target = torch.empty_like(source)
    # copy_ becomes a memcpy (a copy-engine node inside a CUDA graph), which on an H200 ran at
    # ~2.8 TB/s against ~4 TB/s for an SM kernel; the kernel (x * 1 into a new buffer) is the
    # ceiling a Triton kernel competes with. Both are reported, the faster one is the ceiling.
    memcpy = Candidate("memcpy", lambda: target.copy_(source), flush_l2=False)
    kernel = Candidate("kernel", lambda: torch.mul(source, 1.0, out=target), flush_l2=False)
    timer.measure([memcpy, kernel])
    rates = {c.name: 2 * COPY_BYTES / (c.stats()["median_ms"] * 1e-3) / 1e9
             for c in (memcpy, kernel)}
    del source, target
    result = {"copy_bandwidth_gbs": max(rates.values()), "copy_bandwidth_by_method_gbs": rates,
              "copy_bytes": 2 * COPY_BYTES, "matmul_tflops": {}, "matmul_size": MATMUL_SIZE}
    for precision in ("fp16", "bf16", "tf32", "fp32"):
        result["matmul_tflops"][precision] = _matmul_rate(precision)
    result["measured_s"] = round(time.perf_counter() - started, 2)
    result["method"] = ("median of CUDA-graph replays with CUDA events; copy counts bytes read "
                        "+ written; matmul 2*N^3 FLOP on randn inputs")
    return result


def _matmul_rate(precision: str) -> float:
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
    previous = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = precision == "tf32"
    try:
        a = torch.randn(MATMUL_SIZE, MATMUL_SIZE, device="cuda", dtype=dtype)
        b = torch.randn(MATMUL_SIZE, MATMUL_SIZE, device="cuda", dtype=dtype)
        out = torch.empty(MATMUL_SIZE, MATMUL_SIZE, device="cuda", dtype=dtype)
        product = Candidate(precision, lambda: torch.mm(a, b, out=out), flush_l2=False)
        Timer(min_reps=5, time_cap_s=2.0, target_ci=0.01).measure([product])
        return 2 * MATMUL_SIZE ** 3 / (product.stats()["median_ms"] * 1e-3) / 1e12
    finally:
        torch.backends.cuda.matmul.allow_tf32 = previous
