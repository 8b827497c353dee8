"""Drawing inputs for float8 tasks. Torch has few float8 kernels: `any` fails on CUDA ("or_cuda
not implemented", seen on an H200 with torch 2.11) and `randn_like` (normal_) fails on the CPU
too, so draw_inputs widens float8 tensors before checking them and draws in float32."""
from __future__ import annotations

import importlib.util
import types

import pytest

if importlib.util.find_spec("torch") is None:
    pytest.skip("torch is not installed: input drawing needs it (pip install torch)",
                allow_module_level=True)

import torch  # noqa: E402

from strata_agent.task_loader import FLOAT8_DTYPES, Task, draw_inputs, widened  # noqa: E402

FLOAT8 = [dtype for dtype in (getattr(torch, "float8_e4m3fn", None),
                              getattr(torch, "float8_e5m2", None)) if dtype is not None]


def task_with_inputs(make_inputs) -> Task:
    module = types.ModuleType("fp8_task")
    module.get_inputs = make_inputs
    return Task("fp8_task.py", module, {})


@pytest.mark.parametrize("dtype", FLOAT8, ids=str)
def test_all_zero_float8_input_is_redrawn_in_its_own_dtype(dtype):
    task = task_with_inputs(lambda: [torch.zeros(4, 8, dtype=dtype),
                                     torch.full((1,), 0.5)])
    groups, notes = draw_inputs(task, seed=3)
    redrawn = groups[0][0]
    assert redrawn.dtype == dtype and redrawn.shape == (4, 8)
    assert bool(redrawn.float().any())
    assert notes == ["input 0 was all zeros; redrawn with randn"]


@pytest.mark.parametrize("dtype", FLOAT8, ids=str)
def test_nonzero_float8_input_is_kept(dtype):
    original = torch.arange(1, 9, dtype=torch.float32).to(dtype)
    task = task_with_inputs(lambda: [original.clone()])
    groups, notes = draw_inputs(task, seed=3)
    assert notes == []
    assert torch.equal(groups[0][0].float(), original.float())


def test_any_on_float8_goes_through_the_widened_copy(monkeypatch):
    """Stands in for CUDA, where Tensor.any has no float8 kernel: draw_inputs must not call it
    on the float8 tensor itself."""
    real_any = torch.Tensor.any

    def any_without_float8(self, *args, **kwargs):
        if self.dtype in FLOAT8_DTYPES:
            raise NotImplementedError(f'"or_cuda" not implemented for {self.dtype}')
        return real_any(self, *args, **kwargs)

    monkeypatch.setattr(torch.Tensor, "any", any_without_float8)
    task = task_with_inputs(lambda: [torch.zeros(3, dtype=FLOAT8[0]), torch.ones(3)])
    groups, notes = draw_inputs(task, seed=1)
    assert len(notes) == 1 and groups[0][0].dtype == FLOAT8[0]


def test_widened_leaves_other_dtypes_alone():
    half = torch.ones(2, dtype=torch.float16)
    assert widened(half) is half
    assert widened(torch.ones(2, dtype=FLOAT8[0])).dtype == torch.float32
