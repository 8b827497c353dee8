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
