"""What the Triton 3.6 launch capture (strata_agent/launch_capture.py) reads from Triton's CUDA
backend: the target a launch compiled for, the backend and options a capture-only launch is
specialized with (no driver there), the digest of the PTX the JIT built (the GPU tests compare
it with the agent's compile), and the CUDA default stream a launch is checked against."""
from __future__ import annotations

import hashlib
from typing import Any

# Capture only (no GPU): the launch is specialized for this target, Triton's default options.
CAPTURE_ONLY_TARGET = "sm_90"


def target_name(gpu_target: Any) -> str:
    """The spec's target for the GPUTarget a launch compiled for."""
    return f"sm_{gpu_target.arch}"


def capture_only_backend() -> type:
    from triton.backends.nvidia.compiler import CUDABackend
    return CUDABackend


def default_options() -> dict:
    """num_warps and num_stages as the CUDA backend defaults them."""
    from triton.backends.nvidia.compiler import CUDAOptions
    fields = CUDAOptions.__dataclass_fields__
    return {"num_warps": fields["num_warps"].default, "num_stages": fields["num_stages"].default}


def binary_digest(asm: Any) -> dict:
    """{"ptx_sha256": ...} for a kernel the JIT compiled, else nothing."""
    if isinstance(asm, dict) and "ptx" in asm:
        return {"ptx_sha256": hashlib.sha256(asm["ptx"].encode()).hexdigest()}
    return {}


def default_stream_handle(device: int) -> int:
    """The device's default stream as the driver names it; 0 when torch cannot tell."""
    try:
        import torch
        return torch.cuda.default_stream(device).cuda_stream
    except Exception:
        return 0
