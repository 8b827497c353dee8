"""GPU tests launch kernels; without torch and a CUDA device every test here is skipped."""
import importlib.util

import pytest


def _has_cuda_gpu() -> bool:
    if importlib.util.find_spec("torch") is None:
        return False
    import torch
    return torch.cuda.is_available()


def pytest_collection_modifyitems(config, items):
    if _has_cuda_gpu():
        return
    skip = pytest.mark.skip(reason="needs torch and an NVIDIA GPU")
    for item in items:
        if "tests/gpu/" in str(item.fspath):
            item.add_marker(skip)
