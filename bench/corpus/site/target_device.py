"""Lets a corpus library be imported on a machine without a GPU driver.

flag_gems asks torch for the device's name and properties while it is imported (its tuned config
cache is keyed by them), which raises without a driver. `pretend_target_device()` answers as the
compile target (an H200, sm_90) would. Nothing is ever launched: the corpus only compiles.
"""
from __future__ import annotations

import types


def pretend_target_device() -> None:
    import torch
    if torch.cuda.is_available():
        return
    props = types.SimpleNamespace(name="NVIDIA H200", major=9, minor=0, multi_processor_count=132,
                                  total_memory=141 * 2**30, L2_cache_size=60 * 2**20)
    torch.cuda.get_device_name = lambda *args, **kwargs: props.name
    torch.cuda.get_device_capability = lambda *args, **kwargs: (props.major, props.minor)
    torch.cuda.get_device_properties = lambda *args, **kwargs: props
    torch.cuda.device_count = lambda: 1
    torch.cuda.current_device = lambda: 0
    # Library ops enter `torch.cuda.device(x.device)` around their launches; under capture the
    # tensors live on the CPU and the launch is only recorded, so the context does nothing.
    torch.cuda.device = _NoDevice


class _NoDevice:
    def __init__(self, device=None):
        self.idx = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def pretend_active_driver() -> None:
    """Answers Triton's `driver.active` as the sm_90 target for library code that asks it for the
    device (fla sizes its grids by the SM count) while drive_ops.py records launches on CPU
    tensors. Only the capture uses it: compiles name their target and never need a driver."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.runtime import driver
    props = {"max_shared_mem": 232448, "multiprocessor_count": 132, "max_num_regs": 65536,
             "warpSize": 32, "sm_clock_rate": 1980000, "mem_clock_rate": 3201000,
             "mem_bus_width": 6144}
    utils = types.SimpleNamespace(get_device_properties=lambda *args, **kwargs: dict(props))
    fake = types.SimpleNamespace(get_current_target=lambda: GPUTarget("cuda", 90, 32),
                                 get_current_device=lambda: 0, set_current_device=lambda *a: None,
                                 get_current_stream=lambda *a: 0, utils=utils,
                                 get_active_torch_device=lambda: __import__("torch").device("cpu"))
    driver.set_active(fake)
    assert triton.runtime.driver.active is fake
